// The event trace (docs/traces.md): a transaction-level record of a run, one line per event,
// streamed to disk as the run goes, so that a long run holds nothing but its open file and the
// lines of one cycle (of one access, with a claim: Recorder::claim) not written yet.
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
// Every event line starts with its cycle; cycles never decrease down the file; within a cycle the
// act, acc, intr and step lines are in the order of their sources' ids (a run or message line
// keeps its place). The file is opened as sw::OutputFile (a regular file is written as
// PATH.partial and renamed to PATH by finish(), a device or FIFO is a stream): a run that fails
// leaves no trace that looks complete, and a trace without its `end` line is rejected by the
// reader.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
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
  void claim(SourceId source, std::optional<Cycle> from) override;
  void run_begin(Cycle at, const std::string& label) override;
  void message(Cycle at, const MessageTrace& m) override;

  /// Writes the `end` line at `end`, closes the file and puts it in place.
  void finish(Cycle end);

 private:
  /// The header, before the first event: the sources are all registered by then.
  void header_once();
  /// A line that keeps its place (run, message, end): what is held goes first.
  std::ofstream& line(Cycle at);
  /// The line `text` (without cycle and newline) about `source` at `at`, held until no earlier
  /// line can come (release()).
  void sourced_line(Cycle at, SourceId source, std::string text, bool activity = false);
  /// Writes the held lines before `limit`, by cycle, then source id, each source's lines in the
  /// order they were told; of a source's act lines in one cycle only the last.
  void write_held(Cycle limit);
  /// Writes what no line still to come can precede: the lines before the latest cycle told and
  /// before every claim.
  void release();

  sw::OutputFile file_;
  std::ofstream& out_;  ///< file_'s stream
  std::uint32_t clock_period_ns_;
  bool header_written_ = false;
  /// The act, acc, intr and step lines not written yet. The order in which blocks report within
  /// one cycle is the kernel's (the order of its runnable processes), which another
  /// implementation of the same machine (--impl rtl, cosim) does not share; in source order,
  /// each source's own lines in the order it told them, the trace is one text for every
  /// implementation. A source's act lines are the activity it shows from their cycle on; of
  /// several in one cycle (an op that took no time, such as a wait-sync whose token came in the
  /// cycle it began, which the model shows or not by the order its processes ran in) the last
  /// one counts, as in the waveform. Held: the lines of the latest cycle told, and with a claim (the verilated
  /// multiprocessor's) those from the claim on, at most one access (alpha + beta (l - 1) +
  /// d tau l cycles) or one activate-sync's wait for the interrupt bus long.
  struct HeldLine {
    Cycle at;
    SourceId source;
    bool activity;  ///< an act line
    std::string text;
  };
  std::vector<HeldLine> held_;
  Cycle latest_;                      ///< the latest cycle of a line told
  std::map<SourceId, Cycle> claims_;  ///< claim()
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
