// End-to-end: --impl and --fst of access, run, demo and traffic (docs/rtl.md) as a user runs
// them. The verilated blocks (the whole multiprocessor with --impl rtl, or its bus controllers,
// index manipulators and module array alone, the networks' routers) give the same cycles, words,
// conflicts and statistics as the models; cosim
// stops with the cycle, block, signal and both values when the model is made wrong on purpose
// (ORTHOSIM_TEST_FAULT, a test-only switch); the FST waveform reads back with GTKWave's fst2vcd
// and holds the blocks' signals, changing; bad choices are refused naming the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_process.hpp"
#include "tests/support/vcd_reader.hpp"

namespace {

using orthosim::testing_support::Outcome;
using orthosim::testing_support::slurp;

class RtlCli : public orthosim::testing_support::CliTest {
 protected:
  void TearDown() override {
    unsetenv("ORTHOSIM_TEST_FAULT");
    CliTest::TearDown();
  }
};

/// What a run produced, without the fields that name the implementation or count kernel
/// activations (a cost of the simulation, not a result: tests/rtl/multiprocessor_rtl_test.cpp).
nlohmann::json results(const std::string& json) {
  nlohmann::json j = nlohmann::json::parse(json);
  j.erase("impl");
  if (j.contains("stats")) {
    nlohmann::json kept = nlohmann::json::object();
    for (const auto& [name, value] : j["stats"].items()) {
      if (name.find(".activations") == std::string::npos) {
        kept[name] = value;
      }
    }
    j["stats"] = kept;
  }
  return j;
}

TEST_F(RtlCli, AccessGivesTheSameResultsWithTheRtlAsWithTheModels) {
  // The whole machine is verilated for every organisation at n = 4 and the omp at 16
  // (rtl/limits.cmake), the datapath blocks at n = 2, 4, 8 and 16.
  for (const std::string args :
       {"--arch omp --n 4 --kind iwr --l 3 --repeat 4",
        "--arch omp --n 16 --kind block --d 15 --l 6",
        "--arch crossbar --n 4 --kind interleaved --d 3 --repeat 3",
        "--arch crossbar --n 8 --kind interleaved --d 5 --repeat 3",
        "--arch bus --n 2 --kind scalar --repeat 5", "--arch bus --n 4 --kind scalar --repeat 5"}) {
    const Outcome model = run("access " + args + " --json");
    ASSERT_EQ(model.exit_code, 0) << args << model.err;
    const bool machine =
        args.find("--n 4 ") != std::string::npos || args.find("omp --n 16 ") != std::string::npos;
    for (const std::string impl : {"rtl", "cosim", "im=model,bus=rtl", "im=rtl,bus=rtl"}) {
      if (!machine && (impl == "rtl" || impl == "cosim")) {
        continue;
      }
      const Outcome rtl = run("access " + args + " --impl " + impl + " --json");
      ASSERT_EQ(rtl.exit_code, 0) << args << " --impl " << impl << ": " << rtl.err;
      EXPECT_EQ(results(rtl.out), results(model.out)) << args << " --impl " << impl;
    }
  }
  const nlohmann::json j = nlohmann::json::parse(run("access --impl rtl --json").out);
  // The whole machine: the omp's memory side is its module array.
  EXPECT_EQ(
      j["impl"],
      "im=rtl,bus=rtl,memory=rtl,router=model,ni=model,processor=rtl,sync=rtl,interconnect=model");
  EXPECT_NE(run("access --impl bus=cosim").out.find("implementation     im=model,bus=cosim"),
            std::string::npos);
}

// The bus activity the RTL controllers report (each word when it is on the bus) makes the same
// waveform as the model's, byte for byte, and the run ends in the same cycle; the whole machine
// in cosim leaves the models' waveform as it is.
TEST_F(RtlCli, TheWaveformOfTheRtlIsTheModels) {
  for (const std::string arch : {"omp", "crossbar", "bus"}) {
    const std::string args = "access --arch " + arch + " --kind block --d 3 --l 4 --repeat 2";
    ASSERT_EQ(run(args + " --vcd m.vcd").exit_code, 0) << arch;
    ASSERT_EQ(run(args + " --impl im=rtl,bus=rtl --vcd r.vcd").exit_code, 0) << arch;
    ASSERT_EQ(run(args + " --impl cosim --vcd c.vcd").exit_code, 0) << arch;
    const std::string model = slurp(dir_ / "m.vcd");
    EXPECT_GT(model.size(), 1000u) << arch;
    EXPECT_EQ(slurp(dir_ / "r.vcd"), model) << arch;
    EXPECT_EQ(slurp(dir_ / "c.vcd"), model) << arch;
  }
}

TEST_F(RtlCli, RunGivesTheSameResultsWithTheRtlAsWithTheModels) {
  ASSERT_EQ(run("gen random --nodes 4 --steps 6 --len 5 --seed 3 --out r.mcp").exit_code, 0);
  for (const std::string arch : {"omp", "crossbar", "bus"}) {
    const Outcome model = run("run r.mcp --arch " + arch + " --json");
    ASSERT_EQ(model.exit_code, 0) << model.err;
    const Outcome rtl = run("run r.mcp --arch " + arch + " --impl rtl --json");
    ASSERT_EQ(rtl.exit_code, 0) << rtl.err;
    EXPECT_EQ(results(rtl.out), results(model.out)) << arch;
    // The omp's memory side is its module array, the others' their interconnect.
    const bool omp = arch == "omp";
    EXPECT_EQ(nlohmann::json::parse(rtl.out)["impl"],
              std::string("im=rtl,bus=rtl,memory=") + (omp ? "rtl" : "model") +
                  ",router=model,ni=model,processor=rtl,sync=rtl,interconnect=" +
                  (omp ? "model" : "rtl"));
  }
}

/// The bits in which a mismatch report's two values of `signal` differ ("SIGNAL model 0xM rtl
/// 0xR": M xor R), or ~0 when the report has no such values.
std::uint64_t differing_bits(const std::string& err, const std::string& signal) {
  const std::size_t at = err.find(signal + " model 0x");
  if (at == std::string::npos) {
    return ~std::uint64_t{0};
  }
  std::istringstream values(err.substr(at + signal.size()));
  std::string model_word;
  std::string rtl_word;
  std::uint64_t model = 0;
  std::uint64_t rtl = 0;
  values >> model_word >> std::hex >> model >> rtl_word >> rtl;
  return model_word == "model" && rtl_word == "rtl" && values ? model ^ rtl : ~std::uint64_t{0};
}

TEST_F(RtlCli, CosimStopsAtAFlippedBitWithCycleBlockSignalAndValues) {
  // P(1)'s first write of the omp iwr workload is granted in cycle 0; its first word is on the
  // bus in cycle alpha = 16 ([PH91] Fig. 5).
  setenv("ORTHOSIM_TEST_FAULT", "1:flip:16:3", 1);
  const Outcome r = run("access --kind iwr --impl cosim");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cosim mismatch at cycle 16 in omp.bc1: bus_data model 0x"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(differing_bits(r.err, "bus_data"), 1u << 3) << r.err;  // bit 3 alone
  EXPECT_EQ(r.out, "");
  // The same switch on the models alone is not caught: nothing to compare with.
  EXPECT_EQ(run("access --kind iwr").exit_code, 1);  // the flipped word fails the payload check
}

TEST_F(RtlCli, CosimStopsAtACycleOfExtraLatency) {
  setenv("ORTHOSIM_TEST_FAULT", "2:late:0", 1);
  const Outcome r = run("access --kind iwr --impl bus=cosim,im=cosim");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cosim mismatch at cycle 16 in omp.bc2: bus_valid model 0x0 rtl 0x1"),
            std::string::npos)
      << r.err;
  setenv("ORTHOSIM_TEST_FAULT", "2:late", 1);
  const Outcome bad = run("access --impl cosim");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("ORTHOSIM_TEST_FAULT"), std::string::npos) << bad.err;
}

