// Simulation speed of the three implementations of the verilated blocks (--impl model, rtl,
// cosim), so that a user can choose. Prints figures; asserts nothing about time.
//   1. An n = 16 omp running back-to-back IWR steps ([PH91] Eq. 1 workload, every processor
//      sends l = 8 words to each of the others): the index manipulators, bus controllers and the
//      module array as models, verilated in their place, and both in lockstep; then the whole
//      machine verilated as one unit (processors, sync unit and all, --impl rtl and cosim).
//   1c. The omp, the crossbar and the bus at n = 4 as whole systems (model, the whole machine
//      verilated, both in lockstep) on back-to-back IWR steps, d = n-1, l = 8: every processor
//      busy in every step (on the crossbar and the bus the step is a block write, a bus switch
//      and d reads of one module each, as ops of their own: sw/workload/access_workload.hpp);
//      10 runs of a program that fits the verilated processor's instruction memory.
//   2. An 8 x 8 torus at medium load (uniform traffic, 8-flit packets, 0.1 flits per node per
//      cycle, about a third of its saturation throughput): the routers as models, verilated, and
//      both in lockstep (--impl router=...), then routers and network interfaces verilated and
//      both in lockstep (--impl rtl, cosim: a node is interface plus router in RTL).
// `rtl_speed network` runs part 2 only, `rtl_speed organisations` part 1c only, `rtl_speed
// datapath` part 1 only (the per-block datapath, without 1b). All systems are
// elaborated first (SystemC elaborates once per process), then run one after another,
// alternated, best of 3; the same program gives the same cycles on every system (the bench says
// so if not).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/cosim/cosim_wiring.hpp"
#include "sc_models/cosim/rtl_network.hpp"
#include "sc_models/kernel/clock_domain.hpp"
#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sc_models/net/multicomputer.hpp"
#include "sw/arch/implementation.hpp"
#include "sw/traffic/traffic_pattern.hpp"
#include "sw/workload/access_workload.hpp"
#include "traces/recorder.hpp"

