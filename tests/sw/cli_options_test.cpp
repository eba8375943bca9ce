// What every command of `orthosim` shares on the command line (sw/cli) against a fake Runner:
// help, unknown commands, bad input refused with exit 2 and one line naming the option before
// anything runs, options that do not apply, check_cli, and the output options' checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/cli.hpp"
#include "sw/cli/commands.hpp"
#include "sw/cli/completion.hpp"
#include "sw/cli/options.hpp"
#include "sw/cli/variant_options.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/routed/network_config.hpp"
#include "sw/sweep/sweep_plan.hpp"
#include "sw/topology/topology.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

// `orthosim help COMMAND` is that command's --help (it printed the list of commands again);
// an unknown COMMAND is named as an unknown command.
TEST(Cli, HelpOfACommandIsItsHelp) {
  for (const std::string flag : {"help", "--help", "-h"}) {
    const Result r = run({flag, "traffic"});
    EXPECT_EQ(r.code, sw::kExitOk) << flag << ": " << r.err;
    EXPECT_EQ(r.out, run({"traffic", "--help"}).out) << flag;
  }
  // Help of help is the list of commands (not a help of itself without end).
  EXPECT_EQ(run({"help", "--help"}).out, run({"--help"}).out);
  EXPECT_EQ(run({"--help", "help"}).code, sw::kExitOk);
  const Result unknown = run({"help", "frobnicate"});
  EXPECT_EQ(unknown.code, sw::kExitBadInput);
  EXPECT_TRUE(contains(unknown.err, "unknown command 'frobnicate'")) << unknown.err;
  EXPECT_EQ(unknown.out, "");
}

// A table says where the run's event trace went, as it says where the waveform went; the JSON
// is left as it is.
TEST(Cli, ATableNamesTheEventTraceItsRunWrote) {
  const std::string trace = (std::filesystem::temp_directory_path() /
                             ("orthosim_cli_" + std::to_string(getpid()) + ".trace"))
                                .string();
  const std::vector<std::vector<std::string>> commands = {
      {"access", "--trace", trace},
      {"traffic", "--topology", "mesh", "--dims", "2x2", "--trace", trace},
  };
  for (const std::vector<std::string>& args : commands) {
    const Result table = run(args);
    ASSERT_EQ(table.code, sw::kExitOk) << table.err;
    // access's table names it in a row of its own, its file in the column of the waveform's.
    const std::string named = args[0] == "access" ? "\n  event trace        " : "\nevent trace: ";
    EXPECT_TRUE(contains(table.out, named + trace + "\n")) << table.out;
    std::vector<std::string> json = args;
    json.push_back("--json");
    const Result j = run(json);
    ASSERT_EQ(j.code, sw::kExitOk) << j.err;
    EXPECT_FALSE(contains(j.out, "event trace:")) << j.out;
  }
  EXPECT_FALSE(contains(run({"access"}).out, "event trace:"));
  // The file names of access's rows start in one column: the waveform's and the trace's.
  const Result both = run({"access", "--vcd", trace + ".vcd", "--trace", trace});
  ASSERT_EQ(both.code, sw::kExitOk) << both.err;
  const auto column_of = [&both](const std::string& file) {
    const std::size_t at = both.out.find(file + "\n");
    return at - (both.out.rfind('\n', at) + 1);
  };
  EXPECT_EQ(column_of(trace), column_of(trace + ".vcd")) << both.out;
  const std::string plain = run({"access"}).out;
  EXPECT_EQ(std::count(both.out.begin(), both.out.end(), '\n'),
            std::count(plain.begin(), plain.end(), '\n') + 2)
      << "one row each for the waveform and the trace:\n"
      << both.out;
  for (const std::string& written : {trace, trace + ".vcd", trace + ".gtkw"}) {
    std::filesystem::remove(written);
  }
}

// The version takes no argument: `version --json` is refused, not answered in text as if JSON.
TEST(Cli, TheVersionTakesNoArgument) {
  EXPECT_EQ(run({"version"}).code, sw::kExitOk);
  for (const std::string flag : {"--version", "version"}) {
    const Result r = run({flag, "--json"});
    EXPECT_EQ(r.code, sw::kExitBadInput) << flag;
    EXPECT_EQ(r.out, "") << flag;
    EXPECT_EQ(r.err, "orthosim " + flag +
                         ": '--json': expected no argument (the version is printed as text), "
                         "found an argument\n");
  }
}

TEST(Cli, HelpListsTheCommands) {
  for (const std::string flag : {"--help", "-h", "help"}) {
    const Result r = run({flag});
    EXPECT_EQ(r.code, sw::kExitOk) << flag;
    EXPECT_TRUE(contains(r.out, "access")) << r.out;
    EXPECT_TRUE(contains(r.out, "demo")) << r.out;
    EXPECT_EQ(r.err, "") << flag;
  }
}

