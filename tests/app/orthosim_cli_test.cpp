// End-to-end: the orthosim executable as a user runs it. Exit codes, error lines, JSON fields,
// the demo's table and waveform, and byte-identical waveforms across runs (determinism).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

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

}  // namespace
