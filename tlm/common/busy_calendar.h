// A shared resource's calendar of booked intervals (a link direction, a flash
// channel, an interconnect port). Loosely-timed initiators book ahead of the
// kernel's time; a single "next free" time would push every later booking behind
// the furthest one, so a booking takes the first gap at or after its ready time
// that holds it, as the real resource would serve it.
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>
#include "common/sim_time.h"

namespace ufs {

class BusyCalendar {
 public:
  BusyCalendar() { booked_.reserve(16); }

  // Books `duration` in the earliest gap starting at or after `earliest` (never
  // before now); returns the start.
  sc_core::sc_time reserve(const sc_core::sc_time& earliest, const sc_core::sc_time& duration) {
    return time_of_value(reserve_ps(earliest.value(), duration.value()));
  }

  // Total time booked so far (also bookings still ahead of the kernel's time).
  const sc_core::sc_time& busy_time() const { return busy_; }
  // Time booked before `t`, for t at or after the kernel's time of the last booking (e.g.
  // now): what a report over [0, t) may count without exceeding t.
  sc_core::sc_time busy_until(const sc_core::sc_time& t) const;
  // End of the last booking (now if none is ahead).
  sc_core::sc_time next_free() const;

 private:
  // Plain picoseconds (issue 18): the search and the merge then stay in registers.
  uint64_t reserve_ps(uint64_t earliest, uint64_t duration);
  void prune(uint64_t now);
  struct Interval {
    uint64_t start, end;
  };
  // Sorted, disjoint. Intervals that are over (end <= now) may stay in front of the live
  // ones until the calendar is searched or grows long: a booking never starts before now,
  // so they neither hold a booking up nor count in busy_until; head_ skips them, and they
  // are compacted away only now and then (no erase from the front per booking).
  std::vector<Interval> booked_;
  size_t head_ = 0;
  sc_core::sc_time busy_;
};

}  // namespace ufs