// The list of commands is a table: every summary starts in one column, two spaces past the
// longest command's name, so that the names stand apart from the text.
TEST(Cli, TheCommandListIsOneColumnTwoSpacesPastTheLongestName) {
  const Result r = run({"--help"});
  std::istringstream lines(r.out.substr(r.out.find("commands:\n") + 10));
  std::vector<std::pair<std::string, std::size_t>> names_and_columns;
  std::size_t longest = 0;
  for (std::string line; std::getline(lines, line);) {
    ASSERT_EQ(line.rfind("  ", 0), 0U) << line;
    const std::size_t name_end = line.find(' ', 2);
    const std::string name = line.substr(2, name_end - 2);
    names_and_columns.emplace_back(name, line.find_first_not_of(' ', name_end));
    longest = std::max(longest, name.size());
  }
  ASSERT_GE(names_and_columns.size(), 12U) << r.out;
  for (const auto& [name, column] : names_and_columns) {
    EXPECT_EQ(column, 2 + longest + 2) << name;
  }
}

// ORTHOSIM_PROGRESS_AFTER_MS is a count of milliseconds of one to nine digits (docs/cli.md,
// Progress); anything else, the empty value included, is refused naming the variable.
TEST(Cli, TheProgressThresholdIsMillisecondsOfOneToNineDigits) {
  EXPECT_EQ(sw::progress_settings(false, nullptr).after, std::chrono::milliseconds(1000));
  EXPECT_EQ(sw::progress_settings(false, "0").after, std::chrono::milliseconds(0));
  EXPECT_EQ(sw::progress_settings(false, "250").after, std::chrono::milliseconds(250));
  EXPECT_EQ(sw::progress_settings(false, "999999999").after, std::chrono::milliseconds(999999999));
  EXPECT_TRUE(sw::progress_settings(true, "5").stderr_is_terminal);
  EXPECT_FALSE(sw::progress_settings(false, "5").stderr_is_terminal);
  EXPECT_TRUE(sw::progress_settings(true, nullptr).stderr_is_terminal);
  for (const char* bad : {"", "1000000000", "-1", "1s", " 5"}) {
    try {
      (void)sw::progress_settings(true, bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const sw::InputError& e) {
      EXPECT_TRUE(contains(e.what(), "ORTHOSIM_PROGRESS_AFTER_MS")) << e.what();
      EXPECT_TRUE(contains(e.what(), "'" + std::string(bad) + "'")) << e.what();
    }
  }
}

/// An output that takes `room` characters and then refuses the rest, as a full disk does.
class FullAfter : public std::streambuf {
 public:
  explicit FullAfter(std::size_t room) : room_(room) {}
  std::string taken;

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof()) || taken.size() >= room_) {
      return traits_type::eof();
    }
    taken.push_back(traits_type::to_char_type(ch));
    return ch;
  }

 private:
  std::size_t room_;
};

// An output cut short is a failed run, whatever the command, with a line that says so and names
// the command as its other lines do (it said "orthosim: error:" for every command); an output
// with room for it all is not; bad input keeps its own code.
TEST(Cli, AnOutputThatCannotBeWrittenInFullFailsTheRun) {
  const std::vector<std::vector<std::string>> commands = {{"--help"},
                                                          {"access", "--arch", "omp", "--n", "4",
                                                           "--kind", "iwr", "--d", "2", "--l", "2",
                                                           "--json"}};
  for (const std::vector<std::string>& args : commands) {
    for (const std::size_t room : {std::size_t{0}, std::size_t{40}, std::size_t{1} << 20}) {
      FakeRunner runner;
      FullAfter full(room);
      std::ostream out(&full);
      std::ostringstream err;
      const int code = sw::run_cli(args, runner, out, err);
      const bool fits = room == std::size_t{1} << 20;
      EXPECT_EQ(code, fits ? sw::kExitOk : sw::kExitRunFailed) << joined(args) << room;
      const std::string who = args.front() == "access" ? "orthosim access" : "orthosim";
      EXPECT_EQ(err.str(), fits ? ""
                                : who + ": error: the output could not be written in full "
                                        "(standard output)\n");
    }
  }
  FullAfter none(0);
  std::ostream out(&none);
  std::ostringstream err;
  FakeRunner runner;
  EXPECT_EQ(sw::run_cli({"access", "--n", "zero"}, runner, out, err), sw::kExitBadInput);
  EXPECT_FALSE(contains(err.str(), "could not be written")) << err.str();
}

TEST(Cli, NoCommandIsBadInput) {
  const Result r = run({});
  EXPECT_EQ(r.code, sw::kExitBadInput);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "access")) << r.err;
}

