// A recorder that passes every call on to several recorders: the waveform and the event trace
// of one run (--vcd and --trace together). Each target may already know other sources (systems
// that share one file), so the fan-out keeps, per target, the target's id of each of its sources
// and translates every id it passes on.
#pragma once

#include <vector>

#include "traces/recorder.hpp"

namespace orthosim::traces {

class FanoutRecorder : public Recorder {
 public:
  /// The recorders must outlive this one.
  explicit FanoutRecorder(std::vector<Recorder*> targets)
      : targets_(std::move(targets)), ids_(targets_.size()) {}

  [[nodiscard]] bool enabled() const override;
  SourceId register_source(const std::string& path, SourceKind kind) override;
  void activity(Cycle at, SourceId p, Activity what, std::uint32_t op_index) override;
  void access_begin(Cycle at, SourceId c, const AccessTrace& a) override;
  void beat(Cycle at, Cycle length, SourceId c, const AccessTrace& a, std::uint32_t slot,
            std::uint32_t address, std::uint32_t data) override;
  void access_end(Cycle at, SourceId c, const AccessTrace& a) override;
  void access(Cycle start, Cycle end, SourceId c, const AccessTrace& a) override;
  void interrupt_granted(Cycle at, SourceId p, Cycle requested) override;
  void claim(SourceId source, std::optional<Cycle> from) override;
  void step_mark(Cycle at, SourceId p, std::uint32_t step) override;
  void run_begin(Cycle at, const std::string& label) override;
  void message(Cycle at, const MessageTrace& m) override;
  void channel_vcs(SourceId channel, std::uint32_t vcs) override;
  void channel_occupancy(Cycle at, SourceId channel, std::uint32_t vc,
                         std::uint32_t flits) override;

 private:
  [[nodiscard]] AccessTrace translated(std::size_t t, const AccessTrace& a) const {
    AccessTrace out = a;
    out.bus = ids_[t][a.bus];
    return out;
  }

  std::vector<Recorder*> targets_;
  std::vector<std::vector<SourceId>> ids_;  ///< [target][our id]: the target's id
};

}  // namespace orthosim::traces
