// Program generators for the Table 1 patterns of [PH91] and for random valid programs. The
// random numbers come from std::mt19937_64 (its sequence is fixed by the standard) through our own
// rejection sampling, so a seed gives the same program with every standard library.
#include "sw/pattern/generate.hpp"

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

namespace {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in [0, n), n > 0: reject the draws below 2^64 mod n so every residue is equally
  /// likely.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (std::numeric_limits<std::uint64_t>::max() - n + 1) % n;
    std::uint64_t r = engine_();
    while (r < threshold) {
      r = engine_();
    }
    return r % n;
  }

  /// Uniform in [lo, hi], lo <= hi.
  std::uint32_t between(std::uint32_t lo, std::uint32_t hi) {
    return lo + static_cast<std::uint32_t>(below(std::uint64_t{hi} - lo + 1));
  }

  /// Fisher-Yates.
  template <typename T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) {
      std::swap(v[i - 1], v[static_cast<std::size_t>(below(i))]);
    }
  }

  /// k distinct elements of `pool`, k <= pool.size(), in random order.
  std::vector<NodeId> pick(std::vector<NodeId> pool, std::size_t k) {
    shuffle(pool);
    pool.resize(k);
    return pool;
  }

  std::uint64_t next() { return engine_(); }

 private:
  std::mt19937_64 engine_;
};

std::string node(NodeId n) { return "N" + std::to_string(n); }

std::string list(const std::vector<NodeId>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    s += (i == 0 ? "" : ",") + node(v[i]);
  }
  return s + "}";
}

/// The nodes 0..m-1 that are not in `excluded`, ascending.
std::vector<NodeId> others(std::uint32_t m, const std::vector<NodeId>& excluded) {
  std::vector<NodeId> out;
  for (NodeId n = 0; n < m; ++n) {
    if (std::find(excluded.begin(), excluded.end(), n) == excluded.end()) {
      out.push_back(n);
    }
  }
  return out;
}

