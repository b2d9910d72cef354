#include "common/busy_calendar.h"

namespace ufs {

using sc_core::sc_time;

// Forget intervals that are over: skip them, compact now and then.
void BusyCalendar::prune(uint64_t now) {
  size_t n = booked_.size();
  while (head_ < n && booked_[head_].end <= now) ++head_;
  if (head_ == n) {
    booked_.clear();
    head_ = 0;
  } else if (head_ >= 64 && 2 * head_ >= n) {
    booked_.erase(booked_.begin(), booked_.begin() + long(head_));
    head_ = 0;
  }
}

uint64_t BusyCalendar::reserve_ps(uint64_t earliest, uint64_t duration) {
  const uint64_t now = sim_now().value();
  uint64_t start = earliest < now ? now : earliest;
  busy_ += time_of_value(duration);
  size_t n = booked_.size();
  if (n == head_ || booked_[n - 1].end <= start) {
    // The common in-order case: after everything booked (or nothing is). No search; a
    // calendar that only ever grows at its end is pruned when it gets long.
    if (duration == 0) return start;
    if (n != head_ && booked_[n - 1].end == start) {
      booked_[n - 1].end = start + duration;
      return start;
    }
    if (n != head_ && booked_[n - 1].end <= now) {
      booked_.clear();  // everything booked is over: what prune() would come to, without its walk
      head_ = 0;
    } else if (n - head_ >= 32) {
      prune(now);
    }
    booked_.push_back(Interval{start, start + duration});
    return start;
  }
  prune(now);  // something is booked after `start`, so the calendar is not emptied
  n = booked_.size();
  size_t i = head_;
  for (; i < n; ++i) {
    if (booked_[i].end <= start) continue;            // entirely before us
    if (start + duration <= booked_[i].start) break;  // we fit in the gap before it
    start = booked_[i].end;                           // overlaps: try after it
  }
  if (duration == 0) return start;
  const uint64_t end = start + duration;
  // Insert at i, merging with touching neighbours to keep the calendar short.
  const bool join_prev = i > head_ && booked_[i - 1].end == start;
  const bool join_next = i < n && booked_[i].start == end;
  if (join_prev && join_next) {
    booked_[i - 1].end = booked_[i].end;
    booked_.erase(booked_.begin() + long(i));
  } else if (join_prev) {
    booked_[i - 1].end = end;
  } else if (join_next) {
    booked_[i].start = start;
  } else if (i == n) {
    booked_.push_back(Interval{start, end});
  } else {
    booked_.insert(booked_.begin() + long(i), Interval{start, end});
  }
  return start;
}

sc_time BusyCalendar::busy_until(const sc_time& t) const {
  // Intervals that end after t are (partly) ahead of it; the parts after t do not count.
  const uint64_t tv = t.value();
  uint64_t ahead = 0;
  for (size_t k = head_; k < booked_.size(); ++k) {
    const Interval& i = booked_[k];
    if (i.end > tv) ahead += i.end - (i.start > tv ? i.start : tv);
  }
  return busy_ - time_of_value(ahead);
}

sc_time BusyCalendar::next_free() const {
  const sc_time& now = sim_now();
  return booked_.size() == head_ || booked_.back().end < now.value() ? now : time_of_value(booked_.back().end);
}

}  // namespace ufs
