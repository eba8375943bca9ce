// Reading an event trace back (docs/traces.md), one event at a time, so that a long trace is
// never held in memory. Anything that is not the format is rejected with file:line:col, what was
// expected and what was found (sw::InputError).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/input_file.hpp"
#include "traces/recorder.hpp"

namespace orthosim::traces {

/// How the trace commands read their inputs (an event trace, a VCD): streamed line by line (no
/// size limit, lines of at most sw::kMaxInputLineBytes), any bytes but control characters (a
/// label carries a file name as the file system spells it), regular files only (the commands
/// read a file more than once: stats, then the timeline). `what` names the input in errors.
[[nodiscard]] sw::InputRules trace_input_rules(std::string what);

struct TraceHeader {
  std::uint32_t version = 0;
  std::uint32_t clock_ns = 0;
  std::vector<Source> sources;
};

struct TraceEvent {
  enum class Kind : std::uint8_t { Activity, Access, Interrupt, Step, Run, Message, End };
  Kind kind = Kind::End;
  Cycle at;
  std::uint64_t line = 0;  ///< 1-based line in the file
  std::string text;        ///< the line as written
  /// act: the processor; acc: the controller; intr, step: the processor.
  SourceId source = 0;
  Activity activity = Activity::Idle;
  std::uint32_t op_index = 0;
  Cycle end;                         ///< acc: the access's end
  AccessTrace access;                ///< acc: everything but the slots (access.slots is null)
  std::vector<std::uint32_t> slots;  ///< acc: the module slots
  Cycle requested;                   ///< intr
  std::uint32_t step = 0;
  std::string label;  ///< run
  MessageTrace message;
};

class EventTraceReader {
 public:
  /// Opens (under trace_input_rules) and reads the header; throws sw::InputError (a missing
  /// file names the path).
  explicit EventTraceReader(const std::string& path);
  /// Reads the header of `input`, e.g. an sw::InputFile::from_text.
  explicit EventTraceReader(sw::InputFile input);

  [[nodiscard]] const TraceHeader& header() const { return header_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  /// The next event; false once the `end` event has been returned. Throws sw::InputError on a
  /// malformed line, on cycles that go back, and on a file that stops before its `end` line.
  bool next(TraceEvent& e);

  /// Whether the file at `path` starts like an event trace ("orthosim-trace "). Throws
  /// sw::InputError for a file the trace commands cannot read (missing, a directory, a FIFO).
  [[nodiscard]] static bool looks_like(const std::string& path);

 private:
  struct Token {
    std::string text;
    std::uint32_t column = 0;
  };
  bool read_line();
  [[noreturn]] void fail(std::uint32_t column, const std::string& expected,
                         const std::string& found) const;
  [[nodiscard]] const Token& token(std::size_t i, const std::string& expected) const;
  [[nodiscard]] std::uint64_t number(std::size_t i, const std::string& expected) const;
  [[nodiscard]] std::uint32_t number32(std::size_t i, const std::string& expected) const;
  [[nodiscard]] SourceId source(std::size_t i, SourceKind kind) const;
  void expect_count(std::size_t n) const;

  sw::InputFile in_;
  std::string path_;
  TraceHeader header_;
  std::string line_;
  std::uint64_t line_no_ = 0;
  std::vector<Token> tokens_;
  bool pending_ = false;  ///< line_ holds the first event line, read while parsing the header
  bool ended_ = false;
  Cycle last_;
  /// Per source: the largest step its next `step` mark may name. A processor passes its steps in
  /// order (a new program starts again at 0), which also bounds the steps a trace's statistics
  /// hold by its number of lines.
  std::vector<std::uint32_t> next_step_;
};

}  // namespace orthosim::traces
