// End-to-end: the orthosim executable as a user runs it. Exit codes, error lines, JSON fields,
// the demo's table and waveform, and byte-identical waveforms across runs (determinism). map /
// run / gen: the listings of seed 004 section 4.3 written here from the paper, the access cost
// formula, Table 1 message counts.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Orthosim : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("orthosim_e2e_" + std::string(testing::UnitTest::GetInstance()
                                              ->current_test_info()
                                              ->name()) +
            "_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome run(const std::string& args) const {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string cmd = "cd '" + dir_.string() + "' && '" ORTHOSIM_BIN "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }

  fs::path dir_;
};

std::size_t lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST_F(Orthosim, HelpListsTheCommands) {
  const Outcome o = run("--help");
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("demo"), std::string::npos);
  EXPECT_NE(o.out.find("access"), std::string::npos);
  const Outcome a = run("access --help");
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_NE(a.out.find("--alpha"), std::string::npos);
  EXPECT_NE(a.out.find("--vcd"), std::string::npos);
}

TEST_F(Orthosim, DemoRunsTheSampleProgramOnTheThreeConfigurationsAndWritesWaveforms) {
  const Outcome o = run("demo");
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_TRUE(o.err.empty()) << o.err;
  // The omp's Step 5 of seed 004 section 4.3 C, word for word.
  EXPECT_NE(o.out.find("Step 5: C5_send((P1 -> M1,0), (P2 -> M2,0)), C5_recv(M1,0, M2,0 -> P0), "
                       "C3_send(P3 -> M3,1, M3,2), C3_recv((M3,1 -> P1), (M3,2 -> P2))"),
            std::string::npos)
      << o.out;
  for (const char* arch : {"omp", "crossbar", "bus"}) {
    EXPECT_TRUE(fs::exists(dir_ / "orthosim-demo" / (std::string(arch) + ".vcd"))) << arch;
    EXPECT_FALSE(fs::exists(dir_ / "orthosim-demo" / (std::string(arch) + ".vcd.partial")));
  }

  const Outcome j = run("demo --json --out other");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  ASSERT_EQ(doc["systems"].size(), 3u);
  std::vector<std::uint64_t> cycles;
  for (const auto& s : doc["systems"]) {
    EXPECT_TRUE(s["payload_ok"].get<bool>()) << s["arch"];
    // Fig. 2: 1 + 2 + 3 + 3 + 4 node messages, every one delivered.
    EXPECT_EQ(s["messages_sent"], 13u);
    EXPECT_EQ(s["messages_delivered"], 13u);
    ASSERT_EQ(s["steps"].size(), 5u);
    std::uint64_t sum = 0;
    for (const auto& step : s["steps"]) {
      sum += step["cycles"].get<std::uint64_t>();
    }
    EXPECT_EQ(sum, s["total_cycles"].get<std::uint64_t>()) << s["arch"];
    cycles.push_back(s["total_cycles"]);
    EXPECT_TRUE(fs::exists(dir_ / "other" / (s["arch"].get<std::string>() + ".vcd")));
  }
  EXPECT_LT(cycles[0], cycles[1]);  // the omp outperforms the crossbar ...
  EXPECT_LT(cycles[1], cycles[2]);  // ... which outperforms the single bus
}

