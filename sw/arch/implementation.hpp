// Which implementation of each hardware block runs (docs/architecture.md, contract "Model = RTL"): the
// SystemC model, the verilated RTL in its place, or both in lockstep with every output compared
// every cycle. Chosen per block type with `--impl` or a variant file, and passed by value to the
// systems like the rest of their configuration (modeling rule 7).
#pragma once

#include <cstdint>
#include <string>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

enum class Impl : std::uint8_t { Model, Rtl, Cosim };

/// The block types that have an RTL twin in rtl/.
enum class BlockType : std::uint8_t {
  IndexManipulator,  ///< "im": [PH91] Fig. 6, one per processor
  BusController,     ///< "bus": [PH91] Fig. 5 protocols, one per processor
  Memory,            ///< "memory": the omp's n x n modules with their arbiter
  Router,            ///< "router": the wormhole router of the multicomputers ([LCC] section 6)
  NetworkInterface,  ///< "ni": a multicomputer node's network interface ([LCC] section 6)
  // The rest of the multiprocessor (rtl/multiprocessor.sv): verilated only as one unit with im, bus
  // and memory, since they talk to each other through pins there and through calls in the
  // models (docs/rtl.md, "The whole machine in the systems").
  Processor,     ///< "processor": P(i), the machine program's sequencer, one per processor
  Sync,          ///< "sync": the interrupt bus, barriers and the IWR bus switch
  Interconnect,  ///< "interconnect": the crossbar's and single bus's buses, arbiter and modules
};
inline constexpr std::uint32_t kBlockTypes = 8;

struct Implementations {
  Impl index_manipulator = Impl::Model;
  Impl bus_controller = Impl::Model;
  Impl memory = Impl::Model;
  Impl router = Impl::Model;
  Impl network_interface = Impl::Model;
  Impl processor = Impl::Model;
  Impl sync = Impl::Model;
  Impl interconnect = Impl::Model;

  [[nodiscard]] Impl of(BlockType block) const;
  void set(BlockType block, Impl impl);
  /// Whether every block runs its model (no verilated code is involved).
  [[nodiscard]] bool all_model() const;
  /// "model", "rtl", "cosim" when all blocks agree, else
  /// "im=rtl,bus=model,memory=model,router=cosim,ni=model".
  [[nodiscard]] std::string to_string() const;

  /// Whether the whole multiprocessor runs verilated as one unit (processor = rtl or cosim).
  [[nodiscard]] bool whole_machine() const { return processor != Impl::Model; }

  /// Parses `model`, `rtl`, `cosim` (every block) or a comma list of `block=impl` with blocks
  /// im, bus, memory, router, ni, processor, sync, interconnect, each at most once (the others
  /// keep their value in `base`). Errors name `where`.
  static Implementations parse(const std::string& spec, const SourceLocation& where,
                               Implementations base);
  static Implementations parse(const std::string& spec, const SourceLocation& where);
};

[[nodiscard]] const char* to_string(Impl impl);
[[nodiscard]] const char* to_string(BlockType block);

}  // namespace orthosim::sw
