// Barriers, bus switches and sync tokens.
#include "sc_models/multiprocessor/sync_unit.hpp"

#include <algorithm>
#include <stdexcept>

namespace orthosim::sc {

SyncUnit::SyncUnit(const std::string& name, std::uint32_t n, traces::StatsRegistry& stats) : n_(n) {
  reset();
  stats.add(name + ".barriers", &barriers_, "barriers", "barriers completed");
  stats.add(name + ".bus_switches", &bus_switches_, "switches", "IWR bus switches completed");
  stats.add(name + ".syncs_delivered", &syncs_delivered_, "interrupts",
            "activate-sync interrupts delivered (one per target)");
}

void SyncUnit::reset() {
  open_.clear();
  tokens_.assign(n_, std::vector<std::uint32_t>(n_, 0));
  waiting_for_.assign(n_, -1);
}

void SyncUnit::arrive(Rendezvous kind, sw::ProcId p, const sw::ProcSet& group,
                      Cycle release_delay) {
  Episode& e = open_[{kind, group}];
  e.group = group;
  if (std::find(e.arrived.begin(), e.arrived.end(), p) != e.arrived.end()) {
    throw std::logic_error("P" + std::to_string(p) + " arrived twice at " + group.to_string());
  }
  e.arrived.push_back(p);
  if (e.arrived.size() < group.size()) {
    return;
  }
  ++(kind == Rendezvous::Barrier ? barriers_ : bus_switches_);
  for (sw::ProcId member : group.members()) {
    processors_.at(member)->resume_after(release_delay);
  }
  open_.erase({kind, group});
}

void SyncUnit::deliver(sw::ProcId source, const sw::ProcSet& targets) {
  for (sw::ProcId t : targets.members()) {
    ++tokens_[t][source];
    ++syncs_delivered_;
    if (waiting_for_[t] == static_cast<std::int64_t>(source)) {
      waiting_for_[t] = -1;
      processors_.at(t)->resume_after(Cycle{0});
    }
  }
}

bool SyncUnit::try_consume(sw::ProcId self, sw::ProcId source) {
  if (tokens_[self][source] == 0) {
    return false;
  }
  --tokens_[self][source];
  return true;
}

void SyncUnit::wait(sw::ProcId self, sw::ProcId source) { waiting_for_[self] = source; }

std::string SyncUnit::describe_wait(sw::ProcId p) const {
  if (waiting_for_[p] >= 0) {
    return "waits for activate-sync from P" + std::to_string(waiting_for_[p]);
  }
  for (const auto& [key, e] : open_) {
    if (std::find(e.arrived.begin(), e.arrived.end(), p) == e.arrived.end()) {
      continue;
    }
    std::string missing;
    for (sw::ProcId m : e.group.members()) {
      if (std::find(e.arrived.begin(), e.arrived.end(), m) == e.arrived.end()) {
        missing += (missing.empty() ? "P" : ", P") + std::to_string(m);
      }
    }
    return std::string("waits at ") +
           (key.first == Rendezvous::Barrier ? "barrier " : "IWR bus switch ") +
           e.group.to_string() + " for " + missing;
  }
  return "";
}

}  // namespace orthosim::sc
