// Theorem 1 of [PH91] (section 4.3): the properties of a message vector.
#include "sw/pattern/message_vector.hpp"

#include <map>
#include <set>

namespace orthosim::sw {

namespace {

std::string node(NodeId n) { return "N" + std::to_string(n); }

}  // namespace

MessageVectorCheck check_message_vector(const std::vector<std::pair<NodeId, NodeId>>& links,
                                        std::uint32_t nodes) {
  MessageVectorCheck out;
  const std::string m = std::to_string(nodes);
  // The link set E of section 4.3 holds links between distinct nodes N0..N(m-1) only.
  for (const auto& [i, j] : links) {
    for (NodeId k : {i, j}) {
      if (k >= nodes) {
        out.violations.push_back("link (" + node(i) + "," + node(j) + "): node " + node(k) +
                                 " is not one of the m = " + m + " nodes N0..N" +
                                 std::to_string(nodes == 0 ? 0 : nodes - 1));
        break;
      }
    }
    if (i == j) {
      out.violations.push_back("link (" + node(i) + "," + node(j) +
                               ") is a self-loop: E holds links between distinct nodes only");
    }
  }

  // Properties 1 and 2: during one vectorized access P(i) writes one message into M(i,j) and P(j)
  // reads one message from it, so a pair (i, j) can carry only one link (proof of Theorem 1).
  std::map<std::pair<NodeId, NodeId>, std::size_t> count;
  for (const auto& link : links) {
    ++count[link];
  }
  for (const auto& [link, c] : count) {
    if (c < 2) {
      continue;
    }
    const auto& [i, j] = link;
    out.violations.push_back("property 1: source " + node(i) + " has " + std::to_string(c) +
                             " links to destination " + node(j) +
                             " (the destinations of a source must be distinct)");
    out.violations.push_back("property 2: destination " + node(j) + " has " + std::to_string(c) +
                             " links from source " + node(i) +
                             " (the sources of a destination must be distinct)");
  }

  // Properties 3 and 4: "during one vectorized access on an m-way interleaved bus, any source can
  // send messages to at most (m-1) other destinations" (proof of Theorem 1), and likewise for a
  // receiver. DST_i and SRC_j range over the nodes 0..m-1, as the theorem defines them.
  std::map<NodeId, std::set<NodeId>> dst;
  std::map<NodeId, std::set<NodeId>> src;
  for (const auto& [i, j] : links) {
    if (i < nodes && j < nodes) {
      dst[i].insert(j);
      src[j].insert(i);
    }
  }
  const std::size_t limit = nodes == 0 ? 0 : nodes - 1;
  for (const auto& [i, d] : dst) {
    if (d.size() > limit) {
      out.violations.push_back("property 3: |DST_" + std::to_string(i) +
                               "| = " + std::to_string(d.size()) +
                               " > m-1 = " + std::to_string(limit) + " (source " + node(i) + ")");
    }
  }
  for (const auto& [j, s] : src) {
    if (s.size() > limit) {
      out.violations.push_back(
          "property 4: |SRC_" + std::to_string(j) + "| = " + std::to_string(s.size()) +
          " > m-1 = " + std::to_string(limit) + " (destination " + node(j) + ")");
    }
  }
  out.ok = out.violations.empty();
  return out;
}

std::vector<std::pair<NodeId, NodeId>> links_of(const std::vector<Transfer>& transfers) {
  std::vector<std::pair<NodeId, NodeId>> out;
  for (const Transfer& t : transfers) {
    for (NodeId d : t.destinations) {
      out.emplace_back(t.source, d);
    }
  }
  return out;
}

}  // namespace orthosim::sw
