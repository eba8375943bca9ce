// The sweep's CSV (RFC 4180 quoting) and its journal OUT.partial: a signature line, the header,
// then one row per finished point in the order points finish, each flushed as it is written.
// A restarted sweep with the same signature keeps those rows and runs only the other points; at
// the end the rows are written in point order to OUT (through OUT.sorted.partial and a rename)
// and the journal is removed, so an unfinished sweep never looks like a finished one. An OUT that
// is written as a stream (sw::OutputMode::InPlace: a device, a FIFO or a symbolic link) gets no
// journal: the rows are written to it at the end.
#pragma once

#include <cstddef>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "sw/core/output_file.hpp"

namespace orthosim::sw::sweep {

/// One CSV line (no newline): fields with a comma, quote or line break are quoted.
std::string csv_line(const std::vector<std::string>& fields);
/// Splits one CSV line; throws std::invalid_argument on an unterminated quote.
std::vector<std::string> csv_fields(const std::string& line);

/// The suffix of the file the sorted CSV is written to before it is renamed to OUT.
inline constexpr const char* kSortedSuffix = ".sorted.partial";

class Journal {
 public:
  /// Opens `out`.partial (nothing when `out` is a stream; a ParameterError keyed "out" when
  /// `out` cannot be an output). When it exists its signature and header must equal these (else an
  /// InputError naming --out); its complete rows of points below `points` are kept and a last
  /// line cut short by a kill is dropped. Otherwise it is created with the two lines.
  Journal(const std::string& out, const std::string& signature,
          const std::vector<std::string>& header, std::size_t points);

  /// The rows already finished, by point index (each a CSV line).
  [[nodiscard]] const std::map<std::size_t, std::string>& rows() const { return rows_; }
  /// Records a finished point's row, flushed to disk before returning.
  void append(std::size_t point, const std::string& line);
  /// Removes the journal if it holds no finished row: a sweep that a point's bad input stops
  /// before any point finished leaves no OUT.partial behind (finished rows stay, to resume).
  void discard_if_empty();
  /// Writes header and rows in point order to `out` and removes the journal; throws
  /// std::runtime_error if `out` cannot be written.
  void finish();

  [[nodiscard]] const std::string& partial_path() const { return partial_; }
  /// Whether rows are journaled in partial_path(): not for an `out` written as a stream.
  [[nodiscard]] bool keeps_journal() const { return mode_ != OutputMode::InPlace; }

 private:
  std::string out_;
  std::string partial_;
  std::string header_;
  OutputMode mode_ = OutputMode::Replace;
  std::map<std::size_t, std::string> rows_;
  std::ofstream file_;
};

}  // namespace orthosim::sw::sweep
