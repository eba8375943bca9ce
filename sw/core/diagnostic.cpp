// Formatting of input errors.
#include "sw/core/diagnostic.hpp"

#include <utility>

namespace orthosim::sw {

namespace {

/// The message on one line whatever the input held: the text an error quotes from a file (a
/// YAML key, a token of a CRLF trace) may carry line breaks and other control bytes, which are
/// written as escapes (\n, \r, \t, \xNN).
std::string one_line(const std::string& message) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  out.reserve(message.size());
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string SourceLocation::to_string() const {
  if (line == 0) {
    return file;
  }
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

InputError::InputError(SourceLocation where, const std::string& expected, const std::string& found)
    : std::runtime_error(
          one_line(where.to_string() + ": expected " + expected + ", found " + found)),
      where_(std::move(where)) {}

InputError::InputError(SourceLocation where, const std::string& message)
    : std::runtime_error(one_line(where.to_string() + ": " + message)), where_(std::move(where)) {}

ParameterError::ParameterError(std::string parameter, const std::string& message)
    : ConfigError(one_line(message)), parameter_(std::move(parameter)) {}

ParameterError::ParameterError(std::string parameter, const std::string& expected,
                               const std::string& found)
    : ParameterError(std::move(parameter), "expected " + expected + ", found " + found) {}

void require_parameter(bool ok, const std::string& parameter, const std::string& expected,
                       const std::string& found) {
  if (!ok) {
    throw ParameterError(parameter, expected, found);
  }
}

std::string quoted(std::uint64_t value) { return "'" + std::to_string(value) + "'"; }

}  // namespace orthosim::sw
