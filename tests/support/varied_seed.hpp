// The one varied seed of a randomized test: ORTHOSIM_TEST_SEED if set, else a new one from the
// clock each run, printed and recorded in the test's XML report so that a failing run can be
// reproduced with ORTHOSIM_TEST_SEED=<seed>.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

namespace orthosim::testing_support {

inline std::uint64_t varied_seed() {
  std::uint64_t seed = 0;
  if (const char* s = std::getenv("ORTHOSIM_TEST_SEED"); s != nullptr && *s != '\0') {
    seed = std::strtoull(s, nullptr, 10);
  } else {
    seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count() %
                                      1'000'000'007);
  }
  std::cout << "varied seed " << seed << " (ORTHOSIM_TEST_SEED=" << seed << " reproduces it)\n";
  ::testing::Test::RecordProperty("varied_seed", std::to_string(seed));
  return seed;
}

}  // namespace orthosim::testing_support
