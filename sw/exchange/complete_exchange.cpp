#include "sw/exchange/complete_exchange.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

namespace orthosim::sw {

namespace {

constexpr NodeId kNoPartner = std::numeric_limits<NodeId>::max();

/// How a step of a pattern moves: what the literal A1 reading needs to know of it.
enum class StepKind : std::uint8_t {
  Collect,     ///< A1 stage 1, A(n-1) split: towards the masters of the basic cell
  Exchange,    ///< among masters: A1 stage 2, Suh, A(n-1) exchange, the baselines' rounds
  Distribute,  ///< A1 stage 3, A(n-1) merge: from a master to its slave
};

/// One step of a fixed communication pattern: node x sends to partner[x] (kNoPartner: it sends
/// nothing). Which blocks go is decided afterwards, block by block.
struct PatternStep {
  std::string label;
  std::vector<NodeId> partner;
  StepKind kind = StepKind::Exchange;
  std::uint32_t dimension = 0;  ///< 0: along a row (column index j), 1: along a column (row i)
  std::uint32_t hops = 0;       ///< A1 stage 2: master hops (4, 2, 1) of the step
};

/// Whether a message of step `step` from `at` to `partner` carries `block`.
using BlockChooser =
    std::function<bool(std::size_t step, NodeId at, NodeId partner, const Block& block)>;

struct Torus {
  std::uint32_t side = 0;
  [[nodiscard]] NodeId node(std::int64_t row, std::int64_t column) const {
    const auto k = static_cast<std::int64_t>(side);
    return static_cast<NodeId>(((column % k) + k) % k + k * (((row % k) + k) % k));
  }
  [[nodiscard]] std::uint32_t row(NodeId x) const { return x / side; }
  [[nodiscard]] std::uint32_t column(NodeId x) const { return x % side; }
};

std::uint32_t log2_exact(std::uint32_t x) {
  std::uint32_t bits = 0;
  while ((1u << bits) < x) {
    ++bits;
  }
  return bits;
}

/// Runs the blocks of a complete exchange through `pattern`, `moves` choosing each message's
/// blocks among what its sender holds at the step's start. A message nobody needs is left out,
/// and so is a step without messages. A sender that keeps some blocks gathers the ones it sends
/// into one buffer first: that gather is the step's rearrangement of them.
Schedule route_blocks(std::string name, std::uint32_t nodes,
                      const std::vector<PatternStep>& pattern, const BlockChooser& moves) {
  Schedule s{std::move(name), nodes, complete_exchange_blocks(nodes), {}};
  std::vector<std::vector<Block>> held(nodes);
  for (const Block& b : s.blocks) {
    held[b.origin].push_back(b);
  }
  for (std::size_t t = 0; t < pattern.size(); ++t) {
    const PatternStep& p = pattern[t];
    ScheduleStep step;
    step.label = p.label;
    std::vector<std::vector<Block>> arriving(nodes);
    for (NodeId x = 0; x < nodes; ++x) {
      const NodeId to = p.partner[x];
      if (to == kNoPartner || to == x) {
        continue;
      }
      std::vector<Block> keep;
      std::vector<Block> send;
      for (const Block& b : held[x]) {
        (moves(t, x, to, b) ? send : keep).push_back(b);
      }
      if (send.empty()) {
        continue;
      }
      if (!keep.empty()) {
        step.local.push_back(LocalWork{x, static_cast<std::uint32_t>(send.size()), Cycle{0}});
      }
      held[x] = std::move(keep);
      arriving[to].insert(arriving[to].end(), send.begin(), send.end());
      step.messages.push_back(ScheduledMessage{x, to, std::move(send)});
    }
    for (NodeId x = 0; x < nodes; ++x) {
      held[x].insert(held[x].end(), arriving[x].begin(), arriving[x].end());
    }
    if (!step.messages.empty()) {
      s.steps.push_back(std::move(step));
    }
  }
  return s;
}

/// What each node can still reach by the steps of a pattern from step t on: reach(t, x) holds x
/// and, if x sends in step t, what its partner reaches from t + 1.
class Reachability {
 public:
  Reachability(std::uint32_t nodes, const std::vector<PatternStep>& pattern)
      : nodes_(nodes), words_((nodes + 63) / 64), steps_(pattern.size()) {
    bits_.assign((steps_ + 1) * nodes_ * words_, 0);
    for (NodeId x = 0; x < nodes_; ++x) {
      set(steps_, x, x);
    }
    for (std::size_t t = steps_; t-- > 0;) {
      for (NodeId x = 0; x < nodes_; ++x) {
        std::uint64_t* out = at(t, x);
        const std::uint64_t* stay = at(t + 1, x);
        const NodeId to = pattern[t].partner[x];
        const std::uint64_t* go = to == kNoPartner ? nullptr : at(t + 1, to);
        for (std::size_t w = 0; w < words_; ++w) {
          out[w] = stay[w] | (go != nullptr ? go[w] : 0);
        }
      }
    }
  }

