// Formatting of input errors.
#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

std::string SourceLocation::to_string() const {
  if (line == 0) {
    return file;
  }
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

InputError::InputError(SourceLocation where, const std::string& expected, const std::string& found)
    : std::runtime_error(where.to_string() + ": expected " + expected + ", found " + found),
      where_(std::move(where)) {}

InputError::InputError(SourceLocation where, const std::string& message)
    : std::runtime_error(where.to_string() + ": " + message), where_(std::move(where)) {}

}  // namespace orthosim::sw
