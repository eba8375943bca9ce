// Errors about the user's input: a program, a variant file or a command-line argument. Every
// rejection says where (file:line:col, or the option), what was expected and what was found.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace orthosim::sw {

/// A place in an input: a file position, or a command-line option when `line` is 0.
struct SourceLocation {
  std::string file;  ///< file name, or for command-line input the option as spelled (--arch)
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  [[nodiscard]] std::string to_string() const;
};

/// Thrown for any invalid user input. `what()` is the complete one-line message: line breaks and
/// other control bytes of the input it quotes are written as escapes (\n, \r, \t, \xNN).
class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation where, const std::string& expected, const std::string& found);
  /// An error that is not about one token, e.g. a cross-field constraint.
  InputError(SourceLocation where, const std::string& message);

  [[nodiscard]] const SourceLocation& where() const { return where_; }

 private:
  SourceLocation where_;
};

/// Thrown when a machine program or a configuration is inconsistent with the hardware it is
/// given to (a bus a processor cannot drive, an address past a module's depth...).
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A value of one parameter out of range or at odds with another, keyed by the parameter's name:
/// the variant field and the command-line option of the same name ("alpha", "buffers"). The
/// layers below sw/cli know no option spelling: sw/cli says where the value came from, the option
/// (--alpha) or the variant file's field (FILE:LINE:COL). `what()` is the message alone. A message
/// that names another parameter writes its name in braces ("the data buffer size
/// ({buffer-words})"), which sw/cli spells as the user gave that parameter.
class ParameterError : public ConfigError {
 public:
  ParameterError(std::string parameter, const std::string& message);
  ParameterError(std::string parameter, const std::string& expected, const std::string& found);

  [[nodiscard]] const std::string& parameter() const { return parameter_; }

 private:
  std::string parameter_;
};

/// Refuses a parameter as the command line refuses an option: throws ParameterError(parameter,
/// expected, found) unless `ok`. The one form of a layer's parameter check (sw/arch, sw/routed,
/// the verilated blocks' limits in sc_models/cosim).
void require_parameter(bool ok, const std::string& parameter, const std::string& expected,
                       const std::string& found);

/// A number as a refusal quotes what it found: '3'.
[[nodiscard]] std::string quoted(std::uint64_t value);

}  // namespace orthosim::sw
