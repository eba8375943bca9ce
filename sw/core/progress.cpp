#include "sw/core/progress.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace orthosim::sw {

namespace {

class NoProgress final : public Progress {
 public:
  void report(const std::string&, std::uint64_t, std::uint64_t) override {}
};

/// "m:ss".
std::string minutes_seconds(std::chrono::milliseconds time) {
  const long long seconds = static_cast<long long>(time.count() / 1000);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld", seconds / 60, seconds % 60);
  return text;
}

}  // namespace

Progress& no_progress() {
  static NoProgress none;
  return none;
}

std::string run_of(std::size_t index, std::size_t count) {
  return count > 1 ? std::to_string(index + 1) + "/" + std::to_string(count) : "";
}

MeasuredPhase measured_phase(std::uint64_t warmup, std::uint64_t window, std::uint64_t elapsed) {
  if (elapsed < warmup) {
    return {"warm-up", elapsed, warmup};
  }
  if (elapsed - warmup < window) {
    return {"window", elapsed - warmup, window};
  }
  return {"drain", elapsed - warmup - window, 0};
}

ProgressLine::ProgressLine(std::ostream& err, bool shown, std::chrono::milliseconds after,
                           Clock clock, std::chrono::milliseconds every)
    : err_(err),
      shown_(shown),
      after_(after),
      clock_(std::move(clock)),
      every_(every),
      start_(clock_()),
      phase_start_(start_),
      last_draw_(start_) {}

ProgressLine::~ProgressLine() { erase(); }

std::string ProgressLine::text(const std::string& phase, std::uint64_t done, std::uint64_t total,
                               std::chrono::milliseconds elapsed) {
  std::string line = "orthosim: " + phase + ", " + std::to_string(done);
  if (total == 0) {
    return line + " cycles, " + minutes_seconds(elapsed) + " elapsed";
  }
  line += "/" + std::to_string(total) + " cycles (" + std::to_string(100 * done / total) + "%), ";
  if (done == 0) {
    return line + "estimating time left";
  }
  const auto left = std::chrono::milliseconds(
      static_cast<long long>(static_cast<double>(elapsed.count()) / static_cast<double>(done) *
                             static_cast<double>(total - std::min(done, total))));
  return line + minutes_seconds(left) + " left";
}

void ProgressLine::report(const std::string& phase, std::uint64_t done, std::uint64_t total) {
  if (!shown_) {
    return;
  }
  const auto now = clock_();
  if (phase != phase_) {
    phase_ = phase;
    phase_start_ = now;
  }
  if (now - start_ < after_ || (drawn_width_ > 0 && now - last_draw_ < every_)) {
    return;
  }
  last_draw_ = now;
  const std::string line =
      text(phase, done, total,
           std::chrono::duration_cast<std::chrono::milliseconds>(now - phase_start_));
  // Blanks over what a longer line before left on the screen.
  const std::size_t blanks = drawn_width_ > line.size() ? drawn_width_ - line.size() : 0;
  err_ << '\r' << line << std::string(blanks, ' ') << std::flush;
  drawn_width_ = line.size() + blanks;
}

void ProgressLine::erase() {
  if (drawn_width_ > 0) {
    err_ << '\r' << std::string(drawn_width_, ' ') << '\r' << std::flush;
    drawn_width_ = 0;
  }
}

}  // namespace orthosim::sw
