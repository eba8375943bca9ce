// `orthosim map` (sw/cli) against a fake Runner: the mapping of the Fig. 2 program of [PH91] onto
// each configuration, its JSON description against the paper's listings (section 4.3) and Eq. 1.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sw/cli/cli.hpp"
#include "tests/support/cli_harness.hpp"

namespace orthosim {
namespace {

using namespace cli_test;

/// Operation names of the listings of [PH91] section 4.3 A (bus), B (crossbar), C (omp).
std::vector<std::vector<std::string>> paper_op_names(Arch arch) {
  const std::vector<std::string> recv3 = {"C1_recv", "C1_recv", "C1_recv"};
  const auto with = [](std::string first, std::vector<std::string> rest) {
    rest.insert(rest.begin(), std::move(first));
    return rest;
  };
  const std::vector<std::string> step5_scalar = {"C1_send", "C1_send", "C1_recv", "C1_recv",
                                                 "C3_send", "C1_recv", "C1_recv"};
  switch (arch) {
    case Arch::Bus:
      return {{"C1_send", "C1_recv"},
              {"C1_send", "C1_send", "C1_recv", "C1_recv"},
              with("C3_send", recv3),
              with("C4_send", recv3),
              step5_scalar};
    case Arch::Crossbar:
      return {{"C1_send", "C1_recv"},
              {"C2_send", "C2_recv"},
              with("C3_send", recv3),
              with("C4_send", recv3),
              step5_scalar};
    case Arch::Omp:
      break;
  }
  return {{"C1_send", "C1_recv"},
          {"C2_send", "C2_recv"},
          {"C3_send", "C3_recv"},
          {"C4_send", "C4_recv"},
          {"C5_send", "C5_recv", "C3_send", "C3_recv"}};
}

/// "M1,2" -> {1, 2}; "M3" -> {3}.
std::vector<std::uint32_t> module_indices(const std::string& name) {
  std::vector<std::uint32_t> out;
  std::stringstream s(name.substr(1));
  std::string part;
  while (std::getline(s, part, ',')) {
    out.push_back(static_cast<std::uint32_t>(std::stoul(part)));
  }
  return out;
}

TEST_F(CliProgram, MapJsonDescribesEveryStepOperationAndAccess) {
  const std::vector<std::string> labels = {"one_to_one", "permutation", "broadcast", "scatter",
                                           "many_to_one_and_multicast"};
  // Section 2 of [PH91]: the program-level operations and patterns of Fig. 2.
  const std::vector<std::string> program_lines = {
      "Step 1: C1(N1, N0)", "Step 2: C2((N1, N2), (N3, N0))",
      "Step 3: C3((N0, N1), (N0, N2), (N0, N3))", "Step 4: C4((N0, N1), (N0, N2), (N0, N3))",
      "Step 5: C10((N1, N0), (N2, N0)), C8((N3, N1), (N3, N2))"};
  const std::vector<std::vector<std::string>> patterns = {
      {"C1"}, {"C2"}, {"C3"}, {"C4"}, {"C10", "C8"}};
  const sw::BusTiming t;  // map reports the default costs
  for (const auto& [name, arch] : archs()) {
    FakeRunner runner;
    const Result r = run({"map", fig2_, "--arch", name, "--json"}, runner);
    ASSERT_EQ(r.code, sw::kExitOk) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_TRUE(runner.program_requests.empty());  // map runs nothing
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
    EXPECT_EQ(j.value("command", std::string{}), "map");
    EXPECT_EQ(j.value("program", std::string{}), "fig2_sample");
    EXPECT_EQ(j.value("arch", std::string{}), name);
    EXPECT_EQ(j.value("nodes", 0u), 4u);
    EXPECT_EQ(j.value("processors", 0u), 4u);
    EXPECT_EQ(j.value("messages", 0u), 13u);
    ASSERT_TRUE(j.contains("steps"));
    ASSERT_EQ(j["steps"].size(), 5u);
    const auto names = paper_op_names(arch);
    std::uint64_t written = 0;
    std::uint64_t read = 0;
    for (std::size_t k = 0; k < 5; ++k) {
      const nlohmann::json& step = j["steps"][k];
      const std::string where = name + " step " + std::to_string(k + 1);
      EXPECT_EQ(step.value("step", 0u), k + 1) << where;
      EXPECT_EQ(step.value("label", std::string{}), labels[k]) << where;
      EXPECT_EQ(step.value("program", std::string{}), program_lines[k]) << where;
      EXPECT_EQ(step["patterns"].get<std::vector<std::string>>(), patterns[k]) << where;
      EXPECT_TRUE(step.contains("processor_patterns")) << where;
      EXPECT_EQ(step.value("local_copies", 99u), 0u) << where;
      const std::string listing = step.value("listing", std::string{});
      EXPECT_EQ(listing.rfind("Step " + std::to_string(k + 1) + ": ", 0), 0u) << listing;
      std::vector<std::string> op_names;
      for (const nlohmann::json& op : step["operations"]) {
        const std::string op_name = op.value("name", std::string{});
        const std::string direction = op.value("direction", std::string{});
        op_names.push_back(op_name);
        EXPECT_EQ(op_name, op.value("pattern", std::string{}) + "_" + direction) << where;
        EXPECT_TRUE(direction == "send" || direction == "recv") << where;
        const std::string text = op.value("text", std::string{});
        EXPECT_EQ(text.rfind(op_name + "(", 0), 0u) << text;
        EXPECT_TRUE(contains(listing, text)) << listing << " / " << text;
        bool any_vector = false;
        ASSERT_FALSE(op["accesses"].empty()) << where;
        for (const nlohmann::json& a : op["accesses"]) {
          const auto modules = a["modules"].get<std::vector<std::string>>();
          const auto d = a["d"].get<std::uint64_t>();
          const auto l = a["l"].get<std::uint64_t>();
          const auto p = a["processor"].get<std::uint32_t>();
          EXPECT_EQ(d, modules.size()) << text;
          EXPECT_EQ(l, 4u) << text;  // every message of Fig. 2 is 4 words here
          EXPECT_EQ(a["mode"], d > 1 ? "vector" : "scalar") << text;
          any_vector = any_vector || d > 1;
          EXPECT_EQ(a["formula_cycles"].get<std::uint64_t>(),
                    access_formula(t.alpha, t.beta, t.tau, d, l))
              << text;
          // A broadcast write replicates one data buffer (Fig. 6); a scatter does not.
          EXPECT_EQ(a["replicated"].get<bool>(), direction == "send" && op_name == "C3_send")
              << text;
          (direction == "send" ? written : read) += d;
          const std::string bus = a["bus"].get<std::string>();
          for (const std::string& m : modules) {
            const std::vector<std::uint32_t> ij = module_indices(m);
            if (arch == Arch::Bus) {
              // One bus B0 and n modules M0..M3 (Fig. 4(a)).
              EXPECT_EQ(bus, "B0") << text;
              ASSERT_EQ(ij.size(), 1u) << m;
              EXPECT_LT(ij[0], 4u) << m;
            } else if (arch == Arch::Omp) {
              // P(i) writes M(i,j) over its row bus RB(i), reads M(j,i) over its column bus
              // CB(i) (section 3.1).
              ASSERT_EQ(ij.size(), 2u) << m;
              const bool send = direction == "send";
              EXPECT_EQ(bus, (send ? "RB(" : "CB(") + std::to_string(p) + ")") << text;
              EXPECT_EQ(send ? ij[0] : ij[1], p) << text;
              EXPECT_NE(ij[0], ij[1]) << text;
            } else {
              // Crossbar: module M(i,j) of P(i)'s bank on bus B(i).
              ASSERT_EQ(ij.size(), 2u) << m;
              EXPECT_EQ(bus, "B(" + std::to_string(ij[0]) + ")") << text;
              if (direction == "send") {
                EXPECT_EQ(ij[0], p) << text;
              } else {
                EXPECT_EQ(ij[1], p) << text;
              }
            }
          }
        }
        EXPECT_EQ(op.value("mode", std::string{}), any_vector ? "vector" : "scalar") << text;
      }
      EXPECT_EQ(op_names, names[k]) << where;
    }
    // Every node message is written into one module and read from it once.
    EXPECT_EQ(written, 13u) << name;
    EXPECT_EQ(read, 13u) << name;
  }
}

// --torus CxR takes a grid of one column; --cluster columns is the default's clustering, rows
// the other; a wrong --n names the processor per column or per row.
TEST_F(CliProgram, MapClustersATorusByColumnsOrRowsAsAsked) {
  const auto processors = [this](const std::vector<std::string>& args) {
    const Result r = run(args);
    EXPECT_EQ(r.code, sw::kExitOk) << joined(args) << r.err;
    return r.code == sw::kExitOk ? nlohmann::json::parse(r.out).value("processors", 0u) : 0u;
  };
  EXPECT_EQ(processors({"map", fig2_, "--torus", "1x4", "--json"}), 1u);
  EXPECT_EQ(processors({"map", fig2_, "--torus", "4x1", "--cluster", "columns", "--json"}), 4u);
  EXPECT_EQ(processors({"map", fig2_, "--torus", "4x1", "--cluster", "rows", "--json"}), 1u);
  const Result by_rows = run({"map", fig2_, "--torus", "4x1", "--cluster", "rows", "--n", "2"});
  EXPECT_EQ(by_rows.code, sw::kExitBadInput);
  EXPECT_TRUE(contains(by_rows.err, "--n: expected 1, one processor per torus row, found 2"))
      << by_rows.err;
}

// A program of as many nodes as the largest system has processors (256) maps one node to a
// processor without --n, and --n 256 is taken; one node more needs --n.
TEST_F(CliProgram, MapTakesTheLargestSystemWithoutN) {
  std::string sends = "words 1\nstep pairs\n";
  for (unsigned k = 0; k < 256; k += 2) {
    sends += "  send " + std::to_string(k) + " -> " + std::to_string(k + 1) + "\n";
  }
  const std::string largest = "nodes 256\n" + sends;
  const std::string beyond = "nodes 257\n" + sends;
  const std::string at_limit = file("largest.mcp", largest);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"map", at_limit, "--json"},
        std::vector<std::string>{"map", at_limit, "--n", "256", "--json"}}) {
    const Result r = run(args);
    ASSERT_EQ(r.code, sw::kExitOk) << joined(args) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).value("processors", 0u), 256u);
  }
  const Result over = run({"map", file("beyond.mcp", beyond)});
  EXPECT_EQ(over.code, sw::kExitBadInput);
  EXPECT_TRUE(contains(over.err, "--n: expected a processor count: the program has 257 nodes"))
      << over.err;
}