TEST_F(RtlCli, FstReadsBackWithFst2vcdWithEveryBlocksSignalsChanging) {
  const Outcome r =
      run("access --arch omp --n 4 --kind iwr --impl im=rtl,bus=rtl,memory=rtl --fst w.fst");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(dir_ / "w.fst"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "w.fst.partial"));
  ASSERT_EQ(std::system(("fst2vcd '" + (dir_ / "w.fst").string() + "' > '" +
                         (dir_ / "w.vcd").string() + "' 2>/dev/null")
                            .c_str()),
            0);
  const std::string vcd = slurp(dir_ / "w.vcd");
  for (int p = 0; p < 4; ++p) {
    const std::string id = std::to_string(p);
    EXPECT_NE(vcd.find("$scope module omp.bc" + id + "_rtl.bc.rtl $end"), std::string::npos) << p;
    EXPECT_NE(vcd.find("$scope module omp.im" + id + ".rtl $end"), std::string::npos) << p;
  }
  // The identifier of the first bus_valid and of the first ac_we, then their values over time.
  for (const std::string signal : {"bus_valid", "ac_we"}) {
    const std::size_t at = vcd.find(" " + signal + " $end");
    ASSERT_NE(at, std::string::npos) << signal;
    const std::size_t line = vcd.rfind("$var", at);
    std::istringstream decl(vcd.substr(line, at - line));
    std::string var, kind, width, code;
    decl >> var >> kind >> width >> code;
    std::set<char> values;
    std::istringstream lines(vcd.substr(vcd.find("$enddefinitions")));
    for (std::string l; std::getline(lines, l);) {
      if (l.size() == code.size() + 1 && l.substr(1) == code) {
        values.insert(l[0]);
      }
    }
    EXPECT_EQ(values, (std::set<char>{'0', '1'})) << signal << " (" << code << ") never changes";
  }
}

