// The one arbiter of a multiprocessor's shared resources: its buses, its memory modules and its
// interrupt bus (modeling rule 5). A requester asks for a set of resources at once and holds all of
// them from its grant to its release. Requests are served first-come, first-served per resource:
// ordered by arrival cycle, then processor id, and a request never overtakes an earlier one on a
// resource they both want. So an omp module M(i,j) wanted by P(i) on RB(i) and by P(j) on CB(j)
// serves one of them at a time ([PH91] section 3.1), and the second one's wait is a conflict.
//
// Decisions are made in a delta cycle after the requests, so that every request of a cycle made in
// the same delta is decided together, independently of process order.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sw/arch/architecture.hpp"
#include "traces/stats.hpp"

namespace orthosim::sc {

using ResourceId = std::uint32_t;

class ResourceArbiter : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ResourceArbiter);
  ResourceArbiter(const sc_core::sc_module_name& name, std::vector<std::string> resource_names,
                  const ClockDomain& clock, traces::StatsRegistry& stats);

  /// Asks for every resource in `resources` for `requester`; `grantee.granted()` is called once
  /// all are held. A requester has at most one request outstanding.
  void request(sw::ProcId requester, const std::vector<ResourceId>& resources, Grantee& grantee);
  /// Frees resources held since a grant.
  void release(const std::vector<ResourceId>& resources);

  /// Drops every request and hold: between runs, after a deadlock left requests waiting.
  void reset();

  /// Figures of grants made elsewhere: with memory = rtl the module array arbitrates the buses
  /// and modules (sc::RtlMemory) and its counters go into these statistics.
  void count(std::uint64_t grants, std::uint64_t conflicts, std::uint64_t wait_cycles) {
    grants_ += grants;
    conflicts_ += conflicts;
    conflict_wait_cycles_ += wait_cycles;
  }

  /// Requests that waited for a resource, and their waiting cycles, since elaboration.
  [[nodiscard]] std::uint64_t conflicts() const { return conflicts_; }
  [[nodiscard]] std::uint64_t conflict_wait_cycles() const { return conflict_wait_cycles_; }

  /// What `requester` is waiting for, or "" if it has no pending request.
  [[nodiscard]] std::string describe_wait(sw::ProcId requester) const;

 private:
  struct Pending {
    Cycle arrival;
    sw::ProcId requester;
    std::vector<ResourceId> resources;
    Grantee* grantee;
  };

  void arbitrate();

  const ClockDomain& clock_;
  std::vector<std::string> names_;
  std::vector<bool> busy_;
  std::vector<const Grantee*> holder_;  ///< [resource]: who holds it (named only in reports)
  std::vector<Pending> pending_;
  // arbitrate()'s scratch, kept so that a pass allocates nothing: the resources an earlier,
  // still waiting request is queued for, the requests granted and those still waiting, and the
  // resource lists of granted requests, for the next requests to fill.
  std::vector<bool> claimed_;
  std::vector<Pending> granted_;
  std::vector<Pending> waiting_;
  std::vector<std::vector<ResourceId>> spare_lists_;
  sc_core::sc_event ev_arbitrate_;

  std::uint64_t grants_ = 0;
  std::uint64_t activations_ = 0;
  std::uint64_t conflicts_ = 0;
  std::uint64_t conflict_wait_cycles_ = 0;
};

}  // namespace orthosim::sc
