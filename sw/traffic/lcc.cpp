// LCC arithmetic over GF(2), its text form, and the contention of [LCC] Theorem 1.
#include "sw/traffic/lcc.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

namespace {

std::uint64_t low_mask(std::uint32_t bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

bool parity(std::uint64_t v) {
  v ^= v >> 32;
  v ^= v >> 16;
  v ^= v >> 8;
  v ^= v >> 4;
  v ^= v >> 2;
  v ^= v >> 1;
  return (v & 1U) != 0;
}

void check_d(std::uint32_t d) {
  if (d < 1 || d > Lcc::max_d) {
    throw std::invalid_argument("an LCC has 1 to 32 address bits, not " + std::to_string(d));
  }
}

std::string bits_text(std::uint64_t v, std::uint32_t d) {
  std::string out;
  for (std::uint32_t j = 0; j < d; ++j) {
    out += ((v >> j) & 1U) != 0 ? '1' : '0';
  }
  return out;
}

/// Bits written least significant first ("001" is 4); false unless exactly d characters 0/1.
bool parse_bits(const std::string& text, std::uint32_t d, std::uint64_t& out) {
  if (text.size() != d) {
    return false;
  }
  std::uint64_t v = 0;
  for (std::uint32_t j = 0; j < d; ++j) {
    if (text[j] != '0' && text[j] != '1') {
      return false;
    }
    v |= static_cast<std::uint64_t>(text[j] - '0') << j;
  }
  out = v;
  return true;
}

void check_shape(const Lcc& lcc) {
  if (lcc.d > Lcc::max_d || lcc.rows.size() != lcc.d) {
    throw std::invalid_argument("an LCC on " + std::to_string(lcc.d) + " bits with " +
                                std::to_string(lcc.rows.size()) + " rows");
  }
}

/// GF(2) rank of the rows i < `end` that `keep` selects, each restricted to `column_set`.
template <typename Keep>
std::uint32_t masked_rank(const std::vector<std::uint64_t>& rows, std::size_t end, Keep keep,
                          std::uint64_t column_set) {
  // Gaussian elimination on bit masks: basis[j] holds a reduced row whose highest bit is j.
  std::array<std::uint64_t, 64> basis{};
  std::uint32_t columns_end = 64;  // one past the highest column kept
  while (columns_end > 0 && ((column_set >> (columns_end - 1)) & 1U) == 0) {
    --columns_end;
  }
  std::uint32_t rank = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (!keep(i)) {
      continue;
    }
    std::uint64_t v = rows[i] & column_set;
    for (std::uint32_t j = columns_end; j-- > 0 && v != 0;) {
      if (((v >> j) & 1U) == 0) {
        continue;
      }
      if (basis[j] == 0) {
        basis[j] = v;
        ++rank;
        v = 0;
      } else {
        v ^= basis[j];
      }
    }
  }
  return rank;
}

}  // namespace

std::uint32_t Lcc::apply(std::uint32_t x) const {
  check_shape(*this);
  std::uint32_t y = 0;
  for (std::uint32_t i = 0; i < d; ++i) {
    if (parity(rows[i] & x) != (((b >> i) & 1U) != 0)) {
      y |= std::uint32_t{1} << i;
    }
  }
  return y;
}

std::uint32_t Lcc::rank() const { return gf2_rank(rows, d, d); }

Lcc Lcc::identity(std::uint32_t d) {
  check_d(d);
  Lcc out;
  out.d = d;
  for (std::uint32_t i = 0; i < d; ++i) {
    out.rows.push_back(std::uint64_t{1} << i);
  }
  return out;
}

Lcc Lcc::bit_reverse(std::uint32_t d) {
  check_d(d);
  Lcc out;
  out.d = d;
  for (std::uint32_t i = 0; i < d; ++i) {
    out.rows.push_back(std::uint64_t{1} << (d - 1 - i));  // y_i = x_{d-1-i}
  }
  return out;
}

Lcc Lcc::reverse_flip(std::uint32_t d) {
  Lcc out = bit_reverse(d);
  out.b = low_mask(d);
  return out;
}

Lcc Lcc::transpose(std::uint32_t d) {
  check_d(d);
  if (d % 2 != 0) {
    throw std::invalid_argument("matrix transpose needs an even number of address bits, not " +
                                std::to_string(d));
  }
  Lcc out;
  out.d = d;
  for (std::uint32_t j = 0; j < d; ++j) {
    out.rows.push_back(std::uint64_t{1} << ((j + d / 2) % d));  // y_j = x_{(j + d/2) mod d}
  }
  return out;
}