TEST_F(CliProgram, MapOntoFewerProcessorsTurnsMessagesInsideAClusterIntoLocalCopies) {
  // N0, N1 on P0 and N2, N3 on P1: N1->N0 (step 1), N0->N1 (steps 3, 4), N1->N0 and N3->N2
  // (step 5) stay inside a cluster.
  const std::vector<unsigned> local = {1, 0, 1, 1, 2};
  FakeRunner runner;
  const Result r = run({"map", fig2_, "--arch", "omp", "--n", "2", "--json"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.value("processors", 0u), 2u);
  EXPECT_EQ(j.value("nodes", 0u), 4u);
  EXPECT_EQ(j.value("messages", 0u), 13u);
  ASSERT_EQ(j["steps"].size(), 5u);
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(j["steps"][k].value("local_copies", 99u), local[k]) << "step " << k + 1;
  }
  EXPECT_TRUE(j["steps"][0]["operations"].empty());  // N1 -> N0 is all of step 1
}

// The text listing of `map` names the nodes of every processor, node i on processor
// floor(i n / m) ([PH91] section 5's blocks of consecutive nodes; with more processors than
// nodes every n/m-th processor holds one and the others none, "-"), eight processors a line.
// The expected block is built here from that formula.
TEST_F(CliProgram, MapListsTheNodesOfEveryProcessorEightALine) {
  FakeRunner runner;
  const std::string program = path("r32.mcp");
  const std::uint32_t m = 32;
  ASSERT_EQ(run({"gen", "random", "--nodes", std::to_string(m), "--steps", "1", "--out", program},
                runner)
                .code,
            sw::kExitOk);
  for (const std::uint32_t n : {12U, 32U, 64U}) {
    std::string expected = std::string("nodes on processors (") +
                           (n < m ? "blocks of consecutive nodes" : "one node per processor") +
                           "):";
    for (std::uint32_t p = 0; p < n; ++p) {
      std::string nodes;
      for (std::uint32_t i = 0; i < m; ++i) {
        if (std::uint64_t{i} * n / m == p) {
          nodes += (nodes.empty() ? "N" : ",N") + std::to_string(i);
        }
      }
      expected +=
          (p % 8 == 0 ? "\n  P" : "  P") + std::to_string(p) + ": " + (nodes.empty() ? "-" : nodes);
    }
    expected += "\n\ncommunication operations";
    const Result r = run({"map", program, "--n", std::to_string(n)}, runner);
    ASSERT_EQ(r.code, sw::kExitOk) << r.err;
    EXPECT_NE(r.out.find(expected), std::string::npos) << "n = " << n << "\n" << r.out;
  }
}

