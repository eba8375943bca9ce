// Fan-out of recorder calls with per-target source ids.
#include "traces/fanout_recorder.hpp"

namespace orthosim::traces {

bool FanoutRecorder::enabled() const {
  for (const Recorder* r : targets_) {
    if (r->enabled()) {
      return true;
    }
  }
  return false;
}

SourceId FanoutRecorder::register_source(const std::string& path, SourceKind kind) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    ids_[t].push_back(targets_[t]->register_source(path, kind));
  }
  return Recorder::register_source(path, kind);
}

void FanoutRecorder::activity(Cycle at, SourceId p, Activity what, std::uint32_t op_index) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->activity(at, ids_[t][p], what, op_index);
  }
}

void FanoutRecorder::access_begin(Cycle at, SourceId c, const AccessTrace& a) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->access_begin(at, ids_[t][c], translated(t, a));
  }
}

void FanoutRecorder::beat(Cycle at, Cycle length, SourceId c, const AccessTrace& a,
                          std::uint32_t slot, std::uint32_t address, std::uint32_t data) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->beat(at, length, ids_[t][c], translated(t, a), slot, address, data);
  }
}

void FanoutRecorder::access_end(Cycle at, SourceId c, const AccessTrace& a) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->access_end(at, ids_[t][c], translated(t, a));
  }
}

void FanoutRecorder::access(Cycle start, Cycle end, SourceId c, const AccessTrace& a) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->access(start, end, ids_[t][c], translated(t, a));
  }
}

void FanoutRecorder::interrupt_granted(Cycle at, SourceId p, Cycle requested) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->interrupt_granted(at, ids_[t][p], requested);
  }
}

void FanoutRecorder::claim(SourceId source, std::optional<Cycle> from) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->claim(ids_[t][source], from);
  }
}

void FanoutRecorder::step_mark(Cycle at, SourceId p, std::uint32_t step) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->step_mark(at, ids_[t][p], step);
  }
}

void FanoutRecorder::run_begin(Cycle at, const std::string& label) {
  for (Recorder* r : targets_) {
    r->run_begin(at, label);
  }
}

void FanoutRecorder::message(Cycle at, const MessageTrace& m) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    MessageTrace out = m;
    if (m.what == MessageEvent::Hop) {
      out.channel = ids_[t][m.channel];
    }
    targets_[t]->message(at, out);
  }
}

void FanoutRecorder::channel_vcs(SourceId channel, std::uint32_t vcs) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->channel_vcs(ids_[t][channel], vcs);
  }
}

void FanoutRecorder::channel_occupancy(Cycle at, SourceId channel, std::uint32_t vc,
                                       std::uint32_t flits) {
  for (std::size_t t = 0; t < targets_.size(); ++t) {
    targets_[t]->channel_occupancy(at, ids_[t][channel], vc, flits);
  }
}

}  // namespace orthosim::traces