TEST(Cli, CommandHelpListsItsOptionsAndRunsNothing) {
  FakeRunner runner;
  const Result r = run({"access", "--help"}, runner);
  EXPECT_EQ(r.code, sw::kExitOk);
  for (const std::string option :
       {"--arch", "--kind", "--d", "--l", "--alpha", "--tau", "--json"}) {
    EXPECT_TRUE(contains(r.out, option)) << option;
  }
  EXPECT_TRUE(runner.access_requests.empty());
}

TEST(Cli, UnknownCommandIsBadInput) {
  const Result r = run({"frobnicate", "--n", "4"});
  EXPECT_EQ(r.code, sw::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "frobnicate")) << r.err;
  EXPECT_EQ(r.out, "");
}

/// The error line after the command's prefix ("orthosim access: ").
std::string error_after_prefix(const Result& r) {
  const std::size_t colon = r.err.find(": ");
  return colon == std::string::npos ? r.err : r.err.substr(colon + 2);
}

// The bus costs have one parser and one limit: `tables` refuses what `access` refuses, in the same
// words.
TEST(Cli, TablesReadsTheBusCostsWithTheSystemsParser) {
  for (const std::string cost : {"alpha", "beta", "tau", "gamma"}) {
    for (const std::string value : {"1000001", "99999999", "x"}) {
      const Result access = run({"access", "--" + cost, value});
      const Result tables =
          run({"tables", "--topology", "hypercube", "--m", "4", "--n", "4", "--" + cost, value});
      EXPECT_EQ(access.code, sw::kExitBadInput) << cost << " " << value;
      EXPECT_EQ(tables.code, sw::kExitBadInput) << cost << " " << value;
      EXPECT_EQ(error_after_prefix(tables), error_after_prefix(access)) << cost << " " << value;
    }
  }
}

// A sweep point's child: the target, the variant, each parameter as its option, --json.
TEST(CliSweep, AChildsCommandLineIsTheTargetTheVariantEachParameterAndJson) {
  namespace sweep = sw::sweep;
  sweep::SweepSpec spec;
  spec.target = "p.mcp";
  spec.variant_paths = {"v0.yaml", "v1.yaml"};
  spec.params = {sweep::parse_param("alpha=1,2,3"), sweep::parse_param("gamma=0,8")};
  const std::vector<sweep::Point> points = sweep::enumerate_points(spec);
  ASSERT_EQ(points.size(), 12u);
  EXPECT_EQ(sw::cli::sweep_child_args(spec, points[5]),
            (std::vector<std::string>{"run", "p.mcp", "--variant", "v0.yaml", "--alpha", "3",
                                      "--gamma", "8", "--json"}));
  spec.target = "traffic:bitrev";
  spec.kind = sweep::TargetKind::Traffic;
  EXPECT_EQ(sw::cli::sweep_child_args(spec, points[6]),
            (std::vector<std::string>{"traffic", "--pattern", "bitrev", "--variant", "v1.yaml",
                                      "--alpha", "1", "--gamma", "0", "--json"}));
}

// A ParameterError names no option: sw/cli places it at the option of its parameter, or at the
// variant file's field when the file gave the value.
TEST(Cli, AParameterErrorIsPlacedAtItsOptionOrAtTheVariantFieldThatGaveIt) {
  const sw::ParameterError e("vcs", "an even number");
  EXPECT_EQ(std::string(sw::cli::locate(e, {}).what()), "--vcs: an even number");
  sw::cli::VariantOrigins origins;
  origins.emplace("vcs", sw::VariantValue{"vcs", "3", {"v.yaml", 4, 1}, {"v.yaml", 4, 6}});
  EXPECT_EQ(std::string(sw::cli::locate(e, origins).what()), "v.yaml:4:6: vcs: an even number");
  const sw::ParameterError other("buffers", "expected 1..1024, found 0");
  EXPECT_EQ(std::string(sw::cli::locate(other, origins).what()),
            "--buffers: expected 1..1024, found 0");
}

// A lower layer names another parameter in braces; sw/cli spells it as the user gave it: the
// option, or the variant field at its position. Braces around anything but a parameter's name
// (an empty pair, a set of nodes) stay as they are.
TEST(Cli, TheParametersAMessageNamesAreSpelledAsTheUserGaveThem) {
  const sw::ParameterError e("l", "at most 2 words ({buffer-words}) for {kind} block");
  EXPECT_EQ(std::string(sw::cli::locate(e, {}).what()),
            "--l: at most 2 words (--buffer-words) for --kind block");
  sw::cli::VariantOrigins origins;
  origins.emplace("buffer-words",
                  sw::VariantValue{"buffer-words", "2", {"v.yaml", 3, 1}, {"v.yaml", 3, 15}});
  EXPECT_EQ(std::string(sw::cli::locate(e, origins).what()),
            "--l: at most 2 words (buffer-words at v.yaml:3:15) for --kind block");
  EXPECT_EQ(sw::cli::spell_parameters("{} {N1,N2} {Buffers} {2x} {n", {}),
            "{} {N1,N2} {Buffers} {2x} {n");
  EXPECT_EQ(sw::cli::spell_parameters("{a{n}} {n}", {}), "{a--n} --n");
}