TEST_F(Orthosim, AccessJsonHasTheMeasuredAndFormulaCycles) {
  for (const char* arch : {"omp", "crossbar", "bus"}) {
    const Outcome o =
        run(std::string("access --arch ") + arch + " --n 8 --kind iwr --d 5 --l 3 --json");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    for (const char* field : {"cycles", "formula_cycles", "payload_ok", "conflicts"}) {
      EXPECT_TRUE(j.contains(field)) << field;
    }
    EXPECT_EQ(j["cycles"], j["formula_cycles"]) << arch;
    EXPECT_TRUE(j["payload_ok"].get<bool>());
    EXPECT_EQ(j["messages"], 8u * 5u);
  }
  const Outcome o = run("access --arch omp --n 4 --kind scalar --alpha 7 --tau 3 --json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  // Write then read back, each alpha + tau (seed 004 Fig. 5(a)).
  EXPECT_EQ(nlohmann::json::parse(o.out)["cycles"], 2u * (7 + 3));
}

TEST_F(Orthosim, BadArgumentsGiveOneErrorLineAndExitCode2) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"access --arch ring", "--arch"},
      {"access --n 4 --d 5", "--d"},
      {"access --l 0", "--l"},
      {"access --alpha -3", "--alpha"},
      {"access --gamma x", "--gamma"},
      {"access --tau 0", "--tau"},
      {"access --kind vector", "--kind"},
      {"access --kind scalar --d 2", "scalar"},
      {"access --impl rtl", "--impl"},
      {"access --bogus 1", "bogus"},
      {"access --vcd /nonexistent-orthosim-dir/w.vcd", "--vcd"},
      {"frobnicate", "frobnicate"},
  };
  for (const auto& [args, mention] : cases) {
    const Outcome o = run(args);
    EXPECT_EQ(o.exit_code, 2) << args;
    EXPECT_EQ(lines(o.err), 1u) << args << ": " << o.err;
    EXPECT_NE(o.err.find(mention), std::string::npos) << args << ": " << o.err;
    EXPECT_TRUE(o.out.empty()) << args << ": " << o.out;
  }
  EXPECT_FALSE(fs::exists("/nonexistent-orthosim-dir"));
}

TEST_F(Orthosim, TheSameRunGivesByteIdenticalWaveformsAndOutput) {
  const Outcome a = run("access --arch crossbar --n 4 --kind iwr --vcd a.vcd --json");
  const Outcome b = run("access --arch crossbar --n 4 --kind iwr --vcd b.vcd --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string va = slurp(dir_ / "a.vcd");
  EXPECT_GT(va.size(), 1000u);
  EXPECT_EQ(va, slurp(dir_ / "b.vcd"));
  EXPECT_EQ(va.find("$date"), std::string::npos);
  nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  ja.erase("vcd");
  jb.erase("vcd");
  EXPECT_EQ(ja, jb);
}

// ---- map, run, gen -------------------------------------------------------------------------

const std::string kFig2 = ORTHOSIM_EXAMPLES_DIR "/fig2_sample.mcp";

/// The lines of `text` that start with "  Step " after the line that starts with `header`.
std::vector<std::string> step_lines_after(const std::string& text, const std::string& header) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind(header, 0) == 0) {
      inside = true;
      continue;
    }
    if (inside) {
      if (line.rfind("  Step ", 0) != 0) {
        break;
      }
      out.push_back(line.substr(2));
    }
  }
  return out;
}

