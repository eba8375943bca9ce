// End-to-end: variant files (docs/variants.md). Every example in examples/variants/ runs; the
// paper's costs come out of the files in nanoseconds as [PH91] section 3.1 states them; bad
// files are rejected at the right line and column; an option on the command line beats the file,
// checked against the access formula ([PH91] section 3.1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_process.hpp"

namespace {

namespace fs = std::filesystem;

using orthosim::testing_support::expect_refused;
using orthosim::testing_support::expect_refused_with;
using orthosim::testing_support::Outcome;

class Variant : public orthosim::testing_support::CliTest {
 protected:
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }
};

const std::string kExamples = std::string(ORTHOSIM_EXAMPLES_DIR) + "/variants";

std::vector<fs::path> example_variants() {
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(kExamples)) {
    if (e.path().extension() == ".yaml") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST_F(Variant, EveryExampleRunsTheSampleProgramWithItsOwnConfiguration) {
  const std::vector<fs::path> files = example_variants();
  ASSERT_EQ(files.size(), 6u);
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    const Outcome o = run("run " + std::string(ORTHOSIM_EXAMPLES_DIR) +
                          "/fig2_sample.mcp --variant " + f.string() + " --json");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["completed"].get<bool>());
    EXPECT_TRUE(j["payload_ok"].get<bool>());
    const std::string name = f.stem().string();
    if (name == "hypercube-256") {
      EXPECT_EQ(j["nodes"], 256);
      EXPECT_EQ(j["buffers"], 1);  // [LCC] section 6: one flit per channel buffer
    } else if (name == "torus-8x8") {
      EXPECT_EQ(j["radices"], (std::vector<int>{8, 8}));
      EXPECT_EQ(j["topology"], "torus");
    } else if (name == "mesh-16x16") {
      EXPECT_EQ(j["radices"], (std::vector<int>{16, 16}));
      EXPECT_EQ(j["topology"], "mesh");
    } else {
      EXPECT_EQ(j["arch"], name);
      // [PH91] section 3.1: tau = 50 ns, alpha = 800 ns, beta = 100 ns, gamma = 400 ns.
      const std::uint64_t ns = j["clock_ns"];
      EXPECT_EQ(j["tau"].get<std::uint64_t>() * ns, 50u);
      EXPECT_EQ(j["alpha"].get<std::uint64_t>() * ns, 800u);
      EXPECT_EQ(j["beta"].get<std::uint64_t>() * ns, 100u);
      EXPECT_EQ(j["gamma"].get<std::uint64_t>() * ns, 400u);
    }
  }
}

TEST_F(Variant, AnOptionOnTheCommandLineBeatsTheFile) {
  write("v.yaml", "arch: omp\nn: 4\nalpha: 20\ntau: 3\n");
  // A scalar access costs alpha + tau ([PH91] section 3.1); the run checks its cycles against
  // the formula, and the accesses that share a bus follow one another, so the total is a
  // multiple of alpha + tau.
  const auto cycles = [this](const std::string& extra) {
    const Outcome o = run("access --variant v.yaml --kind scalar --json " + extra);
    EXPECT_EQ(o.exit_code, 0) << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["formula_cycles"], j["cycles"]);
    return std::make_pair(j["alpha"].get<std::uint64_t>(), j["cycles"].get<std::uint64_t>());
  };
  const auto from_file = cycles("");
  EXPECT_EQ(from_file.first, 20u);
  EXPECT_EQ(from_file.second % (20u + 3u), 0u);
  const auto overridden = cycles("--alpha 31");
  EXPECT_EQ(overridden.first, 31u);
  // tau still comes from the file: every processor's access costs 31 + 3.
  EXPECT_EQ(overridden.second % (31u + 3u), 0u);
  EXPECT_EQ(overridden.second / (31u + 3u), from_file.second / (20u + 3u));
  // The architecture too: --arch wins over the file's.
  const Outcome bus = run("access --variant v.yaml --arch bus --json");
  ASSERT_EQ(bus.exit_code, 0) << bus.err;
  EXPECT_EQ(nlohmann::json::parse(bus.out)["arch"], "bus");
}