bool same_set(std::vector<NodeId> a, std::vector<NodeId> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

void check_ids(const std::vector<NodeId>& ids, const char* parameter, std::uint32_t m) {
  std::set<NodeId> seen;
  for (NodeId n : ids) {
    if (n >= m) {
      throw ParameterError(parameter, "node ids below m = " + std::to_string(m), node(n));
    }
    if (!seen.insert(n).second) {
      throw ParameterError(parameter, "distinct nodes", node(n) + " twice in " + list(ids));
    }
  }
}

/// The fewest nodes on which p exists with Table 1's ranges: C2 needs 3 (on 2 nodes the only
/// derangement is the exchange, which is all-to-all C7), C3-C5 need 3 (on 2 nodes "all others" is
/// one node, C1), C8-C12 need 4 (1 < sr, ds < m-1).
std::uint32_t min_nodes(Pattern p) {
  switch (p) {
    case Pattern::C1:
    case Pattern::C6:
    case Pattern::C7:
      return 2;
    case Pattern::C2:
    case Pattern::C3:
    case Pattern::C4:
    case Pattern::C5:
      return 3;
    default:
      return 4;
  }
}

/// Generates one pattern's transfers (source, destinations, broadcast) before lengths are set.
class PatternBuilder {
 public:
  PatternBuilder(Pattern p, const PatternGenOptions& o) : p_(p), o_(o), m_(o.nodes), rng_(o.seed) {}

  std::vector<Transfer> build() {
    const bool bcast = is_broadcast(p_);
    switch (p_) {
      case Pattern::C1: {
        const NodeId s = single(o_.sources, "sources", "source", others(m_, o_.destinations));
        const NodeId d = single(o_.destinations, "dests", "destination", others(m_, {s}));
        not_self(s, d);
        return {transfer(s, {d}, false)};
      }
      case Pattern::C2:
        return permutation();
      case Pattern::C3:
      case Pattern::C4: {
        const NodeId s = single(o_.sources, "sources", "source", others(m_, o_.destinations));
        all_but("dests", o_.destinations, s, "destinations");
        return {transfer(s, ordered(o_.destinations, others(m_, {s})), bcast)};
      }
      case Pattern::C5: {
        const NodeId d = single(o_.destinations, "dests", "destination", others(m_, o_.sources));
        all_but("sources", o_.sources, d, "sources");
        std::vector<Transfer> out;
        for (NodeId s : ordered(o_.sources, others(m_, {d}))) {
          out.push_back(transfer(s, {d}, false));
        }
        return out;
      }
      case Pattern::C6:
      case Pattern::C7: {
        all_nodes("sources", o_.sources, "sources");
        all_nodes("dests", o_.destinations, "destinations");
        std::vector<Transfer> out;
        for (NodeId s : ordered(o_.sources, others(m_, {}))) {
          out.push_back(transfer(s, others(m_, {s}), bcast));
        }
        return out;
      }
      case Pattern::C8:
      case Pattern::C9: {
        const NodeId s = single(o_.sources, "sources", "source", others(m_, o_.destinations));
        const auto ds = many("dests", o_.destinations, others(m_, {s}), "destinations", s);
        return {transfer(s, ds, bcast)};
      }
      case Pattern::C10: {
        const NodeId d = single(o_.destinations, "dests", "destination", others(m_, o_.sources));
        std::vector<Transfer> out;
        for (NodeId s : many("sources", o_.sources, others(m_, {d}), "sources", d)) {
          out.push_back(transfer(s, {d}, false));
        }
        return out;
      }
      case Pattern::C11:
      case Pattern::C12:
        return many_to_many(bcast);
    }
    throw std::logic_error("generate_pattern: unknown pattern");
  }

 private:
  [[noreturn]] void fail(const char* parameter, const std::string& message) const {
    throw ParameterError(parameter, to_string(p_) + " (" + describe(p_) + "): " + message);
  }

  Transfer transfer(NodeId s, std::vector<NodeId> ds, bool bcast) const {
    Transfer t;
    t.source = s;
    t.destinations = std::move(ds);
    t.broadcast = bcast;
    t.words = o_.words;
    return t;
  }

  /// The one node a role has: the given one, or a random one of `pool`.
  NodeId single(const std::vector<NodeId>& given, const char* parameter, const std::string& role,
                const std::vector<NodeId>& pool) {
    if (given.size() > 1) {
      fail(parameter,
           "has one " + role + ", found " + std::to_string(given.size()) + ": " + list(given));
    }
    if (!given.empty()) {
      return given.front();
    }
    if (pool.empty()) {
      fail(parameter, "no node is left for the " + role);
    }
    return pool[static_cast<std::size_t>(rng_.below(pool.size()))];
  }

  void not_self(NodeId s, NodeId d) const {
    if (s == d) {
      fail("dests", "the destination must differ from the source " + node(s));
    }
  }

  /// The given nodes if any (their order kept), else `fallback`.
  static std::vector<NodeId> ordered(const std::vector<NodeId>& given,
                                     std::vector<NodeId> fallback) {
    return given.empty() ? fallback : given;
  }

  void all_but(const char* parameter, const std::vector<NodeId>& given, NodeId except,
               const std::string& role) const {
    if (!given.empty() && !same_set(given, others(m_, {except}))) {
      fail(parameter, "the " + role + " are all m-1 = " + std::to_string(m_ - 1) + " nodes but " +
                          node(except) + ", found " + list(given));
    }
  }

  void all_nodes(const char* parameter, const std::vector<NodeId>& given,
                 const std::string& role) const {
    if (!given.empty() && !same_set(given, others(m_, {}))) {
      fail(parameter,
           "the " + role + " are all m = " + std::to_string(m_) + " nodes, found " + list(given));
    }
  }

  /// The "many" side of C8-C10: 2..m-2 nodes other than `hub` (Table 1: 1 < sr, ds < m-1).
  std::vector<NodeId> many(const char* parameter, const std::vector<NodeId>& given,
                           const std::vector<NodeId>& pool, const std::string& role, NodeId hub) {
    if (given.empty()) {
      return rng_.pick(pool, rng_.between(2, m_ - 2));
    }
    if (std::find(given.begin(), given.end(), hub) != given.end()) {
      fail(parameter, node(hub) + " cannot be among its own " + role + " " + list(given));
    }
    check_range(parameter, given.size(), role);
    return given;
  }

  void check_range(const char* parameter, std::size_t k, const std::string& role) const {
    if (k >= 2 && k + 2 <= m_) {
      return;
    }
    // Name the pattern the user has written instead, where there is one.
    std::string instead;
    if (k == 1 && (p_ == Pattern::C8 || p_ == Pattern::C9 || p_ == Pattern::C10)) {
      instead = "; one is C1";
    } else if (k + 1 == m_ && p_ == Pattern::C8) {
      instead = "; m-1 is C3";
    } else if (k + 1 == m_ && p_ == Pattern::C9) {
      instead = "; m-1 is C4";
    } else if (k + 1 == m_ && p_ == Pattern::C10) {
      instead = "; m-1 is C5";
    }
    fail(parameter, "Table 1 needs 1 < " + std::string(role == "sources" ? "sr" : "ds") +
                        " < m-1 = " + std::to_string(m_ - 1) + " " + role + ", found " +
                        std::to_string(k) + instead);
  }

  std::vector<Transfer> permutation() {
    std::vector<NodeId> src = o_.sources;
    std::vector<NodeId> dst = o_.destinations;
    if (src.size() == 1 || dst.size() == 1) {
      fail(src.size() == 1 ? "sources" : "dests",
           "a permutation moves at least 2 messages (one is C1)");
    }
    if (src.empty() && dst.empty()) {
      src = others(m_, {});
    }
    if (src.empty()) {
      src = derangement(dst);
    } else if (dst.empty()) {
      dst = derangement(src);
    }
    if (src.size() != dst.size()) {
      fail("dests", "sources[i] sends to destinations[i]: " + std::to_string(src.size()) +
                        " sources, " + std::to_string(dst.size()) + " destinations");
    }
    std::vector<Transfer> out;
    for (std::size_t i = 0; i < src.size(); ++i) {
      not_self(src[i], dst[i]);
      out.push_back(transfer(src[i], {dst[i]}, false));
    }
    return out;
  }

  /// A random permutation of `v` in which no element keeps its place (rejection: about e tries).
  std::vector<NodeId> derangement(const std::vector<NodeId>& v) {
    std::vector<NodeId> out = v;
    for (;;) {
      rng_.shuffle(out);
      bool fixed = false;
      for (std::size_t i = 0; i < v.size(); ++i) {
        fixed = fixed || out[i] == v[i];
      }
      if (!fixed) {
        return out;
      }
    }
  }

  /// C11 / C12: sr sources -> ds destinations, disjoint, so that every source sends ds messages
  /// and Table 1's sr.ds holds.
  std::vector<Transfer> many_to_many(bool bcast) {
    std::vector<NodeId> src = o_.sources;
    std::vector<NodeId> dst = o_.destinations;
    if (!src.empty()) {
      check_range("sources", src.size(), "sources");
    }
    if (!dst.empty()) {
      check_range("dests", dst.size(), "destinations");
    }
    if (src.empty() && dst.empty()) {
      src = rng_.pick(others(m_, {}), rng_.between(2, m_ - 2));
    }
    if (dst.empty()) {
      dst =
          rng_.pick(others(m_, src), rng_.between(2, m_ - static_cast<std::uint32_t>(src.size())));
    } else if (src.empty()) {
      src =
          rng_.pick(others(m_, dst), rng_.between(2, m_ - static_cast<std::uint32_t>(dst.size())));
    }
    for (NodeId d : dst) {
      if (std::find(src.begin(), src.end(), d) != src.end()) {
        fail("dests", "sources " + list(src) + " and destinations " + list(dst) +
                          " must be disjoint (Table 1 counts sr.ds messages); " + node(d) +
                          " is in both");
      }
    }
    std::vector<Transfer> out;
    for (NodeId s : src) {
      out.push_back(transfer(s, dst, bcast));
    }
    return out;
  }

  Pattern p_;
  const PatternGenOptions& o_;
  std::uint32_t m_;
  Rng rng_;
};

std::vector<Pattern> all_patterns() {
  std::vector<Pattern> out;
  for (int i = 1; i <= 12; ++i) {
    out.push_back(static_cast<Pattern>(i));
  }
  return out;
}

}  // namespace