// Each out-of-range network value is keyed by its parameter, the option of the same name.
TEST(NetworkConfig, EachBadValueIsKeyedByItsParameter) {
  struct Case {
    std::string parameter;
    void (*spoil)(sw::NetworkConfig&);
  };
  const std::vector<Case> cases = {
      {"buffers", [](sw::NetworkConfig& c) { c.router.buffer_flits = 0; }},
      {"vcs", [](sw::NetworkConfig& c) { c.router.vcs = 17; }},
      {"vcs",
       [](sw::NetworkConfig& c) {
         c.topology = sw::Topology::torus({4, 4});
         c.router.vcs = 3;
       }},
      {"router-delay", [](sw::NetworkConfig& c) { c.router.delay = 0; }},
      {"packet-flits", [](sw::NetworkConfig& c) { c.ni.packet_flits = 1; }},
      {"clock-ns", [](sw::NetworkConfig& c) { c.clock_period_ns = 0; }},
      {"watchdog", [](sw::NetworkConfig& c) { c.watchdog_cycles = 0; }},
  };
  EXPECT_NO_THROW(static_cast<void>(sw::NetworkConfig{}.validated()));
  for (const Case& k : cases) {
    sw::NetworkConfig c;
    k.spoil(c);
    try {
      static_cast<void>(c.validated());
      ADD_FAILURE() << k.parameter << ": accepted";
    } catch (const sw::ParameterError& e) {
      EXPECT_EQ(e.parameter(), k.parameter) << e.what();
    }
  }
}

TEST(Cli, BadInputExitsTwoWithOneLineNamingTheOptionAndNoOutput) {
  const std::vector<BadInput> cases = {
      {{"access", "--arch", "foo"}, {"--arch", "foo"}},
      {{"access", "--d", "9", "--n", "4"}, {"--d", "9"}},
      {{"access", "--kind", "block", "--d", "0"}, {"--d"}},
      {{"access", "--l", "0"}, {"--l"}},
      {{"access", "--repeat", "0"}, {"--repeat"}},
      {{"access", "--kind", "interleaved", "--l", "2"}, {"--l"}},
      {{"access", "--alpha", "-3"}, {"--alpha", "-3"}},
      {{"access", "--alpha=-3"}, {"--alpha", "-3"}},
      {{"access", "--beta", "x"}, {"--beta", "x"}},
      {{"access", "--tau", "0"}, {"--tau"}},
      {{"access", "--n", "0"}, {"--n"}},
      {{"access", "--n", "257"}, {"--n"}},
      {{"access", "--buffer-words", "0"}, {"--buffer-words"}},
      {{"access", "--kind", "vector"}, {"--kind", "vector"}},
      {{"access", "--frobnicate", "1"}, {"frobnicate"}},
      {{"access", "--impl", "fast"}, {"--impl", "fast"}},
      {{"access", "stray"}, {"'stray'", "orthosim access takes no bare argument"}},
      {{"demo", "--n", "0"}, {"--n"}},
      {{"demo", "--arch", "omp"}, {"arch"}},
  };
  expect_refused_before_running(cases);
}

