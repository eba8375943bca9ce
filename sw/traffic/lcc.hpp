// Linear-complement communications (LCC) on 2^d nodes and their channel contention under e-cube
// wormhole routing ([LCC]: Definition 1, section 2.2; Theorem 1 and Definition 6, section 4;
// the three LCPs of section 6.1). Arithmetic is over GF(2): a matrix row is a bit mask.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace orthosim::sw {

/// A linear-complement communication y = Ax + b over GF(2) on 2^d nodes ([LCC] Definition 1).
/// A node is the bit vector x = (x0 x1 ... x_{d-1})^t with x0 the least significant bit of the
/// node number ([LCC] section 2.1).
struct Lcc {
  /// Largest d: a node number is a std::uint32_t.
  static constexpr std::uint32_t max_d = 32;

  std::uint32_t d = 0;
  std::vector<std::uint64_t> rows;  ///< rows[i] bit j = a_{i,j}
  std::uint64_t b = 0;              ///< bit i = b_i

  /// y = Ax + b: bit i of the result is the parity of (rows[i] & x) xor b_i.
  [[nodiscard]] std::uint32_t apply(std::uint32_t x) const;
  /// GF(2) rank of A; rank d makes the LCC a permutation (LCP, Definition 2), a smaller one a
  /// gather (LCG, Definition 3).
  [[nodiscard]] std::uint32_t rank() const;

  /// The identity: every node sends to itself.
  static Lcc identity(std::uint32_t d);
  /// Bit-reverse: y = (x_{d-1} ... x1 x0)^t ([LCC] Example 1 and section 6.1).
  static Lcc bit_reverse(std::uint32_t d);
  /// Reverse-flip: bit-reverse with every destination bit complemented, b = all ones (section
  /// 6.1; the OCR lost the complement bars: errata).
  static Lcc reverse_flip(std::uint32_t d);
  /// Matrix transpose: y_j = x_{(j + d/2) mod d}, the low and high halves of the address bits
  /// swapped ([LCC] Example 3 and section 6.1). Needs an even d; std::invalid_argument
  /// otherwise.
  static Lcc transpose(std::uint32_t d);
  /// A random A (any rank) and b, every bit drawn from `rng`.
  static Lcc random(std::uint32_t d, std::mt19937_64& rng);

  /// Parses the text form "A,b": A as d rows of d bits separated by '/', row i written
  /// a_{i,0} a_{i,1} ... a_{i,d-1}; b as d bits b_0 ... b_{d-1}. Bit-reverse on 3 bits is
  /// "001/010/100,000". Throws ParameterError keyed "pattern" with what was expected and found.
  static Lcc parse(const std::string& text, std::uint32_t d);
  /// The text form parse() reads.
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const Lcc& x, const Lcc& y) {
    return x.d == y.d && x.rows == y.rows && x.b == y.b;
  }
  friend bool operator!=(const Lcc& x, const Lcc& y) { return !(x == y); }
};

/// GF(2) rank of the submatrix of `rows` keeping rows 0..r-1 and columns 0..c-1 (the upper-left
/// submatrix A_{L_r, L_c} of [LCC] Definition 5), over any number of rows. r may not exceed
/// rows.size(); c <= 64.
[[nodiscard]] std::uint32_t gf2_rank(const std::vector<std::uint64_t>& rows, std::uint32_t r,
                                     std::uint32_t c);
/// GF(2) rank of the submatrix A_{R,C} of [LCC] Definition 5: the rows whose bit is set in
/// `row_set`, the columns whose bit is set in `column_set`. `row_set` may name no row past
/// rows.size().
[[nodiscard]] std::uint32_t gf2_rank_of(const std::vector<std::uint64_t>& rows,
                                        std::uint64_t row_set, std::uint64_t column_set);

/// [LCC] Theorem 1: T_i(A,b), the largest number of e-cube paths of the LCC that contend for
/// one channel at dimension i, for i = 0..d-1. T_i = 0 when no message crosses dimension i
/// (x_i = y_i for every x: row i of A is the unit row e_i and b_i = 0), otherwise
/// 2^(i - rank(A_{L_{i+1}, L_i})).
[[nodiscard]] std::vector<std::uint64_t> contention_per_dimension(const Lcc& lcc);
/// T(A,b) = max_i T_i(A,b), the degree of channel contention ([LCC] Definition 6).
[[nodiscard]] std::uint64_t contention_degree(const Lcc& lcc);

}  // namespace orthosim::sw
