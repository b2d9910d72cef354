#include "fcc/program_power_budget.h"
#include <algorithm>
#include "common/sim_time.h"

namespace ufs {

using sc_core::sc_time;

sc_time ProgramPowerBudget::book(uint32_t die, const sc_time& earliest, const sc_time& length) {
  if (limit_ == 0) return earliest;
  const sc_time now = sim_now();
  windows_.erase(std::remove_if(windows_.begin(), windows_.end(), [&](const Window& w) { return w.end <= now; }),
                 windows_.end());
  // The most windows in flight at once during [t, t + length): counted where one starts.
  auto active_at = [&](const sc_time& p) {
    uint32_t n = 0;
    for (const Window& w : windows_) n += w.start <= p && p < w.end;
    return n;
  };
  auto most_during = [&](const sc_time& t) {
    uint32_t most = active_at(t);
    for (const Window& w : windows_)
      if (w.start > t && w.start < t + length) most = std::max(most, active_at(w.start));
    return most;
  };
  sc_time start = earliest;
  if (most_during(start) >= limit_) {
    // A slot opens where a booked window ends (after the last one none is left).
    std::vector<sc_time> ends;
    for (const Window& w : windows_)
      if (w.end > earliest) ends.push_back(w.end);
    std::sort(ends.begin(), ends.end());
    for (const sc_time& e : ends)
      if (most_during(e) < limit_) {
        start = e;
        break;
      }
    ++delays_;
    wait_ += start - earliest;
  }
  windows_.push_back(Window{start, start + length, die});
  return start;
}

void ProgramPowerBudget::end(uint32_t die, const sc_time& at) {
  for (Window& w : windows_)
    if (w.die == die && w.start <= at && at < w.end) w.end = at;
}

}  // namespace ufs