Lcc Lcc::random(std::uint32_t d, std::mt19937_64& rng) {
  check_d(d);
  Lcc out;
  out.d = d;
  for (std::uint32_t i = 0; i < d; ++i) {
    out.rows.push_back(rng() & low_mask(d));
  }
  out.b = rng() & low_mask(d);
  return out;
}

Lcc Lcc::parse(const std::string& text, std::uint32_t d) {
  check_d(d);
  const std::string example = identity(d).to_string();
  const std::string form = "an LCC 'A,b' on " + std::to_string(d) + " address bits: A as " +
                           std::to_string(d) + " rows of " + std::to_string(d) +
                           " bits separated by '/', b as " + std::to_string(d) + " bits (e.g. " +
                           example + ")";
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos) {
    throw ParameterError("pattern", form, "'" + text + "'");
  }
  const std::string a_text = text.substr(0, comma);
  const std::string b_text = text.substr(comma + 1);

  std::vector<std::string> row_texts;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = a_text.find('/', start);
    row_texts.push_back(a_text.substr(start, slash == std::string::npos ? slash : slash - start));
    if (slash == std::string::npos) {
      break;
    }
    start = slash + 1;
  }
  if (row_texts.size() != d) {
    throw ParameterError("pattern", "A with " + std::to_string(d) + " rows (one per address bit)",
                         std::to_string(row_texts.size()) +
                             (row_texts.size() == 1 ? " row in '" : " rows in '") + text + "'");
  }
  Lcc out;
  out.d = d;
  for (std::uint32_t i = 0; i < d; ++i) {
    std::uint64_t row = 0;
    if (!parse_bits(row_texts[i], d, row)) {
      throw ParameterError("pattern",
                           "row " + std::to_string(i) + " of A as " + std::to_string(d) +
                               " bits 0/1",
                           "'" + row_texts[i] + "' in '" + text + "'");
    }
    out.rows.push_back(row);
  }
  if (!parse_bits(b_text, d, out.b)) {
    throw ParameterError("pattern", "b as " + std::to_string(d) + " bits 0/1",
                         "'" + b_text + "' in '" + text + "'");
  }
  return out;
}

std::string Lcc::to_string() const {
  std::string out;
  for (std::uint32_t i = 0; i < d; ++i) {
    out += (i == 0 ? "" : "/") + bits_text(rows[i], d);
  }
  return out + "," + bits_text(b, d);
}

std::uint32_t gf2_rank(const std::vector<std::uint64_t>& rows, std::uint32_t r, std::uint32_t c) {
  if (r > rows.size() || c > 64) {
    throw std::out_of_range("gf2_rank: submatrix larger than the matrix");
  }
  // Rows 0..r-1 read one by one: a row set as a 64-bit mask would leave out the rows from 64 on.
  return masked_rank(
      rows, r, [](std::size_t) { return true; }, low_mask(c));
}

std::uint32_t gf2_rank_of(const std::vector<std::uint64_t>& rows, std::uint64_t row_set,
                          std::uint64_t column_set) {
  const std::size_t nameable = std::min<std::size_t>(rows.size(), 64);
  if ((row_set & ~low_mask(static_cast<std::uint32_t>(nameable))) != 0) {
    throw std::out_of_range("gf2_rank_of: a row past the matrix");
  }
  return masked_rank(
      rows, nameable, [row_set](std::size_t i) { return ((row_set >> i) & 1U) != 0; }, column_set);
}

std::vector<std::uint64_t> contention_per_dimension(const Lcc& lcc) {
  check_shape(lcc);
  std::vector<std::uint64_t> t(lcc.d, 0);
  for (std::uint32_t i = 0; i < lcc.d; ++i) {
    // y_i - x_i = (A(i) + e_i) x + b_i vanishes for every x only if A(i) = e_i and b_i = 0;
    // then no e-cube path crosses dimension i ([LCC] Theorem 1, first case).
    const bool never_crossed = lcc.rows[i] == (std::uint64_t{1} << i) && ((lcc.b >> i) & 1U) == 0;
    if (!never_crossed) {
      // A channel at dimension i fixes x_i..x_{d-1} and y_0..y_i, which leaves i+1 equations in
      // the i unknowns x_0..x_{i-1} with matrix A_{L_{i+1}, L_i}: 2^(i - rank) solutions when
      // solvable, and some channel is solvable ([LCC] Theorem 1, proof).
      t[i] = std::uint64_t{1} << (i - gf2_rank(lcc.rows, i + 1, i));
    }
  }
  return t;
}

std::uint64_t contention_degree(const Lcc& lcc) {
  const std::vector<std::uint64_t> t = contention_per_dimension(lcc);
  return t.empty() ? 0 : *std::max_element(t.begin(), t.end());
}

}  // namespace orthosim::sw
