#include "output/progress_line.h"

#include <string>
#include <unistd.h>

namespace ufs {

ProgressLine::ProgressLine(Mode mode, std::FILE* stream, double min_interval_s)
    : enabled_(mode == Mode::Always || (mode == Mode::Auto && stream != nullptr && isatty(fileno(stream)) == 1)),
      stream_(stream),
      min_interval_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(min_interval_s))),
      start_(Clock::now()),
      last_draw_(start_) {
  if (stream_ == nullptr) enabled_ = false;
}

void ProgressLine::update(double sim_time_s, uint64_t done, uint64_t total) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - last_draw_ < min_interval_) return;
  draw(sim_time_s, done, total, now);
}

void ProgressLine::finish(double sim_time_s, uint64_t done, uint64_t total) {
  if (!enabled_) return;
  draw(sim_time_s, done, total, Clock::now());
  std::fputc('\n', stream_);
  std::fflush(stream_);
}

namespace {
std::string human_rate(double r) {
  char buf[32];
  if (r >= 1e6) std::snprintf(buf, sizeof buf, "%.1fM", r / 1e6);
  else if (r >= 1e3) std::snprintf(buf, sizeof buf, "%.1fk", r / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", r);
  return buf;
}
}  // namespace

void ProgressLine::draw(double sim_time_s, uint64_t done, uint64_t total, Clock::time_point now) {
  const double wall = std::chrono::duration<double>(now - start_).count();
  const double rate = wall > 0 ? static_cast<double>(done) / wall : 0.0;
  char buf[200];
  int n = std::snprintf(buf, sizeof buf, "sim %.3f ms | %llu", sim_time_s * 1e3, static_cast<unsigned long long>(done));
  std::string line(buf, static_cast<size_t>(n));
  if (total > 0) {
    n = std::snprintf(buf, sizeof buf, "/%llu req (%.1f%%)", static_cast<unsigned long long>(total),
                      100.0 * static_cast<double>(done) / static_cast<double>(total));
    line.append(buf, static_cast<size_t>(n));
  } else {
    line += " req";
  }
  line += " | " + human_rate(rate) + " req/s wall";
  if (total > done && rate > 0) {
    n = std::snprintf(buf, sizeof buf, " | ETA %.0f s", static_cast<double>(total - done) / rate);
    line.append(buf, static_cast<size_t>(n));
  }
  const size_t width = line.size();
  if (width < last_width_) line.append(last_width_ - width, ' ');  // erase the tail of a longer previous line
  last_width_ = width;
  std::fputc('\r', stream_);
  std::fputs(line.c_str(), stream_);
  std::fflush(stream_);
  last_draw_ = now;
  ++drawn_;
}

}  // namespace ufs
