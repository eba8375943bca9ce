// The .mcp writer. The text it writes is the parser's input language with everything explicit
// (one statement per transfer, explicit destination lists), so that reading it back gives the
// same transfers in the same order: the round trip that tests/sw/program_test.cpp checks.
#include "sw/program/format.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <vector>

namespace orthosim::sw {

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

/// A step label as the parser reads it back: bare when it is a name, quoted otherwise.
std::string label_text(const std::string& label) {
  if (is_identifier(label)) {
    return label;
  }
  std::string out = "\"";
  for (char c : label) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

/// Whether `nodes` is every node of 0..m-1 but `except`, ascending: read in the list's length,
/// not m (a program of m one-destination sends is written in time linear in m).
bool every_node_but(const std::vector<NodeId>& nodes, std::uint32_t m, NodeId except) {
  if (nodes.size() != m - (except < m ? 1U : 0U)) {
    return false;
  }
  NodeId expected = 0;
  for (const NodeId n : nodes) {
    expected += expected == except ? 1 : 0;
    if (n != expected) {
      return false;
    }
    ++expected;
  }
  return true;
}

/// A node list that expands to exactly `nodes`, in order: `all` when it is every node except
/// `except` (pass m for none) in ascending order, else ids with ascending runs of three or more
/// written as ranges.
std::string node_list_text(const std::vector<NodeId>& nodes, std::uint32_t m, NodeId except) {
  // `all` for a single node reads worse than the node itself.
  if (nodes.size() >= 2 && every_node_but(nodes, m, except)) {
    return "all";
  }
  std::string out;
  for (std::size_t i = 0; i < nodes.size();) {
    std::size_t j = i;
    while (j + 1 < nodes.size() && nodes[j + 1] == nodes[j] + 1) {
      ++j;
    }
    if (!out.empty()) {
      out += ", ";
    }
    if (j - i >= 2) {
      out += std::to_string(nodes[i]) + ".." + std::to_string(nodes[j]);
      i = j + 1;
    } else {
      out += std::to_string(nodes[i]);
      ++i;
    }
  }
  return out;
}

/// The most common message length; the smallest on a tie, 1 for a program without transfers.
std::uint32_t default_words(const McProgram& program) {
  std::map<std::uint32_t, std::size_t> uses;
  for (const ProgramStep& step : program.steps) {
    for (const Transfer& t : step.transfers) {
      ++uses[t.words];
    }
  }
  std::uint32_t best = 1;
  std::size_t best_uses = 0;
  for (const auto& [words, n] : uses) {
    if (n > best_uses) {
      best = words;
      best_uses = n;
    }
  }
  return best;
}

}  // namespace

std::string format_program(const McProgram& program) {
  const std::uint32_t m = program.nodes;
  std::ostringstream out;
  std::string name = program.name.empty() ? "program" : program.name;
  std::replace_if(
      name.begin(), name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  out << "# " << name << " (written by orthosim)\n";
  out << "nodes " << m << "\n";
  const std::uint32_t words = default_words(program);
  if (words != 1) {
    out << "words " << words << "\n";
  }
  for (const ProgramStep& step : program.steps) {
    out << "\nstep";
    if (!step.label.empty()) {
      out << " " << label_text(step.label);
    }
    out << "\n";
    for (std::size_t i = 0; i < step.computes.size();) {
      // Consecutive nodes with the same cycle count share one statement.
      std::vector<NodeId> nodes{step.computes[i].node};
      std::size_t j = i + 1;
      while (j < step.computes.size() && step.computes[j].cycles == step.computes[i].cycles &&
             std::find(nodes.begin(), nodes.end(), step.computes[j].node) == nodes.end()) {
        nodes.push_back(step.computes[j].node);
        ++j;
      }
      out << "  compute " << node_list_text(nodes, m, m) << " " << step.computes[i].cycles << "\n";
      i = j;
    }
    for (const Transfer& t : step.transfers) {
      out << "  " << (t.broadcast ? "bcast " : "send ") << t.source << " -> "
          << node_list_text(t.destinations, m, t.source);
      if (t.words != words) {
        out << " words " << t.words;
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace orthosim::sw
