#include "output/idle_arrival_counter.h"

namespace ufs {

void IdleArrivalCounter::on_issue(uint64_t arrival_ps) {
  ++requests_;
  if (outstanding_ == 0 && arrival_ps >= last_complete_ps_) ++idle_arrivals_;
  ++outstanding_;
}

void IdleArrivalCounter::on_complete(uint64_t complete_ps) {
  if (outstanding_ > 0) --outstanding_;
  if (complete_ps > last_complete_ps_) last_complete_ps_ = complete_ps;
}

void IdleArrivalCounter::reset_counts() { requests_ = idle_arrivals_ = 0; }

}  // namespace ufs
