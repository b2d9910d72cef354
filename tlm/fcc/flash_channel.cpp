#include "fcc/flash_channel.h"

namespace ufs {

FlashChannel::FlashChannel(uint32_t mt_s, uint32_t width_bytes)
    : ps_per_byte_(1e6 / (double(mt_s) * double(width_bytes))) {
  booked_.reserve(16);
}

sc_core::sc_time FlashChannel::reserve(const sc_core::sc_time& earliest,
                                       const sc_core::sc_time& duration) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  // Forget intervals that are over: nothing is ever booked in the past.
  size_t drop = 0;
  while (drop < booked_.size() && booked_[drop].end <= now) ++drop;
  if (drop) booked_.erase(booked_.begin(), booked_.begin() + long(drop));

  sc_core::sc_time start = earliest < now ? now : earliest;
  size_t i = 0;
  for (; i < booked_.size(); ++i) {
    if (booked_[i].end <= start) continue;              // entirely before us
    if (start + duration <= booked_[i].start) break;    // we fit in the gap before it
    start = booked_[i].end;                             // overlaps: try after it
  }
  const sc_core::sc_time end = start + duration;
  busy_ += duration;
  if (duration == sc_core::SC_ZERO_TIME) return start;
  // Insert at i, merging with touching neighbours to keep the calendar short.
  if (i > 0 && booked_[i - 1].end == start) {
    booked_[i - 1].end = end;
    if (i < booked_.size() && booked_[i].start == end) {
      booked_[i - 1].end = booked_[i].end;
      booked_.erase(booked_.begin() + long(i));
    }
  } else if (i < booked_.size() && booked_[i].start == end) {
    booked_[i].start = start;
  } else {
    booked_.insert(booked_.begin() + long(i), Interval{start, end});
  }
  return start;
}

}  // namespace ufs
