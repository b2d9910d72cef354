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
  // The array phase that ends now, led by `lead` over `planes` planes.
  void array_end(uint32_t die, const OpSlot& lead, size_t planes);
  // The array phase is suspended now instead of ending at `booked_end`.
  void array_suspended(uint32_t die, const OpSlot& lead, size_t planes, const sc_core::sc_time& booked_end);

 private:
  void slice(uint32_t die, const OpSlot& lead, size_t planes, int variant);

  TraceRecorder* trace_ = nullptr;
  std::vector<int> die_track_, channel_track_, die_busy_, die_state_, channel_busy_;
  std::vector<sc_core::sc_time> slice_start_;  // per die: start of its current array slice
  std::vector<bool> resumed_;                  // per die: the current array slice follows a resume
};

}  // namespace ufs
