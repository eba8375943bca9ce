// First-come, first-served multi-resource arbitration.
#include "sc_models/multiprocessor/resource_arbiter.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace orthosim::sc {

ResourceArbiter::ResourceArbiter(const sc_core::sc_module_name& name,
                                 std::vector<std::string> resource_names, const ClockDomain& clock,
                                 traces::StatsRegistry& stats)
    : sc_core::sc_module(name),
      clock_(clock),
      names_(std::move(resource_names)),
      busy_(names_.size(), false),
      holder_(names_.size(), nullptr) {
  SC_METHOD(arbitrate);
  sensitive << ev_arbitrate_;
  dont_initialize();
  const std::string base = sc_core::sc_module::name();
  stats.add(base + ".grants", &grants_, "accesses", "resource sets granted");
  stats.add(base + ".activations", &activations_, "activations",
            "arbitration passes (only when a request or a release happened)");
  stats.add(base + ".conflicts", &conflicts_, "accesses",
            "requests that had to wait for a bus or a module held by another processor");
  stats.add(base + ".conflict_wait_cycles", &conflict_wait_cycles_, "cycles",
            "cycles requests spent waiting for held resources");
}

void ResourceArbiter::request(sw::ProcId requester, const std::vector<ResourceId>& resources,
                              Grantee& grantee) {
  for (ResourceId r : resources) {
    if (r >= names_.size()) {
      throw std::logic_error(std::string(name()) + ": no resource " + std::to_string(r));
    }
  }
  std::vector<ResourceId> list;
  if (!spare_lists_.empty()) {
    list = std::move(spare_lists_.back());
    spare_lists_.pop_back();
  }
  list.assign(resources.begin(), resources.end());
  pending_.push_back({clock_.now(), requester, std::move(list), &grantee});
  ev_arbitrate_.notify(sc_core::SC_ZERO_TIME);
}

void ResourceArbiter::release(const std::vector<ResourceId>& resources) {
  for (ResourceId r : resources) {
    if (!busy_[r]) {
      throw std::logic_error(std::string(name()) + ": release of free resource " + names_[r] +
                             " at cycle " + std::to_string(clock_.now().count()));
    }
    busy_[r] = false;
    holder_[r] = nullptr;
  }
  ev_arbitrate_.notify(sc_core::SC_ZERO_TIME);
}

void ResourceArbiter::arbitrate() {
  ++activations_;
  const auto earlier = [](const Pending& a, const Pending& b) {
    return std::tie(a.arrival, a.requester) < std::tie(b.arrival, b.requester);
  };
  // Requests arrive in time order, so the list is usually sorted already (a stable sort would
  // leave it as it is).
  if (!std::is_sorted(pending_.begin(), pending_.end(), earlier)) {
    std::stable_sort(pending_.begin(), pending_.end(), earlier);
  }
  const Cycle now = clock_.now();
  // Resources an earlier, still waiting request is queued for: later requests may not take them.
  claimed_.assign(names_.size(), false);
  for (Pending& p : pending_) {
    const bool free = std::all_of(p.resources.begin(), p.resources.end(),
                                  [&](ResourceId r) { return !busy_[r] && !claimed_[r]; });
    if (!free) {
      for (ResourceId r : p.resources) {
        claimed_[r] = true;
      }
      waiting_.push_back(std::move(p));
      continue;
    }
    for (ResourceId r : p.resources) {
      busy_[r] = true;
      holder_[r] = p.grantee;
    }
    ++grants_;
    if (p.arrival < now) {
      ++conflicts_;
      conflict_wait_cycles_ += (now - p.arrival).count();
    }
    granted_.push_back(std::move(p));
  }
  pending_.swap(waiting_);
  waiting_.clear();
  // Grantees run after the bookkeeping, in the same deterministic order.
  for (Pending& p : granted_) {
    p.grantee->granted(now);
  }
  for (Pending& p : granted_) {
    spare_lists_.push_back(std::move(p.resources));
  }
  granted_.clear();
}

void ResourceArbiter::reset() {
  pending_.clear();
  busy_.assign(names_.size(), false);
  std::fill(holder_.begin(), holder_.end(), nullptr);
}

std::string ResourceArbiter::describe_wait(sw::ProcId requester) const {
  for (const Pending& p : pending_) {
    if (p.requester != requester) {
      continue;
    }
    std::string s = p.grantee->grantee_name() + " waits since cycle " +
                    std::to_string(p.arrival.count()) + " for";
    for (ResourceId r : p.resources) {
      s += " " + names_[r];
      if (busy_[r]) {
        s += " (held by " + holder_[r]->grantee_name() + ")";
      }
    }
    return s;
  }
  return "";
}

}  // namespace orthosim::sc
