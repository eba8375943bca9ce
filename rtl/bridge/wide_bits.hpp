// Fields of a verilated port, wide (VlWide: words of 32 bits, bit 0 first) or not (an integer):
// the bridges read and write flits and per-channel fields through these. Include it after the
// generated V*.h headers (toolchain fact 4): only rtl/bridge/*.cpp do.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "rtl/bridge/router_network_rtl.hpp"

namespace orthosim::rtl::bridge {

/// Bits [lo, lo + width) of port value `w`, width <= 64.
template <class Port>
std::uint64_t bits_of(const Port& w, std::uint32_t lo, std::uint32_t width) {
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  if constexpr (std::is_integral_v<Port>) {
    return (static_cast<std::uint64_t>(w) >> lo) & mask;
  } else {
    constexpr std::uint32_t kWord = 32;
    std::uint64_t v = 0;
    for (std::uint32_t done = 0; done < width;) {
      const std::uint32_t bit = lo + done;
      const std::uint32_t off = bit % kWord;
      const std::uint32_t take = std::min(kWord - off, width - done);
      v |= ((std::uint64_t{w.at(bit / kWord)} >> off) & ((std::uint64_t{1} << take) - 1)) << done;
      done += take;
    }
    return v;
  }
}

/// Sets bits [lo, lo + width) of port value `w` to `v`, width <= 64.
template <class Port>
void set_bits(Port& w, std::uint32_t lo, std::uint32_t width, std::uint64_t v) {
  if constexpr (std::is_integral_v<Port>) {
    const std::uint64_t mask = (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1)
                               << lo;
    w = static_cast<Port>((static_cast<std::uint64_t>(w) & ~mask) | ((v << lo) & mask));
  } else {
    constexpr std::uint32_t kWord = 32;
    for (std::uint32_t done = 0; done < width;) {
      const std::uint32_t bit = lo + done;
      const std::uint32_t off = bit % kWord;
      const std::uint32_t take = std::min(kWord - off, width - done);
      const std::uint64_t mask = ((std::uint64_t{1} << take) - 1) << off;
      auto& word = w.at(bit / kWord);
      word = static_cast<std::uint32_t>((word & ~mask) | (((v >> done) << off) & mask));
      done += take;
    }
  }
}

/// Flit k of a port of flits {tail, head, data} (router.sv's and network_interface.sv's FW = 66).
template <class Bus>
RouterFlit flit_at(const Bus& bus, std::uint32_t k) {
  const std::uint32_t lo = k * (kFlitDataBits + 2);
  const std::uint64_t marks = bits_of(bus, lo + kFlitDataBits, 2);
  return {(marks & 1U) != 0, (marks & 2U) != 0, bits_of(bus, lo, kFlitDataBits)};
}

template <class Bus>
void put_flit(Bus& bus, std::uint32_t k, const RouterFlit& f) {
  const std::uint32_t lo = k * (kFlitDataBits + 2);
  set_bits(bus, lo, kFlitDataBits, f.data);
  set_bits(bus, lo + kFlitDataBits, 2, (f.head ? 1U : 0U) | (f.tail ? 2U : 0U));
}

}  // namespace orthosim::rtl::bridge