TEST_F(RtlCli, NetworksGiveTheSameResultsWithTheVerilatedRouters) {
  ASSERT_EQ(run("gen random --nodes 16 --steps 4 --seed 7 --out r.mcp").exit_code, 0);
  std::filesystem::copy_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp",
                             dir_ / "fig2.mcp");
  for (const std::string args :
       {"run fig2.mcp --arch torus --dims 2x2 --startup 10",
        "run r.mcp --arch torus --dims 4x4 --startup 5",
        "run r.mcp --arch mesh --dims 4x4 "
        "--packet-flits 3 --buffers 1",
        "run r.mcp --arch hypercube --dim 4 --ports all --router-delay 2",
        "traffic --topology mesh --dims 4x4 --rates 0.05,0.2 --flits 4 --warmup 100 --cycles 600",
        "traffic --topology hypercube --dim 4 --pattern bitrev --flits 6 --warmup 100 "
        "--cycles 600"}) {
    const Outcome model = run(args + " --json");
    ASSERT_EQ(model.exit_code, 0) << args << model.err;
    // The uniform choices take the interfaces too: routers and interfaces in RTL.
    for (const auto& [impl, named] :
         std::vector<std::pair<std::string, std::string>>{{"rtl", "router=rtl,ni=rtl"},
                                                          {"cosim", "router=cosim,ni=cosim"},
                                                          {"router=rtl", "router=rtl,ni=model"},
                                                          {"ni=cosim,router=rtl",
                                                           "router=rtl,ni=cosim"}}) {
      if (impl == "ni=cosim,router=rtl" && args.rfind("traffic", 0) != 0) {
        continue;  // a pair on traffic only: the CI budget
      }
      const Outcome rtl = run(args + " --impl " + impl + " --json");
      ASSERT_EQ(rtl.exit_code, 0) << args << " --impl " << impl << ": " << rtl.err;
      EXPECT_EQ(results(rtl.out), results(model.out)) << args << " --impl " << impl;
      EXPECT_EQ(nlohmann::json::parse(rtl.out)["impl"], named);
    }
  }
}

TEST_F(RtlCli, RouterCosimStopsAtAFaultWithCycleRouterSignalAndValues) {
  const std::string traffic =
      "traffic --topology torus --dims 4x4 --rate 0.2 --flits 4 --warmup 100 --cycles 600 "
      "--impl cosim";
  setenv("ORTHOSIM_TEST_FAULT", "0:flip:250:2", 1);
  const Outcome flip = run(traffic);
  EXPECT_EQ(flip.exit_code, 1);
  EXPECT_NE(flip.err.find("cosim mismatch at cycle 250 in torus.rtl.routers.r(0,0): out_head "
                          "model 0x"),
            std::string::npos)
      << flip.err;
  EXPECT_EQ(differing_bits(flip.err, "out_head"), 1u << 2) << flip.err;
  EXPECT_EQ(flip.out, "");
  setenv("ORTHOSIM_TEST_FAULT", "5:late:300", 1);
  const Outcome late = run(traffic);
  EXPECT_EQ(late.exit_code, 1);
  EXPECT_NE(late.err.find("in torus.rtl.routers.r(1,1): out_head model 0x0 rtl 0x"),
            std::string::npos)
      << late.err;
  // Without the co-simulation a test fault has nothing to be compared with: refused.
  const Outcome rtl = run("traffic --topology torus --dims 4x4 --impl rtl");
  EXPECT_EQ(rtl.exit_code, 2);
  EXPECT_NE(rtl.err.find("cosim"), std::string::npos) << rtl.err;
  // A node's interface: the flits its router takes (inj_take), bit 0 = injection channel 0.
  setenv("ORTHOSIM_TEST_FAULT", "ni:0:flip:250:0", 1);
  const Outcome ni = run(traffic);
  EXPECT_EQ(ni.exit_code, 1);
  EXPECT_NE(ni.err.find("cosim mismatch at cycle 250 in torus.rtl.ni(0,0): inj_take model 0x"),
            std::string::npos)
      << ni.err;
  EXPECT_EQ(differing_bits(ni.err, "inj_take"), 1u) << ni.err;
  const Outcome ni_routers = run("traffic --topology torus --dims 4x4 --impl router=cosim,ni=rtl");
  EXPECT_EQ(ni_routers.exit_code, 2);
  EXPECT_NE(ni_routers.err.find("ni=cosim"), std::string::npos) << ni_routers.err;
}

TEST_F(RtlCli, RouterFstReadsBackWithEveryRouter) {
  ASSERT_EQ(run("gen random --nodes 4 --steps 3 --seed 3 --out r.mcp").exit_code, 0);
  const Outcome r = run("run r.mcp --arch mesh --dims 2x2 --impl rtl --fst n.fst");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(dir_ / "n.fst"));
  ASSERT_EQ(std::system(("fst2vcd '" + (dir_ / "n.fst").string() + "' > '" +
                         (dir_ / "n.vcd").string() + "' 2>/dev/null")
                            .c_str()),
            0);
  const std::string vcd = slurp(dir_ / "n.vcd");
  for (const std::string node : {"(0,0)", "(1,0)", "(0,1)", "(1,1)"}) {
    EXPECT_NE(vcd.find("$scope module mesh.rtl.routers.r" + node + ".rtl $end"), std::string::npos)
        << node;
    EXPECT_NE(vcd.find("$scope module mesh.rtl.ni" + node + ".rtl $end"), std::string::npos)
        << node;
  }
  // The first router's inj_valid takes more than one value over the run.
  const std::size_t at = vcd.find(" inj_valid ");  // "$var wire 6 <code> inj_valid [5:0] $end"
  ASSERT_NE(at, std::string::npos);
  const std::size_t line = vcd.rfind("$var", at);
  std::istringstream decl(vcd.substr(line, at - line));
  std::string var, kind, width, code;
  decl >> var >> kind >> width >> code;
  std::set<std::string> values;
  std::istringstream lines(vcd.substr(vcd.find("$enddefinitions")));
  for (std::string l; std::getline(lines, l);) {
    const std::size_t space = l.find(' ');
    if (space != std::string::npos && l.substr(space + 1) == code) {
      values.insert(l.substr(0, space));
    }
  }
  EXPECT_GE(values.size(), 2u) << "inj_valid (" << code << ") never changes";
}

