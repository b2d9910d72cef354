// The UniPro link between the UFS host controller and the device: two independent
// directions (host -> device and device -> host), each a set of M-PHY lanes at an HS gear.
//
// Loosely timed and event-free: a UPIU entering a direction is placed on that direction's
// timeline at the first idle slot at or after its ready time (now + annotated delay) that is
// long enough for its whole serialisation, and is forwarded at once through the far side's
// b_transport with the delay annotated to the arrival of its last bit (+ upiu_latency_ns).
// Slots left idle by UPIUs that were reserved ahead in simulated time (LT initiators run
// ahead of time) are filled by later calls, so out-of-order calls do not distort each other;
// with in-order calls this is exactly a next-free-time model.
//
// Payload convention: data_ptr = Upiu*, data_length = Upiu::wire_bytes(). On return from
// b_transport the caller's delay is set to the end of serialisation (the last bit has left
// the sender), which the sender may use to order its own later UPIUs. Receivers must copy
// what they need before their b_transport returns: the sender reuses the Upiu and its data.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <cstdint>
#include <vector>
#include "common/busy_calendar.h"
#include "common/direct_target_socket.h"
#include "common/upiu.h"
#include "link/link_params.h"

namespace ufs {

class TraceRecorder;

class UniproLink : public sc_core::sc_module {
  void host_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void device_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

 public:
  enum Direction : int { kHostToDevice = 0, kDeviceToHost = 1 };

  struct DirectionStats {
    uint64_t upius = 0;        // UPIUs carried (a segmented Upiu counts each of its UPIUs)
    uint64_t upiu_bytes = 0;   // UPIU bytes (headers + data segments)
    uint64_t wire_bytes = 0;   // after UniPro framing, before line coding
    sc_core::sc_time busy;     // total serialisation time
  };

  DirectTargetSocket<UniproLink, &UniproLink::host_transport> host_in;      // host -> device, from the host
  tlm_utils::simple_initiator_socket<UniproLink> device_out;                // host -> device, to the device
  DirectTargetSocket<UniproLink, &UniproLink::device_transport> device_in;  // device -> host, from the device
  tlm_utils::simple_initiator_socket<UniproLink> host_out;    // device -> host, to the host

  UniproLink(sc_core::sc_module_name name, const LinkParams& params = LinkParams());

  const LinkParams& params() const { return params_; }
  // Observability (nullptr = off): one timeline slice per UPIU serialisation (with its
  // task tag) on a track per direction; a busy wire per direction in the waves.
  void set_trace(TraceRecorder* trace);

  // Pure functions of the parameters (tests, reports, bandwidth estimates).
  // Bytes after UniPro framing of the UPIU(s) a Upiu stands for.
  uint64_t framed_bytes(const Upiu& upiu) const;
  // Time to serialise a number of framed bytes on one direction (a recent size: from the memo).
  sc_core::sc_time serialisation_time(Direction dir, uint64_t framed_bytes) const {
    const DirectionState::Memo& m = dirs_[dir].memo[memo_slot(framed_bytes)];
    return m.framed == framed_bytes ? m.time : compute_serialisation(dir, framed_bytes);
  }
  sc_core::sc_time serialisation_time(Direction dir, const Upiu& upiu) const {
    return serialisation_time(dir, framed_bytes(upiu));
  }
  double lane_rate_mbps(Direction dir) const;
  // Framed bytes per second the direction carries (all lanes, after line coding).
  double framed_bytes_per_second(Direction dir) const;

  const DirectionStats& stats(Direction dir) const { return dirs_[dir].stats; }
  // Serialisation time booked before `t` (t >= now): stats().busy without what lies ahead.
  sc_core::sc_time busy_until(Direction dir, const sc_core::sc_time& t) const { return dirs_[dir].calendar.busy_until(t); }
  // Auto-hibernate (LinkParams::hibernate_idle_us): times the link went to Hibern8, time
  // spent there (up to the wake-up), and the wake-up delay UPIUs waited for.
  struct HibernateStats {
    uint64_t entries = 0;
    sc_core::sc_time hibernated;
    sc_core::sc_time exit_delay;
  };
  const HibernateStats& hibernate_stats() const { return hibernate_; }
  // The same up to `t` (t >= now), a stretch in Hibern8 at `t` included (it is counted
  // at its wake-up otherwise): the energy model's link power states.
  HibernateStats hibernate_stats_until(const sc_core::sc_time& t) const;
  // End of the last reserved serialisation on a direction.
  sc_core::sc_time next_free(Direction dir) const;
  // Busy time / elapsed simulated time.
  double utilisation(Direction dir) const;

 private:
  struct DirectionState {
    uint32_t gear = 4;
    uint32_t lanes = 2;
    double ps_per_framed_byte = 0.0;
    // serialisation_time of the last few sizes (a handful of UPIU sizes recur): no
    // floating-point rounding per UPIU. Cleared when the rate changes.
    struct Memo {
      uint64_t framed = ~0ull;
      sc_core::sc_time time;
    };
    mutable Memo memo[8];  // slot: memo_slot(framed)
    BusyCalendar calendar;       // reserved serialisations
    DirectionStats stats;
  };

  void transport(Direction dir, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // A few bits of the size mixed: framed & 7 put a GOOD RESPONSE or a COMMAND (40 framed
  // bytes) and a 4 KiB DATA IN or OUT (4256) in one slot, so every read and write missed.
  static uint32_t memo_slot(uint64_t framed) { return uint32_t(framed ^ (framed >> 3) ^ (framed >> 6)) & 7; }
  sc_core::sc_time compute_serialisation(Direction dir, uint64_t framed) const;  // and memoise
  // Place a serialisation of `duration` at the first idle slot at or after `ready`; returns its start.
  uint64_t message_framed_bytes(uint64_t message_bytes) const;

  LinkParams params_;
  DirectionState dirs_[2];
  TraceRecorder* trace_ = nullptr;
  int trace_track_[2] = {-1, -1};
  int trace_busy_[2] = {-1, -1};
  sc_core::sc_time latency_;
  // Requests outstanding (command, query, task management, NOP OUT not yet answered) and the
  // end of the answer that left none: the auto-hibernate timer runs from there.
  void wake_if_hibernated(sc_core::sc_time& ready);
  void count_requests(Direction dir, const Upiu* upiu, const sc_core::sc_time& end);
  uint32_t outstanding_ = 0;
  sc_core::sc_time idle_since_;
  HibernateStats hibernate_;
};

}  // namespace ufs