McProgram generate_pattern(Pattern p, const PatternGenOptions& o) {
  const std::uint32_t m = o.nodes;
  if (m < min_nodes(p)) {
    throw ParameterError("nodes", to_string(p) + " (" + describe(p) +
                                      ") needs m >= " + std::to_string(min_nodes(p)) +
                                      " nodes, found m = " + std::to_string(m) +
                                      (min_nodes(p) == 4 ? " (Table 1: 1 < sr, ds < m-1)" : ""));
  }
  if (o.words == 0) {
    throw ParameterError("len", "a message length of at least 1 word", "0");
  }
  check_ids(o.sources, "sources", m);
  check_ids(o.destinations, "dests", m);

  McProgram prog;
  prog.name = to_string(p) + " m=" + std::to_string(m);
  prog.nodes = m;
  ProgramStep step;
  step.label = to_string(p);
  step.where = {prog.name, 0, 0};
  step.transfers = PatternBuilder(p, o).build();
  for (Transfer& t : step.transfers) {
    t.where = step.where;
  }
  // The builder's checks should leave nothing that is not p; if they do, that is our bug.
  const auto found = classify(step.transfers, m);
  if (found.size() != 1 || found.front().pattern != p) {
    throw std::logic_error("generate_pattern: built a step that is not " + to_string(p));
  }
  prog.steps.push_back(std::move(step));
  return prog;
}