  /// Whether a block at `x` before step t can reach `d`.
  [[nodiscard]] bool can(std::size_t t, NodeId x, NodeId d) const {
    return ((at(t, x)[d / 64] >> (d % 64)) & 1u) != 0;
  }

  /// A block moves when staying would leave it unable to reach its destination and the partner
  /// can still reach it ([A2A] section 2.3's stage 2, read so that no block is lost).
  [[nodiscard]] BlockChooser must_move() const {
    return [this](std::size_t t, NodeId at, NodeId to, const Block& b) {
      return !can(t + 1, at, b.destination) && can(t + 1, to, b.destination);
    };
  }

 private:
  [[nodiscard]] std::uint64_t* at(std::size_t t, NodeId x) {
    return &bits_[(t * nodes_ + x) * words_];
  }
  [[nodiscard]] const std::uint64_t* at(std::size_t t, NodeId x) const {
    return &bits_[(t * nodes_ + x) * words_];
  }
  void set(std::size_t t, NodeId x, NodeId d) { at(t, x)[d / 64] |= std::uint64_t{1} << (d % 64); }

  std::uint32_t nodes_;
  std::size_t words_;
  std::size_t steps_;
  std::vector<std::uint64_t> bits_;
};

Schedule route_must_move(std::string name, std::uint32_t nodes,
                         const std::vector<PatternStep>& pattern) {
  const Reachability reach(nodes, pattern);
  return route_blocks(std::move(name), nodes, pattern, reach.must_move());
}

std::string schedule_name(ExchangeAlgorithm algorithm, std::uint32_t side) {
  return "complete-exchange-" + to_string(algorithm) + "-" + std::to_string(side) + "x" +
         std::to_string(side);
}

// ---- A1's stage 2 and [6]: the four phases on an M x M torus of masters -----------------------

/// One step of stage 2 on an M x M torus, in its own coordinates (p, q): the partner of (p, q).
struct LocalStep {
  std::string label;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> partner;  ///< index p M + q
  std::uint32_t hops = 0;
};

/// [A2A] section 2.3, stage 2, on an M x M torus (M = N/2 masters of A1's subnetworks, or the
/// whole N x N torus for [6]). Hops are in the torus' own units (A1's "8 hops" are 4 master hops).
/// The class of (p, q) is (p + q) mod 4. Phases 1 and 2: M/4 - 1 steps of 4 hops each, classes 0
/// and 2 along q then p, classes 1 and 3 along p then q (+ for classes 0 and 1, - for 2 and 3).
/// Phase 3: 2 hops, + when the coordinate that moves is 0 or 1 (mod 4), - otherwise; step 1 moves
/// the even classes along q and the odd along p, step 2 the other way round. The printed
/// conditions test q also for the moves along p and say "Even" for step 2's moves along q; both
/// are read as the symmetric rule above (docs/complete-exchange.md). Phase 4: 1 hop, + when p + q
/// is even, q in step 1 and p in step 2. Steps whose every move returns to the sender (phase 3
/// on a 2 x 2 torus) are left out.
std::vector<LocalStep> stage2_steps(std::uint32_t m, const std::string& stage) {
  std::vector<LocalStep> out;
  const auto shift = [m](std::uint32_t v, int by) {
    return static_cast<std::uint32_t>((static_cast<std::int64_t>(v) + by + 4 * std::int64_t{m}) %
                                      m);
  };
  // rule(p, q): the axis (0: q, 1: p) and the signed hops of (p, q)'s move.
  const auto add =
      [&](const std::string& label, std::uint32_t hops,
          const std::function<std::pair<std::uint32_t, int>(std::uint32_t, std::uint32_t)>& rule) {
        LocalStep step;
        step.label = stage + " " + label;
        step.hops = hops;
        bool moves = false;
        for (std::uint32_t p = 0; p < m; ++p) {
          for (std::uint32_t q = 0; q < m; ++q) {
            const auto [dimension, by] = rule(p, q);
            const std::pair<std::uint32_t, std::uint32_t> to =
                dimension == 0 ? std::make_pair(p, shift(q, by)) : std::make_pair(shift(p, by), q);
            moves = moves || to != std::make_pair(p, q);
            step.partner.push_back(to);
          }
        }
        if (moves) {
          out.push_back(std::move(step));
        }
      };
  const std::uint32_t ring_steps = m >= 8 ? m / 4 - 1 : 0;
  for (std::uint32_t phase = 1; phase <= 2; ++phase) {
    for (std::uint32_t k = 1; k <= ring_steps; ++k) {
      add("phase " + std::to_string(phase) + " step " + std::to_string(k), 4,
          [phase](std::uint32_t p, std::uint32_t q) {
            const std::uint32_t c = (p + q) % 4;
            const bool along_q = (c % 2 == 0) == (phase == 1);
            return std::make_pair(along_q ? 0u : 1u, c <= 1 ? 4 : -4);
          });
    }
  }
  for (std::uint32_t k = 1; k <= 2; ++k) {
    add("phase 3 step " + std::to_string(k), 2, [k](std::uint32_t p, std::uint32_t q) {
      const bool even = (p + q) % 2 == 0;
      const bool along_q = even == (k == 1);
      const std::uint32_t moving = along_q ? q : p;
      return std::make_pair(along_q ? 0u : 1u, moving % 4 <= 1 ? 2 : -2);
    });
  }
  for (std::uint32_t k = 1; k <= 2; ++k) {
    add("phase 4 step " + std::to_string(k), 1, [k](std::uint32_t p, std::uint32_t q) {
      return std::make_pair(k == 1 ? 0u : 1u, (p + q) % 2 == 0 ? 1 : -1);
    });
  }
  return out;
}

/// Stage 2's local steps placed on the torus: local (p, q) of subnetwork `sub` is node
/// place(sub, p, q). A step mixes both axes (each node moves along one).
void append_stage2(
    std::vector<PatternStep>& pattern, std::uint32_t nodes, std::uint32_t m,
    std::uint32_t subnetworks, const std::string& stage,
    const std::function<NodeId(std::uint32_t, std::uint32_t, std::uint32_t)>& place) {
  for (const LocalStep& local : stage2_steps(m, stage)) {
    PatternStep step{local.label, std::vector<NodeId>(nodes, kNoPartner), StepKind::Exchange, 0,
                     local.hops};
    for (std::uint32_t sub = 0; sub < subnetworks; ++sub) {
      for (std::uint32_t p = 0; p < m; ++p) {
        for (std::uint32_t q = 0; q < m; ++q) {
          const auto [tp, tq] = local.partner[p * m + q];
          step.partner[place(sub, p, q)] = place(sub, tp, tq);
        }
      }
    }
    pattern.push_back(std::move(step));
  }
}

// ---- A1 ----------------------------------------------------------------------------------------

/// [A2A] section 2.3. Stage 1 (2 steps): along rows, P_{i,j} -> P_{i,j+1} for even j and
/// P_{i,j-1} for odd j; then along columns, the slaves P_{i,j} (i + j odd) to the master above or
/// below (the printed listing lets the masters send too; with the blocks chosen as in the text,
/// "all messages are received from node P_{1,0}", they have nothing to send). The masters are
/// P_{i,j} with i = j (mod 2), two tori of N/2 x N/2 ("j = 2i + m" in the text). Stage 2 as
/// stage2_steps on each. Stage 3 (1 step): P_{i,j} -> P_{i,j+1} for even i, j and P_{i,j-1} for
/// odd i, j.
std::vector<PatternStep> a1_pattern(std::uint32_t side) {
  const Torus t{side};
  const std::uint32_t nodes = side * side;
  std::vector<PatternStep> pattern;
  PatternStep rows{"stage 1 step 1", std::vector<NodeId>(nodes), StepKind::Collect, 0, 0};
  PatternStep columns{"stage 1 step 2", std::vector<NodeId>(nodes, kNoPartner), StepKind::Collect,
                      1, 0};
  PatternStep distribute{"stage 3", std::vector<NodeId>(nodes, kNoPartner), StepKind::Distribute, 0,
                         0};
  for (NodeId x = 0; x < nodes; ++x) {
    const std::uint32_t i = t.row(x);
    const std::uint32_t j = t.column(x);
    rows.partner[x] = t.node(i, j ^ 1u);
    const bool master = i % 2 == j % 2;
    if (!master) {
      columns.partner[x] = t.node(i ^ 1u, j);
    } else {
      distribute.partner[x] = t.node(i, i % 2 == 0 ? j + 1 : j - 1);
    }
  }
  pattern.push_back(std::move(rows));
  pattern.push_back(std::move(columns));
  append_stage2(pattern, nodes, side / 2, 2, "stage 2",
                [&t](std::uint32_t sub, std::uint32_t p, std::uint32_t q) {
                  return t.node(2 * p + sub, 2 * q + sub);
                });
  pattern.push_back(std::move(distribute));
  return pattern;
}

/// The literal reading (A1BlockChoice::DestinationBit). Stage 1 collects a block at the master of
/// the sender's cell whose row parity is the destination's; stage 2 corrects, per step, one bit of
/// the destination master's coordinate along the step's axis; stage 3 hands a block to the slave
/// it is for. The destination master of P_{r,c} is P_{r, 2(c/2) + r mod 2}, local (r/2, c/2).
BlockChooser a1_destination_bit(std::uint32_t side, const std::vector<PatternStep>& pattern) {
  return [side, &pattern](std::size_t step, NodeId at, NodeId to, const Block& b) {
    const Torus t{side};
    const PatternStep& p = pattern[step];
    const std::uint32_t r = t.row(b.destination);
    const std::uint32_t c = t.column(b.destination);
    const std::uint32_t i = t.row(at);
    const std::uint32_t j = t.column(at);
    switch (p.kind) {
      case StepKind::Collect: {
        const std::uint32_t master_row = 2 * (i / 2) + r % 2;
        const std::uint32_t master_column = 2 * (j / 2) + r % 2;
        return p.dimension == 0 ? master_column != j : master_row != i;
      }
      case StepKind::Exchange: {
        const bool along_q = t.row(to) == i;
        const std::uint32_t own = along_q ? j / 2 : i / 2;
        const std::uint32_t wanted = along_q ? c / 2 : r / 2;
        const std::uint32_t bits = p.hops == 4 ? ~3u : p.hops == 2 ? 2u : 1u;
        return ((own ^ wanted) & bits) != 0;
      }
      case StepKind::Distribute:
        return b.destination == to;
    }
    return false;
  };
}

// ---- A(n-1) ------------------------------------------------------------------------------------

/// A level-k subnetwork: the nodes P_{o_r + s u, o_c + s v} (s = 2^k), local coordinates (u, v).
struct Subnetwork {
  std::uint32_t row_offset = 0;
  std::uint32_t column_offset = 0;
  std::uint32_t stride = 1;
};

/// [A2A] section 2.2 and Fig. 2. Level 0 is the torus; the masters of a level-k subnetwork's basic
/// cells (local u = v mod 2) form its two level-(k+1) subnetworks, u and v even at the same offset,
/// u and v odd at offset + stride. Split phase k (k = 1 .. n-1, 2 steps): in every level-(k-1)
/// subnetwork, (u, v) <-> (u, v xor 1) along the row, then the slaves (u + v odd) to (u xor 1, v).
/// Exchange stage (2 steps): the level-(n-1) subnetworks are 2 x 2 tori of stride N/2: (u, v) <->
/// (u, v xor 1), then (u, v) <-> (u xor 1, v) (the paper leaves their blocks unsaid; here they are
/// chosen as every block is, by A1BlockChoice::MustMove). Merge phase k (k = n-1 .. 1, 1 step):
/// the upper left master (u, v even) sends to (u, v + 1), the lower right (u, v odd) to (u, v - 1),
/// as A1's stage 3 does.
std::vector<PatternStep> an_minus_1_pattern(std::uint32_t side) {
  const Torus t{side};
  const std::uint32_t nodes = side * side;
  const std::uint32_t n = log2_exact(side);
  std::vector<std::vector<Subnetwork>> levels{{Subnetwork{0, 0, 1}}};
  for (std::uint32_t k = 1; k < n; ++k) {
    std::vector<Subnetwork> next;
    for (const Subnetwork& s : levels.back()) {
      next.push_back(Subnetwork{s.row_offset, s.column_offset, 2 * s.stride});
      next.push_back(Subnetwork{s.row_offset + s.stride, s.column_offset + s.stride, 2 * s.stride});
    }
    levels.push_back(std::move(next));
  }
  // Calls `visit(x, u, v, node(u', v'))` for every node of every subnetwork of `level`.
  const auto each =
      [&](std::uint32_t level,
          const std::function<void(NodeId, std::uint32_t, std::uint32_t,
                                   const std::function<NodeId(std::int64_t, std::int64_t)>&)>&
              visit) {
        for (const Subnetwork& s : levels[level]) {
          const std::uint32_t size = side / s.stride;
          const auto node = [&t, s](std::int64_t u, std::int64_t v) {
            return t.node(s.row_offset + s.stride * u, s.column_offset + s.stride * v);
          };
          for (std::uint32_t u = 0; u < size; ++u) {
            for (std::uint32_t v = 0; v < size; ++v) {
              visit(node(u, v), u, v, node);
            }
          }
        }
      };
  std::vector<PatternStep> pattern;
  for (std::uint32_t k = 1; k < n; ++k) {
    const std::string phase = "split phase " + std::to_string(k);
    PatternStep rows{phase + " step 1", std::vector<NodeId>(nodes, kNoPartner), StepKind::Collect,
                     0, 0};
    PatternStep columns{phase + " step 2", std::vector<NodeId>(nodes, kNoPartner),
                        StepKind::Collect, 1, 0};
    each(k - 1, [&](NodeId x, std::uint32_t u, std::uint32_t v, const auto& node) {
      rows.partner[x] = node(u, v ^ 1u);
      if (u % 2 != v % 2) {
        columns.partner[x] = node(u ^ 1u, v);
      }
    });
    pattern.push_back(std::move(rows));
    pattern.push_back(std::move(columns));
  }
  PatternStep rows{"exchange step 1", std::vector<NodeId>(nodes, kNoPartner), StepKind::Exchange, 0,
                   0};
  PatternStep columns{"exchange step 2", std::vector<NodeId>(nodes, kNoPartner), StepKind::Exchange,
                      1, 0};
  each(n - 1, [&](NodeId x, std::uint32_t u, std::uint32_t v, const auto& node) {
    rows.partner[x] = node(u, v ^ 1u);
    columns.partner[x] = node(u ^ 1u, v);
  });
  pattern.push_back(std::move(rows));
  pattern.push_back(std::move(columns));
  for (std::uint32_t k = n - 1; k >= 1; --k) {
    PatternStep merge{"merge phase " + std::to_string(k), std::vector<NodeId>(nodes, kNoPartner),
                      StepKind::Distribute, 0, 0};
    each(k - 1, [&](NodeId x, std::uint32_t u, std::uint32_t v, const auto& node) {
      if (u % 2 == 0 && v % 2 == 0) {
        merge.partner[x] = node(u, std::int64_t{v} + 1);
      } else if (u % 2 == 1 && v % 2 == 1) {
        merge.partner[x] = node(u, std::int64_t{v} - 1);
      }
    });
    pattern.push_back(std::move(merge));
  }
  return pattern;
}

// ---- the baselines -----------------------------------------------------------------------------

/// Row exchange then column exchange, each in N - 1 translation rounds: in round a of the first
/// phase P_{i,j} sends P_{i,j+a} the N blocks for column j + a; in round b of the second it sends
/// P_{i+b,j} the N blocks for row i + b (each node then holds its row's blocks for its column).
Schedule two_phase_schedule(std::uint32_t side) {
  const Torus t{side};
  const std::uint32_t nodes = side * side;
  std::vector<PatternStep> pattern;
  for (std::uint32_t dimension = 0; dimension < 2; ++dimension) {
    for (std::uint32_t a = 1; a < side; ++a) {
      PatternStep step{std::string(dimension == 0 ? "row" : "column") + " round " +
                           std::to_string(a),
                       std::vector<NodeId>(nodes), StepKind::Exchange, dimension, 0};
      for (NodeId x = 0; x < nodes; ++x) {
        step.partner[x] =
            dimension == 0 ? t.node(t.row(x), t.column(x) + a) : t.node(t.row(x) + a, t.column(x));
      }
      pattern.push_back(std::move(step));
    }
  }
  return route_blocks(schedule_name(ExchangeAlgorithm::TwoPhase, side), nodes, pattern,
                      [&pattern, t](std::size_t step, NodeId, NodeId to, const Block& b) {
                        return pattern[step].dimension == 0
                                   ? t.column(b.destination) == t.column(to)
                                   : t.row(b.destination) == t.row(to);
                      });
}

/// Every block straight to its destination: in round (a, b), a = 0 .. N-1 over rows and b over
/// columns, (a, b) != (0, 0), P_{i,j} sends its block for P_{i+a, j+b}. Each round is a
/// permutation (one-port); on the routers' routes every link along a row carries min(b, N - b)
/// of its messages (b of them when b = N/2), every link along a column min(a, N - a).
Schedule direct_schedule(std::uint32_t side) {
  const Torus t{side};
  const std::uint32_t nodes = side * side;
  Schedule s{schedule_name(ExchangeAlgorithm::Direct, side),
             nodes,
             complete_exchange_blocks(nodes),
             {}};
  for (std::uint32_t a = 0; a < side; ++a) {
    for (std::uint32_t b = 0; b < side; ++b) {
      if (a == 0 && b == 0) {
        continue;
      }
      ScheduleStep step;
      step.label = "round (" + std::to_string(a) + ", " + std::to_string(b) + ")";
      for (NodeId x = 0; x < nodes; ++x) {
        const NodeId to = t.node(t.row(x) + a, t.column(x) + b);
        step.messages.push_back(ScheduledMessage{x, to, {Block{x, to, 0}}});
      }
      s.steps.push_back(std::move(step));
    }
  }
  return s;
}

}  // namespace

std::string to_string(ExchangeAlgorithm algorithm) {
  switch (algorithm) {
    case ExchangeAlgorithm::A1:
      return "a1";
    case ExchangeAlgorithm::ANMinus1:
      return "an-1";
    case ExchangeAlgorithm::Suh:
      return "suh";
    case ExchangeAlgorithm::TwoPhase:
      return "two-phase";
    case ExchangeAlgorithm::Direct:
      return "direct";
  }
  return "unknown";
}

std::vector<ExchangeAlgorithm> exchange_algorithms() {
  return {ExchangeAlgorithm::A1, ExchangeAlgorithm::ANMinus1, ExchangeAlgorithm::Suh,
          ExchangeAlgorithm::TwoPhase, ExchangeAlgorithm::Direct};
}

std::optional<ExchangeAlgorithm> parse_exchange_algorithm(const std::string& text) {
  for (ExchangeAlgorithm a : exchange_algorithms()) {
    if (to_string(a) == text) {
      return a;
    }
  }
  return std::nullopt;
}

void check_exchange_side(std::uint32_t side) {
  if (side < 4 || side > 32 || (side & (side - 1)) != 0) {
    throw std::invalid_argument("a torus side N = 2^n from 4 to 32 expected, found " +
                                std::to_string(side));
  }
}

Schedule a1_schedule(std::uint32_t side, A1BlockChoice choice) {
  check_exchange_side(side);
  const std::vector<PatternStep> pattern = a1_pattern(side);
  const std::string name = schedule_name(ExchangeAlgorithm::A1, side);
  if (choice == A1BlockChoice::MustMove) {
    return route_must_move(name, side * side, pattern);
  }
  return route_blocks(name, side * side, pattern, a1_destination_bit(side, pattern));
}

Schedule complete_exchange_schedule(ExchangeAlgorithm algorithm, std::uint32_t side) {
  check_exchange_side(side);
  const std::uint32_t nodes = side * side;
  switch (algorithm) {
    case ExchangeAlgorithm::A1:
      return a1_schedule(side, A1BlockChoice::MustMove);
    case ExchangeAlgorithm::ANMinus1:
      return route_must_move(schedule_name(algorithm, side), nodes, an_minus_1_pattern(side));
    case ExchangeAlgorithm::Suh: {
      const Torus t{side};
      std::vector<PatternStep> pattern;
      append_stage2(pattern, nodes, side, 1, "[6]",
                    [&t](std::uint32_t, std::uint32_t p, std::uint32_t q) { return t.node(p, q); });
      return route_must_move(schedule_name(algorithm, side), nodes, pattern);
    }
    case ExchangeAlgorithm::TwoPhase:
      return two_phase_schedule(side);
    case ExchangeAlgorithm::Direct:
      return direct_schedule(side);
  }
  throw std::invalid_argument("complete_exchange_schedule: unknown algorithm");
}

std::optional<Table1Terms> table1_terms(ExchangeAlgorithm algorithm, std::uint32_t side) {
  const double n = side;
  const double log_n = std::log2(n);
  switch (algorithm) {
    case ExchangeAlgorithm::A1:
      return Table1Terms{n / 4 + 5, (n * n * n + 10 * n * n) / 4, 10 * n * n};
    case ExchangeAlgorithm::ANMinus1:
      return Table1Terms{3 * log_n - 1, 2 * n * n * n - 2 * n * n, 4 * n * n * log_n - (log_n - 1)};
    case ExchangeAlgorithm::Suh:
      return Table1Terms{n / 2 + 2, (n * n * n + 4 * n * n) / 4, 3 * n * n};
    case ExchangeAlgorithm::TwoPhase:
    case ExchangeAlgorithm::Direct:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace orthosim::sw
