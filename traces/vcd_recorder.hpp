// A recorder that writes the activity of a shared-memory system as a VCD waveform:
//   <system>.p<i>:   op (Activity code), pc (op index)
//   <system>.bc<i>:  mode (0 idle, 1 row, 2 column), bus, rw (1 = write), sel (module slot),
//                    addr, data, valid
//   <system>.<bus>:  busy, master (the processor driving it)
//   <net>.r(x,y).<port>.vc<k>: occupancy (flits in virtual channel k of the input buffer that
//                    the router output port feeds)
// Times are nanoseconds: cycle x clock period. docs/waveforms.md lists the signals and codes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/gtkw.hpp"
#include "traces/recorder.hpp"
#include "traces/vcd_writer.hpp"

namespace orthosim::traces {

class VcdRecorder : public Recorder {
 public:
  /// Throws std::runtime_error if the file cannot be written.
  VcdRecorder(const std::string& path, std::uint32_t clock_period_ns);

  [[nodiscard]] bool enabled() const override { return true; }

  void activity(Cycle at, SourceId processor, Activity what, std::uint32_t op_index) override;
  void access_begin(Cycle at, SourceId controller, const AccessTrace& a) override;
  void beat(Cycle at, Cycle length, SourceId controller, const AccessTrace& a, std::uint32_t slot,
            std::uint32_t address, std::uint32_t data) override;
  void access_end(Cycle at, SourceId controller, const AccessTrace& a) override;
  /// Throws std::logic_error once signals are declared (after the first change).
  void channel_vcs(SourceId channel, std::uint32_t vcs) override;
  void channel_occupancy(Cycle at, SourceId channel, std::uint32_t vc,
                         std::uint32_t flits) override;

  /// Ends the dump at `end` and puts the file in place, and its GTKWave save file beside it
  /// (traces/gtkw.hpp) unless the dump went to a device or FIFO.
  void finish(Cycle end);

 private:
  struct Signals {
    std::vector<VcdWriter::VarId> vars;  ///< in the order of the kind's signal list
    std::vector<GtkwSignal> shown;       ///< the same, as the save file names them
  };
  /// The save file's groups: per system its buses, processors and bus controllers (each kind
  /// where its first block was built), then one group per router with its ports.
  [[nodiscard]] std::vector<GtkwGroup> gtkw_groups() const;
  void declare_once();
  [[nodiscard]] std::uint64_t ns(Cycle c) const { return c.count() * period_ns_; }
  void set(Cycle at, SourceId source, std::size_t signal, std::uint64_t value);

  VcdWriter writer_;
  GtkwFile gtkw_;
  std::uint32_t period_ns_;
  bool declared_ = false;
  std::vector<Signals> signals_;    ///< per source
  std::vector<std::uint32_t> vcs_;  ///< per source: virtual channels of a channel source
};

}  // namespace orthosim::traces