TEST_F(Orthosim, MapPrintsThePapersListingsOfTheSampleProgram) {
  // Seed 004 section 2: the program-level operations of Fig. 2.
  const std::vector<std::string> program = {
      "Step 1: C1(N1, N0)",
      "Step 2: C2((N1, N2), (N3, N0))",
      "Step 3: C3((N0, N1), (N0, N2), (N0, N3))",
      "Step 4: C4((N0, N1), (N0, N2), (N0, N3))",
      "Step 5: C10((N1, N0), (N2, N0)), C8((N3, N1), (N3, N2))",
  };
  // Seed 004 section 4.3, A: single bus multiprocessor system.
  const std::vector<std::string> bus = {
      "Step 1: C1_send(P1 -> M0), C1_recv(M0 -> P0)",
      "Step 2: C1_send(P1 -> M2), C1_send(P3 -> M0), C1_recv(M2 -> P2), C1_recv(M0 -> P0)",
      "Step 3: C3_send(P0 -> M1, M2, M3), C1_recv(M1 -> P1), C1_recv(M2 -> P2), "
      "C1_recv(M3 -> P3)",
      "Step 4: C4_send(P0 -> M1, M2, M3), C1_recv(M1 -> P1), C1_recv(M2 -> P2), "
      "C1_recv(M3 -> P3)",
      "Step 5: C1_send(P1 -> M0), C1_send(P2 -> M0), C1_recv(M0 -> P0), C1_recv(M0 -> P0), "
      "C3_send(P3 -> M1, M2), C1_recv(M1 -> P1), C1_recv(M2 -> P2)",
  };
  // B: crossbar-connected multiprocessor system.
  const std::vector<std::string> crossbar = {
      "Step 1: C1_send(P1 -> M1,0), C1_recv(M1,0 -> P0)",
      "Step 2: C2_send((P1 -> M1,2), (P3 -> M3,0)), C2_recv((M1,2 -> P2), (M3,0 -> P0))",
      "Step 3: C3_send(P0 -> M0,1, M0,2, M0,3), C1_recv(M0,1 -> P1), C1_recv(M0,2 -> P2), "
      "C1_recv(M0,3 -> P3)",
      "Step 4: C4_send(P0 -> M0,1, M0,2, M0,3), C1_recv(M0,1 -> P1), C1_recv(M0,2 -> P2), "
      "C1_recv(M0,3 -> P3)",
      "Step 5: C1_send(P1 -> M1,0), C1_send(P2 -> M2,0), C1_recv(M1,0 -> P0), "
      "C1_recv(M2,0 -> P0), C3_send(P3 -> M3,1, M3,2), C1_recv(M3,1 -> P1), C1_recv(M3,2 -> P2)",
  };
  // C: orthogonal multiprocessor system.
  const std::vector<std::string> omp = {
      "Step 1: C1_send(P1 -> M1,0), C1_recv(M1,0 -> P0)",
      "Step 2: C2_send((P1 -> M1,2), (P3 -> M3,0)), C2_recv((M1,2 -> P2), (M3,0 -> P0))",
      "Step 3: C3_send(P0 -> M0,1, M0,2, M0,3), C3_recv((M0,1 -> P1), (M0,2 -> P2), "
      "(M0,3 -> P3))",
      "Step 4: C4_send(P0 -> M0,1, M0,2, M0,3), C4_recv((M0,1 -> P1), (M0,2 -> P2), "
      "(M0,3 -> P3))",
      "Step 5: C5_send((P1 -> M1,0), (P2 -> M2,0)), C5_recv(M1,0, M2,0 -> P0), "
      "C3_send(P3 -> M3,1, M3,2), C3_recv((M3,1 -> P1), (M3,2 -> P2))",
  };
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"bus", bus}, {"crossbar", crossbar}, {"omp", omp}};
  for (const auto& [arch, listing] : cases) {
    const Outcome o = run("map '" + kFig2 + "' --arch " + arch);
    ASSERT_EQ(o.exit_code, 0) << arch << ": " << o.err;
    EXPECT_TRUE(o.err.empty()) << o.err;
    EXPECT_EQ(step_lines_after(o.out, "communication operations"), program) << o.out;
    EXPECT_EQ(step_lines_after(o.out, "memory operations"), listing) << arch << "\n" << o.out;
  }
}

TEST_F(Orthosim, RunJsonDeliversEveryMessageAndEachAccessCostsTheFormula) {
  const std::uint64_t alpha = 10, beta = 3, tau = 2;
  std::vector<std::uint64_t> totals;
  for (const char* arch : {"omp", "crossbar", "bus"}) {
    const Outcome o = run("run '" + kFig2 + "' --arch " + arch +
                          " --alpha 10 --beta 3 --tau 2 --gamma 5 --json");
    ASSERT_EQ(o.exit_code, 0) << arch << ": " << o.err;
    EXPECT_TRUE(o.err.empty()) << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["command"], "run");
    EXPECT_EQ(j["arch"], arch);
    EXPECT_EQ(j["alpha"], alpha);
    EXPECT_TRUE(j["payload_ok"].get<bool>()) << arch;
    EXPECT_TRUE(j["completed"].get<bool>()) << arch;
    // Fig. 2: 1 + 2 + 3 + 3 + 4 node messages of 4 words.
    EXPECT_EQ(j["messages_sent"], 13u) << arch;
    EXPECT_EQ(j["messages_delivered"], 13u) << arch;
    EXPECT_EQ(j["words"], 13u * 4u) << arch;
    EXPECT_TRUE(j["delivery_failures"].empty());
    EXPECT_TRUE(j["blocked"].empty());
    EXPECT_TRUE(j["vcd"].is_null());
    EXPECT_EQ(j["time_ns"].get<std::uint64_t>(),
              j["total_cycles"].get<std::uint64_t>() * j["clock_ns"].get<std::uint64_t>());
    ASSERT_EQ(j["steps"].size(), 5u);
    std::uint64_t sum = 0;
    std::size_t accesses = 0;
    for (const auto& step : j["steps"]) {
      sum += step["cycles"].get<std::uint64_t>();
      EXPECT_EQ(step["end_cycle"].get<std::uint64_t>(), sum) << arch << " step " << step["step"];
      EXPECT_TRUE(step.contains("predicted_cycles"));
      for (const auto& op : step["operations"]) {
        for (const auto& a : op["accesses"]) {
          const auto d = a["d"].get<std::uint64_t>();
          const auto l = a["l"].get<std::uint64_t>();
          EXPECT_EQ(l, 4u);
          EXPECT_EQ(a["formula_cycles"].get<std::uint64_t>(),
                    alpha + beta * (l - 1) + d * tau * l)
              << arch << " " << op["text"];
          ++accesses;
        }
      }
    }
    EXPECT_GT(accesses, 0u);
    EXPECT_EQ(sum, j["total_cycles"].get<std::uint64_t>()) << arch;
    totals.push_back(j["total_cycles"].get<std::uint64_t>());
  }
  EXPECT_LT(totals[0], totals[2]);  // the omp beats the single bus
  EXPECT_LE(totals[0], totals[1]);  // and is no slower than the crossbar
}

