// The whole multiprocessor as one verilated unit (rtl/multiprocessor.sv through
// rtl::MultiprocessorRtl) on the omp, the crossbar and the single bus: hand-encoded programs whose
// cycles are worked out below from [PH91] and the model's rules, and whose words are read back
// from the local memories and the modules.
//   * an access granted in G ends in G + D, D = alpha + beta (l - 1) + d tau l (Fig. 5);
//   * an IWR step without contention takes 2D + gamma: Eq. (1) of [PH91] (with gamma = 0 there);
//   * a compute of c cycles ends c cycles after it starts; copies and compute 0 take none;
//   * requests for one resource are served first come, ties to the lower id, the next one granted
//     in the holder's done cycle;
//   * a barrier (bus switch) whose last member arrives in t releases all in t + barrier
//     (t + gamma); an activate-sync granted in G delivers in G + activate; a wait-sync ends when
//     its token is there.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "rtl/bridge/fst_trace.hpp"
#include "rtl/bridge/multiprocessor_rtl.hpp"
#include "rtl/limits.hpp"

namespace orthosim::rtl {
namespace {

using Code = RtlOp::Code;

RtlOp compute(std::uint64_t c) {
  RtlOp op;
  op.code = Code::Compute;
  op.cycles = c;
  return op;
}
/// An access of the slots `slots` (d = slots.size()), l vectors from `address`, index set 0.
RtlOp access(bool write, bool col, std::uint32_t bus, std::vector<std::uint32_t> slots,
             std::uint32_t l, std::uint32_t address = 0) {
  RtlOp op;
  op.code = Code::Access;
  op.write = write;
  op.col = col;
  op.bus = bus;
  op.slots = std::move(slots);
  op.vectors = l;
  op.address = address;
  return op;
}
RtlOp masked(Code code, std::uint32_t mask) {
  RtlOp op;
  op.code = code;
  op.mask = mask;
  return op;
}
RtlOp wait_sync(std::uint32_t source) {
  RtlOp op;
  op.code = Code::WaitSync;
  op.source = source;
  return op;
}
RtlOp copy(bool store, std::uint32_t buffer, std::uint32_t local, std::uint32_t words) {
  RtlOp op;
  op.code = store ? Code::StoreBuffer : Code::LoadBuffer;
  op.buffer = buffer;
  op.local_address = local;
  op.words = words;
  return op;
}
RtlOp mark(std::uint32_t step) {
  RtlOp op;
  op.code = Code::StepMark;
  op.step = step;
  return op;
}

std::uint32_t local_word(std::uint32_t p, std::uint32_t k) { return 0x30000000U | (p << 12) | k; }

std::vector<std::uint32_t> rotation(std::uint32_t n, std::uint32_t first, std::uint32_t d) {
  std::vector<std::uint32_t> s;
  for (std::uint32_t p = 0; p < d; ++p) {
    s.push_back((first + p) % n);
  }
  return s;
}

/// Fig. 5: an access granted in G ends in G + D.
std::uint64_t access_cycles(const MultiprocessorCosts& c, std::uint64_t d, std::uint64_t l) {
  return c.alpha + c.beta * (l - 1) + d * c.tau * l;
}

/// A unit with identity index set 0, the costs, and every local word k of P(p) = local_word(p, k)
/// for k < 64; programs[p] (a halt appended) loaded, started.
struct LoadedUnit {
  LoadedUnit(MultiprocessorArch arch, std::uint32_t n, const MultiprocessorCosts& costs,
             const std::vector<std::vector<RtlOp>>& programs)
      : mp(arch, n) {
    mp.set_costs(costs);
    mp.fill_storage(0xDEADBEEFU);
    for (std::uint32_t p = 0; p < n; ++p) {
      for (std::uint32_t pos = 0; pos < n; ++pos) {
        mp.write_index(p, 0, pos, pos);
      }
      for (std::uint32_t k = 0; k < 64; ++k) {
        mp.write_local(p, k, local_word(p, k));
      }
      std::vector<RtlInstruction> code;
      for (const RtlOp& op : programs.at(p)) {
        code.push_back(mp.encode(op));
      }
      code.push_back(mp.encode(RtlOp{}));
      mp.load_program(p, code);
    }
    mp.start();
  }

  /// Runs until every processor halts (at most `limit` cycles); halt[p] is the cycle in which
  /// P(p) reached its halt.
  void run(std::uint64_t limit = 100000) {
    halt.assign(mp.limits().n, -1);
    std::uint32_t halted = 0;
    while (halted < mp.limits().n) {
      ASSERT_LT(mp.cycles(), limit) << "no halt";
      const MultiprocessorCycle& out = mp.step_cycle();
      for (std::uint32_t p = 0; p < mp.limits().n; ++p) {
        if (out.processors[p].finished && halt[p] < 0) {
          halt[p] = static_cast<std::int64_t>(out.cycle);
          ++halted;
        }
      }
      cycles.push_back(out);
    }
  }

