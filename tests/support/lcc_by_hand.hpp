// An LCC x -> Ax + b worked out entry by entry, the independent second implementation the LCC
// tests compare sw::Lcc::apply and the reorderings with ([LCC] section 2.2).
#pragma once

#include <cstdint>

#include "sw/traffic/lcc.hpp"

namespace orthosim::lcc_test {

/// y = Ax + b entry by entry: y_i = sum_j a_{i,j} x_j + b_i (mod 2).
inline std::uint32_t matrix_times(const sw::Lcc& l, std::uint32_t x) {
  std::uint32_t y = 0;
  for (std::uint32_t i = 0; i < l.d; ++i) {
    std::uint32_t sum = static_cast<std::uint32_t>((l.b >> i) & 1U);
    for (std::uint32_t j = 0; j < l.d; ++j) {
      sum += static_cast<std::uint32_t>((l.rows[i] >> j) & 1U) * ((x >> j) & 1U);
    }
    y |= (sum % 2) << i;
  }
  return y;
}

}  // namespace orthosim::lcc_test