// The omp with the verilated module array: its arbiter and modules in place of the model's
// (memory=rtl, with the RTL controllers) and beside them (memory=cosim) give the model's results.
TEST_F(RtlCli, AccessOnTheOmpGivesTheSameResultsWithTheModuleArray) {
  for (const std::string args : {"--arch omp --n 4 --kind iwr --l 3 --repeat 4",
                                 "--arch omp --n 8 --kind interleaved --d 5 --repeat 3"}) {
    const Outcome model = run("access " + args + " --json");
    ASSERT_EQ(model.exit_code, 0) << args << model.err;
    for (const std::string impl : {"memory=rtl,bus=rtl", "memory=rtl,bus=rtl,im=rtl",
                                   "memory=cosim", "memory=cosim,bus=rtl"}) {
      const Outcome rtl = run("access " + args + " --impl " + impl + " --json");
      ASSERT_EQ(rtl.exit_code, 0) << args << " --impl " << impl << ": " << rtl.err;
      EXPECT_EQ(results(rtl.out), results(model.out)) << args << " --impl " << impl;
    }
  }
  const nlohmann::json j =
      nlohmann::json::parse(run("access --impl memory=rtl,bus=rtl --json").out);
  EXPECT_EQ(j["impl"],
            "im=model,bus=rtl,memory=rtl,router=model,ni=model,processor=model,sync=model,"
            "interconnect=model");
}

TEST_F(RtlCli, TheModuleArrayIsRefusedWhereItDoesNotFit) {
  for (const std::string arch : {"crossbar", "bus"}) {
    const Outcome o = run("access --arch " + arch + " --impl memory=cosim");
    EXPECT_EQ(o.exit_code, 2) << arch;
    EXPECT_NE(o.err.find("orthosim access: --impl: expected memory=model on the " + arch),
              std::string::npos)
        << o.err;
    EXPECT_NE(o.err.find("omp"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(", found 'memory=cosim'\n"), std::string::npos) << o.err;
  }
  const Outcome model_bus = run("access --impl memory=rtl,bus=model");
  EXPECT_EQ(model_bus.exit_code, 2);
  EXPECT_NE(model_bus.err.find("--impl: expected bus=rtl with memory=rtl ("), std::string::npos)
      << model_bus.err;
  EXPECT_NE(model_bus.err.find(", found 'memory=rtl' with 'bus=model'\n"), std::string::npos)
      << model_bus.err;
}

TEST_F(RtlCli, BadChoicesAreRefusedNamingTheOption) {
  const Outcome bus = run("traffic --topology mesh --dims 4x4 --impl bus=rtl");
  EXPECT_EQ(bus.exit_code, 2);
  EXPECT_NE(bus.err.find("router"), std::string::npos) << bus.err;
  const Outcome router = run("access --impl im=rtl,bus=rtl,router=rtl");
  EXPECT_EQ(router.exit_code, 2);
  EXPECT_NE(router.err.find("routers and interfaces belong to"), std::string::npos) << router.err;
  const Outcome ni = run("access --impl ni=rtl");
  EXPECT_EQ(ni.exit_code, 2);
  EXPECT_NE(ni.err.find("routers and interfaces belong to"), std::string::npos) << ni.err;
  // The verilated interface's limits, before the run. A packet's header carries no word, so a
  // packet of 4096 flits is a message of 4095 words, the most it counts.
  const Outcome largest = run(
      "traffic --topology mesh --dims 2x2 --impl rtl --flits 4096 --warmup 0 --cycles 10 --rate "
      "0.001");
  EXPECT_EQ(largest.exit_code, 0) << largest.err;
  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {"--flits 4097",
            "counts messages of at most 4095 words; a packet of 4097 flits (--flits) has 4096\n"},
           {"--startup 70000", "at most 65535 cycles (--startup)"}}) {
    const Outcome limit = run("traffic --topology mesh --dims 2x2 --impl rtl " + args);
    EXPECT_EQ(limit.exit_code, 2) << args;
    EXPECT_NE(limit.err.find(says), std::string::npos) << limit.err;
    EXPECT_EQ(limit.out, "") << args;
  }
  // The verilated interfaces exchange flits with verilated routers only.
  for (const std::string spec : {"ni=rtl", "ni=cosim,router=model"}) {
    const Outcome alone = run("traffic --topology mesh --dims 4x4 --impl " + spec);
    EXPECT_EQ(alone.exit_code, 2) << spec;
    EXPECT_NE(alone.err.find("--impl: expected router=rtl or router=cosim with ni="),
              std::string::npos)
        << alone.err;
    EXPECT_NE(alone.err.find(", found 'router=model'\n"), std::string::npos) << alone.err;
  }
  const Outcome ports = run("traffic --topology hypercube --dim 7 --impl rtl");
  EXPECT_EQ(ports.exit_code, 2);
  EXPECT_NE(ports.err.find("network ports"), std::string::npos) << ports.err;
  const Outcome clock = run("traffic --topology mesh --dims 4x4 --impl rtl --clock-ns 3");
  EXPECT_EQ(clock.exit_code, 2);
  EXPECT_NE(clock.err.find("--clock-ns"), std::string::npos) << clock.err;
  const Outcome network_fst = run("traffic --topology mesh --dims 4x4 --fst n.fst");
  EXPECT_EQ(network_fst.exit_code, 2);
  EXPECT_NE(network_fst.err.find("--fst"), std::string::npos) << network_fst.err;
  const Outcome fst = run("access --fst w.fst");
  EXPECT_EQ(fst.exit_code, 2);
  EXPECT_NE(fst.err.find("--fst"), std::string::npos) << fst.err;
  const Outcome memory = run("access --impl memory=rtl");
  EXPECT_EQ(memory.exit_code, 2);
  EXPECT_NE(memory.err.find("memory"), std::string::npos) << memory.err;
  const Outcome n = run("access --n 3 --impl im=rtl,bus=rtl");
  EXPECT_EQ(n.exit_code, 2);
  // Keyed by the parameter the verilated blocks do not fit, as the network's refusals are, naming
  // the choice that asked for them.
  EXPECT_EQ(n.err,
            "orthosim access: --n: expected 2, 4, 8, 16 processors, the sizes of the RTL bus "
            "controller that --impl asks for, found '3'\n");
  const Outcome im = run("access --impl im=rtl");
  EXPECT_EQ(im.exit_code, 2);
  EXPECT_NE(im.err.find("--impl: expected bus=rtl or bus=cosim with im=rtl ("), std::string::npos)
      << im.err;
  EXPECT_NE(im.err.find(", found 'im=rtl' with 'bus=model'\n"), std::string::npos) << im.err;
  const Outcome spec = run("access --impl fast");
  EXPECT_EQ(spec.exit_code, 2);
  EXPECT_NE(spec.err.find("--impl"), std::string::npos) << spec.err;
  const Outcome path = run("access --impl rtl --fst /nonexistent/w.fst");
  EXPECT_EQ(path.exit_code, 2);
  EXPECT_NE(path.err.find("--fst"), std::string::npos) << path.err;
}

