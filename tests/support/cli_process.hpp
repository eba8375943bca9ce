// End-to-end test support: runs the orthosim executable as a user would, in a fresh temporary
// folder per test, and captures its exit code, standard output and standard error.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace orthosim::testing_support {

/// The orthosim executable the end-to-end tests run: the environment's ORTHOSIM_UNDER_TEST when it
/// is set, else the one built beside the test (ORTHOSIM_BIN). The sanitizer build sets it: it runs
/// the default build's end-to-end test executables against its own instrumented orthosim rather
/// than compiling them again (tests/README.md, "What CI runs").
inline std::string orthosim_under_test() {
  const char* from_environment = std::getenv("ORTHOSIM_UNDER_TEST");
  return from_environment != nullptr && *from_environment != '\0' ? from_environment : ORTHOSIM_BIN;
}

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Expects `o` to be the refusal of bad input: exit code 2 before anything ran, nothing on
/// standard output, and one line on standard error that contains `mention` (the option, file,
/// line or value at fault). `what` names the case in a failure's message.
inline void expect_refused(const Outcome& o, const std::string& mention,
                           const std::string& what = "") {
  EXPECT_EQ(o.exit_code, 2) << what << ": " << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": " << o.err;
  EXPECT_NE(o.err.find(mention), std::string::npos) << what << ": " << o.err;
  EXPECT_TRUE(o.out.empty()) << what << ": " << o.out;
}

/// expect_refused, the one line on standard error being exactly `line`.
inline void expect_refused_with(const Outcome& o, const std::string& line,
                                const std::string& what = "") {
  expect_refused(o, line, what);
  EXPECT_EQ(o.err, line + "\n") << what;
}

/// A test with its own working folder; run() executes `orthosim args` there.
class CliTest : public testing::Test {
 protected:
  CliTest() : binary_(orthosim_under_test()) {}

  void SetUp() override {
    // A parameterized test's name has a '/' ("Name/0"): as a folder of its own inside the test's
    // folder, it would leave the outer one behind after TearDown.
    std::string name = testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');
    dir_ = std::filesystem::temp_directory_path() /
           ("orthosim_e2e_" + name + "_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  [[nodiscard]] Outcome run(const std::string& args) const {
    return execute("'" + binary_ + "' " + args);
  }

  /// run() with `input` as the standard input (none: the standard input closed, as a job
  /// started with `<&-` has it), killed after `time_limit_seconds` so that a command that would
  /// wait forever fails the test instead of hanging it (exit code 137).
  [[nodiscard]] Outcome run(const std::string& args, const std::optional<std::string>& input,
                            int time_limit_seconds) const {
    std::string redirect = " <&-";
    if (input) {
      const std::filesystem::path in = dir_ / "stdin";
      std::ofstream(in, std::ios::binary) << *input;
      redirect = " <'" + in.string() + "'";
    }
    return execute("timeout -s KILL " + std::to_string(time_limit_seconds) + " '" + binary_ + "' " +
                   args + redirect);
  }

  std::filesystem::path dir_;

 private:
  [[nodiscard]] Outcome execute(const std::string& command) const {
    const std::filesystem::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string cmd = "cd '" + dir_.string() + "' && " + command + " >'" + out.string() +
                            "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }

  std::string binary_;
};

}  // namespace orthosim::testing_support