// docs/cli.md's ranges of the numeric options (System options, Network options, access): both
// ends are taken and reach the request as given, one past either end is refused naming the
// option and the range.
TEST(Cli, EveryNumericOptionTakesExactlyItsDocumentedRange) {
  using Read = std::function<std::uint64_t(const FakeRunner&)>;
  struct Range {
    std::string option;
    std::uint64_t min;
    std::uint64_t max;
    Read read;
    std::uint64_t least_taken = min;  ///< where a smaller value fails another check
  };
  const auto system = [](auto field) -> Read {
    return [field](const FakeRunner& r) {
      return static_cast<std::uint64_t>(field(*r.access_requests.back().config));
    };
  };
  const auto network = [](auto field) -> Read {
    return [field](const FakeRunner& r) {
      return static_cast<std::uint64_t>(field(*r.traffic_requests.back().config));
    };
  };
  using Sys = const sw::SystemConfig&;
  using Net = const sw::NetworkConfig&;
  const std::vector<Range> access = {
      {"n", 1, 256, system([](Sys c) { return c.n; })},
      {"alpha", 0, 1'000'000, system([](Sys c) { return c.timing.alpha; })},
      {"beta", 0, 1'000'000, system([](Sys c) { return c.timing.beta; })},
      {"tau", 1, 1'000'000, system([](Sys c) { return c.timing.tau; })},
      {"gamma", 0, 1'000'000, system([](Sys c) { return c.timing.gamma; })},
      {"clock-ns", 1, 1'000'000, system([](Sys c) { return c.clock_period_ns; })},
      {"sync-cycles", 0, 1'000'000, system([](Sys c) { return c.sync.activate; })},
      {"barrier-cycles", 0, 1'000'000, system([](Sys c) { return c.sync.barrier; })},
      {"buffer-words", 1, 1u << 20, system([](Sys c) { return c.buffer_words; })},
      {"module-words", 1, 1u << 24, system([](Sys c) { return c.module_words; })},
      // The scalar access needs 2 d l = 2 words of local memory.
      {"local-words", 1, 1u << 26, system([](Sys c) { return c.local_words; }), 2},
      {"repeat", 1, 1'000'000,
       [](const FakeRunner& r) { return r.access_requests.back().workload.repetitions; }}};
  const std::vector<Range> traffic = {
      {"vcs", 1, 16, network([](Net c) { return c.router.vcs; })},
      {"buffers", 1, 1024, network([](Net c) { return c.router.buffer_flits; })},
      {"router-delay", 1, 1000, network([](Net c) { return c.router.delay; })},
      {"startup", 0, 1'000'000, network([](Net c) { return c.ni.startup; })},
      {"packet-flits", 0, 1u << 20, network([](Net c) { return c.ni.packet_flits; })},
      {"watchdog", 1, 1'000'000'000, network([](Net c) { return c.watchdog_cycles; })},
      {"clock-ns", 1, 1'000'000, network([](Net c) { return c.clock_period_ns; })}};
  // Each option sets its own field and leaves every other one at its default.
  const auto check = [](const std::vector<std::string>& command, const Range& range,
                        const std::vector<Range>& all) {
    FakeRunner defaults;
    ASSERT_EQ(run(command, defaults).code, sw::kExitOk) << joined(command);
    for (const std::uint64_t value : {range.least_taken, range.max}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--" + range.option, std::to_string(value)});
      FakeRunner runner;
      const Result r = run(args, runner);
      ASSERT_EQ(r.code, sw::kExitOk) << joined(args) << r.err;
      EXPECT_EQ(range.read(runner), value) << joined(args);
      for (const Range& other : all) {
        if (other.option != range.option) {
          EXPECT_EQ(other.read(runner), other.read(defaults))
              << joined(args) << ": " << other.option;
        }
      }
    }
    const std::string expected = "--" + range.option + ": expected an integer in " +
                                 std::to_string(range.min) + ".." + std::to_string(range.max);
    std::vector<BadInput> outside;
    if (range.min > 0) {
      std::vector<std::string> below = command;
      below.insert(below.end(), {"--" + range.option, std::to_string(range.min - 1)});
      outside.push_back({below, {expected}});
    }
    std::vector<std::string> above = command;
    above.insert(above.end(), {"--" + range.option, std::to_string(range.max + 1)});
    outside.push_back({above, {expected}});
    expect_refused_before_running(outside);
  };
  for (const Range& range : access) {
    check({"access", "--kind", "scalar"}, range, access);
  }
  for (const Range& range : traffic) {
    check({"traffic", "--topology", "mesh", "--dims", "4x4"}, range, traffic);
  }
}

// docs/cli.md, "Limits of a run": the slowest clock is 10^6 ns, so that 10^12 cycles of it still
// fit the kernel's 64-bit time at 1 ns. That period is taken and one nanosecond more refused, on
// the multiprocessors' commands and the networks' alike.
TEST(Cli, TheClockPeriodIsAtMostAMillionNanoseconds) {
  FakeRunner runner;
  ASSERT_EQ(run({"access", "--clock-ns", "1000000"}, runner).code, sw::kExitOk);
  ASSERT_EQ(runner.access_requests.size(), 1u);
  EXPECT_EQ(runner.access_requests[0].config->clock_period_ns, 1'000'000u);
  const std::vector<std::string> traffic = {"traffic", "--topology", "mesh",
                                            "--dims",  "4x4",        "--clock-ns"};
  std::vector<std::string> slowest = traffic;
  slowest.push_back("1000000");
  ASSERT_EQ(run(slowest, runner).code, sw::kExitOk);
  ASSERT_EQ(runner.traffic_requests.size(), 1u);
  EXPECT_EQ(runner.traffic_requests[0].config->clock_period_ns, 1'000'000u);
  std::vector<std::string> slower = traffic;
  slower.push_back("1000001");
  const std::string refusal = "--clock-ns: expected an integer in 1..1000000, found '1000001'";
  expect_refused_before_running({{{"access", "--clock-ns", "1000001"}, {refusal}},
                                 {{"demo", "--clock-ns", "1000001"}, {refusal}},
                                 {slower, {refusal}}});
}

// An option that does not apply to the form of the command line is refused, never ignored; an
// abbreviation is an unknown option, not Boost's guess at the option meant.
TEST_F(CliProgram, OptionsThatDoNotApplyAndAbbreviationsAreRefused) {
  const std::string perfetto = path("y.json");
  const std::vector<BadInput> cases = {
      {{"gen", "C7", "--nodes", "4", "--torus", "4x4"},
       {"orthosim gen: --torus: does not apply to gen C7 (an option of gen shift and gen "
        "complete-exchange)"}},
      {{"gen", "shift", "--torus", "4x4", "--direction", "east", "--nodes", "16"},
       {"--nodes: does not apply to gen shift"}},
      {{"gen", "exchange", "--nodes", "8", "--seed", "3"},
       {"--seed: does not apply to gen exchange"}},
      {{"gen", "random", "--nodes", "4", "--steps", "2", "--together"},
       {"--together: does not apply to gen random"}},
      {{"gen", "exchange", "--nodes", "8", "--direction", "east"},
       {"--direction: does not apply to gen exchange"}},
      {{"gen", "random", "--nodes", "4", "--steps", "2", "--sources", "1"},
       {"--sources: does not apply to gen random"}},
      {{"gen", "C3", "--nodes", "4", "--steps", "2"}, {"--steps: does not apply to gen C3"}},
      {{"gen", "fft", "--dim", "4", "--points", "256", "--nodes", "16"},
       {"--nodes: does not apply to gen fft (gen shift and gen complete-exchange take their nodes "
        "from --torus (or --cube), gen fft and gen cc-cube from --dim, gen calmant from --mesh or "
        "--line)"}},
      {{"gen", "cc-cube", "--dim", "3", "--points", "256"},
       {"--points: does not apply to gen cc-cube (an option of gen fft)"}},
      {{"gen", "fft", "--dim", "4", "--points", "256", "--compute", "2"},
       {"--compute: does not apply to gen fft (an option of gen cc-cube and gen calmant)"}},
      {{"gen", "fft", "--dim", "4", "--points", "256", "--len", "2"},
       {"--len: does not apply to gen fft"}},
      {{"gen", "exchange", "--nodes", "8", "--points", "256"},
       {"--points: does not apply to gen exchange (an option of gen fft)"}},
      {{"trace", "stats", path("x.trace"), "--perfetto", perfetto},
       {"orthosim trace: --perfetto: does not apply to trace stats (an option of trace export)"}},
      {{"trace", "export", path("x.trace"), "--perfetto", perfetto, "--json"},
       {"--json: does not apply to trace export"}},
      {{"trace", "diff", path("x.trace"), path("x.trace"), "--out", path("plots")},
       {"--out: does not apply to trace diff"}},
      {{"run", fig2_, "--dims", "4x4"}, {"--dims: does not apply to run on the omp"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "4x4", "--alpha", "3"},
       {"--alpha: does not apply to run on the mesh"}},
      {{"run", fig2_, "--impl", "im=rtl,im=model"},
       {"--impl: expected each block once, found 'im' again in 'im=rtl,im=model'"}},
      {{"run", fig2_, "--alp", "20"},
       {"orthosim run: unknown option --alp (see orthosim run --help)"}},
      {{"gen", "C1", "--node", "4"}, {"unknown option --node"}},
      {{"trace", "export", path("x.trace"), "--perf", perfetto}, {"unknown option --perf"}},
  };
  expect_refused_before_running(cases);
  EXPECT_FALSE(fs::exists(perfetto));
  EXPECT_FALSE(fs::exists(path("plots")));
}

// check_cli takes a command line through run_cli's parsing and validation and runs nothing.
TEST_F(CliProgram, CheckingACommandLineValidatesItAndRunsNothing) {
  std::ostringstream err;
  EXPECT_EQ(sw::check_cli({"run", fig2_, "--alpha", "abc"}, err), sw::kExitBadInput);
  EXPECT_EQ(err.str(), "orthosim run: --alpha: expected an integer in 0..1000000, found 'abc'\n");
  std::ostringstream accepted_err;
  const std::string vcd = path("w.vcd");
  EXPECT_EQ(sw::check_cli({"run", fig2_, "--alpha", "3", "--vcd", vcd}, accepted_err), sw::kExitOk);
  EXPECT_EQ(accepted_err.str(), "");
  EXPECT_FALSE(fs::exists(vcd));
}

TEST_F(CliProgram, HelpOfTheProgramCommandsListsTheirOptions) {
  const Result top = run({"--help"});
  for (const char* command : {"map", "run", "gen", "demo"}) {
    EXPECT_TRUE(contains(top.out, std::string("  ") + command + " ")) << command;
  }
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"map", {"--arch", "--n", "--json"}},
      {"run",
       {"--arch", "--n", "--alpha", "--beta", "--tau", "--gamma", "--sync-cycles", "--buffer-words",
        "--module-words", "--local-words", "--vcd", "--json"}},
      {"gen", {"--nodes", "--sources", "--dests", "--len", "--steps", "--seed", "--out"}},
      {"demo", {"--out", "--alpha", "--json"}},
  };
  for (const auto& [command, options] : cases) {
    FakeRunner runner;
    const Result r = run({command, "--help"}, runner);
    EXPECT_EQ(r.code, sw::kExitOk) << command;
    EXPECT_EQ(r.err, "") << command;
    EXPECT_TRUE(runner.program_requests.empty()) << command;
    for (const std::string& option : options) {
      EXPECT_TRUE(contains(r.out, option)) << command << " " << option;
    }
  }
}