namespace {

using orthosim::sc::Multicomputer;
using orthosim::sc::Multiprocessor;
namespace sw = orthosim::sw;

constexpr std::array<sw::Impl, 3> kImpls = {sw::Impl::Model, sw::Impl::Rtl, sw::Impl::Cosim};
constexpr sw::Cycle kLimit{1'000'000'000'000ull};

struct Measured {
  double seconds = 1e30;
  std::uint64_t cycles = 0;
  bool ok = true;
};

Measured run_once(Multiprocessor& system, const sw::AccessWorkload& w) {
  system.load(sw::make_access_program(system.config(), w));
  const auto start = std::chrono::steady_clock::now();
  orthosim::sc::run_systems({&system}, kLimit);
  const auto stop = std::chrono::steady_clock::now();
  const orthosim::sw::RunSummary r = system.result();
  return {std::chrono::duration<double>(stop - start).count(), r.cycles.count(),
          r.completed && r.delivery.ok() && !r.mismatch};
}

/// `rounds` runs of one workload, timed without the loads: a program short enough for the
/// verilated processor's instruction memory, run long enough to time the model.
struct Rounds {
  sw::AccessWorkload workload;
  int rounds = 1;
};

Measured run_once(Multiprocessor& system, const Rounds& work) {
  Measured total{0, 0, true};
  for (int round = 0; round < work.rounds; ++round) {
    const Measured m = run_once(system, work.workload);
    total.seconds += m.seconds;
    total.cycles += m.cycles;
    total.ok = total.ok && m.ok;
  }
  return total;
}

Measured run_once(Multicomputer& system, const orthosim::sc::TrafficSpec& spec) {
  system.start_traffic(spec);
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const auto stop = std::chrono::steady_clock::now();
  const orthosim::sc::TrafficResult r = system.traffic_result();
  return {std::chrono::duration<double>(stop - start).count(), r.sim_cycles,
          !r.deadlocked && r.words_corrupted == 0 && r.cosim_mismatch.empty()};
}

/// Best of `trials` per system, the systems alternated.
template <typename System, typename Work>
std::vector<Measured> best_of(std::vector<std::unique_ptr<System>>& systems, const Work& work,
                              int trials) {
  std::vector<Measured> best(systems.size());
  for (int trial = 0; trial < trials; ++trial) {
    for (std::size_t i = 0; i < systems.size(); ++i) {
      const Measured m = run_once(*systems[i], work);
      const bool ok = best[i].ok && m.ok;
      best[i] = m.seconds < best[i].seconds ? m : best[i];
      best[i].ok = ok;
    }
  }
  return best;
}

void print_row(const std::string& what, const Measured& m, double model_rate) {
  const double rate = static_cast<double>(m.cycles) / m.seconds;
  std::printf("%-14s %12llu %10.3f %14.0f %12.1f%s\n", what.c_str(),
              static_cast<unsigned long long>(m.cycles), m.seconds, rate, model_rate / rate,
              m.ok ? "" : "  (RUN FAILED)");
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::string only = argc > 1 ? argv[1] : "";
  const bool network_only = only == "network";
  const bool organisations_only = only == "organisations";
  const bool datapath_only = only == "datapath";
  orthosim::sc::init_kernel();
  orthosim::traces::Recorder silent;
  constexpr std::uint32_t n = 16;
  constexpr std::uint32_t l = 8;
  constexpr std::uint32_t steps = 100;
  constexpr int trials = 3;

  std::vector<std::unique_ptr<Multiprocessor>> omps;
  std::vector<std::unique_ptr<Multiprocessor>> machines;  // model, rtl, cosim (whole machine)
  for (sw::Impl impl : kImpls) {
    sw::SystemConfig c;
    c.n = n;
    c.impl.index_manipulator = impl;
    c.impl.bus_controller = impl;
    c.impl.memory = impl;
    omps.push_back(
        std::make_unique<Multiprocessor>((std::string("omp_") + sw::to_string(impl)).c_str(),
                                         c.validated(), silent,
                                         std::make_unique<orthosim::sc::CosimWiring>()));
    c.impl.processor = impl;
    c.impl.sync = impl;
    machines.push_back(
        std::make_unique<Multiprocessor>((std::string("machine_") + sw::to_string(impl)).c_str(),
                                         c.validated(), silent,
                                         std::make_unique<orthosim::sc::CosimWiring>()));
  }
  // The three organisations at n = 4 as whole systems: per organisation model, rtl, cosim.
  constexpr std::uint32_t small_n = 4;
  constexpr sw::Arch kArchs[] = {sw::Arch::Omp, sw::Arch::Crossbar, sw::Arch::Bus};
  std::vector<std::vector<std::unique_ptr<Multiprocessor>>> organisations;
  for (sw::Arch arch : kArchs) {
    organisations.emplace_back();
    for (sw::Impl impl : kImpls) {
      sw::SystemConfig c;
      c.arch = arch;
      c.n = small_n;
      c.impl.index_manipulator = impl;
      c.impl.bus_controller = impl;
      (arch == sw::Arch::Omp ? c.impl.memory : c.impl.interconnect) = impl;
      c.impl.processor = impl;
      c.impl.sync = impl;
      organisations.back().push_back(std::make_unique<Multiprocessor>(
          (sw::to_string(arch) + "4_" + sw::to_string(impl)).c_str(), c.validated(), silent,
          std::make_unique<orthosim::sc::CosimWiring>()));
    }
  }
  // The routers alone (router=model|rtl|cosim), then routers and interfaces (rtl, cosim).
  std::vector<std::unique_ptr<Multicomputer>> tori;
  std::vector<std::string> torus_rows;
  for (std::size_t k = 0; k < kImpls.size() + 2; ++k) {
    const bool nodes = k >= kImpls.size();
    const sw::Impl impl = nodes ? kImpls[k - kImpls.size() + 1] : kImpls[k];
    sw::NetworkConfig c;
    c.topology = sw::Topology::torus({8, 8});
    c.router.vcs = sw::default_vcs(c.topology);
    c.router.buffer_flits = 4;
    c.impl.router = impl;
    c.impl.network_interface = nodes ? impl : sw::Impl::Model;
    torus_rows.push_back(std::string(sw::to_string(impl)) + (nodes ? "+ni" : ""));
    tori.push_back(std::make_unique<Multicomputer>(("torus_" + std::to_string(k)).c_str(),
                                                   c.validated(), silent,
                                                   orthosim::sc::net::verilated_routers(nullptr)));
  }

  const bool part1 = !network_only && !organisations_only;
  const sw::AccessWorkload w{sw::WorkloadKind::Iwr, n - 1, l, steps};
  const std::vector<Measured> omp = part1 ? best_of(omps, w, trials) : std::vector<Measured>{};
  const std::vector<Measured> machine =
      part1 && !datapath_only ? best_of(machines, w, trials) : std::vector<Measured>{};
  // As many steps as the crossbar's and the bus's programs (about 11 instructions a step) fit
  // in the verilated processor's 4096 instructions.
  constexpr std::uint32_t small_steps = 300;
  constexpr int rounds = 10;
  const Rounds small_w{{sw::WorkloadKind::Iwr, small_n - 1, l, small_steps}, rounds};
  std::vector<std::vector<Measured>> organisation;
  if (!network_only && !datapath_only) {
    for (auto& systems : organisations) {
      organisation.push_back(best_of(systems, small_w, trials));
    }
  }

  const sw::Topology torus = tori[0]->config().topology;
  orthosim::sc::TrafficSpec spec =
      orthosim::sc::traffic_of(sw::parse_traffic_pattern("uniform", torus), torus);
  spec.rate = 0.1;
  spec.flits = 8;
  spec.warmup = 200;
  spec.cycles = 2000;
  const std::vector<Measured> network =
      organisations_only || datapath_only ? std::vector<Measured>{} : best_of(tori, spec, trials);

  std::printf("orthosim bench: model, rtl and cosim (--impl), best of %d, alternated\n\n", trials);
  bool ok = true;
  const auto table = [&ok](const std::vector<Measured>& best,
                           const std::vector<std::string>& rows) {
    const double model_rate = static_cast<double>(best[0].cycles) / best[0].seconds;
    for (std::size_t i = 0; i < best.size(); ++i) {
      print_row(rows[i], best[i], model_rate);
      ok = ok && best[i].ok && best[i].cycles == best[0].cycles;
    }
  };
  if (part1) {
    std::printf("1. omp, n = %u, %u back-to-back IWR steps, d = n-1, l = %u "
                "(index manipulators, bus controllers, module array)\n",
                n, steps, l);
    std::printf("%-14s %12s %10s %14s %12s\n", "impl", "sim cycles", "wall s", "cycles/s",
                "x model");
    table(omp, {"model", "rtl", "cosim"});
    if (datapath_only) {
      std::printf("\n");
      return ok ? 0 : 1;
    }
    std::printf("\n1b. the same, the whole machine verilated as one unit (processors, sync unit, "
                "controllers, index manipulators, module array: --impl rtl, cosim)\n");
    std::printf("%-14s %12s %10s %14s %12s\n", "impl", "sim cycles", "wall s", "cycles/s",
                "x model");
    table(machine, {"model", "rtl", "cosim"});
    std::printf("\n");
  }
  if (!network_only) {
    std::printf("1c. omp, crossbar and bus, n = %u, %u back-to-back IWR steps, d = n-1, l = %u, "
                "run %d times, as whole systems (model; the whole machine verilated: --impl rtl, "
                "cosim)\n",
                small_n, small_steps, l, rounds);
    std::printf("%-14s %12s %10s %14s %12s\n", "impl", "sim cycles", "wall s", "cycles/s",
                "x model");
    for (std::size_t a = 0; a < organisation.size(); ++a) {
      const std::string arch = sw::to_string(kArchs[a]);
      table(organisation[a], {arch + " model", arch + " rtl", arch + " cosim"});
    }
    std::printf("\n");
  }
  if (organisations_only) {
    return ok ? 0 : 1;
  }
  std::printf("2. torus 8x8, uniform traffic at %.2f flits/node/cycle, %u-flit packets, "
              "%llu + %llu cycles, drained (routers; +ni: routers and interfaces)\n",
              spec.rate, spec.flits, static_cast<unsigned long long>(spec.warmup),
              static_cast<unsigned long long>(spec.cycles));
  std::printf("%-14s %12s %10s %14s %12s\n", "impl", "sim cycles", "wall s", "cycles/s", "x model");
  table(network, torus_rows);
  if (!ok) {
    std::printf("(the implementations disagree: see the failed rows or the cycle counts)\n");
  }
  return ok ? 0 : 1;
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
