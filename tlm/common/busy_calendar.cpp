#include "common/busy_calendar.h"
#include "common/sim_time.h"

namespace ufs {

using sc_core::sc_time;

sc_time BusyCalendar::reserve(const sc_time& earliest, const sc_time& duration) {
  const sc_time& now = sim_now();
  // Nothing is ever booked in the past: forget intervals that are over.
  size_t n = booked_.size();
  while (head_ < n && booked_[head_].end <= now) ++head_;
  if (head_ == n) {
    booked_.clear();
    head_ = n = 0;
  } else if (head_ >= 64 && 2 * head_ >= n) {
    booked_.erase(booked_.begin(), booked_.begin() + long(head_));
    n -= head_;
    head_ = 0;
  }

  sc_time start = earliest < now ? now : earliest;
  size_t i = head_;
  if (n > head_ && booked_[n - 1].end <= start) {
    i = n;  // the common in-order case: after everything
  } else {
    for (; i < n; ++i) {
      if (booked_[i].end <= start) continue;            // entirely before us
      if (start + duration <= booked_[i].start) break;  // we fit in the gap before it
      start = booked_[i].end;                           // overlaps: try after it
    }
  }
  busy_ += duration;
  if (duration == sc_core::SC_ZERO_TIME) return start;
  const sc_time end = start + duration;
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
  // Intervals still in the calendar end after the last prune; the parts after t are ahead.
  sc_time ahead = sc_core::SC_ZERO_TIME;
  for (size_t k = head_; k < booked_.size(); ++k) {
    const Interval& i = booked_[k];
    if (i.end > t) ahead += i.end - (i.start > t ? i.start : t);
  }
  return busy_ - ahead;
}

sc_time BusyCalendar::next_free() const {
  const sc_time& now = sim_now();
  return booked_.size() == head_ || booked_.back().end < now ? now : booked_.back().end;
}

}  // namespace ufs
