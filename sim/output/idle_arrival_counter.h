// Counts the requests that met an idle device: nothing was outstanding at the
// host-device interface when they arrived (seed 002's "NoWait Req. Ratio": requests
// served at once because none is being serviced). Fed with the host's issue and
// completion events: a request issued while nothing is outstanding met an idle
// device unless it arrived before the last completion (it then waited behind it).
#pragma once
#include <cstdint>

namespace ufs {

class IdleArrivalCounter {
 public:
  void on_issue(uint64_t arrival_ps);
  void on_complete(uint64_t complete_ps);
  // Forget the counts (not the outstanding requests): start of the measured phase.
  void reset_counts();

  uint64_t requests() const { return requests_; }
  uint64_t idle_arrivals() const { return idle_arrivals_; }
  double fraction() const { return requests_ ? double(idle_arrivals_) / double(requests_) : 0.0; }

 private:
  uint64_t outstanding_ = 0;
  uint64_t last_complete_ps_ = 0;
  uint64_t requests_ = 0;
  uint64_t idle_arrivals_ = 0;
};

}  // namespace ufs