TEST_F(Variant, DemoRunsItsThreeSystemsWithAMultiprocessorVariantsCosts) {
  for (const std::string file : {"omp.yaml", "bus.yaml"}) {
    const Outcome o = run("demo --out d --variant " + kExamples + "/" + file + " --json");
    ASSERT_EQ(o.exit_code, 0) << file << ": " << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    ASSERT_EQ(j["systems"].size(), 3u);
    std::vector<std::string> archs;
    for (const nlohmann::json& system : j["systems"]) {
      archs.push_back(system["arch"]);
      // [PH91] section 3.1 at a 50 ns clock: alpha = 800 ns, gamma = 400 ns.
      EXPECT_EQ(system["alpha"].get<std::uint64_t>() * system["clock_ns"].get<std::uint64_t>(),
                800u);
      EXPECT_EQ(system["gamma"].get<std::uint64_t>() * system["clock_ns"].get<std::uint64_t>(),
                400u);
      EXPECT_TRUE(system["payload_ok"].get<bool>());
    }
    EXPECT_EQ(archs, (std::vector<std::string>{"omp", "crossbar", "bus"})) << file;
  }
  // The command line still wins.
  const Outcome alpha = run("demo --out d --variant " + kExamples + "/omp.yaml --alpha 20 --json");
  ASSERT_EQ(alpha.exit_code, 0) << alpha.err;
  EXPECT_EQ(nlohmann::json::parse(alpha.out)["systems"][1]["alpha"], 20);
  // A network's variant names no multiprocessor: refused at its arch field.
  const Outcome torus = run("demo --out d --variant " + kExamples + "/torus-8x8.yaml");
  EXPECT_EQ(torus.exit_code, 2);
  EXPECT_NE(torus.err.find("torus-8x8.yaml:"), std::string::npos) << torus.err;
  EXPECT_NE(torus.err.find("a multiprocessor"), std::string::npos) << torus.err;
}

struct BadFile {
  const char* what;
  const char* text;
  const char* command;
  const char* location;  ///< the file:line:col the error must start with
  const char* says;      ///< and a word of what it says
};