// The whole machine in cosim: a fault on the model's side of a processor, the sync unit or the
// arbiter is caught at its cycle and signal. The omp's IWR workload (every processor writes
// l = 4 words to each of d = 3 modules, switches buses, reads) takes T = alpha + beta(l-1) +
// d tau l = 16 + 6 + 12 = 34 cycles per half and gamma = 8 for the switch ([PH91] Fig. 5, Eq. 1).
TEST_F(RtlCli, WholeMachineCosimCatchesAFaultInEachNewBlock) {
  const std::string iwr = "access --kind iwr --impl cosim";
  const std::pair<const char*, const char*> cases[] = {
      {"p2:late:1", "cosim mismatch at cycle 34 in omp.p2: activity model 0x3 rtl 0x4"},
      {"arbiter:late:1", "cosim mismatch at cycle 42 in omp.arbiter: grant[0] model 0x0 rtl 0x1"},
      {"sync:flip:5:0", "cosim mismatch at cycle 5 in omp.sync: interrupt_busy model 0x1 rtl 0x0"}};
  for (const auto& [fault, expected] : cases) {
    setenv("ORTHOSIM_TEST_FAULT", fault, 1);
    const Outcome r = run(iwr);
    EXPECT_EQ(r.exit_code, 1) << fault;
    EXPECT_NE(r.err.find(expected), std::string::npos) << fault << ": " << r.err;
    EXPECT_EQ(r.out, "") << fault;
  }
  // The whole machine's blocks exist in its co-simulation only.
  setenv("ORTHOSIM_TEST_FAULT", "p2:late:1", 1);
  const Outcome blocks = run("access --kind iwr --impl bus=cosim,im=cosim");
  EXPECT_EQ(blocks.exit_code, 2);
  EXPECT_NE(blocks.err.find("ORTHOSIM_TEST_FAULT"), std::string::npos) << blocks.err;
}

