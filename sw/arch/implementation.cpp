// Parsing and naming of block implementations (`--impl`).
#include "sw/arch/implementation.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace orthosim::sw {

namespace {

constexpr std::array<BlockType, kBlockTypes> kAllBlocks = {BlockType::IndexManipulator,
                                                           BlockType::BusController,
                                                           BlockType::Memory,
                                                           BlockType::Router,
                                                           BlockType::NetworkInterface,
                                                           BlockType::Processor,
                                                           BlockType::Sync,
                                                           BlockType::Interconnect};

std::optional<Impl> impl_named(const std::string& text) {
  for (Impl i : {Impl::Model, Impl::Rtl, Impl::Cosim}) {
    if (text == to_string(i)) {
      return i;
    }
  }
  return std::nullopt;
}

std::optional<BlockType> block_named(const std::string& text) {
  for (BlockType b : kAllBlocks) {
    if (text == to_string(b)) {
      return b;
    }
  }
  return std::nullopt;
}

}  // namespace

const char* to_string(Impl impl) {
  switch (impl) {
    case Impl::Model:
      return "model";
    case Impl::Rtl:
      return "rtl";
    case Impl::Cosim:
      return "cosim";
  }
  return "?";
}

const char* to_string(BlockType block) {
  switch (block) {
    case BlockType::IndexManipulator:
      return "im";
    case BlockType::BusController:
      return "bus";
    case BlockType::Memory:
      return "memory";
    case BlockType::Router:
      return "router";
    case BlockType::NetworkInterface:
      return "ni";
    case BlockType::Processor:
      return "processor";
    case BlockType::Sync:
      return "sync";
    case BlockType::Interconnect:
      return "interconnect";
  }
  return "?";
}

Impl Implementations::of(BlockType block) const {
  switch (block) {
    case BlockType::IndexManipulator:
      return index_manipulator;
    case BlockType::BusController:
      return bus_controller;
    case BlockType::Memory:
      return memory;
    case BlockType::Router:
      return router;
    case BlockType::NetworkInterface:
      return network_interface;
    case BlockType::Processor:
      return processor;
    case BlockType::Sync:
      return sync;
    case BlockType::Interconnect:
      return interconnect;
  }
  return Impl::Model;
}

void Implementations::set(BlockType block, Impl impl) {
  switch (block) {
    case BlockType::IndexManipulator:
      index_manipulator = impl;
      break;
    case BlockType::BusController:
      bus_controller = impl;
      break;
    case BlockType::Memory:
      memory = impl;
      break;
    case BlockType::Router:
      router = impl;
      break;
    case BlockType::NetworkInterface:
      network_interface = impl;
      break;
    case BlockType::Processor:
      processor = impl;
      break;
    case BlockType::Sync:
      sync = impl;
      break;
    case BlockType::Interconnect:
      interconnect = impl;
      break;
  }
}

bool Implementations::all_model() const {
  for (BlockType b : kAllBlocks) {
    if (of(b) != Impl::Model) {
      return false;
    }
  }
  return true;
}

std::string Implementations::to_string() const {
  bool uniform = true;
  for (BlockType b : kAllBlocks) {
    uniform = uniform && of(b) == index_manipulator;
  }
  if (uniform) {
    return sw::to_string(index_manipulator);
  }
  std::string s;
  for (BlockType b : kAllBlocks) {
    s += (s.empty() ? "" : ",") + std::string(sw::to_string(b)) + "=" + sw::to_string(of(b));
  }
  return s;
}

Implementations Implementations::parse(const std::string& spec, const SourceLocation& where,
                                       Implementations base) {
  const char* expected_impl = "model, rtl or cosim";
  if (const std::optional<Impl> all = impl_named(spec)) {
    for (BlockType b : kAllBlocks) {
      base.set(b, *all);
    }
    return base;
  }
  if (spec.find('=') == std::string::npos) {
    // Examples a user can copy: each is a valid choice (im=rtl with bus=model is not).
    throw InputError(where,
                     std::string(expected_impl) +
                         ", or block=impl pairs such as bus=rtl,im=model or router=rtl,ni=model",
                     "'" + spec + "'");
  }
  // A block named twice is a typo or a contradiction, never a choice: refuse it rather than let
  // the last one win silently.
  std::array<bool, kBlockTypes> named{};
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      throw InputError(where, "block=impl", "'" + item + "' in '" + spec + "'");
    }
    const std::optional<BlockType> block = block_named(item.substr(0, eq));
    if (!block) {
      throw InputError(where,
                       "a block im, bus, memory, router, ni, processor, sync or interconnect",
                       "'" + item.substr(0, eq) + "' in '" + spec + "'");
    }
    const std::optional<Impl> impl = impl_named(item.substr(eq + 1));
    if (!impl) {
      throw InputError(where, expected_impl, "'" + item.substr(eq + 1) + "' in '" + spec + "'");
    }
    bool& seen = named.at(static_cast<std::size_t>(*block));
    if (seen) {
      throw InputError(where, "each block once",
                       "'" + item.substr(0, eq) + "' again in '" + spec + "'");
    }
    seen = true;
    base.set(*block, *impl);
    start = comma + 1;
  }
  return base;
}

Implementations Implementations::parse(const std::string& spec, const SourceLocation& where) {
  return parse(spec, where, Implementations{});
}

}  // namespace orthosim::sw
