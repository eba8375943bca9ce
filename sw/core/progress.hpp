// How far a long run is: the interface the long loops report to, and the line that shows it on a
// terminal's standard error (docs/cli.md, Progress). Free of SystemC.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace orthosim::sw {

/// Where a long loop tells how far it is: its phase ("running", "rate 2/5, warm-up"), the
/// simulated cycles done in it and their total (0 when not known in advance).
class Progress {
 public:
  virtual ~Progress() = default;
  virtual void report(const std::string& phase, std::uint64_t done, std::uint64_t total) = 0;
};

/// The Progress of a caller that shows none: it ignores every report.
Progress& no_progress();

/// Which of `count` runs the `index`-th (from 0) is, "2/5" for the second of five, for a phase's
/// name; "" when there is one run.
[[nodiscard]] std::string run_of(std::size_t index, std::size_t count);

/// The phase of a measured run (synthetic traffic) `elapsed` cycles after its start: the warm-up,
/// then the measurement window, then the drain, whose length the run decides.
struct MeasuredPhase {
  const char* name;     ///< "warm-up", "window" or "drain"
  std::uint64_t done;   ///< cycles since the phase began
  std::uint64_t total;  ///< the phase's length; 0 for the drain (not known in advance)
};
[[nodiscard]] MeasuredPhase measured_phase(std::uint64_t warmup, std::uint64_t window,
                                           std::uint64_t elapsed);

/// One line on standard error, rewritten in place with `\r`: the phase, the cycles done (of the
/// total, with the fraction and the time left, when the total is known; else the time elapsed).
/// It appears only when `shown` (standard error is a terminal and --quiet was not given) and once
/// the run has lasted `after`; it is redrawn at most every `every`, and erased when destroyed.
class ProgressLine final : public Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  ProgressLine(std::ostream& err, bool shown, std::chrono::milliseconds after,
               Clock clock = std::chrono::steady_clock::now,
               std::chrono::milliseconds every = std::chrono::milliseconds(250));
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() override;

  void report(const std::string& phase, std::uint64_t done, std::uint64_t total) override;

  /// The text of the line for a phase at `done` of `total` cycles, `elapsed` into the phase.
  [[nodiscard]] static std::string text(const std::string& phase, std::uint64_t done,
                                        std::uint64_t total, std::chrono::milliseconds elapsed);

 private:
  void erase();

  std::ostream& err_;
  bool shown_;
  std::chrono::milliseconds after_;
  Clock clock_;
  std::chrono::milliseconds every_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point phase_start_;
  std::chrono::steady_clock::time_point last_draw_;
  std::string phase_;
  std::size_t drawn_width_ = 0;  ///< characters on the line now; 0 when nothing is drawn
};

}  // namespace orthosim::sw