// The test-only switch names a block the run has and a bit of a 32-bit word (docs/rtl.md): on
// the omp of n = 4 the processors are 0..3, on a 16-node torus the interfaces 0..15; anything
// else is refused before the run (exit 2). A fault in a cycle the run never reaches changes
// nothing.
TEST_F(RtlCli, TheTestFaultNamesABlockOfTheRunAndABitOfAWord) {
  const std::string blocks = "access --kind iwr --n 4 --impl bus=cosim,im=cosim";
  const std::string machine = "access --kind iwr --n 4 --impl cosim";
  const std::string network =
      "traffic --topology torus --dims 4x4 --rate 0.2 --flits 4 --warmup 100 --cycles 600 "
      "--impl cosim";
  const std::pair<std::string, const char*> refused[] = {{blocks, "4:late:0"},
                                                         {blocks, "1:flip:16:32"},
                                                         {blocks, "1:flip:16"},
                                                         {blocks, "1:late:0:3"},
                                                         {blocks, "1:late:1234567890123"},
                                                         {blocks, "ni:1:late:0"},
                                                         {machine, "p4:late:1"},
                                                         {machine, "p:late:1"},
                                                         {machine, "sync:late:1"},
                                                         {machine, "arbiter:flip:1:0"},
                                                         {network, "16:late:0"},
                                                         {network, "ni:16:flip:250:0"}};
  for (const auto& [command, fault] : refused) {
    setenv("ORTHOSIM_TEST_FAULT", fault, 1);
    const Outcome r = run(command);
    EXPECT_EQ(r.exit_code, 2) << fault << ": " << r.err;
    EXPECT_NE(r.err.find("ORTHOSIM_TEST_FAULT"), std::string::npos) << fault << ": " << r.err;
    EXPECT_NE(r.err.find(fault), std::string::npos) << fault << ": " << r.err;
    EXPECT_EQ(r.out, "") << fault;
  }
  // The last of each: caught at its block.
  const std::pair<std::string, const char*> caught[] = {{blocks, "3:late:0"},
                                                        {blocks, "3:flip:16:31"},
                                                        {machine, "p3:late:1"},
                                                        {network, "15:flip:250:0"},
                                                        {network, "ni:15:late:0"}};
  for (const auto& [command, fault] : caught) {
    setenv("ORTHOSIM_TEST_FAULT", fault, 1);
    const Outcome r = run(command);
    EXPECT_EQ(r.exit_code, 1) << fault << ": " << r.err;
    EXPECT_NE(r.err.find("cosim mismatch at cycle "), std::string::npos) << fault << ": " << r.err;
  }
  // Twelve digits of cycles are accepted; a fault after the run's end is never put in.
  setenv("ORTHOSIM_TEST_FAULT", "3:late:999999999999", 1);
  const Outcome never = run(blocks);
  EXPECT_EQ(never.exit_code, 0) << never.err;
}

// A mismatch stops the run wherever it happens (a multiprocessor, a network's program, the
// first of two traffic rates): the FST stays FILE.partial for inspection, the models' outputs
// (--vcd, --trace) are not written, and nothing after the mismatch runs.
TEST_F(RtlCli, AMismatchLeavesTheFstPartialAndNothingElse) {
  ASSERT_EQ(run("gen random --nodes 4 --steps 3 --seed 3 --out r.mcp").exit_code, 0);
  const std::pair<const char*, std::string> cases[] = {
      {"1:flip:16:3", "access --kind iwr --impl cosim"},
      {"0:late:0", "run r.mcp --arch mesh --dims 2x2 --impl cosim"},
      {"0:late:0",
       "traffic --topology torus --dims 4x4 --rates 0.1,0.2 --flits 4 --warmup 100 --cycles 600 "
       "--impl cosim"}};
  for (const auto& [fault, command] : cases) {
    setenv("ORTHOSIM_TEST_FAULT", fault, 1);
    const bool traffic = command.rfind("traffic", 0) == 0;
    const Outcome r =
        run(command + " --fst w.fst --trace w.trace" + (traffic ? "" : " --vcd w.vcd"));
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("cosim mismatch at cycle "), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_TRUE(std::filesystem::exists(dir_ / "w.fst.partial")) << command;
    for (const char* absent : {"w.fst", "w.trace", "w.trace.partial", "w.vcd", "w.vcd.partial"}) {
      EXPECT_FALSE(std::filesystem::exists(dir_ / absent)) << command << ": " << absent;
    }
    std::filesystem::remove(dir_ / "w.fst.partial");
  }
}

TEST_F(RtlCli, DemoRunsAllThreeSystemsAsHardware) {
  const Outcome model = run("demo --json --out m");
  ASSERT_EQ(model.exit_code, 0) << model.err;
  for (const std::string impl : {"rtl", "cosim"}) {
    const Outcome rtl = run("demo --json --out " + impl + " --impl " + impl);
    ASSERT_EQ(rtl.exit_code, 0) << impl << ": " << rtl.err;
    nlohmann::json a = nlohmann::json::parse(model.out);
    nlohmann::json b = nlohmann::json::parse(rtl.out);
    ASSERT_EQ(a["systems"].size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(results(b["systems"][k].dump())["cycles"],
                results(a["systems"][k].dump())["cycles"])
          << impl << " system " << k;
      EXPECT_EQ(results(b["systems"][k].dump())["stats"], results(a["systems"][k].dump())["stats"])
          << impl << " system " << k;
      EXPECT_EQ(b["systems"][k]["payload_ok"], true) << impl << " system " << k;
    }
  }
}

