// Compiling a multicomputer program to per-node send/receive programs, and node maps.
#include "sw/routed/routed_program.hpp"

#include <cctype>

#include "sw/core/diagnostic.hpp"
#include "sw/core/input_file.hpp"

namespace orthosim::sw {

std::vector<std::uint32_t> identity_embedding(std::uint32_t nodes) {
  std::vector<std::uint32_t> e(nodes);
  for (std::uint32_t i = 0; i < nodes; ++i) {
    e[i] = i;
  }
  return e;
}

std::vector<std::uint32_t> parse_embedding(const std::string& text, const std::string& file_name,
                                           std::uint32_t program_nodes, std::uint32_t network_nodes,
                                           const std::string& placed) {
  check_text(text, file_name, TextEncoding::Utf8);
  std::vector<std::uint32_t> out;
  std::vector<SourceLocation> where_used(network_nodes);
  std::vector<bool> used(network_nodes, false);
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  // A UTF-8 byte order mark, as some editors write it, is no entry (and takes no column), as in
  // a program.
  std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  const auto here = [&] { return SourceLocation{file_name, line, column}; };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      column = 1;
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') {
        ++i;
      }
      continue;
    }
    // White space, every kind the text check lets through, and commas separate entries.
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      ++column;
      continue;
    }
    const SourceLocation at = here();
    std::string token;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
           text[i] != ',' && text[i] != '#') {
      token += text[i];
      ++i;
      ++column;
    }
    std::uint64_t value = 0;
    bool digits = !token.empty() && token.size() <= 9;
    for (char d : token) {
      digits = digits && std::isdigit(static_cast<unsigned char>(d));
      value = value * 10 + static_cast<std::uint64_t>(d - '0');
    }
    if (!digits) {
      throw InputError(at, "a network node number", "'" + token + "'");
    }
    if (value >= network_nodes) {
      throw InputError(at, "a network node below " + std::to_string(network_nodes),
                       std::to_string(value));
    }
    if (out.size() == program_nodes) {
      throw InputError(at, std::to_string(program_nodes) + " entries, one per " + placed,
                       "a further entry " + std::to_string(value));
    }
    const auto node = static_cast<std::uint32_t>(value);
    if (used[node]) {
      throw InputError(at, "a network node not used yet",
                       std::to_string(node) + ", already given at " +
                           std::to_string(where_used[node].line) + ":" +
                           std::to_string(where_used[node].column));
    }
    used[node] = true;
    where_used[node] = at;
    out.push_back(node);
  }
  if (out.size() != program_nodes) {
    throw InputError(here(), std::to_string(program_nodes) + " entries, one per " + placed,
                     std::to_string(out.size()));
  }
  return out;
}

std::vector<std::uint32_t> read_embedding_file(const std::string& path, std::uint32_t program_nodes,
                                               std::uint32_t network_nodes,
                                               const std::string& placed) {
  InputRules rules;
  rules.what = "node map file";
  return parse_embedding(read_input_file(path, rules), path, program_nodes, network_nodes, placed);
}

namespace {

/// route_program's work; with `consumed` (the program itself), each step is freed once routed.
RoutedProgram route(const McProgram& program, std::uint32_t network_nodes,
                    const std::vector<std::uint32_t>& embedding, McProgram* consumed) {
  if (program.nodes > network_nodes) {
    throw ParameterError("embedding",
                         "a network of at least " + std::to_string(program.nodes) +
                             " nodes for the program's nodes",
                         std::to_string(network_nodes) + " nodes");
  }
  if (embedding.size() != program.nodes) {
    throw ParameterError("embedding", "one network node per program node",
                         std::to_string(embedding.size()) + " entries");
  }
  RoutedProgram out;
  out.name = program.name;
  out.program_nodes = program.nodes;
  out.network_nodes = network_nodes;
  out.steps = static_cast<std::uint32_t>(program.steps.size());
  out.ops.resize(network_nodes);
  out.manifest.name = program.name;
  out.manifest.n = network_nodes;
  std::vector<std::uint32_t> next_local(network_nodes, 0);
  const auto allocate = [&](std::uint32_t node, std::uint32_t words) {
    const std::uint32_t at = next_local[node];
    next_local[node] += words;
    return at;
  };
  for (std::uint32_t k = 0; k < program.steps.size(); ++k) {
    const ProgramStep& step = program.steps[k];
    std::vector<Cycle> compute(network_nodes);
    for (const ComputePhase& c : step.computes) {
      compute[embedding.at(c.node)] += c.cycles;
    }
    for (std::uint32_t node = 0; node < network_nodes; ++node) {
      if (compute[node] > Cycle{0}) {
        out.ops[node].emplace_back(routed::Compute{compute[node]});
      }
    }
    std::vector<std::uint32_t> incoming;
    for (std::uint32_t t = 0; t < step.transfers.size(); ++t) {
      const Transfer& tr = step.transfers[t];
      const std::uint32_t source = embedding.at(tr.source);
      // A broadcast payload sits once in the sender's memory and goes out once per destination:
      // the network has no replication.
      std::uint32_t src = tr.broadcast ? allocate(source, tr.words) : 0;
      for (NodeId d : tr.destinations) {
        const NodeMessage m{tr.source, d, tr.words, tr.broadcast, k, t};
        const std::uint32_t destination = embedding.at(d);
        if (!tr.broadcast) {
          src = allocate(source, tr.words);
        }
        const Message msg =
            manifest_entry(m, static_cast<std::uint32_t>(out.manifest.messages.size()), source,
                           destination, src, allocate(destination, tr.words));
        out.manifest.messages.push_back(msg);
        out.ops[source].emplace_back(routed::Send{msg.id});
        incoming.push_back(msg.id);
      }
    }
    for (std::uint32_t id : incoming) {
      out.ops[out.manifest.messages[id].destination].emplace_back(routed::Receive{id});
    }
    for (std::uint32_t node = 0; node < network_nodes; ++node) {
      out.ops[node].emplace_back(routed::StepEnd{k});
    }
    if (consumed != nullptr) {
      consumed->steps[k] = ProgramStep{};
    }
  }
  for (std::uint32_t words : next_local) {
    out.local_words = std::max(out.local_words, words);
  }
  // The ops are complete: spare capacity would be held for the whole run.
  for (std::vector<routed::Op>& ops : out.ops) {
    ops.shrink_to_fit();
  }
  return out;
}

}  // namespace

RoutedProgram route_program(const McProgram& program, std::uint32_t network_nodes,
                            const std::vector<std::uint32_t>& embedding) {
  return route(program, network_nodes, embedding, nullptr);
}

RoutedProgram route_program(McProgram&& program, std::uint32_t network_nodes,
                            const std::vector<std::uint32_t>& embedding) {
  return route(program, network_nodes, embedding, &program);
}

}  // namespace orthosim::sw
