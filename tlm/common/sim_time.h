// The models' current simulated time: the event wheel's clock while it runs its wake-ups
// (it may be ahead of the kernel's, common/event_wheel.h), otherwise the kernel's.
// sc_core::sc_time_stamp() is an out-of-line library call, made tens of times per simulated
// I/O; this reads the clock inline.
#pragma once
#include <systemc>

namespace ufs {

namespace sim_time_detail {
inline const sc_core::sc_time* g_wheel_now = nullptr;  // set while an EventWheel runs
}  // namespace sim_time_detail

inline const sc_core::sc_time& sim_now() {
  const sc_core::sc_time* w = sim_time_detail::g_wheel_now;
  return w ? *w : sc_core::sc_get_curr_simcontext()->time_stamp();
}

}  // namespace ufs