// With the whole machine verilated the waveform's blocks are the RTL's: the processors' op and
// pc, the bus controllers' mode, bus, rw, sel, addr, data and valid, and the buses' busy and
// master change as the model's do, signal by signal and cycle for cycle, on [PH91] Fig. 2's
// program and on an IWR workload in which every processor is busy; in cosim the models' own.
TEST_F(RtlCli, TheWholeMachinesWaveformIsTheModels) {
  namespace fs = std::filesystem;
  fs::copy_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp", dir_ / "fig2.mcp");
  using orthosim::testing_support::VcdReader;
  for (const std::string arch : {"omp", "crossbar", "bus"}) {
    for (const std::string& workload : {"run fig2.mcp --arch " + arch,
                                        "access --arch " + arch + " --kind iwr --l 3 --repeat 2"}) {
      ASSERT_EQ(run(workload + " --vcd m.vcd").exit_code, 0) << workload;
      const VcdReader model((dir_ / "m.vcd").string());
      for (const std::string impl : {"rtl", "cosim"}) {
        const Outcome r = run(workload + " --impl " + impl + " --vcd r.vcd");
        ASSERT_EQ(r.exit_code, 0) << workload << " --impl " << impl << ": " << r.err;
        const VcdReader rtl((dir_ / "r.vcd").string());
        const std::string what = workload + " --impl " + impl;
        EXPECT_EQ(rtl.paths(), model.paths()) << what;
        EXPECT_EQ(rtl.end_time(), model.end_time()) << what;
        // Changes after the initial values, per kind of signal: each kind was compared.
        std::map<std::string, std::size_t> compared;
        for (const std::string& path : model.paths()) {
          if (!rtl.has(path)) {
            continue;
          }
          EXPECT_EQ(rtl.changes(path), model.changes(path)) << what << ": " << path;
          for (const auto& [time, value] : model.changes(path)) {
            compared[path.substr(path.rfind('.') + 1)] += time > 0 ? 1 : 0;
          }
        }
        for (const char* signal :
             {"op", "pc", "mode", "rw", "sel", "addr", "data", "valid", "busy", "master"}) {
          EXPECT_GT(compared[signal], 2u) << what << ": " << signal;
        }
      }
    }
  }
}

/// The lines of a text file.
std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::vector<std::string> lines;
  std::istringstream in(slurp(path));
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

/// "" when `b` has `a`'s lines, else the first line where they differ, from both.
std::string first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (std::size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
    const std::string x = k < a.size() ? a[k] : "(ended)";
    const std::string y = k < b.size() ? b[k] : "(ended)";
    if (x != y) {
      return "line " + std::to_string(k + 1) + ": model '" + x + "', other '" + y + "'";
    }
  }
  return "";
}

// With the whole machine verilated the event trace is the model's, line for line: every
// processor's activities, step marks and interrupt grants (each with the cycle it asked), every
// access's record (grant, end, bus, mode, direction, master, the cycle it was asked for, index
// set, address, vectors, slots) told from what the verilated unit did, on [PH91] Fig. 2's
// program (activate- and wait-syncs, interrupts that wait for the bus), an IWR workload and a
// scalar workload whose accesses wait for their buses; in cosim the models' own. Three systems
// that share one file (demo) interleave as the models do.
TEST_F(RtlCli, TheWholeMachinesEventTraceIsTheModels) {
  namespace fs = std::filesystem;
  fs::copy_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp", dir_ / "fig2.mcp");
  std::map<std::string, std::size_t> compared;
  std::size_t waited = 0;  // acc and intr lines granted after they were asked for
  for (const std::string arch : {"omp", "crossbar", "bus"}) {
    for (const std::string& workload :
         {"run fig2.mcp --arch " + arch, "access --arch " + arch + " --kind iwr --l 3 --repeat 2",
          "access --arch " + arch + " --kind scalar --repeat 3"}) {
      ASSERT_EQ(run(workload + " --trace m.trace").exit_code, 0) << workload;
      const std::vector<std::string> model = lines_of(dir_ / "m.trace");
      for (const std::string impl : {"rtl", "cosim"}) {
        const Outcome r = run(workload + " --impl " + impl + " --trace r.trace");
        ASSERT_EQ(r.exit_code, 0) << workload << " --impl " << impl << ": " << r.err;
        EXPECT_EQ(first_difference(model, lines_of(dir_ / "r.trace")), "")
            << workload << " --impl " << impl;
      }
      for (const std::string& line : model) {
        std::istringstream fields(line);
        std::string at, kind, f2, f3, f4, f5, f6, f7, f8;
        fields >> at >> kind >> f2 >> f3 >> f4 >> f5 >> f6 >> f7 >> f8;
        compared[kind] += 1;
        // acc END CTRL BUS MODE RW MASTER REQ ...; intr P REQ.
        waited += (kind == "acc" && f8 != at) || (kind == "intr" && f3 != at) ? 1 : 0;
      }
    }
  }
  for (const char* kind : {"act", "acc", "intr", "step"}) {
    EXPECT_GT(compared[kind], 10u) << kind;
  }
  EXPECT_GT(waited, 10u);
  // The three systems in one file; with a zero-cost interrupt bus too, where a processor passes
  // its activate-syncs (each one grant) and step marks in the zero-time steps of one cycle.
  for (const std::string costs : {"", " --sync-cycles 0"}) {
    ASSERT_EQ(run("demo --trace m.trace" + costs).exit_code, 0);
    for (const std::string impl : {"rtl", "cosim"}) {
      const Outcome demo = run("demo --impl " + impl + " --trace r.trace" + costs);
      ASSERT_EQ(demo.exit_code, 0) << impl << costs << ": " << demo.err;
      EXPECT_EQ(first_difference(lines_of(dir_ / "m.trace"), lines_of(dir_ / "r.trace")), "")
          << impl << costs;
    }
  }
}

