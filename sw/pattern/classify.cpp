// Classification of one program step into the communication patterns of [PH91] Table 1: a step
// that is one pattern gives one instance, a mixed step is split into several (section 2, Step 5 of
// the sample program: C10 + C8). The rules are written out in docs/patterns.md.
#include "sw/pattern/pattern.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

namespace {

/// One node-level message of the step: destination `position` of transfer `transfer`.
struct Msg {
  std::uint32_t transfer = 0;
  std::uint32_t position = 0;
  NodeId source = 0;
  NodeId destination = 0;
};

/// A broadcast transfer: one payload from `source` to the set `destinations`.
struct Group {
  std::uint32_t transfer = 0;
  NodeId source = 0;
  std::set<NodeId> destinations;
};

struct Found {
  Pattern pattern;
  std::vector<Msg> messages;
};

std::string node(NodeId n) { return "N" + std::to_string(n); }

/// The step must be one the paper's model allows ([PH91] section 2 and Theorem 1): nodes < m,
/// no message to oneself, at most one message per (source, destination) pair, at most one
/// broadcast per source. Anything else would make the pattern names meaningless.
void check_step(const std::vector<Transfer>& transfers, std::uint32_t nodes) {
  std::set<std::pair<NodeId, NodeId>> pairs;
  std::set<NodeId> broadcasters;
  for (const Transfer& t : transfers) {
    if (t.source >= nodes) {
      throw InputError(t.where, "a source node below m = " + std::to_string(nodes), node(t.source));
    }
    if (t.broadcast && !t.destinations.empty() && !broadcasters.insert(t.source).second) {
      throw InputError(t.where, node(t.source) + " makes a second broadcast in one step");
    }
    for (NodeId d : t.destinations) {
      if (d >= nodes) {
        throw InputError(t.where, "a destination node below m = " + std::to_string(nodes), node(d));
      }
      if (d == t.source) {
        throw InputError(t.where, node(d) + " sends a message to itself");
      }
      if (!pairs.insert({t.source, d}).second) {
        throw InputError(t.where, "a second message " + node(t.source) + " -> " + node(d) +
                                      " in one step (a pair carries at most one message)");
      }
    }
  }
}

/// Rules 1-6 of docs/patterns.md on a set of personalized messages with unique pairs; nothing if
/// the set is none of the Table 1 patterns as a whole.
std::optional<Pattern> fit_personalized(const std::vector<Msg>& e, std::uint32_t m) {
  if (e.size() == 1) {
    return Pattern::C1;
  }
  std::map<NodeId, std::size_t> out_degree;
  std::map<NodeId, std::size_t> in_degree;
  for (const Msg& x : e) {
    ++out_degree[x.source];
    ++in_degree[x.destination];
  }
  const std::size_t sr = out_degree.size();
  const std::size_t ds = in_degree.size();
  // C7 before C2: with m = 2 the exchange N0 <-> N1 is both a permutation and all-to-all; the
  // complete exchange is the stronger statement. Pairs are unique, so m(m-1) messages over m
  // sources and m destinations are all the ordered pairs.
  if (sr == m && ds == m && e.size() == std::size_t{m} * (m - 1)) {
    return Pattern::C7;
  }
  // C2: every source sends one message, every destination receives one. [PH91] section 2 calls
  // Step 2 of Fig. 2 (N1 -> N2, N3 -> N0 on 4 nodes) a C2, so a partial permutation counts.
  const auto all_one = [](const std::map<NodeId, std::size_t>& deg) {
    return std::all_of(deg.begin(), deg.end(), [](const auto& kv) { return kv.second == 1; });
  };
  if (all_one(out_degree) && all_one(in_degree)) {
    return Pattern::C2;
  }
  if (sr == 1) {
    return ds == m - 1 ? Pattern::C4 : Pattern::C9;
  }
  if (ds == 1) {
    return sr == m - 1 ? Pattern::C5 : Pattern::C10;
  }
  // C12: every source sends to every destination but itself. E is a subset of
  // {(s,d) : s in S, d in D, s != d}, so equal sizes mean equal sets.
  std::size_t both = 0;
  for (const auto& kv : out_degree) {
    both += in_degree.count(kv.first);
  }
  if (e.size() == sr * ds - both) {
    return Pattern::C12;
  }
  return std::nullopt;
}

/// Groups the messages by a key, in order of first appearance of the key.
template <typename Key>
std::vector<std::vector<Msg>> split_by(const std::vector<Msg>& e, Key key) {
  std::vector<std::vector<Msg>> parts;
  std::map<NodeId, std::size_t> index;
  for (const Msg& x : e) {
    const auto [it, fresh] = index.emplace(key(x), parts.size());
    if (fresh) {
      parts.emplace_back();
    }
    parts[it->second].push_back(x);
  }
  return parts;
}

NodeId find(std::vector<NodeId>& parent, NodeId x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

/// Rule 7: a source's messages alone are always C1, C4 or C9.
void split_by_source(const std::vector<Msg>& e, std::uint32_t m, std::vector<Found>& out) {
  for (auto& part : split_by(e, [](const Msg& x) { return x.source; })) {
    out.push_back({*fit_personalized(part, m), std::move(part)});
  }
}

void classify_personalized(const std::vector<Msg>& e, std::uint32_t m, std::vector<Found>& out) {
  if (e.empty()) {
    return;
  }
  if (const auto p = fit_personalized(e, m)) {
    out.push_back({*p, e});
    return;
  }
  // Rule 7: the connected components of the undirected graph of the messages, each classified on
  // its own; a component that is still no pattern is split by source.
  std::vector<NodeId> parent(m);
  std::iota(parent.begin(), parent.end(), NodeId{0});
  for (const Msg& x : e) {
    parent[find(parent, x.source)] = find(parent, x.destination);
  }
  auto components = split_by(e, [&](const Msg& x) { return find(parent, x.source); });
  for (auto& c : components) {
    const auto p = components.size() > 1 ? fit_personalized(c, m) : std::nullopt;
    if (p) {
      out.push_back({*p, std::move(c)});
    } else {
      split_by_source(c, m, out);
    }
  }
}

/// Whether group g belongs to a complete many-to-many broadcast with destination set k: it sends
/// to every node of k but itself.
bool matches(const Group& g, const std::set<NodeId>& k) {
  if (k.count(g.source) == 0) {
    return g.destinations == k;
  }
  return g.destinations.size() + 1 == k.size() &&
         std::all_of(g.destinations.begin(), g.destinations.end(),
                     [&](NodeId d) { return k.count(d) == 1; });
}

std::vector<Msg> messages_of_group(const Group& g, const std::vector<Transfer>& transfers) {
  std::vector<Msg> out;
  const Transfer& t = transfers[g.transfer];
  for (std::size_t p = 0; p < t.destinations.size(); ++p) {
    out.push_back({g.transfer, static_cast<std::uint32_t>(p), t.source, t.destinations[p]});
  }
  return out;
}

/// Broadcast groups: the largest set of groups (at least two) that all send to D \ {s} for one
/// destination set D (|D| >= 2) is a C6 if sources and D are all m nodes, else a C11; repeat on the
/// rest. A group left over is C1 (one destination), C3 (all but the source) or C8.
void classify_broadcast(std::vector<Group> groups, const std::vector<Transfer>& transfers,
                        std::uint32_t m, std::vector<Found>& out) {
  while (groups.size() >= 2) {
    std::set<NodeId> best_key;
    std::size_t best = 0;
    for (const Group& g : groups) {
      if (best == groups.size()) {
        // Every group matches the best key: no later one can match more. (Counting each key's
        // matches costs a pass over the groups, so a C6 or C11 of m groups was m^3 set
        // comparisons: 44 s for C6 on 1024 nodes.)
        break;
      }
      // D is either the group's destinations (its source outside D) or them plus its source.
      std::set<NodeId> with_source = g.destinations;
      with_source.insert(g.source);
      const std::array<const std::set<NodeId>*, 2> keys = {&g.destinations, &with_source};
      for (const std::set<NodeId>* k : keys) {
        if (k->size() < 2) {
          continue;
        }
        const auto n =
            static_cast<std::size_t>(std::count_if(groups.begin(), groups.end(),
                                                   [&](const Group& h) { return matches(h, *k); }));
        if (n > best) {
          best = n;
          best_key = *k;
        }
      }
    }
    if (best < 2) {
      break;
    }
    Found f{best == m && best_key.size() == m ? Pattern::C6 : Pattern::C11, {}};
    std::vector<Group> rest;
    for (const Group& g : groups) {
      if (matches(g, best_key)) {
        const auto msgs = messages_of_group(g, transfers);
        f.messages.insert(f.messages.end(), msgs.begin(), msgs.end());
      } else {
        rest.push_back(g);
      }
    }
    out.push_back(std::move(f));
    groups = std::move(rest);
  }
  for (const Group& g : groups) {
    const std::size_t ds = g.destinations.size();
    const Pattern p = ds == 1 ? Pattern::C1 : ds == m - 1 ? Pattern::C3 : Pattern::C8;
    out.push_back({p, messages_of_group(g, transfers)});
  }
}

/// The transfers of an instance: each original transfer with the destinations that fell into it,
/// in the step's order.
PatternInstance build(Found f, const std::vector<Transfer>& transfers) {
  std::sort(f.messages.begin(), f.messages.end(), [](const Msg& a, const Msg& b) {
    return std::tie(a.transfer, a.position) < std::tie(b.transfer, b.position);
  });
  PatternInstance inst;
  inst.pattern = f.pattern;
  for (std::size_t i = 0; i < f.messages.size(); ++i) {
    const Msg& x = f.messages[i];
    if (i == 0 || f.messages[i - 1].transfer != x.transfer) {
      Transfer t = transfers[x.transfer];
      t.destinations.clear();
      inst.transfers.push_back(std::move(t));
    }
    inst.transfers.back().destinations.push_back(x.destination);
  }
  return inst;
}

}  // namespace

std::vector<PatternInstance> classify(const std::vector<Transfer>& transfers, std::uint32_t nodes) {
  check_step(transfers, nodes);
  std::vector<Msg> personalized;
  std::vector<Group> groups;
  for (std::size_t t = 0; t < transfers.size(); ++t) {
    const Transfer& tr = transfers[t];
    if (tr.destinations.empty()) {
      continue;  // carries no message, belongs to no pattern
    }
    const auto ti = static_cast<std::uint32_t>(t);
    if (tr.broadcast) {
      groups.push_back({ti, tr.source, {tr.destinations.begin(), tr.destinations.end()}});
    } else {
      for (std::size_t p = 0; p < tr.destinations.size(); ++p) {
        personalized.push_back({ti, static_cast<std::uint32_t>(p), tr.source, tr.destinations[p]});
      }
    }
  }
  std::vector<Found> found;
  classify_personalized(personalized, nodes, found);
  classify_broadcast(std::move(groups), transfers, nodes, found);

  // In order of their first transfer in the step (Step 5 of Fig. 2 reads C10, C8).
  const auto first = [](const Found& f) {
    return std::min_element(f.messages.begin(), f.messages.end(),
                            [](const Msg& a, const Msg& b) { return a.transfer < b.transfer; })
        ->transfer;
  };
  std::stable_sort(found.begin(), found.end(),
                   [&](const Found& a, const Found& b) { return first(a) < first(b); });
  std::vector<PatternInstance> out;
  out.reserve(found.size());
  for (Found& f : found) {
    out.push_back(build(std::move(f), transfers));
  }
  return out;
}

}  // namespace orthosim::sw