TEST_F(Orthosim, GeneratedProgramsRunAndDeliverTable1sMessageCounts) {
  struct Case {
    std::string gen;
    std::uint64_t messages, words;  // Table 1 totals; words = messages x --len
  };
  const std::vector<Case> cases = {
      {"C1 --nodes 4 --sources 2 --dests 3 --len 5", 1, 5},
      {"C2 --nodes 5 --seed 3", 5, 5},                                // m
      {"C3 --nodes 5 --len 3", 4, 12},                                // m - 1
      {"C5 --nodes 6 --len 2", 5, 10},                                // m - 1
      {"C7 --nodes 4 --len 2", 12, 24},                               // m (m - 1)
      {"C6 --nodes 4", 12, 12},                                       // m (m - 1)
      {"C10 --nodes 6 --sources 1,2,3 --dests 0", 3, 3},              // sr
      {"C12 --nodes 6 --sources 1,2 --dests 3,4 --len 2", 4, 8},      // sr ds
      {"many-to-many-broadcast --nodes 6 --sources 0,5 --dests 2,3", 4, 4},
  };
  int k = 0;
  for (const Case& c : cases) {
    const std::string file = "p" + std::to_string(k++) + ".mcp";
    const Outcome g = run("gen " + c.gen + " --out " + file);
    ASSERT_EQ(g.exit_code, 0) << c.gen << ": " << g.err;
    EXPECT_TRUE(g.out.empty()) << g.out;
    ASSERT_TRUE(fs::exists(dir_ / file)) << c.gen;
    EXPECT_FALSE(fs::exists(dir_ / (file + ".partial"))) << c.gen;
    // The file is what gen prints without --out.
    EXPECT_EQ(slurp(dir_ / file), run("gen " + c.gen).out) << c.gen;
    for (const char* arch : {"omp", "crossbar", "bus"}) {
      const Outcome o = run("run " + file + " --arch " + arch + " --json");
      ASSERT_EQ(o.exit_code, 0) << c.gen << " on " << arch << ": " << o.err;
      const nlohmann::json j = nlohmann::json::parse(o.out);
      EXPECT_TRUE(j["payload_ok"].get<bool>()) << c.gen << " on " << arch;
      EXPECT_EQ(j["messages_sent"], c.messages) << c.gen << " on " << arch;
      EXPECT_EQ(j["messages_delivered"], c.messages) << c.gen << " on " << arch;
      EXPECT_EQ(j["words"], c.words) << c.gen << " on " << arch;
      ASSERT_EQ(j["steps"].size(), 1u);
      EXPECT_EQ(j["steps"][0]["cycles"], j["total_cycles"]) << c.gen << " on " << arch;
    }
  }
  // Random programs, on as many processors as nodes and clustered onto fewer.
  ASSERT_EQ(run("gen random --nodes 6 --steps 4 --len 5 --seed 11 --out r.mcp").exit_code, 0);
  EXPECT_FALSE(fs::exists(dir_ / "r.mcp.partial"));
  for (const char* args : {"--arch omp", "--arch crossbar", "--arch bus", "--arch omp --n 3",
                           "--arch bus --n 2"}) {
    const Outcome o = run(std::string("run r.mcp --json ") + args);
    ASSERT_EQ(o.exit_code, 0) << args << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["payload_ok"].get<bool>()) << args;
    EXPECT_GT(j["messages_sent"].get<std::uint64_t>(), 0u) << args;
    EXPECT_EQ(j["messages_sent"], j["messages_delivered"]) << args;
    EXPECT_EQ(j["steps"].size(), 4u) << args;
  }
}