// Fig. 11(b): an east shift of an n x n torus by columns moves n^2 data in each of its two IWR
// steps, and `map` says which step carries each link (the second step's links were reported as
// IWR 1 while a positional initializer put their phase in another field).
TEST_F(CliProgram, MapNamesTheIwrStepOfEveryLinkOfATorusShift) {
  FakeRunner runner;
  const std::string shift = path("shift.mcp");
  ASSERT_EQ(run({"gen", "shift", "--torus", "3x3", "--direction", "east", "--distance", "1",
                 "--out", shift},
                runner)
                .code,
            sw::kExitOk);
  const Result r = run({"map", shift, "--arch", "omp", "--torus", "3x3", "--json"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<unsigned, unsigned> links;  // per IWR step
  for (const nlohmann::json& link : j["steps"][0]["links"]) {
    ++links[link.value("iwr", 0u)];
  }
  EXPECT_EQ(links, (std::map<unsigned, unsigned>{{1, 9}, {2, 9}}));
  const Result text = run({"map", shift, "--arch", "omp", "--torus", "3x3"}, runner);
  ASSERT_EQ(text.code, sw::kExitOk) << text.err;
  // The second IWR step's first link: P0 writes M(0,0) for P0 (row write, column read).
  EXPECT_TRUE(contains(text.out, "P0->P0 M0,0 (IWR 2)")) << text.out;
  // Only the second IWR step's 9 links are marked; the first step's are the plain ones.
  std::size_t marked = 0;
  for (std::size_t at = text.out.find("(IWR "); at != std::string::npos;
       at = text.out.find("(IWR ", at + 1)) {
    ++marked;
  }
  EXPECT_EQ(marked, 9u) << text.out;
  EXPECT_FALSE(contains(text.out, "(IWR 1)")) << text.out;
}

// `map --json`'s links and clustering ([PH91] section 4.2): on the omp a message from P(s) to
// P(d) goes through the module M(s, d), row s written, column d read; a step whose only message
// stays inside a cluster has no processor-level pattern left; `sync` is what --sync chose.
TEST_F(CliProgram, MapJsonNamesEachLinksModuleTheProcessorPatternsAndTheSync) {
  FakeRunner runner;
  const Result r = run({"map", fig2_, "--arch", "omp", "--json"}, runner);
  ASSERT_EQ(r.code, sw::kExitOk) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.value("sync", std::string{}), "pairs");
  std::size_t links = 0;
  for (const nlohmann::json& step : j["steps"]) {
    for (const nlohmann::json& link : step["links"]) {
      const auto s = link.value("source", 99u);
      const auto d = link.value("destination", 99u);
      EXPECT_EQ(link.value("module", std::string{}),
                "M" + std::to_string(s) + "," + std::to_string(d));
      ++links;
    }
  }
  EXPECT_EQ(links, 13u);  // Fig. 2's 13 messages, each its own link on 4 processors
  const Result iwr = run({"map", fig2_, "--arch", "omp", "--sync", "iwr", "--json"}, runner);
  ASSERT_EQ(iwr.code, sw::kExitOk) << iwr.err;
  EXPECT_EQ(nlohmann::json::parse(iwr.out).value("sync", std::string{}), "iwr");
  // N0 and N1 on P0: step 1's N1 -> N0 is a local copy, C1 at the nodes and nothing between
  // processors.
  const Result two = run({"map", fig2_, "--arch", "omp", "--n", "2", "--json"}, runner);
  ASSERT_EQ(two.code, sw::kExitOk) << two.err;
  const nlohmann::json step1 = nlohmann::json::parse(two.out)["steps"][0];
  EXPECT_EQ(step1["patterns"], nlohmann::json::array({"C1"}));
  EXPECT_TRUE(step1["processor_patterns"].empty()) << step1["processor_patterns"];
}

// docs/mapping.md: `--collapse x0,x3` makes the named dimensions intra-cluster and a node runs on
// the processor numbered by its remaining address bits (Fig. 10). Every dimension can be named,
// dimension 0 too, with or without its x: the Fig. 2 program's 4 nodes (a 2-cube) on 2
// processors, the processor of node i recomputed here from its address bits.
TEST_F(CliProgram, CollapseNamesAnyDimensionAndTheRemainingBitsNumberTheProcessor) {
  for (const auto& [spec, collapsed] : std::vector<std::pair<std::string, unsigned>>{
           {"x0", 0}, {"0", 0}, {"x1", 1}, {"1", 1}, {"X1", 1}}) {
    FakeRunner runner;
    const Result r = run({"map", fig2_, "--n", "2", "--collapse", spec, "--json"}, runner);
    ASSERT_EQ(r.code, sw::kExitOk) << spec << ": " << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    std::vector<unsigned> expected;
    for (unsigned node = 0; node < 4; ++node) {
      expected.push_back((node >> (1 - collapsed)) & 1u);  // the bit that is not collapsed
    }
    EXPECT_EQ(j["processor_of"].get<std::vector<unsigned>>(), expected) << spec;
  }
  // Both dimensions, listed: every node on the one processor.
  FakeRunner runner;
  const Result both = run({"map", fig2_, "--n", "1", "--collapse", "x1,0", "--json"}, runner);
  ASSERT_EQ(both.code, sw::kExitOk) << both.err;
  EXPECT_EQ(nlohmann::json::parse(both.out)["processor_of"].get<std::vector<unsigned>>(),
            (std::vector<unsigned>{0, 0, 0, 0}));
  // As many processors as nodes: `auto` collapses nothing, one node per processor.
  const Result none = run({"map", fig2_, "--n", "4", "--collapse", "auto", "--json"}, runner);
  ASSERT_EQ(none.code, sw::kExitOk) << none.err;
  EXPECT_EQ(nlohmann::json::parse(none.out)["processor_of"].get<std::vector<unsigned>>(),
            (std::vector<unsigned>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace orthosim