TEST_F(Variant, BadFilesAreRejectedAtTheirLineAndColumn) {
  const BadFile cases[] = {
      {"unknown field", "arch: omp\nn: 4\nalpah: 3\n", "access", "bad.yaml:3:1:", "'alpah'"},
      {"list for an integer", "arch: omp\nalpha: [1, 2]\n", "access", "bad.yaml:2:8:", "a list"},
      {"quoted integer", "arch: omp\nalpha: \"16\"\n", "access", "bad.yaml:2:8:", "quoted"},
      {"text for an integer", "arch: omp\ngamma: 4.5\n", "access", "bad.yaml:2:8:", "'4.5'"},
      {"radices of the wrong type", "arch: mesh\ndims: {x: 4}\n", "traffic",
       "bad.yaml:2:7:", "mapping"},
      {"out of range", "arch: omp\nn: 300\n", "access", "bad.yaml:2:4:", "1..256"},
      {"tau of zero", "arch: crossbar\n  # comment\ntau:   0\n", "access", "bad.yaml:3:8:", "tau"},
      {"negative cost", "arch: omp\nbeta: -2\n", "access", "bad.yaml:2:7:", "'-2'"},
      {"odd virtual channels on a torus", "arch: torus\ndims: [4, 4]\nvcs: 1\n", "traffic",
       "bad.yaml:3:6:", "even"},
      {"unknown switching", "arch: mesh\ndims: 4x4\nswitching: cut\n", "traffic",
       "bad.yaml:3:12:", "wormhole"},
      {"unknown block implementation", "arch: omp\nimpl: {im: fpga}\n", "access",
       "bad.yaml:2:12:", "fpga"},
      {"unknown architecture", "arch: ring\n", "access", "bad.yaml:1:7:", "hypercube"},
      {"a multiprocessor for traffic", "arch: bus\nn: 4\n", "traffic",
       "bad.yaml:1:7:", "a network"},
      {"a block type a network does not have", "arch: mesh\ndims: 4x4\nimpl: bus=rtl\n", "traffic",
       "bad.yaml:3:7:", "router"},
      {"field of the other family", "arch: omp\ndims: [4, 4]\n", "access", "bad.yaml:2:1:", "dims"},
      {"repeated field", "arch: omp\nn: 4\nn: 8\n", "access", "bad.yaml:3:1:", "again"},
      {"no architecture", "n: 4\n", "access", "bad.yaml:1:1:", "arch"},
      {"malformed YAML", "arch: omp\nalpha: [1, 2\n", "access", "bad.yaml:",
       "expected well-formed YAML, found a syntax error: end of sequence flow not found"},
      {"not a mapping", "- omp\n", "access", "bad.yaml:1:1:", "mapping"},
      {"a line that is no field", "arch omp\nn: 4\n", "access", "bad.yaml:1:1:",
       "expected a YAML mapping of variant fields such as 'arch: omp', found 'arch omp', not a "
       "field\n"},
      {"empty file", "", "access", "bad.yaml:1:1:", "empty"},
      // A field with no value at a line's end: yaml-cpp marks the next token (3:1, the next
      // field's line, or the end of the file); the value belongs right after the colon.
      {"a field with no value before another", "arch: omp\nalpha:\nbeta: 2\n", "access",
       "bad.yaml:2:7:", "expected an integer for alpha, found nothing\n"},
      {"a field with no value and a comment", "arch: omp\nalpha:   # none\n", "access",
       "bad.yaml:2:7:", "found nothing"},
      {"a field with no value at the end", "arch: omp\nalpha:", "access",
       "bad.yaml:2:7:", "found nothing"},
      {"a field with no value in its line's middle", "arch: omp\nalpha: ~\n", "access",
       "bad.yaml:2:8:", "found nothing"},
      {"too small a network for the program", "arch: mesh\ndims: [3]\n", "run fig2.mcp --arch mesh",
       "bad.yaml:2:7:", "4 nodes"},
      // What was found is said as it differs from what was expected: a list where a list of
      // radices was expected was empty ("found a list" said nothing), and a tagged integer was
      // quoted as '16' alone, which reads as the integer expected.
      {"an empty list of radices", "arch: mesh\ndims: []\n", "traffic", "bad.yaml:2:7:",
       "expected the radices as a list such as [8, 8] or as 8x8, found an empty list\n"},
      {"an empty mapping for an integer", "arch: omp\nalpha: {}\n", "access",
       "bad.yaml:2:8:", "expected an integer for alpha, found an empty mapping\n"},
      {"a tagged integer", "arch: omp\nalpha: !!int 16\n", "access",
       "bad.yaml:2:8:", "expected an integer for alpha, found '16' tagged !!int\n"},
      {"a local tag", "arch: omp\nalpha: !cycles 16\n", "access",
       "bad.yaml:2:8:", "found '16' tagged !cycles\n"},
  };
  fs::copy_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp", dir_ / "fig2.mcp");
  for (const BadFile& c : cases) {
    SCOPED_TRACE(c.what);
    write("bad.yaml", c.text);
    const Outcome o = run(std::string(c.command) + " --variant bad.yaml");
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_TRUE(o.out.empty()) << o.out;
    const std::string after_prefix = o.err.substr(o.err.find(": ") + 2);
    EXPECT_EQ(after_prefix.rfind(c.location, 0), 0u) << o.err;
    EXPECT_NE(o.err.find(c.says), std::string::npos) << o.err;
  }
}

// Lists nested hundreds deep (a flat mapping of fields holds none deeper than impl's mapping):
// the YAML reader gives up on them with the text "bad file", which named neither the nesting nor
// what a variant is. The place is the reader's, on the value's line.
TEST_F(Variant, ListsNestedDeeperThanTheReaderTakesAreNamedSo) {
  write("deep.yaml", "arch: omp\nalpha: " + std::string(600, '[') + std::string(600, ']') + "\n");
  const Outcome o = run("access --variant deep.yaml --vcd w.vcd");
  expect_refused(o, "orthosim access: deep.yaml:2:");
  EXPECT_NE(o.err.find(
                ": expected a flat mapping of variant fields (docs/variants.md), found lists "
                "or mappings nested deeper than the YAML reader takes\n"),
            std::string::npos)
      << o.err;
  EXPECT_FALSE(fs::exists(dir_ / "w.vcd"));
}