TEST_F(CliProgram, HelpOfTheNetworkCommandsListsTheirOptions) {
  const Result top = run({"--help"});
  EXPECT_TRUE(contains(top.out, "  traffic ")) << top.out;
  EXPECT_TRUE(contains(top.out, "  lcc ")) << top.out;
  EXPECT_TRUE(contains(top.out, "  exchange ")) << top.out;
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"run",
       {"--dims", "--dim", "--switching", "--ports", "--startup", "--buffers", "--vcs",
        "--router-delay", "--packet-flits", "--watchdog", "--embedding", "mesh", "torus",
        "hypercube"}},
      {"traffic",
       {"--topology", "--pattern", "--rate", "--rates", "--flits", "--injection", "--warmup",
        "--cycles", "--seed", "--dims", "--dim", "--vcs", "--embedding", "--json"}},
      {"lcc", {"--dim", "--pattern", "--out", "--json"}},
      {"exchange",
       {"--torus", "--block", "--startup", "--rearrange-cycles", "--algorithms", "a1", "an-1",
        "two-phase", "--json"}},
      {"gen", {"complete-exchange", "--algorithm", "--block", "--rearrange-cycles"}},
  };
  for (const auto& [command, options] : cases) {
    FakeRunner runner;
    const Result r = run({command, "--help"}, runner);
    EXPECT_EQ(r.code, sw::kExitOk) << command;
    EXPECT_EQ(r.err, "") << command;
    EXPECT_TRUE(runner.network_requests.empty() && runner.traffic_requests.empty()) << command;
    for (const std::string& option : options) {
      EXPECT_TRUE(contains(r.out, option)) << command << " " << option;
    }
  }
}

