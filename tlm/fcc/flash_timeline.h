// What the controller shows of itself (observability, nullptr recorder = off): each
// channel's bus use and each die's array phases as timeline slices, and die busy /
// state and channel busy in the waves. Owns the tracks and signals and, per die, the
// start of the array slice in progress. Callers check on() before building anything.
#pragma once
#include <systemc>
#include <cstdint>
#include <string>
#include <vector>
#include "fcc/op_pool.h"

namespace ufs {

class TraceRecorder;
class FlashTopology;

class FlashTimeline {
 public:
  // Call before the simulation starts; `scope`: the controller's name in the waves.
  void attach(TraceRecorder* trace, const std::string& scope, const FlashTopology& topology);
  bool on() const { return trace_ != nullptr; }

  // A bus use of `length` from `start` on `channel` for the op in `slot`.
  void bus(uint32_t channel, const char* what, const sc_core::sc_time& start, const sc_core::sc_time& length,
           const OpSlot& slot, uint64_t bytes);
  // The die's array is busy [start, end) with `opcode`; `resumed`: after a suspend.
  void array(uint32_t die, const sc_core::sc_time& start, const sc_core::sc_time& end, FlashOpcode opcode,
             bool resumed = false);
  // The array phase of `group` (its lead first) that ends now; a flow arrow from each
  // op's command to it (not again for the part after a resume).
  void array_end(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group);
  // The array phase is suspended now instead of ending at `booked_end`.
  void array_suspended(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group,
                       const sc_core::sc_time& booked_end);
  // The run ends with the array phase in flight: its slice up to `booked_end`.
  void array_in_flight(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group,
                       const sc_core::sc_time& booked_end);
  // The run ends with the op in `slot` still waiting for the die (`where`: "die queue",
  // "cache register"): a slice from its arrival to now on the die's track under "NAND die
  // queues" (args.queued), with the arrow from its command.
  void waiting(uint32_t die, const OpPool& pool, uint32_t slot, const char* where);
  // The run ends with `group` (a program or erase) suspended since `since` for reads and
  // `left` of its array time still to run: one slice from `since` to now on the die's
  // queue track (args.queued, waiting "suspended", left_ns), with the arrows from its
  // commands. Its part before the suspend is already on the die's track.
  void suspended(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group,
                 const sc_core::sc_time& since, const sc_core::sc_time& left);

 private:
  int queue_track(uint32_t die);
  void slice(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group, int variant,
             const sc_core::sc_time& end, bool in_flight);

  TraceRecorder* trace_ = nullptr;
  const FlashTopology* topology_ = nullptr;
  std::vector<int> die_track_, channel_track_, die_busy_, die_state_, channel_busy_;
  std::vector<int> queue_track_;  // per die, made when first needed (-1: none yet)
  std::vector<sc_core::sc_time> slice_start_;  // per die: start of its current array slice
  std::vector<bool> resumed_;                  // per die: the current array slice follows a resume
};

}  // namespace ufs