TEST_F(Variant, AMissingFileAndAFieldTheArchitectureOnTheCommandLineDoesNotTakeAreNamed) {
  const Outcome missing = run("access --variant nowhere.yaml");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nowhere.yaml: expected a readable variant file, found no such file"),
            std::string::npos)
      << missing.err;
  const Outcome other = run("access --arch omp --variant " + kExamples + "/torus-8x8.yaml");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("torus-8x8.yaml:4:1: expected a field of the omp (the architecture set "
                           "by --arch; dims belongs to mesh, torus), found 'dims'\n"),
            std::string::npos)
      << other.err;
}

// A program given where a variant goes is named as one at its first statement: YAML read its
// lines as text and a second document, and said so at a line that had nothing wrong (12:1).
TEST_F(Variant, AProgramGivenAsAVariantIsNamedAtItsFirstStatement) {
  const std::string program = std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp";
  fs::copy_file(program, dir_ / "fig2.mcp");
  // The line the refusal points at, found here: the first one that is no comment.
  std::istringstream lines(orthosim::testing_support::slurp(dir_ / "fig2.mcp"));
  std::size_t first_statement = 0;
  for (std::string line; std::getline(lines, line) && (line.empty() || line[0] == '#');) {
    ++first_statement;
  }
  const Outcome o = run("run fig2.mcp --variant fig2.mcp");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_EQ(o.err, "orthosim run: fig2.mcp:" + std::to_string(first_statement + 1) +
                       ":1: expected a YAML mapping of variant fields such as 'arch: omp', found "
                       "'nodes 4', the first statement of a program (.mcp)\n");
}

// A value the variant file gave that only a layer below the command line refuses (its
// ParameterError names the parameter, not an option) is placed at the file's field: by sw/mapping
// (a buffer the program does not fit), by sw/workload (its message names the buffer size the
// file gave), by the verilated network (a clock too fast for the RTL routers) and by sw/routed
// (a routing the RTL routers do not have). The whole line
// is compared: the positions are those of the values in the files written here.
TEST_F(Variant, ALowerLayersRefusalOfAFileValueIsPlacedAtTheField) {
  fs::copy_file(std::string(ORTHOSIM_EXAMPLES_DIR) + "/fig2_sample.mcp", dir_ / "fig2.mcp");
  struct Case {
    const char* layer;
    const char* text;
    const char* command;
    const char* line;  ///< the whole error line
  };
  const Case cases[] = {
      // Fig. 2 sends 4-word messages; the file fixes the data buffers at 2 words.
      {"sw/mapping", "arch: omp\nn: 4\nbuffer-words: 2\n", "run fig2.mcp",
       "orthosim run: v.yaml:3:15: buffer-words: expected at least 4 words (the longest message "
       "between two processors in one step), found 2"},
      {"sw/workload", "arch: omp\nn: 4\nbuffer-words: 2\n", "access --kind block --d 2 --l 3",
       "orthosim access: --l: expected at most L = 2 words, the data buffer size (buffer-words at "
       "v.yaml:3:15), found 3"},
      {"sc_models/cosim", "arch: mesh\ndims: 4x4\nclock-ns: 2\nimpl: router=rtl\n",
       "traffic --pattern uniform",
       "orthosim traffic: v.yaml:3:11: clock-ns: router=rtl|cosim (impl at v.yaml:4:7) needs a "
       "clock period of at least 4 ns: the cycle's halves and the reset pulse take whole "
       "nanoseconds"},
      // A size the verilated multiprocessor does not have is keyed by its field, naming impl's.
      {"sc_models/cosim (multiprocessor)", "arch: omp\nimpl: im=rtl,bus=rtl\nalpha: 70000\n",
       "access",
       "orthosim access: v.yaml:3:8: alpha: expected at most 65535 cycles, what the timing "
       "registers of the RTL bus controller that impl at v.yaml:2:7 asks for hold, found '70000'"},
      // The RTL router computes e-cube in hardware: it has no P-cube to run.
      {"sw/routed", "arch: hypercube\ndim: 3\nrouting: pcube\nimpl: router=rtl\n", "traffic",
       "orthosim traffic: v.yaml:3:10: routing: expected e-cube, the one routing of the RTL "
       "router that impl at v.yaml:4:7 asks for (p-cube runs on the model routers), found "
       "'p-cube'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.layer);
    write("v.yaml", c.text);
    expect_refused_with(run(std::string(c.command) + " --variant v.yaml"), c.line, c.layer);
  }
}

}  // namespace