// A sweep parameter names an option of the child that takes a value: a switch (--lockstep,
// --quiet) reached the child as "--lockstep 1" and was refused there as a second bare argument
// '1'; a name the child lacks was told "other than --alfa", as if --alfa were an option.
TEST_F(CliProgram, ASweepParameterIsAnOptionOfTheChildThatTakesAValue) {
  const std::string omp = file("omp.yaml", "arch: omp\n");
  const std::string csv = path("r.csv");
  expect_refused_before_running({
      {{"sweep", fig2_, "--variants", omp, "--param", "lockstep=1", "--out", csv},
       {"orthosim sweep: --param: expected an option of orthosim run that takes a value "
        "(--lockstep is a switch), found 'lockstep'\n"}},
      {{"sweep", fig2_, "--variants", omp, "--param", "quiet=1", "--out", csv},
       {"(--quiet is a switch), found 'quiet'\n"}},
      {{"sweep", fig2_, "--variants", omp, "--param", "alfa=1", "--out", csv},
       {"orthosim sweep: --param: expected an option of orthosim run (see its --help), found "
        "'alfa'\n"}},
      {{"sweep", fig2_, "--variants", omp, "--param", "vcd=w.vcd", "--out", csv},
       {"orthosim sweep: --param: expected an option of orthosim run other than --vcd (see its "
        "--help), found 'vcd'\n"}},
  });
  EXPECT_FALSE(fs::exists(csv + ".partial"));
  EXPECT_FALSE(fs::exists(csv));
}