McProgram generate_random(std::uint32_t nodes, std::uint32_t steps, std::uint64_t seed,
                          std::uint32_t max_words) {
  if (nodes < 2) {
    throw ParameterError("nodes", "at least 2 nodes", std::to_string(nodes));
  }
  if (steps == 0) {
    throw ParameterError("steps", "at least 1 step", "0");
  }
  if (max_words == 0) {
    throw ParameterError("len", "a message length of at least 1 word", "0");
  }
  Rng rng(seed);
  McProgram prog;
  prog.name = "random m=" + std::to_string(nodes) + " steps=" + std::to_string(steps) +
              " seed=" + std::to_string(seed);
  prog.nodes = nodes;
  std::vector<Pattern> feasible;
  for (Pattern p : all_patterns()) {
    if (min_nodes(p) <= nodes) {
      feasible.push_back(p);
    }
  }
  for (std::uint32_t k = 0; k < steps; ++k) {
    ProgramStep step;
    step.where = {prog.name, 0, 0};
    if (rng.below(5) == 0) {
      // A whole Table 1 pattern, so that random programs also hold the structured steps.
      const Pattern p = feasible[static_cast<std::size_t>(rng.below(feasible.size()))];
      PatternGenOptions o;
      o.nodes = nodes;
      o.seed = rng.next();
      step.label = to_string(p);
      step.transfers = generate_pattern(p, o).steps.front().transfers;
    } else {
      for (NodeId s = 0; s < nodes; ++s) {
        // Each source acts once per step, so its pairs and its one broadcast stay unique.
        std::vector<NodeId> free = rng.pick(others(nodes, {s}), nodes - 1);
        const auto take = [&](std::uint32_t n) {
          std::vector<NodeId> part(free.begin(), free.begin() + n);
          free.erase(free.begin(), free.begin() + n);
          return part;
        };
        const auto add = [&](std::vector<NodeId> ds, bool bcast) {
          Transfer t;
          t.source = s;
          t.destinations = std::move(ds);
          t.broadcast = bcast;
          step.transfers.push_back(std::move(t));
        };
        const auto size = static_cast<std::uint32_t>(free.size());
        const std::uint64_t action = rng.below(8);
        switch (action) {
          case 0:
          case 1:
          case 2:
            break;  // silent this step
          case 3:
          case 4:
            add(take(rng.between(1, size)), false);
            break;
          case 5:
            add(take(rng.between(1, size)), true);
            break;
          default: {
            // 6: a broadcast and personalized messages from one source; 7: two personalized
            // transfers from one source (classify merges or splits them).
            add(take(rng.between(1, size)), action == 6);
            if (!free.empty()) {
              add(take(rng.between(1, static_cast<std::uint32_t>(free.size()))), false);
            }
            break;
          }
        }
      }
      if (step.transfers.empty()) {
        const NodeId s = static_cast<NodeId>(rng.below(nodes));
        const std::vector<NodeId> pool = others(nodes, {s});
        Transfer t;
        t.source = s;
        t.destinations = {pool[static_cast<std::size_t>(rng.below(pool.size()))]};
        step.transfers.push_back(std::move(t));
      }
      rng.shuffle(step.transfers);
    }
    for (Transfer& t : step.transfers) {
      t.words = rng.between(1, max_words);
      t.where = step.where;
    }
    if (rng.below(3) == 0) {
      for (NodeId n = 0; n < nodes; ++n) {
        if (rng.below(2) == 0) {
          step.computes.push_back({n, Cycle{rng.between(1, 64)}, step.where});
        }
      }
    }
    prog.steps.push_back(std::move(step));
  }
  return prog;
}

}  // namespace orthosim::sw
