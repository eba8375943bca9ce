// The event trace (docs/traces.md): a transaction-level record of a run, one line per event,
// streamed to disk as the run goes, so that a long run holds nothing but its open file.
//
//   orthosim-trace 1
//   clock-ns 50
//   source 0 processor omp.p0
//   ...
//   0 act 0 compute 0
//   5 acc 13 1 4 row r 0 5 0 0 2 0,1
//   ...
//   120 end
//
// Every event line starts with its cycle; cycles never decrease down the file. The file is opened
// as sw::OutputFile (a regular file is written as PATH.partial and renamed to PATH by finish(), a
// device or FIFO is a stream): a run that fails leaves no trace that looks complete, and a trace
// without its `end` line is rejected by the reader.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/output_file.hpp"
#include "traces/recorder.hpp"

namespace orthosim::traces {

/// The version this build writes and reads.
constexpr std::uint32_t kEventTraceVersion = 1;

/// The names the format gives to the codes of recorder.hpp.
[[nodiscard]] const char* activity_name(Activity a);
[[nodiscard]] std::optional<Activity> parse_activity(const std::string& name);
[[nodiscard]] const char* source_kind_name(SourceKind k);
[[nodiscard]] std::optional<SourceKind> parse_source_kind(const std::string& name);
[[nodiscard]] const char* bus_mode_name(BusMode m);
[[nodiscard]] std::optional<BusMode> parse_bus_mode(const std::string& name);
[[nodiscard]] const char* message_event_name(MessageEvent e);
[[nodiscard]] std::optional<MessageEvent> parse_message_event(const std::string& name);

class EventTraceRecorder : public Recorder {
 public:
  /// Opens the output; throws sw::OutputPathError naming the path if it cannot be written.
  EventTraceRecorder(std::string path, std::uint32_t clock_period_ns);

  [[nodiscard]] bool enabled() const override { return true; }

  void activity(Cycle at, SourceId processor, Activity what, std::uint32_t op_index) override;
  void access(Cycle start, Cycle end, SourceId controller, const AccessTrace& a) override;
  void interrupt_granted(Cycle at, SourceId processor, Cycle requested) override;
  void step_mark(Cycle at, SourceId processor, std::uint32_t step) override;
  void run_begin(Cycle at, const std::string& label) override;
  void message(Cycle at, const MessageTrace& m) override;

  /// Writes the `end` line at `end`, closes the file and puts it in place.
  void finish(Cycle end);

 private:
  /// The header, before the first event: the sources are all registered by then.
  void header_once();
  std::ofstream& line(Cycle at);

  sw::OutputFile file_;
  std::ofstream& out_;  ///< file_'s stream
  std::uint32_t clock_period_ns_;
  bool header_written_ = false;
};

/// The fields of an access after `acc`, as the format writes them, with the controller and the
/// bus given as text (their source ids in the file, their paths in `trace diff`).
[[nodiscard]] std::string access_fields(Cycle end, const std::string& controller,
                                        const std::string& bus, const AccessTrace& a,
                                        const std::vector<std::uint32_t>& slots);
/// The fields of a message event after its id, as the format writes them, with the hop's
/// channel given as `channel` (its source id in the file, its path in `trace diff`).
[[nodiscard]] std::string message_fields(const MessageTrace& m, const std::string& channel);

}  // namespace orthosim::traces