TEST_F(RtlCli, TheWholeMachinesFstHasItsScope) {
  const Outcome r = run("access --arch bus --impl rtl --fst m.fst");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(std::system(("fst2vcd '" + (dir_ / "m.fst").string() + "' > '" +
                         (dir_ / "m.vcd").string() + "' 2>/dev/null")
                            .c_str()),
            0);
  const std::string vcd = slurp(dir_ / "m.vcd");
  EXPECT_NE(vcd.find("$scope module bus.machine $end"), std::string::npos);
  EXPECT_NE(vcd.find(" bus_valid "), std::string::npos);
}

TEST_F(RtlCli, WholeMachineChoicesAndProgramsThatDoNotFitAreRefused) {
  const std::pair<const char*, const char*> cases[] = {
      {"access --impl processor=rtl",
       "--impl: expected im=rtl, bus=rtl, sync=rtl and memory=rtl with processor=rtl (the "
       "processors, "},
      {"access --impl processor=rtl", "rtl/multiprocessor.sv: they talk through pins there and "
                                      "through calls in the models), found 'sync=model'\n"},
      {"access --impl sync=cosim",
       "--impl: expected processor=cosim with sync=cosim (the processors, "},
      {"access --impl sync=cosim", "found 'sync=cosim' with 'processor=model'\n"},
      {"access --impl interconnect=rtl",
       "--impl: expected memory=... for the omp's memory side, its module array (interconnect= is "
       "the crossbar's and the bus's), found 'interconnect=rtl'\n"},
      {"access --arch crossbar --impl processor=rtl,sync=rtl,im=rtl,bus=rtl,memory=rtl",
       "--impl: expected interconnect=... for the crossbar's memory side (memory= is the omp's "
       "module array), found 'memory=rtl'\n"},
      // A size the verilated blocks do not have is keyed by its option.
      {"access --impl rtl --alpha 70000",
       "orthosim access: --alpha: expected at most 65535 cycles, what the registers of the RTL "
       "processor that --impl asks for hold, found '70000'\n"},
      {"access --impl rtl --barrier-cycles 70000", "--barrier-cycles: expected at most 65535"},
      {"access --impl im=rtl,bus=rtl --gamma 70000",
       "orthosim access: --gamma: expected at most 65535 cycles, what the timing registers of the "
       "RTL bus controller that --impl asks for hold, found '70000'\n"},
      {"access --impl im=rtl,bus=rtl --buffer-words 1000",
       "orthosim access: --buffer-words: expected at most 256 words per data buffer, what the RTL "
       "bus controller that --impl asks for holds, found '1000'\n"},
      {"access --impl memory=cosim --module-words 5000",
       "orthosim access: --module-words: expected at most 4096 words per module, the depth of the "
       "RTL module array that --impl asks for, found '5000'\n"},
      {"access --impl memory=cosim --clock-ns 1",
       "orthosim access: --clock-ns: expected at least 2 ns: the RTL module array that --impl "
       "asks for is evaluated at half a cycle, found '1'\n"},
      {"access --impl rtl --buffer-words 1000",
       "orthosim access: --buffer-words: expected at most "},
      {"access --impl rtl --buffer-words 1000",
       " words per data buffer, what the RTL processor that --impl asks for holds, found "
       "'1000'\n"},
      {"traffic --topology mesh --dims 4x4 --impl processor=rtl", "router=..."},
      {"access --impl rtl --repeat 1000", "does not fit the RTL processor's instruction memory"},
      // An (organisation, n) this build did not verilate (the default build: rtl/limits.cmake):
      // the pairs built and the configure option that adds one.
      {"access --arch bus --n 8 --impl rtl",
       "orthosim access: --n: expected 4 processors, the sizes of the RTL bus that --impl asks "
       "for (this build verilates omp:4 omp:16 crossbar:4 bus:4; to add bus:8, configure with "
       "-DORTHOSIM_RTL_MP_MODELS=\"omp:4;omp:16;crossbar:4;bus:4;bus:8\" and build again), found "
       "'8'\n"}};
  for (const auto& [args, expected] : cases) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find(expected), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  // Every block spelled out is the uniform choice.
  const Outcome spelled =
      run("access --arch bus --impl processor=rtl,sync=rtl,im=rtl,bus=rtl,interconnect=rtl --json");
  ASSERT_EQ(spelled.exit_code, 0) << spelled.err;
  EXPECT_EQ(results(spelled.out), results(run("access --arch bus --impl rtl --json").out));
}

}  // namespace
