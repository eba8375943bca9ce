// A Value Change Dump writer (IEEE 1364 section 18) with no $date, so that the same run gives a
// byte-identical file (toolchain fact 5, modeling rule 5). Changes may be announced for future times; they are
// held in a reorder buffer until the caller says that no earlier change can come.
//
// The file is opened as sw::OutputFile: a regular file is written as PATH.partial and renamed to
// PATH by commit(), so a run that fails leaves no file that looks complete; a device or FIFO is
// written as a stream.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "sw/core/output_file.hpp"

namespace orthosim::traces {

class VcdWriter {
 public:
  using VarId = std::uint32_t;

  /// Opens the output; throws sw::OutputPathError naming the path if it cannot be written.
  VcdWriter(std::string path, std::uint32_t timescale_ns);
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  /// Declares a variable; `path` is dot-separated, its last part is the variable's name
  /// ("omp.bc3.addr"). Every declaration comes before the first change.
  VarId add_var(const std::string& path, std::uint32_t width);

  /// A `$comment` line of the header (before the first change), e.g. the clock period that
  /// `orthosim trace stats` reads back.
  void add_comment(const std::string& text);

  /// `var` takes `value` at `time` (in timescale units). Of several changes of one variable at
  /// one time, the last one announced wins.
  void change(std::uint64_t time, VarId var, std::uint64_t value);
  /// Writes every change before `time`: no change earlier than `time` will be announced.
  void flush_before(std::uint64_t time);
  /// Writes everything, ends the dump at `end_time`, and puts the file in place.
  void commit(std::uint64_t end_time);

  [[nodiscard]] const std::string& path() const { return file_.path(); }
  /// Whether the dump goes to a device or FIFO, written through as a stream.
  [[nodiscard]] bool streamed() const { return file_.mode() == sw::OutputMode::InPlace; }

 private:
  struct Var {
    std::string scope;  ///< dot-separated scope path
    std::string name;
    std::uint32_t width;
    std::string code;
    std::uint64_t value = 0;
  };

  void write_header();
  void write_value(const Var& var, std::uint64_t value);
  void flush_time(std::uint64_t time, const std::vector<std::pair<VarId, std::uint64_t>>& changes);

  sw::OutputFile file_;
  std::ofstream& out_;  ///< file_'s stream
  std::uint32_t timescale_ns_;
  std::vector<Var> vars_;
  std::vector<std::string> comments_;
  bool header_written_ = false;
  std::uint64_t last_written_time_ = 0;
  bool any_time_written_ = false;
  std::map<std::uint64_t, std::vector<std::pair<VarId, std::uint64_t>>> pending_;
};

}  // namespace orthosim::traces
