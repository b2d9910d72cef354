// A live progress line on stderr for long runs: simulated time, requests done,
// simulation speed and ETA, redrawn in place with '\r'. Only when the stream is
// a terminal (logs and CI output stay clean) and at most every min_interval
// seconds of wall clock, so update() can be called on every completion.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace ufs {

class ProgressLine {
 public:
  enum class Mode { Auto, Always, Never };  // Auto: only if isatty(stream)

  explicit ProgressLine(Mode mode = Mode::Auto, std::FILE* stream = stderr, double min_interval_s = 0.25);

  bool enabled() const { return enabled_; }
  // total = 0 when the number of requests is not known in advance.
  void update(double sim_time_s, uint64_t done, uint64_t total = 0);
  // Draws the final state and ends the line (if anything was drawn).
  void finish(double sim_time_s, uint64_t done, uint64_t total = 0);
  uint64_t lines_drawn() const { return drawn_; }

 private:
  using Clock = std::chrono::steady_clock;
  void draw(double sim_time_s, uint64_t done, uint64_t total, Clock::time_point now);

  bool enabled_;
  std::FILE* stream_;
  Clock::duration min_interval_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  uint64_t drawn_ = 0;
  size_t last_width_ = 0;
};

}  // namespace ufs
