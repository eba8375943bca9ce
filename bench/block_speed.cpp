// Throughput of single blocks, each driven alone (no system around it). Prints figures; asserts
// nothing about time, only that the work was done (every word moved, every grant made).
//   1. IndexManipulator: interleaved reads and writes through the index memory ([PH91] section
//      3.2), word accesses per wall-clock second, n = 16 buffers of L = 256 words.
//   2. Fabric: the network model stepped cycle by cycle without the kernel, uniform random
//      messages on an 8x8 mesh and an 8x8 torus: flit-hops and router steps per second.
//   3. ResourceArbiter: grants per second with every requester contending for one module (the
//      arbiter and its grantees under the SystemC kernel, one release per cycle).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/multiprocessor/index_manipulator.hpp"
#include "sc_models/multiprocessor/interfaces.hpp"
#include "sc_models/multiprocessor/resource_arbiter.hpp"
#include "sc_models/net/fabric.hpp"
#include "sw/routed/network_config.hpp"
#include "traces/stats.hpp"

namespace {

namespace sc = orthosim::sc;
namespace sw = orthosim::sw;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- 1. index manipulator --------------------------------------------------------------------

bool index_manipulator(std::uint32_t n, std::uint32_t words, std::uint32_t rounds) {
  sc::IndexManipulator im(n, words);
  // Index set 0: position p goes to buffer (p * 5 + 3) mod n, a permutation (5 is odd, n = 16).
  sw::IndexSet set(n);
  for (std::uint32_t p = 0; p < n; ++p) {
    set[p] = (p * 5 + 3) % n;
  }
  im.load({set});
  std::uint64_t accesses = 0;
  std::uint64_t checksum = 0;
  const Clock::time_point start = Clock::now();
  for (std::uint32_t r = 0; r < rounds; ++r) {
    for (std::uint32_t v = 0; v < words; ++v) {
      for (std::uint32_t p = 0; p < n; ++p) {
        im.on_read(0, p, v, r + v + p);
      }
      for (std::uint32_t p = 0; p < n; ++p) {
        checksum += im.on_write(0, p, v);
      }
      accesses += 2u * n;
    }
  }
  const double s = seconds_since(start);
  // Every word read back is the one written at its position in the last round.
  std::uint64_t expected = 0;
  for (std::uint32_t r = 0; r < rounds; ++r) {
    for (std::uint32_t v = 0; v < words; ++v) {
      for (std::uint32_t p = 0; p < n; ++p) {
        expected += r + v + p;
      }
    }
  }
  const bool ok = checksum == expected;
  std::printf("1. index manipulator, n = %u, L = %u: %llu word accesses in %.3f s, "
              "%.0f accesses/s%s\n",
              n, words, static_cast<unsigned long long>(accesses), s,
              static_cast<double>(accesses) / s, ok ? "" : "  (WRONG WORDS)");
  return ok;
}

// ---- 3. resource arbiter ---------------------------------------------------------------------

/// Asks for one module and a bus of its own, holds them one cycle, and asks again.
class Contender : public sc_core::sc_module, public sc::Grantee {
 public:
  SC_HAS_PROCESS(Contender);
  Contender(const sc_core::sc_module_name& name, sc::ResourceArbiter& arbiter,
            const sc::ClockDomain& clock, sw::ProcId id, std::uint64_t grants)
      : sc_core::sc_module(name),
        arbiter_(arbiter),
        clock_(clock),
        id_(id),
        resources_{0, id + 1},
        left_(grants) {
    SC_THREAD(run);
  }
  void granted(sw::Cycle /*now*/) override { ev_granted_.notify(sc_core::SC_ZERO_TIME); }
  [[nodiscard]] std::string grantee_name() const override { return name(); }

 private:
  void run() {
    for (; left_ > 0; --left_) {
      arbiter_.request(id_, resources_, *this);
      sc_core::wait(ev_granted_);
      sc_core::wait(clock_.delay(sw::Cycle{1}));
      arbiter_.release(resources_);
    }
  }