TEST_F(CliProgram, EveryOutputOptionIsCheckedBeforeTheRunnerIsCalled) {
  // The fake runner opens no file: only the command line's own check can refuse these.
  fs::create_directories(dir_ / "adir");
  std::ofstream(dir_ / "adir" / "keep") << "kept\n";
  const std::string folder = path("adir");
  const std::string plain = file("plain", "not a folder\n");
  const std::vector<BadInput> cases = {
      {{"access", "--vcd", folder}, {"--vcd: expected a writable file path", "(a directory)"}},
      {{"access", "--trace", folder}, {"--trace: expected a writable file path", "(a directory)"}},
      {{"access", "--impl", "rtl", "--fst", folder}, {"--fst:", "(a directory)"}},
      {{"run", fig2_, "--vcd", ""}, {"--vcd:", "'' (an empty path)"}},
      {{"run", fig2_, "--arch", "mesh", "--dims", "2x2", "--trace", folder}, {"--trace:"}},
      {{"traffic", "--topology", "mesh", "--dims", "2x2", "--trace", folder}, {"--trace:"}},
      {{"tables", "--topology", "hypercube", "--m", "8", "--n", "4", "--trace", folder},
       {"--trace:"}},
      {{"demo", "--trace", folder}, {"--trace:", "(a directory)"}},
      {{"demo", "--out", plain}, {"--out: expected a writable folder", "is a regular file"}},
      {{"access", "--vcd", plain + "/w.vcd"}, {"--vcd:", "is a regular file, not a folder"}},
      {{"access", "--vcd", path("missing/w.vcd")}, {"--vcd:", "does not exist"}},
  };
  expect_refused_before_running(cases);
  EXPECT_EQ(slurp(path("adir/keep")), "kept\n");
  EXPECT_EQ(slurp(plain), "not a folder\n");
  EXPECT_FALSE(fs::exists(path("missing")));
  // run and demo create a missing folder: not refused there.
  FakeRunner runner;
  EXPECT_EQ(run({"run", fig2_, "--vcd", path("new/w.vcd")}, runner).code, sw::kExitOk);
  EXPECT_EQ(runner.program_requests.size(), 1u);
}

// The words completion offers after a command: the lowercase alternatives of the first word of
// each form its usage shows (forms separated by " | ", as gen's); a form that starts with an
// option ("--torus NxN ...") or an optional part ("[options]") has none, and placeholders (a
// capital), empty alternatives and repeats are left out.
TEST(Cli, UsageFirstWordsAreTheLowercaseAlternativesOfEachFormsFirstWord) {
  using sw::cli::usage_first_words;
  using Words = std::vector<std::string>;
  EXPECT_EQ(usage_first_words("export|stats|diff|plot FILE... [options]"),
            (Words{"export", "stats", "diff", "plot"}));
  EXPECT_EQ(usage_first_words("PATTERN|random --nodes N"), (Words{"random"}));
  EXPECT_EQ(usage_first_words("PROGRAM|traffic:PATTERN --variants FILES..."), Words{});
  EXPECT_EQ(usage_first_words("--torus NxN --block B"), Words{});
  EXPECT_EQ(usage_first_words("[options]"), Words{});
  EXPECT_EQ(usage_first_words("a||b|"), (Words{"a", "b"}));
  EXPECT_EQ(usage_first_words("plain"), Words{"plain"});
  // Digits and hyphens belong to a word to type; only a capital makes a placeholder.
  EXPECT_EQ(usage_first_words("cc-cube|c12|FILE2 --dim D"), (Words{"cc-cube", "c12"}));
  EXPECT_EQ(usage_first_words(""), Words{});
  // gen's forms: every one offered, and a form named twice once.
  EXPECT_EQ(usage_first_words("PATTERN|random --nodes M | shift --torus CxR | cc-cube --dim D | "
                              "shift --distance D [options]"),
            (Words{"random", "shift", "cc-cube"}));
  EXPECT_EQ(usage_first_words("--mesh KxK | --line K (--task i,M | --len N) | [--json]"), Words{});
  EXPECT_EQ(usage_first_words("a|b x|y | c"), (Words{"a", "b", "c"}));
}

/// MemAvailable of /proc/meminfo in bytes (its unit is kB, 1024 bytes), or 0 without it.
std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:" && unit == "kB") {
      return kib << 10;
    }
  }
  return 0;
}

// docs/cli.md, --memory-limit: without the option the limit is the available memory. It moves
// while other processes run, so it is read on both sides of the call; the band is far narrower
// than the 2 % between kilobytes of 1000 and 1024 bytes or the gap to the total memory.
TEST(Cli, WithoutAMemoryLimitTheLimitIsTheAvailableMemory) {
  const std::uint64_t before = available_memory();
  ASSERT_GT(before, 0u) << "no MemAvailable in /proc/meminfo";
  const std::optional<std::uint64_t> limit =
      sw::cli::memory_limit_from(boost::program_options::variables_map{});
  const std::uint64_t after = available_memory();
  ASSERT_TRUE(limit.has_value());
  const double low = static_cast<double>(std::min(before, after)) * 0.995;
  const double high = static_cast<double>(std::max(before, after)) * 1.005;
  EXPECT_GE(static_cast<double>(*limit), low);
  EXPECT_LE(static_cast<double>(*limit), high);
}

}  // namespace
}  // namespace orthosim
