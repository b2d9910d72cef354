// The models' current simulated time: the event wheel's clock while it runs its wake-ups
// (it may be ahead of the kernel's, common/event_wheel.h), otherwise the kernel's.
// sc_core::sc_time_stamp() is an out-of-line library call, made tens of times per simulated
// I/O; this reads the clock inline.
#pragma once
#include <systemc>
#include <type_traits>

namespace ufs {

namespace sim_time_detail {
inline const sc_core::sc_time* g_wheel_now = nullptr;  // set while an EventWheel runs
}  // namespace sim_time_detail

inline const sc_core::sc_time& sim_now() {
  const sc_core::sc_time* w = sim_time_detail::g_wheel_now;
  return w ? *w : sc_core::sc_get_curr_simcontext()->time_stamp();
}

// sc_time::from_value(v) without its out-of-line call (the wheel makes several per simulated
// I/O). sc_time is standard-layout with its value as only member, so a pointer to it is a
// pointer to that member. The resolution is fixed long before: the simulation has started.
inline sc_core::sc_time time_of_value(sc_core::sc_time::value_type v) {
  static_assert(std::is_standard_layout<sc_core::sc_time>::value &&
                    sizeof(sc_core::sc_time) == sizeof(sc_core::sc_time::value_type),
                "sc_time holds its value alone");
  sc_core::sc_time t;
  *reinterpret_cast<sc_core::sc_time::value_type*>(&t) = v;
  return t;
}

}  // namespace ufs