  sc::ResourceArbiter& arbiter_;
  const sc::ClockDomain& clock_;
  sw::ProcId id_;
  std::vector<sc::ResourceId> resources_;
  std::uint64_t left_;
  sc_core::sc_event ev_granted_;
};

bool resource_arbiter(std::uint32_t requesters, std::uint64_t grants_each) {
  const sc::ClockDomain clock(10);
  orthosim::traces::StatsRegistry stats;
  std::vector<std::string> names = {"M0"};
  for (std::uint32_t i = 0; i < requesters; ++i) {
    names.push_back("B" + std::to_string(i));
  }
  sc::ResourceArbiter arbiter("arbiter", names, clock, stats);
  std::vector<std::unique_ptr<Contender>> contenders;
  for (std::uint32_t i = 0; i < requesters; ++i) {
    contenders.push_back(std::make_unique<Contender>(("p" + std::to_string(i)).c_str(), arbiter,
                                                     clock, i, grants_each));
  }
  const Clock::time_point start = Clock::now();
  sc_core::sc_start();
  const double s = seconds_since(start);
  const std::uint64_t grants = orthosim::traces::sum_by_leaf(stats.snapshot(), "grants");
  const std::uint64_t cycles = clock.now().count();
  // One module, held one cycle per grant: the grants follow each other back to back.
  const bool ok = grants == requesters * grants_each && cycles == grants;
  std::printf("3. resource arbiter, %u requesters on one module: %llu grants in %.3f s, "
              "%.0f grants/s%s\n",
              requesters, static_cast<unsigned long long>(grants), s,
              static_cast<double>(grants) / s, ok ? "" : "  (GRANTS MISSING)");
  return ok;
}

// ---- 2. network fabric -----------------------------------------------------------------------

/// Counts what arrives; words are not checked here (tests/sc_models do).
class CountingClient : public sc::net::FabricClient {
 public:
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return message ^ index;
  }
  void deliver_word(std::uint32_t /*message*/, std::uint32_t /*index*/,
                    sw::Word /*word*/) override {}
  void message_delivered(std::uint32_t /*message*/, sw::Cycle /*at*/) override { ++delivered; }
  std::uint64_t delivered = 0;
};

bool fabric(const char* label, const sw::Topology& topology, std::uint32_t rounds,
            std::uint32_t words) {
  sw::NetworkConfig config;
  config.topology = topology;
  config.router.vcs = sw::default_vcs(topology);
  CountingClient client;
  sc::net::Fabric network(config.validated(), client);
  std::mt19937_64 rng(1);
  const std::uint32_t nodes = topology.nodes();
  std::uniform_int_distribution<std::uint32_t> other(1, nodes - 1);
  std::uint32_t message = 0;
  sw::Cycle cycle;
  const Clock::time_point start = Clock::now();
  for (std::uint32_t r = 0; r < rounds; ++r) {
    for (std::uint32_t src = 0; src < nodes; ++src) {
      network.submit(message++, src, (src + other(rng)) % nodes, words);
    }
    for (std::optional<sw::Cycle> next = cycle; next; next = network.next_cycle(cycle)) {
      cycle = *next;
      network.begin_cycle(cycle);
    }
  }
  const double s = seconds_since(start);
  const sc::net::FabricStats& st = network.stats();
  const bool ok = client.delivered == message;
  std::printf("2. fabric, %-9s %u messages of %u words: %llu cycles, %.3f s, %.0f flit-hops/s, "
              "%.0f router steps/s%s\n",
              label, message, words, static_cast<unsigned long long>(cycle.count()), s,
              static_cast<double>(st.flit_hops) / s, static_cast<double>(st.router_steps) / s,
              ok ? "" : "  (MESSAGES LOST)");
  return ok;
}

}  // namespace

int sc_main(int /*argc*/, char* /*argv*/[]) {
  sc::init_kernel();
  std::printf("orthosim bench: single blocks, driven alone\n");
  bool ok = index_manipulator(16, 256, 2000);
  ok = fabric("mesh 8x8", sw::Topology::mesh({8, 8}), 200, 16) && ok;
  ok = fabric("torus 8x8", sw::Topology::torus({8, 8}), 200, 16) && ok;
  // Last: it runs the kernel, which a process starts once.
  ok = resource_arbiter(16, 50'000) && ok;
  if (!ok) {
    std::printf("A BLOCK FAILED ITS WORK (see the marked line)\n");
  }
  return ok ? 0 : 1;
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
