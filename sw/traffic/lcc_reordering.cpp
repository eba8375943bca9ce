// Processor reordering mapping of LCCs: Theorem 2's conjugation, the optimal single-LCC ordering
// (Fig. 3 for an LCP, Theorem 4's exchanges for an LCG) and section 5's dynamic program.
#include "sw/traffic/lcc_reordering.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace orthosim::sw {

namespace {

std::uint64_t low_mask(std::uint32_t bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

bool bit(std::uint64_t v, std::uint32_t i) { return ((v >> i) & 1U) != 0; }

/// A bit no message of the LCC changes: y_i = x_i for every x, so T_i = 0 ([LCC] Theorem 1).
bool never_crossed(const Lcc& lcc, std::uint32_t i) {
  return lcc.rows[i] == (std::uint64_t{1} << i) && !bit(lcc.b, i);
}

/// The matrix D = QAQ^-1 of the ordering, as bit masks: bit q of row p is a_{order[p],order[q]}.
std::vector<std::uint64_t> conjugated_rows(const Lcc& lcc, const BitOrdering& order) {
  std::vector<std::uint64_t> rows(order.size(), 0);
  for (std::size_t p = 0; p < order.size(); ++p) {
    for (std::size_t q = 0; q < order.size(); ++q) {
      if (bit(lcc.rows[order[p]], order[q])) {
        rows[p] |= std::uint64_t{1} << q;
      }
    }
  }
  return rows;
}

/// Exchanges the bits at positions p and q of the ordering, and with them rows p and q and
/// columns p and q of its matrix `rows` (the exchange matrix Q~ of Theorem 3's proof).
void exchange_positions(BitOrdering& order, std::vector<std::uint64_t>& rows, std::uint32_t p,
                        std::uint32_t q) {
  if (p == q) {
    return;
  }
  std::swap(order[p], order[q]);
  std::swap(rows[p], rows[q]);
  for (std::uint64_t& row : rows) {
    if (bit(row, p) != bit(row, q)) {
      row ^= (std::uint64_t{1} << p) | (std::uint64_t{1} << q);
    }
  }
}

/// [LCC] Fig. 3, the LCP optimizer, for a nonsingular A of size m: afterwards
/// rank(D_{L_{i+1},L_i}) = i for i < m (Theorem 3). V starts as D and is reduced column by
/// column like Gaussian elimination: at iteration i the independent rows found so far (marked)
/// each hold a single 1 in columns 0..i-1 and every other row is zero there, so an unmarked row
/// with a 1 in column i is independent of them. It is exchanged into position i+1 unless it lies
/// in 0..i+1 already, and column i is cleared from every other row.
BitOrdering lcp_optimizer(const Lcc& lcc) {
  const std::uint32_t m = lcc.d;
  BitOrdering order = identity_ordering(m);
  std::vector<std::uint64_t> v = lcc.rows;
  std::vector<bool> marked(m, false);
  for (std::uint32_t i = 0; i + 1 < m; ++i) {
    std::uint32_t j = 0;
    while (j < m && (marked[j] || !bit(v[j], i))) {
      ++j;
    }
    if (j == m) {
      throw std::logic_error("LCP optimizer: the submatrix is singular");
    }
    if (j > i + 1) {
      // Position i+1 is unmarked: the i marked rows lie in 0..i.
      exchange_positions(order, v, j, i + 1);
      j = i + 1;
    }
    marked[j] = true;
    for (std::uint32_t k = 0; k < m; ++k) {
      if (k != j && bit(v[k], i)) {
        v[k] ^= v[j];
      }
    }
  }
  return order;
}

/// The first of the columns 0..c-1 of `rows` (within rows 0..r-1) that is a linear combination
/// of the columns before it; c when they are independent.
std::uint32_t first_dependent_column(const std::vector<std::uint64_t>& rows, std::uint32_t r,
                                     std::uint32_t c) {
  // Columns as bit masks over the rows, inserted into an elimination basis one by one.
  std::vector<std::uint64_t> basis(r, 0);  // basis[p]: a reduced column whose highest row is p
  for (std::uint32_t q = 0; q < c; ++q) {
    std::uint64_t column = 0;
    for (std::uint32_t p = 0; p < r; ++p) {
      if (bit(rows[p], q)) {
        column |= std::uint64_t{1} << p;
      }
    }
    for (std::uint32_t p = r; p-- > 0 && column != 0;) {
      if (bit(column, p)) {
        if (basis[p] == 0) {
          basis[p] = column;
          break;
        }
        column ^= basis[p];
      }
    }
    if (column == 0) {
      return q;
    }
  }
  return c;
}

/// i - rank(D_{L_{i+1},L_i}): T_i = 2^deficit for a dimension some message crosses (Theorem 1).
std::uint32_t rank_deficit(const std::vector<std::uint64_t>& rows, std::uint32_t i) {
  return i - gf2_rank_of(rows, low_mask(i + 1), low_mask(i));
}

/// The exchanges of [LCC] Theorem 4's proof for a singular A of size m: afterwards
/// i - rank(D_{L_{i+1},L_i}) <= (m-1) - rank(A) for i < m, the minimum of Corollary 2. A column
/// that depends on the others goes last, which makes the deficit of dimension m-1 exactly
/// (m-1) - rank(A); then for k = m-1 down to 1, when the deficit of dimension k-1 exceeds it, a
/// column of D_{L_k,L_k} that depends on the columns before it is exchanged into position k-1
/// (the printed proof says k+1; the exchange must stay inside L_k). That leaves the set L_k and
/// so the deficits from k on, and the new deficit of k-1 is (k-1) - rank(D_{L_k,L_k}), at most
/// the deficit of k.
BitOrdering lcg_orderer(const Lcc& lcc) {
  const std::uint32_t m = lcc.d;
  BitOrdering order = identity_ordering(m);
  std::vector<std::uint64_t> rows = lcc.rows;
  const std::uint32_t limit = (m - 1) - gf2_rank_of(rows, low_mask(m), low_mask(m));
  exchange_positions(order, rows, first_dependent_column(rows, m, m), m - 1);
  for (std::uint32_t k = m - 1; k >= 1; --k) {
    if (rank_deficit(rows, k - 1) > limit) {
      exchange_positions(order, rows, first_dependent_column(rows, k, k), k - 1);
    }
  }
  return order;
}

void check_ordering(const BitOrdering& ordering, std::uint32_t d) {
  if (!is_bit_ordering(ordering, d)) {
    throw std::invalid_argument("not an ordering of " + std::to_string(d) + " address bits");
  }
}

}  // namespace

BitOrdering identity_ordering(std::uint32_t d) {
  BitOrdering out(d);
  for (std::uint32_t k = 0; k < d; ++k) {
    out[k] = k;
  }
  return out;
}

bool is_bit_ordering(const BitOrdering& ordering, std::uint32_t d) {
  if (ordering.size() != d || d > Lcc::max_d) {
    return false;
  }
  std::uint64_t seen = 0;
  for (std::uint32_t bit_index : ordering) {
    if (bit_index >= d || bit(seen, bit_index)) {
      return false;
    }
    seen |= std::uint64_t{1} << bit_index;
  }
  return true;
}

std::uint32_t relabel_node(const BitOrdering& ordering, std::uint32_t x) {
  std::uint32_t out = 0;
  for (std::size_t k = 0; k < ordering.size(); ++k) {
    out |= ((x >> ordering[k]) & 1U) << k;
  }
  return out;
}

std::vector<std::uint32_t> node_relabeling(const BitOrdering& ordering) {
  const auto d = static_cast<std::uint32_t>(ordering.size());
  check_ordering(ordering, d);
  if (d >= 32) {
    throw std::invalid_argument("a node relabeling lists 2^d nodes: d below 32");
  }
  std::vector<std::uint32_t> out(std::size_t{1} << d);
  for (std::uint32_t x = 0; x < out.size(); ++x) {
    out[x] = relabel_node(ordering, x);
  }
  return out;
}

Lcc reorder(const Lcc& lcc, const BitOrdering& ordering) {
  check_ordering(ordering, lcc.d);
  Lcc out;
  out.d = lcc.d;
  out.rows = conjugated_rows(lcc, ordering);
  for (std::uint32_t k = 0; k < lcc.d; ++k) {
    if (bit(lcc.b, ordering[k])) {
      out.b |= std::uint64_t{1} << k;
    }
  }
  return out;
}

BitOrdering optimal_ordering(const Lcc& lcc) {
  if (lcc.rows.size() != lcc.d || lcc.d > Lcc::max_d) {
    throw std::invalid_argument("an LCC on " + std::to_string(lcc.d) + " bits with " +
                                std::to_string(lcc.rows.size()) + " rows");
  }
  return lcc.rank() == lcc.d ? lcp_optimizer(lcc) : lcg_orderer(lcc);
}

BitOrdering joint_optimal_ordering(const std::vector<Lcc>& lccs) {
  if (lccs.empty()) {
    throw std::invalid_argument("joint ordering of no LCC");
  }
  const std::uint32_t d = lccs.front().d;
  for (const Lcc& lcc : lccs) {
    if (lcc.d != d || lcc.rows.size() != d) {
      throw std::invalid_argument("joint ordering of LCCs on different numbers of bits");
    }
  }
  if (d > max_joint_ordering_d) {
    throw std::invalid_argument("joint ordering of " + std::to_string(d) + " address bits, above " +
                                std::to_string(max_joint_ordering_d));
  }
  // For an ordering whose first i+1 bits are the set S, ending with bit j, T_i depends on S and j
  // only: 0 when no message changes bit j, else 2^(i - rank(A_{S, S-{j}})) (Theorem 1). So the
  // best ordering of S ends with the j that minimizes max(best(S - {j}), T_i) over the LCCs
  // (Theorem 5). Every S - {j} is numerically below S, so increasing S visits it first.
  // Among the orderings that reach the least worst T, the program takes one with the least sum
  // of the LCCs' T (on Example 6's three patterns of the 8-cube: 2, 1, 1 rather than 2, 2, 2, the
  // degrees [LCC] section 6.1 reports for its M-G). For that it keeps, per S, every vector of
  // the LCCs' T so far that no other vector of S beats in every LCC (a Pareto front): each T
  // after S only grows with the T before it, so a beaten vector never ends a better ordering,
  // and the front of all bits holds a vector at least as good as any ordering's in every LCC.
  // The fronts stay small: T takes at most d + 1 values per LCC.
  struct Partial {
    std::vector<std::uint8_t> t;  ///< per LCC, 0 for T = 0, else 1 + log2 T
    std::uint8_t last_bit = 0;
    std::uint32_t before = 0;  ///< its index in the front of S minus last_bit
  };
  const auto beats_or_equals = [](const std::vector<std::uint8_t>& a,
                                  const std::vector<std::uint8_t>& b) {
    for (std::size_t r = 0; r < a.size(); ++r) {
      if (a[r] > b[r]) {
        return false;
      }
    }
    return true;
  };
  const std::size_t subsets = std::size_t{1} << d;
  std::vector<std::vector<Partial>> front(subsets);
  front[0].push_back({std::vector<std::uint8_t>(lccs.size(), 0), 0, 0});
  std::vector<std::uint8_t> step(lccs.size());
  for (std::uint64_t set = 1; set < subsets; ++set) {
    std::uint32_t size = 0;
    for (std::uint64_t rest = set; rest != 0; rest &= rest - 1) {
      ++size;
    }
    for (std::uint32_t j = 0; j < d; ++j) {
      if (!bit(set, j)) {
        continue;
      }
      const std::uint64_t without_j = set & ~(std::uint64_t{1} << j);
      for (std::size_t r = 0; r < lccs.size(); ++r) {
        step[r] = never_crossed(lccs[r], j)
                      ? 0
                      : static_cast<std::uint8_t>(1 + (size - 1) -
                                                  gf2_rank_of(lccs[r].rows, set, without_j));
      }
      const std::vector<Partial>& previous = front[without_j];
      for (std::uint32_t k = 0; k < previous.size(); ++k) {
        Partial next{previous[k].t, static_cast<std::uint8_t>(j), k};
        for (std::size_t r = 0; r < lccs.size(); ++r) {
          next.t[r] = std::max(next.t[r], step[r]);
        }
        std::vector<Partial>& here = front[set];
        if (std::any_of(here.begin(), here.end(),
                        [&](const Partial& p) { return beats_or_equals(p.t, next.t); })) {
          continue;
        }
        here.erase(std::remove_if(here.begin(), here.end(),
                                  [&](const Partial& p) { return beats_or_equals(next.t, p.t); }),
                   here.end());
        here.push_back(std::move(next));
      }
    }
  }
  // The least worst T, then the least sum of T over the LCCs; the first such vector found.
  const auto value = [](std::uint8_t t) -> std::uint64_t {
    return t == 0 ? 0 : std::uint64_t{1} << (t - 1);
  };
  const std::vector<Partial>& whole = front[subsets - 1];
  std::size_t chosen = 0;
  std::pair<std::uint64_t, std::uint64_t> best{std::numeric_limits<std::uint64_t>::max(), 0};
  for (std::size_t k = 0; k < whole.size(); ++k) {
    std::pair<std::uint64_t, std::uint64_t> score{0, 0};
    for (std::uint8_t t : whole[k].t) {
      score.first = std::max(score.first, value(t));
      score.second += value(t);
    }
    if (score < best) {
      best = score;
      chosen = k;
    }
  }
  BitOrdering order(d);
  std::uint64_t set = subsets - 1;
  std::uint32_t index = static_cast<std::uint32_t>(chosen);
  for (std::uint32_t p = d; p-- > 0;) {
    const Partial& entry = front[set][index];
    order[p] = entry.last_bit;
    index = entry.before;
    set &= ~(std::uint64_t{1} << order[p]);
  }
  return order;
}

}  // namespace orthosim::sw