  MultiprocessorRtl mp;
  std::vector<std::int64_t> halt;
  std::vector<MultiprocessorCycle> cycles;
};

const MultiprocessorCosts kCosts{5, 3, 2, 4, 3, 2};  // alpha, beta, tau, gamma, activate, barrier

/// One IWR exchange per organisation: P(p) computes p cycles, loads buffers 0..n-1 (2 words each
/// from local 2b), writes, bus switch of all, reads, stores buffer b to local 64 + 2b.
///   omp:      write RB(p) slots 0..n-1 (M(p,s)), read CB(p) (M(s,p)): a transpose;
///   crossbar: write B(p), read B(p+1);
///   bus:      write one word into M(0,p), read M(0,p+1) (d = l = 1).
std::vector<std::vector<RtlOp>> exchange(MultiprocessorArch arch, std::uint32_t n) {
  std::vector<std::vector<RtlOp>> programs(n);
  const bool bus = arch == MultiprocessorArch::Bus;
  const std::uint32_t d = bus ? 1 : n;
  const std::uint32_t l = bus ? 1 : 2;
  for (std::uint32_t p = 0; p < n; ++p) {
    std::vector<RtlOp>& prog = programs[p];
    prog.push_back(compute(p));
    for (std::uint32_t b = 0; b < n; ++b) {
      prog.push_back(copy(false, b, 2 * b, 2));
    }
    switch (arch) {
      case MultiprocessorArch::Omp:
        prog.push_back(access(true, false, 0, rotation(n, 0, d), l));
        prog.push_back(masked(Code::BusSwitch, (1U << n) - 1));
        prog.push_back(access(false, true, 0, rotation(n, 0, d), l));
        break;
      case MultiprocessorArch::Crossbar:
        prog.push_back(access(true, false, p, rotation(n, 0, d), l));
        prog.push_back(masked(Code::BusSwitch, (1U << n) - 1));
        prog.push_back(access(false, false, (p + 1) % n, rotation(n, 0, d), l));
        break;
      case MultiprocessorArch::Bus:
        prog.push_back(access(true, false, 0, {p}, l));
        prog.push_back(masked(Code::BusSwitch, (1U << n) - 1));
        prog.push_back(access(false, false, 0, {(p + 1) % n}, l));
        break;
    }
    for (std::uint32_t b = 0; b < n; ++b) {
      prog.push_back(copy(true, b, 64 + 2 * b, 2));
    }
  }
  return programs;
}

class Exchange : public ::testing::TestWithParam<MultiprocessorArch> {};

TEST_P(Exchange, EndsByEquationOneAndDeliversEveryWord) {
  const MultiprocessorArch arch = GetParam();
  const std::uint32_t n = 4;
  LoadedUnit r(arch, n, kCosts, exchange(arch, n));
  r.run();
  std::vector<std::int64_t> want(n);
  if (arch == MultiprocessorArch::Bus) {
    // One bus: P(k) asks in cycle k and is granted when P(k-1) is done: done in (k+1) D. The bus
    // switch releases at n D + gamma; the reads, all asking then, end D apart: P(k) halts in
    // n D + gamma + (k+1) D.
    const std::uint64_t dd = access_cycles(kCosts, 1, 1);
    for (std::uint32_t k = 0; k < n; ++k) {
      want[k] = static_cast<std::int64_t>(n * dd + kCosts.gamma + (k + 1) * dd);
    }
    EXPECT_EQ(r.cycles.back().conflicts, 2 * (n - 1));
    std::uint64_t waited = 0;
    for (std::uint64_t k = 1; k < n; ++k) {
      waited += k * (dd - 1) + k * dd;
    }
    EXPECT_EQ(r.cycles.back().wait_cycles, waited);
  } else {
    // No conflicts: Eq. (1), 2D + gamma, after the last compute (n - 1 cycles).
    want.assign(n,
                static_cast<std::int64_t>(n - 1 + 2 * access_cycles(kCosts, n, 2) + kCosts.gamma));
    EXPECT_EQ(r.cycles.back().conflicts, 0U);
    EXPECT_EQ(r.cycles.back().wait_cycles, 0U);
  }
  for (std::uint32_t p = 0; p < n; ++p) {
    EXPECT_EQ(r.halt[p], want[p]) << "P" << p;
  }
  // The bus driven, as the access at the processor's pc names it: the crossbar's B(p) for the
  // write half and B(p + 1) for the read half; 0 on the omp and the single bus.
  for (const MultiprocessorCycle& c : r.cycles) {
    for (std::uint32_t p = 0; p < n; ++p) {
      const traces::Activity a = c.processors[p].activity;
      if (arch == MultiprocessorArch::Crossbar && a == traces::Activity::IwrWrite) {
        EXPECT_EQ(c.buses[p].bus, p) << "P" << p << " cycle " << c.cycle;
      } else if (arch == MultiprocessorArch::Crossbar && a == traces::Activity::IwrRead) {
        EXPECT_EQ(c.buses[p].bus, (p + 1) % n) << "P" << p << " cycle " << c.cycle;
      } else {
        EXPECT_EQ(c.buses[p].bus, 0U) << "P" << p << " cycle " << c.cycle;
      }
    }
  }
  EXPECT_EQ(r.cycles.back().bus_switches, 1U);
  EXPECT_FALSE(r.cycles.back().collision);
  // The words: P(p)'s buffer b word v came from the module its source wrote from its buffer.
  for (std::uint32_t p = 0; p < n; ++p) {
    for (std::uint32_t b = 0; b < (arch == MultiprocessorArch::Bus ? 1U : n); ++b) {
      for (std::uint32_t v = 0; v < (arch == MultiprocessorArch::Bus ? 1U : 2U); ++v) {
        std::uint32_t expect = 0;
        switch (arch) {
          case MultiprocessorArch::Omp:  // M(b,p) word v, from P(b)'s buffer p
            expect = local_word(b, 2 * p + v);
            break;
          case MultiprocessorArch::Crossbar:  // M(p+1,b) from P(p+1)'s buffer b
            expect = local_word((p + 1) % n, 2 * b + v);
            break;
          case MultiprocessorArch::Bus:  // M(0,p+1) from P(p+1)'s buffer 0
            expect = local_word((p + 1) % n, 0);
            break;
        }
        EXPECT_EQ(r.mp.read_local(p, 64 + 2 * b + v), expect) << "P" << p << " b" << b << " v" << v;
      }
    }
  }
  // And one module word through the backdoor.
  if (arch == MultiprocessorArch::Omp) {
    EXPECT_EQ(r.mp.read_module(1, 2, 1), local_word(1, 5));  // M(1,2) word 1: P(1)'s buffer 2
  } else if (arch == MultiprocessorArch::Crossbar) {
    EXPECT_EQ(r.mp.read_module(3, 0, 0), local_word(3, 0));  // M(3,0) word 0: P(3)'s buffer 0
  } else {
    EXPECT_EQ(r.mp.read_module(0, 2, 0), local_word(2, 0));  // M(0,2): P(2)'s buffer 0
    EXPECT_EQ(r.mp.read_module(0, 2, 1), 0xDEADBEEFU);       // never written
  }
}

INSTANTIATE_TEST_SUITE_P(Organisations, Exchange,
                         ::testing::Values(MultiprocessorArch::Omp, MultiprocessorArch::Crossbar,
                                           MultiprocessorArch::Bus),
                         [](const ::testing::TestParamInfo<MultiprocessorArch>& param_info) {
                           switch (param_info.param) {
                             case MultiprocessorArch::Omp:
                               return "omp";
                             case MultiprocessorArch::Crossbar:
                               return "crossbar";
                             default:
                               return "bus";
                           }
                         });

TEST(MultiprocessorUnit, SixteenProcessorsExchangeInEquationOne) {
  // The omp's transpose at n = 16 with the model's default costs: 2D + gamma after the last
  // compute, D = alpha + beta + 2 n tau (l = 2).
  const MultiprocessorCosts costs;
  LoadedUnit r(MultiprocessorArch::Omp, 16, costs, exchange(MultiprocessorArch::Omp, 16));
  r.run();
  const auto want = static_cast<std::int64_t>(15 + 2 * access_cycles(costs, 16, 2) + costs.gamma);
  for (std::uint32_t p = 0; p < 16; ++p) {
    EXPECT_EQ(r.halt[p], want) << "P" << p;
  }
  for (std::uint32_t p = 0; p < 16; ++p) {
    for (std::uint32_t b = 0; b < 16; b += 5) {
      EXPECT_EQ(r.mp.read_local(p, 64 + 2 * b + 1), local_word(b, 2 * p + 1));
    }
  }
}

TEST(MultiprocessorUnit, ActivityAndBusWordsFollowTheAccess) {
  // P(0) alone on the omp: one IWR step with d = 2, l = 1 at alpha 5, tau 2, gamma 4. Its write
  // half is granted in cycle 0: start-up 0..4, word p on RB(0) in 5 + 2p .. 6 + 2p; done in D = 9;
  // bus switch 9..12 (its group is P(0) alone); read half 13..21; halt in 22.
  std::vector<std::vector<RtlOp>> programs(4);
  programs[0] = {copy(false, 0, 0, 1),
                 copy(false, 1, 1, 1),
                 access(true, false, 0, {2, 3}, 1, 7),
                 masked(Code::BusSwitch, 1),
                 access(false, true, 0, {2, 3}, 1, 7),
                 copy(true, 0, 64, 1),
                 copy(true, 1, 65, 1)};
  LoadedUnit r(MultiprocessorArch::Omp, 4, kCosts, programs);
  EXPECT_FALSE(r.mp.finished());
  r.run();
  EXPECT_TRUE(r.mp.finished());
  const std::uint64_t dd = access_cycles(kCosts, 2, 1);
  ASSERT_EQ(dd, 9U);
  EXPECT_EQ(r.halt[0], static_cast<std::int64_t>(2 * dd + kCosts.gamma));
  for (const MultiprocessorCycle& c : r.cycles) {
    const RtlProcessorCycle& p0 = c.processors[0];
    const RtlBusCycle& bus = c.buses[0];
    const std::uint64_t t = c.cycle;
    if (t < dd) {
      EXPECT_EQ(p0.activity, traces::Activity::IwrWrite) << t;
      EXPECT_EQ(bus.mode, 1U) << t;
      const bool word = t >= kCosts.alpha;
      EXPECT_EQ(bus.valid, word) << t;
      if (word) {
        const std::uint32_t pos = static_cast<std::uint32_t>(t - kCosts.alpha) / kCosts.tau;
        EXPECT_EQ(bus.sel, 2 + pos) << t;
        EXPECT_EQ(bus.addr, 7U) << t;
        EXPECT_EQ(bus.data, local_word(0, pos)) << t;
      }
    } else if (t < dd + kCosts.gamma) {
      EXPECT_EQ(p0.activity, traces::Activity::BusSwitch) << t;
      EXPECT_EQ(bus.mode, 0U) << t;
    } else if (t < 2 * dd + kCosts.gamma) {
      EXPECT_EQ(p0.activity, traces::Activity::IwrRead) << t;
      EXPECT_EQ(bus.mode, 2U) << t;
    }
    EXPECT_EQ(c.processors[1].activity, traces::Activity::Idle);
  }
  // Read from CB(0): slot s is M(s,0); M(2,0) and M(3,0) were never written.
  EXPECT_EQ(r.mp.read_local(0, 64), 0xDEADBEEFU);
  EXPECT_EQ(r.mp.read_module(0, 2, 7), local_word(0, 0));
  EXPECT_EQ(r.mp.read_module(0, 3, 7), local_word(0, 1));
  EXPECT_EQ(r.cycles.back().processors[0].memory_cycles, 2 * dd);
  EXPECT_EQ(r.cycles.back().processors[0].sync_cycles, kCosts.gamma);
  EXPECT_EQ(r.cycles.back().processors[0].ops, 7U);
}

TEST(MultiprocessorUnit, ComputesBarriersAndActivateRingAsTheModel) {
  // P(p) computes 3p cycles, then a barrier of all: the last arrives in 3(n-1), all continue in
  // 3(n-1) + barrier = t0. Then P(p) activates P(p+1) and waits for P(p-1): the interrupt bus
  // serves them first come, ties to the lower id, P(k) granted in t0 + k A, delivered A later;
  // P(p) halts when its own delivery is done and its token is there: P(0) in t0 + n A (P(n-1)'s
  // token), P(k) in t0 + (k+1) A. A step mark before the barrier passes in cycle 3p.
  for (const MultiprocessorArch arch :
       {MultiprocessorArch::Omp, MultiprocessorArch::Crossbar, MultiprocessorArch::Bus}) {
    const std::uint32_t n = 4;
    std::vector<std::vector<RtlOp>> programs(n);
    for (std::uint32_t p = 0; p < n; ++p) {
      programs[p] = {compute(3 * p),
                     mark(100 + p),
                     compute(0),
                     masked(Code::Barrier, (1U << n) - 1),
                     masked(Code::ActivateSync, 1U << ((p + 1) % n)),
                     wait_sync((p + n - 1) % n)};
    }
    LoadedUnit r(arch, n, kCosts, programs);
    r.run();
    const std::int64_t t0 = 3 * (n - 1) + kCosts.barrier;
    for (std::uint32_t p = 0; p < n; ++p) {
      EXPECT_EQ(r.halt[p], t0 + (p == 0 ? n : p + 1) * kCosts.activate) << "P" << p;
      EXPECT_EQ(r.cycles.back().processors[p].compute_cycles, 3 * p);
      EXPECT_EQ(r.cycles.back().processors[p].ops, 6U);
    }
    // The activities: P(p) waits at the barrier from its arrival in 3p to the release in t0;
    // then P(0) activates until its delivery in t0 + A and waits for its token until it halts;
    // P(k > 0) activates until its own delivery, when its token is there already.
    for (const MultiprocessorCycle& c : r.cycles) {
      const auto t = static_cast<std::int64_t>(c.cycle);
      for (std::uint32_t p = 0; p < n; ++p) {
        if (t >= r.halt[p]) {
          continue;
        }
        traces::Activity want = traces::Activity::Compute;
        if (t >= t0 + kCosts.activate && p == 0) {
          want = traces::Activity::WaitSync;
        } else if (t >= t0) {
          want = traces::Activity::ActivateSync;
        } else if (t >= 3 * p) {
          want = traces::Activity::Barrier;
        }
        EXPECT_EQ(c.processors[p].activity, want) << "P" << p << " cycle " << t;
      }
    }
    const MultiprocessorCycle& end = r.cycles.back();
    EXPECT_EQ(end.barriers, 1U);
    EXPECT_EQ(end.syncs_delivered, n);
    EXPECT_EQ(end.interrupt_conflicts, n - 1);
    EXPECT_EQ(end.interrupt_wait_cycles, kCosts.activate * n * (n - 1) / 2);
    EXPECT_FALSE(end.token_overflow);
    for (std::uint32_t p = 0; p < n; ++p) {
      bool seen = false;
      for (const MultiprocessorCycle& c : r.cycles) {
        for (const auto& [who, step] : c.marks) {
          if (who == p) {
            EXPECT_EQ(c.cycle, 3 * p);
            EXPECT_EQ(step, 100 + p);
            seen = true;
          }
        }
      }
      EXPECT_TRUE(seen) << "P" << p << "'s step mark";
    }
  }
}

TEST(MultiprocessorUnit, ContentionOnOneBusIsFirstComeTiesToTheLowerId) {
  // Every processor writes d = 2, l = 3 on the single bus in cycle 0: P(k) is granted when P(k-1)
  // is done and ends in (k+1) D.
  const std::uint32_t n = 4;
  std::vector<std::vector<RtlOp>> programs(n);
  for (std::uint32_t p = 0; p < n; ++p) {
    programs[p] = {access(true, false, 0, {p, (p + 1) % n}, 3, 8 * p)};
  }
  LoadedUnit r(MultiprocessorArch::Bus, n, kCosts, programs);
  r.run();
  const std::uint64_t dd = access_cycles(kCosts, 2, 3);
  for (std::uint32_t p = 0; p < n; ++p) {
    EXPECT_EQ(r.halt[p], static_cast<std::int64_t>((p + 1) * dd)) << "P" << p;
  }
  EXPECT_EQ(r.cycles.back().conflicts, n - 1);
  EXPECT_EQ(r.cycles.back().wait_cycles, dd * n * (n - 1) / 2);
}

/// A buffer copy takes no machine cycle, and the local port moves K = LPW words per zero-time
/// step (rtl/limits.cmake): P(0) loads w words from local 5 into buffer 1 from word 3 and stores
/// them back to local 40, all in cycle 0, which takes ceil(w / K) steps per copy (the other
/// processors are at their halts). Every copied word arrives, and the words just past either
/// copy keep what they held.
TEST(MultiprocessorUnit, BufferCopiesMoveLocalPortWordsPerZeroTimeStep) {
  const std::uint32_t k = limits::kLocalPortWords;
  for (const std::uint32_t w : {1U, k + 1, 2 * k + k / 2 + 1, 13U}) {
    SCOPED_TRACE("w = " + std::to_string(w));
    std::vector<std::vector<RtlOp>> programs(4);
    RtlOp load = copy(false, 1, 5, w);
    load.buffer_word = 3;
    RtlOp store = copy(true, 1, 40, w);
    store.buffer_word = 3;
    programs[0] = {load, store};
    LoadedUnit u(MultiprocessorArch::Omp, 4, kCosts, programs);
    u.run();
    ASSERT_FALSE(u.cycles.empty());
    EXPECT_EQ(u.halt[0], 0) << "copies take no machine cycle";
    const std::uint32_t per_copy = (w + k - 1) / k;
    EXPECT_EQ(u.cycles[0].steps, 2 * per_copy);
    for (std::uint32_t j = 0; j < w; ++j) {
      EXPECT_EQ(u.mp.read_buffer(0, 1, 3 + j), local_word(0, 5 + j)) << "buffer word " << 3 + j;
      EXPECT_EQ(u.mp.read_local(0, 40 + j), local_word(0, 5 + j)) << "local word " << 40 + j;
    }
    EXPECT_EQ(u.mp.read_buffer(0, 1, 3 + w), 0xDEADBEEFU) << "past the load";
    EXPECT_EQ(u.mp.read_local(0, 40 + w), local_word(0, 40 + w)) << "past the store";
  }
}

// step_cycle() takes up to 4096 zero-time steps in a cycle and gives up at the next: P(0)'s
// loads of L words each take L / K steps in cycle 0, so 4096 K / L of them take 4096 steps
// exactly; one load of a word more takes one step more.
TEST(MultiprocessorUnit, ACycleTakesUpTo4096ZeroTimeSteps) {
  const std::uint32_t per_load = limits::kBufferWords / limits::kLocalPortWords;
  ASSERT_EQ(limits::kBufferWords % limits::kLocalPortWords, 0U);
  ASSERT_EQ(4096 % per_load, 0U);
  for (const bool one_more : {false, true}) {
    std::vector<std::vector<RtlOp>> programs(4);
    programs[0].assign(4096 / per_load, copy(false, 1, 0, limits::kBufferWords));
    if (one_more) {
      programs[0].push_back(copy(false, 1, 0, 1));
      LoadedUnit u(MultiprocessorArch::Omp, 4, kCosts, programs);
      EXPECT_THROW(u.mp.step_cycle(), std::logic_error);
    } else {
      LoadedUnit u(MultiprocessorArch::Omp, 4, kCosts, programs);
      EXPECT_EQ(u.mp.step_cycle().steps, 4096U);
    }
  }
}

TEST(MultiprocessorUnit, RefusesWhatIsNotBuiltOrDoesNotFit) {
  EXPECT_THROW(MultiprocessorRtl(MultiprocessorArch::Omp, 3), std::invalid_argument);
  // built_list(): the n that built() takes, ascending, ", " between them.
  for (const MultiprocessorArch arch :
       {MultiprocessorArch::Omp, MultiprocessorArch::Crossbar, MultiprocessorArch::Bus}) {
    std::string list;
    for (std::uint32_t n = 1; n <= 64; ++n) {
      if (MultiprocessorRtl::built(arch, n)) {
        list += (list.empty() ? "" : ", ") + std::to_string(n);
      }
    }
    EXPECT_FALSE(list.empty());
    EXPECT_EQ(MultiprocessorRtl::built_list(arch), list);
  }
  EXPECT_FALSE(MultiprocessorRtl::built(MultiprocessorArch::Bus, 5));
  EXPECT_TRUE(MultiprocessorRtl::built(MultiprocessorArch::Crossbar, 4));
  MultiprocessorRtl mp(MultiprocessorArch::Crossbar, 4, nullptr, "unit_a");
  EXPECT_THROW(MultiprocessorRtl(MultiprocessorArch::Crossbar, 4, nullptr, "unit_a"),
               std::invalid_argument);
  EXPECT_THROW((void)mp.encode(access(true, false, 4, {0}, 1)), std::invalid_argument);
  EXPECT_THROW((void)mp.encode(access(true, false, 0, {0, 1, 2, 3, 0}, 1)), std::invalid_argument);
  EXPECT_THROW((void)mp.encode(compute(std::uint64_t{1} << mp.limits().compute_bits)),
               std::invalid_argument);
  EXPECT_THROW(mp.load_program(0, std::vector<RtlInstruction>(mp.limits().instruction_words + 1)),
               std::invalid_argument);
  // The instruction width of docs/rtl.md: 4 + the access's fields, the widest at these sizes.
  const MultiprocessorLimits& m = mp.limits();
  EXPECT_EQ(m.instruction_bits, 4 + 2 + m.slot_bits + m.degree_bits + 4 * m.slot_bits +
                                    m.address_bits + m.vectors_bits + m.set_bits);
}

// An IWR read half at pc 1, after a bus switch at the program's start: P(0) alone on the omp,
// the switch (its group P(0) alone) in cycles 0..gamma - 1, the read of d = 2, l = 1 from
// CB(0) granted in gamma and done D = alpha + 2 tau later, where P(0) halts.
TEST(MultiprocessorUnit, AReadAfterABusSwitchAtTheProgramsStartIsAnIwrHalf) {
  std::vector<std::vector<RtlOp>> programs(4);
  programs[0] = {masked(Code::BusSwitch, 1), access(false, true, 0, {1, 2}, 1)};
  LoadedUnit r(MultiprocessorArch::Omp, 4, kCosts, programs);
  r.run();
  const std::uint64_t dd = access_cycles(kCosts, 2, 1);
  ASSERT_EQ(r.halt[0], static_cast<std::int64_t>(kCosts.gamma + dd));
  for (const MultiprocessorCycle& c : r.cycles) {
    if (c.cycle < kCosts.gamma) {
      EXPECT_EQ(c.processors[0].activity, traces::Activity::BusSwitch) << c.cycle;
    } else if (c.cycle < kCosts.gamma + dd) {
      EXPECT_EQ(c.processors[0].activity, traces::Activity::IwrRead) << c.cycle;
    }
  }
}

// The last word of a module on a bus other than P(0)'s: P(1) writes one word (d = l = 1) at
// DEPTH - 1 into slot 2 of RB(1), granted in cycle 0: the word is on the bus in alpha ..
// alpha + tau - 1 with its whole address, and lands in M(1,2).
TEST(MultiprocessorUnit, TheLastModuleWordIsAddressedOnTheBus) {
  std::vector<std::vector<RtlOp>> programs(4);
  const std::uint32_t last = limits::kModuleWords - 1;
  programs[1] = {copy(false, 0, 0, 1), access(true, false, 0, {2}, 1, last)};
  LoadedUnit r(MultiprocessorArch::Omp, 4, kCosts, programs);
  r.run();
  std::uint32_t seen = 0;
  for (const MultiprocessorCycle& c : r.cycles) {
    const RtlBusCycle& bus = c.buses[1];
    const bool word = c.cycle >= kCosts.alpha && c.cycle < kCosts.alpha + kCosts.tau;
    EXPECT_EQ(bus.valid, word) << c.cycle;
    if (word) {
      EXPECT_EQ(bus.addr, last) << c.cycle;
      EXPECT_EQ(bus.sel, 2U) << c.cycle;
      EXPECT_EQ(bus.data, local_word(1, 0)) << c.cycle;
      ++seen;
    }
  }
  EXPECT_EQ(seen, kCosts.tau);
  EXPECT_EQ(r.mp.read_module(1, 2, last), local_word(1, 0));
}

// The sync unit's token counters are TKW = 4 bits (rtl/multiprocessor.sv): P(0) activating
// P(1), which never waits, fills the counter with 15 tokens; the 16th would pass 2^4 - 1 and
// sets the sticky token_overflow.
TEST(MultiprocessorUnit, TheSixteenthUnconsumedTokenOverflowsItsCounter) {
  for (const std::uint32_t activates : {15U, 16U}) {
    std::vector<std::vector<RtlOp>> programs(4);
    programs[0].assign(activates, masked(Code::ActivateSync, 1U << 1));
    LoadedUnit r(MultiprocessorArch::Omp, 4, kCosts, programs);
    r.run();
    EXPECT_EQ(r.cycles.back().syncs_delivered, activates);
    EXPECT_EQ(r.cycles.back().token_overflow, activates == 16) << activates << " tokens";
  }
}

// The cost registers take every value of their TW bits and no more; reset() puts them back at
// their reset values (alpha 16, tau 1) and restarts the cycle count: P(0)'s write of one word
// (d = l = 1) takes alpha + tau cycles at the costs in force.
TEST(MultiprocessorUnit, CostsFillTheirRegistersAndResetRestoresThem) {
  MultiprocessorRtl mp(MultiprocessorArch::Omp, 4);
  const std::uint32_t most = static_cast<std::uint32_t>(limits::kTimingMax);
  EXPECT_NO_THROW(mp.set_costs({most, most, most, most, most, most}));
  for (std::uint32_t field = 0; field < 6; ++field) {
    std::uint32_t values[6] = {1, 1, 1, 1, 1, 1};
    values[field] = most + 1;
    EXPECT_THROW(mp.set_costs({values[0], values[1], values[2], values[3], values[4], values[5]}),
                 std::invalid_argument)
        << "field " << field;
  }
  mp.load_program(0, {mp.encode(access(true, false, 0, {1}, 1)), mp.encode(RtlOp{})});
  const auto halt_cycle = [&mp] {
    mp.start();
    while (!mp.step_cycle().processors[0].finished) {
      EXPECT_LT(mp.cycles(), 1000U);
    }
    return mp.outputs().cycle;
  };
  mp.set_costs(kCosts);
  EXPECT_EQ(halt_cycle(), kCosts.alpha + kCosts.tau);
  EXPECT_EQ(halt_cycle(), kCosts.alpha + kCosts.tau) << "every start counts from 0";
  mp.reset();
  EXPECT_EQ(mp.cycles(), 0U);
  const MultiprocessorCosts reset_values;
  EXPECT_EQ(halt_cycle(), reset_values.alpha + reset_values.tau);
}

// The clock edges the unit gives its verilated model, each evaluated with the clock low and then
// high: the reset at construction, the costs' write, `go`, then per machine cycle its
// zero-time steps and the tick. Loads write the memories directly and take none.
TEST(MultiprocessorUnit, EveryEdgeIsCountedAndEvaluatedTwice) {
  MultiprocessorRtl mp(MultiprocessorArch::Omp, 4);
  EXPECT_EQ(mp.edges(), 1U);
  mp.set_costs(kCosts);
  EXPECT_EQ(mp.edges(), 2U);
  mp.load_program(0, {mp.encode(copy(false, 0, 0, 9)), mp.encode(compute(3)), mp.encode(RtlOp{})});
  mp.write_local(0, 0, 1);
  EXPECT_EQ(mp.edges(), 2U);
  mp.start();
  std::uint64_t edges = 3;
  EXPECT_EQ(mp.edges(), edges);
  for (int c = 0; c < 5; ++c) {
    edges += mp.step_cycle().steps + 1;
    EXPECT_EQ(mp.edges(), edges) << "cycle " << c;
  }
  EXPECT_GT(edges, 3U + 5U) << "the copy takes zero-time steps";
  EXPECT_EQ(mp.evaluations(), 2 * mp.edges());
}

// A waveform takes its blocks while the system is elaborated: one registered after open() would
// never be written, and is refused (FstTrace::add).
TEST(MultiprocessorUnit, AnOpenWaveformTakesNoMoreBlocks) {
  const std::string path = ::testing::TempDir() + "orthosim_unit_after_open.fst";
  {
    FstTrace fst(path);
    const MultiprocessorRtl traced(MultiprocessorArch::Omp, 4, &fst, "traced");
    EXPECT_EQ(fst.models(), 1U);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    fst.open();
    EXPECT_THROW(MultiprocessorRtl(MultiprocessorArch::Omp, 4, &fst, "late"), std::logic_error);
    EXPECT_EQ(fst.models(), 1U);
    fst.close();
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".gtkw");
}

// [PH91] Fig. 4's counts: the omp's n row and n column buses over n^2 modules, the crossbar's n
// buses through n^2 modules, the single bus's one bus over n modules.
TEST(MultiprocessorUnit, LimitsCountEachOrganisationsBusesAndModules) {
  const std::uint32_t n = 4;
  const MultiprocessorLimits omp = MultiprocessorRtl(MultiprocessorArch::Omp, n).limits();
  EXPECT_EQ(omp.buses, 2 * n);
  EXPECT_EQ(omp.modules, n * n);
  const MultiprocessorLimits crossbar = MultiprocessorRtl(MultiprocessorArch::Crossbar, n).limits();
  EXPECT_EQ(crossbar.buses, n);
  EXPECT_EQ(crossbar.modules, n * n);
  const MultiprocessorLimits bus = MultiprocessorRtl(MultiprocessorArch::Bus, n).limits();
  EXPECT_EQ(bus.buses, 1U);
  EXPECT_EQ(bus.modules, n);
}

// loaded_op() reads an access's fields back from the bits written to the instruction memory:
// every field as encoded, at degrees below n (the address after the n slot fields, not after
// the d used ones), on each organisation; other ops give their code, a pc past the program a
// halt, and a shorter program loaded over a longer one leaves nothing of it behind.
TEST(MultiprocessorUnit, LoadedOpsAreTheAccessesAsEncoded) {
  for (const MultiprocessorArch arch :
       {MultiprocessorArch::Omp, MultiprocessorArch::Crossbar, MultiprocessorArch::Bus}) {
    const std::uint32_t n = 4;
    MultiprocessorRtl mp(arch, n);
    const std::uint32_t bus = arch == MultiprocessorArch::Crossbar ? 3 : 0;
    RtlOp first = access(true, false, bus, {2}, limits::kBufferWords, limits::kModuleWords - 1);
    first.index_set = limits::kIndexSets - 1;
    RtlOp second = access(false, arch == MultiprocessorArch::Omp, 0, {3, 1}, 5, 1234);
    second.index_set = 3;
    RtlOp third = access(true, arch == MultiprocessorArch::Omp, bus / 3, {1, 0, 3, 2}, 2, 17);
    const std::vector<RtlOp> program = {compute(3), first,        masked(Code::BusSwitch, 1),
                                        second,     wait_sync(2), third};
    std::vector<RtlInstruction> code;
    for (const RtlOp& op : program) {
      code.push_back(mp.encode(op));
    }
    mp.load_program(1, code);
    for (std::uint32_t pc = 0; pc < program.size(); ++pc) {
      SCOPED_TRACE("pc " + std::to_string(pc));
      const RtlOp& want = program[pc];
      const RtlOp& got = mp.loaded_op(1, pc);
      EXPECT_EQ(got.code, want.code);
      if (want.code == Code::Access) {
        EXPECT_EQ(got.write, want.write);
        EXPECT_EQ(got.col, want.col);
        EXPECT_EQ(got.bus, want.bus);
        EXPECT_EQ(got.slots, want.slots);
        EXPECT_EQ(got.address, want.address);
        EXPECT_EQ(got.vectors, want.vectors);
        EXPECT_EQ(got.index_set, want.index_set);
      }
    }
    EXPECT_EQ(mp.loaded_op(1, static_cast<std::uint32_t>(program.size())).code, Code::Halt);
    mp.load_program(1, {code[3]});
    EXPECT_EQ(mp.loaded_op(1, 0).address, 1234U);
    EXPECT_EQ(mp.loaded_op(1, 1).code, Code::Halt) << "left from the longer program";
    EXPECT_EQ(mp.loaded_op(0, 0).code, Code::Halt) << "P(0) has no program";
  }
}

// processor.sv: `running` from `go` on, through the halt (`finished` is running at a halt);
// neither before the first start.
TEST(MultiprocessorUnit, RunningFromTheStartThroughTheHaltAndNotBefore) {
  MultiprocessorRtl mp(MultiprocessorArch::Omp, 4);
  mp.load_program(0, {mp.encode(compute(2)), mp.encode(RtlOp{})});
  const MultiprocessorCycle& before = mp.step_cycle();
  for (std::uint32_t p = 0; p < 4; ++p) {
    EXPECT_FALSE(before.processors[p].running) << "P" << p;
    EXPECT_FALSE(before.processors[p].finished) << "P" << p;
  }
  mp.start();
  for (std::uint64_t c = 0; c < 4; ++c) {
    const MultiprocessorCycle& out = mp.step_cycle();
    EXPECT_TRUE(out.processors[0].running) << c;
    EXPECT_EQ(out.processors[0].finished, c >= 2) << c;  // compute 0..1, the halt from 2
    EXPECT_TRUE(out.processors[1].running) << c;
    EXPECT_TRUE(out.processors[1].finished) << c;  // no program: at its halt from the start
  }
}

// Every memory the unit reaches directly refuses a place past its verilated size; a program of
// IMEM instructions exactly fits; fill_storage() writes every word of every memory.
TEST(MultiprocessorUnit, StorageIsReachedWithinItsSizesOnly) {
  const std::uint32_t n = 4;
  MultiprocessorRtl mp(MultiprocessorArch::Omp, n);
  const MultiprocessorLimits& m = mp.limits();
  EXPECT_THROW(mp.write_local(0, m.local_words, 1), std::out_of_range);
  EXPECT_THROW((void)mp.read_local(3, m.local_words), std::out_of_range);
  EXPECT_THROW(mp.write_index(0, m.index_sets, 0, 0), std::out_of_range);
  EXPECT_THROW(mp.write_index(0, 0, n, 0), std::out_of_range);
  EXPECT_THROW(mp.write_index(0, 0, 0, n), std::out_of_range);
  EXPECT_THROW(mp.write_buffer(0, n, 0, 1), std::out_of_range);
  EXPECT_THROW(mp.write_buffer(0, 0, m.buffer_words, 1), std::out_of_range);
  EXPECT_THROW((void)mp.read_buffer(0, n, 0), std::out_of_range);
  EXPECT_THROW((void)mp.read_buffer(0, 0, m.buffer_words), std::out_of_range);
  EXPECT_THROW(mp.write_module(n, 0, 0, 1), std::out_of_range);
  EXPECT_THROW(mp.write_module(0, n, 0, 1), std::out_of_range);
  EXPECT_THROW((void)mp.read_module(0, 0, m.module_words), std::out_of_range);
  EXPECT_NO_THROW(mp.load_program(2, std::vector<RtlInstruction>(m.instruction_words)));

  mp.fill_storage(0x5EEDU);
  for (std::uint32_t p = 0; p < n; ++p) {
    for (std::uint32_t k = 0; k < m.local_words; ++k) {
      ASSERT_EQ(mp.read_local(p, k), 0x5EEDU) << "P" << p << " local " << k;
    }
    for (std::uint32_t b = 0; b < n; ++b) {
      for (std::uint32_t k = 0; k < m.buffer_words; ++k) {
        ASSERT_EQ(mp.read_buffer(p, b, k), 0x5EEDU) << "P" << p << " buffer " << b << " word " << k;
      }
    }
  }
  for (std::uint32_t a = 0; a < n; ++a) {
    for (std::uint32_t b = 0; b < n; ++b) {
      for (std::uint32_t k = 0; k < m.module_words; ++k) {
        ASSERT_EQ(mp.read_module(a, b, k), 0x5EEDU) << "M(" << a << "," << b << ") " << k;
      }
    }
  }
}

TEST(MultiprocessorUnit, SpeedOfBackToBackIwrStepsAtSixteen) {
  // Not a check of time: the RTL's simulated cycles per second on bench/rtl_speed's first
  // workload (the omp at n = 16, back-to-back IWR steps, every processor sending l = 8 words to
  // each of the others: d = n - 1), for docs/rtl.md's speed figure. Its cycles are checked: Eq. (1)
  // per step.
  const std::uint32_t n = 16;
  const std::uint32_t l = 8;
  const std::uint32_t steps = 25;
  std::vector<std::vector<RtlOp>> programs(n);
  for (std::uint32_t p = 0; p < n; ++p) {
    for (std::uint32_t s = 0; s < steps; ++s) {
      programs[p].push_back(access(true, false, 0, rotation(n, p + 1, n - 1), l, l * s));
      programs[p].push_back(masked(Code::BusSwitch, (1U << n) - 1));
      programs[p].push_back(access(false, true, 0, rotation(n, p + 1, n - 1), l, l * s));
    }
  }
  const MultiprocessorCosts costs;
  LoadedUnit r(MultiprocessorArch::Omp, n, costs, programs);
  const auto begin = std::chrono::steady_clock::now();
  r.run();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const std::uint64_t per_step = 2 * access_cycles(costs, n - 1, l) + costs.gamma;
  EXPECT_EQ(r.halt[0], static_cast<std::int64_t>(steps * per_step));
  const double cycles = static_cast<double>(r.cycles.size());
  const double words = 2.0 * n * (n - 1) * l * steps;
  std::printf("[ speed    ] omp n = 16, %u IWR steps (d = 15, l = 8): %.0f cycles in %.3f s: "
              "%.0f cycles/s, %.2f M bus words/s, %.2f evaluations per cycle\n",
              steps, cycles, seconds, cycles / seconds, words / seconds / 1e6,
              static_cast<double>(r.mp.evaluations()) / cycles);
}

}  // namespace
}  // namespace orthosim::rtl
