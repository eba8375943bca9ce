// Two runs compared field by field, every difference collected, so that a comparing helper
// returns what it found and the test body asserts on it (EXPECT_TRUE(d.result())) instead of
// asserting inside the helper, where a reader (or a checker) does not see it.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace orthosim::testing_support {

class Differences {
 public:
  explicit Differences(std::string what) : what_(std::move(what)) {}

  /// A difference unless `expected == actual`: "field: expected X, got Y".
  template <class T, class U>
  void equal(const std::string& field, const T& expected, const U& actual) {
    if (!(expected == actual)) {
      found_.push_back(field + ": expected " + testing::PrintToString(expected) + ", got " +
                       testing::PrintToString(actual));
    }
  }
  /// A difference, `what`, unless `ok`.
  void require(bool ok, const std::string& what) {
    if (!ok) {
      found_.push_back(what);
    }
  }
  /// Every difference of `other`, under its name.
  void add(const Differences& other) {
    for (const std::string& line : other.found_) {
      found_.push_back(other.what_ + ": " + line);
    }
  }

  [[nodiscard]] bool any() const { return !found_.empty(); }
  [[nodiscard]] std::size_t count() const { return found_.size(); }
  /// Success, or a failure that lists every difference, one a line, under this comparison's name.
  [[nodiscard]] testing::AssertionResult result() const {
    if (found_.empty()) {
      return testing::AssertionSuccess();
    }
    testing::AssertionResult failure = testing::AssertionFailure();
    failure << what_ << ": " << found_.size() << " difference(s)";
    for (const std::string& line : found_) {
      failure << "\n  " << line;
    }
    return failure;
  }

 private:
  std::string what_;
  std::vector<std::string> found_;
};

}  // namespace orthosim::testing_support