TEST_F(Orthosim, TheSameProgramRunGivesByteIdenticalWaveformsAndOutput) {
  const Outcome a = run("run '" + kFig2 + "' --arch omp --vcd a.vcd --json");
  const Outcome b = run("run '" + kFig2 + "' --arch omp --vcd b.vcd --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string va = slurp(dir_ / "a.vcd");
  EXPECT_GT(va.size(), 1000u);
  EXPECT_EQ(va.rfind("$", 0), 0u);  // a VCD starts with a declaration
  EXPECT_NE(va.find("$enddefinitions"), std::string::npos);
  EXPECT_EQ(va, slurp(dir_ / "b.vcd"));
  EXPECT_FALSE(fs::exists(dir_ / "a.vcd.partial"));
  nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(ja["vcd"], "a.vcd");
  ja.erase("vcd");
  jb.erase("vcd");
  EXPECT_EQ(ja, jb);
  // The table says where the waveform went.
  const Outcome t = run("run '" + kFig2 + "' --arch bus --vcd c.vcd");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("c.vcd"), std::string::npos) << t.out;
  EXPECT_TRUE(fs::exists(dir_ / "c.vcd"));
}

TEST_F(Orthosim, BadProgramCommandsGiveOneErrorLineAndExitCode2) {
  {
    std::ofstream(dir_ / "bad.mcp") << "nodes 4\nstep\n  send 1 -> 4\n";
    std::ofstream(dir_ / "plain") << "a file, not a folder\n";
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"map", "PROGRAM"},
      {"run --arch omp", "PROGRAM"},
      {"map missing.mcp", "missing.mcp"},
      {"run missing.mcp", "missing.mcp"},
      {"map bad.mcp", "bad.mcp:3:13:"},  // the '4' of "  send 1 -> 4"
      {"run bad.mcp --arch bus", "bad.mcp:3:13:"},
      {"map '" + kFig2 + "' --arch ring", "--arch"},
      {"run '" + kFig2 + "' --arch ring", "--arch"},
      {"map '" + kFig2 + "' --n 0", "--n"},
      {"run '" + kFig2 + "' --n 0", "--n"},
      {"run '" + kFig2 + "' --buffer-words 1", "--buffer-words"},
      {"run '" + kFig2 + "' --vcd plain/w.vcd", "plain/w.vcd"},
      {"gen C13 --nodes 4", "C13"},
      {"gen C3", "--nodes"},
      {"gen random --nodes 4", "--steps"},
      {"gen C8 --nodes 3", "--nodes"},
      {"gen C1 --nodes 4 --sources 7", "--sources"},
      {"gen C1 --nodes 4 --out plain/p.mcp", "--out"},
      {"demo --n 0", "--n"},
      {"demo --out plain/waves", "plain/waves"},
  };
  for (const auto& [args, mention] : cases) {
    const Outcome o = run(args);
    EXPECT_EQ(o.exit_code, 2) << args;
    EXPECT_EQ(lines(o.err), 1u) << args << ": " << o.err;
    EXPECT_NE(o.err.find(mention), std::string::npos) << args << ": " << o.err;
    EXPECT_TRUE(o.out.empty()) << args << ": " << o.out;
  }
  EXPECT_FALSE(fs::exists(dir_ / "plain" / "p.mcp.partial"));
  EXPECT_EQ(slurp(dir_ / "plain"), "a file, not a folder\n");
}

}  // namespace
