// When each die takes its next group, and the op's way through the controller: an op
// submitted to an idle die with an empty queue is committed at once for its arrival
// time; otherwise it waits and the die picks the best arrived group when it frees (a
// wake-up at the first arrival when several wait and none has arrived). A read for a
// die in a program/erase may suspend it; a program may go into the cache register.
// Routes the controller's events to the part they concern and reports completions.
// Owns the dies' wake-ups, the completion listener and the op counts.
#pragma once
#include <systemc>
#include <array>
#include <cstdint>
#include <vector>
#include "common/timed_queue.h"
#include "fcc/die_sequencer.h"
#include "hal/flash_types.h"

namespace ufs {

class DieQueues;
class OpPool;
class SuspendResume;

class FlashCompletionListener {  // implemented by the CPU model
 public:
  virtual ~FlashCompletionListener() = default;
  // Called from the demux's process at the completion time.
  virtual void flash_complete(const FlashCompletion& c) = 0;
};

class DieScheduler {
 public:
  struct Parts {
    OpPool& pool;
    DieQueues& queues;
    DieSequencer& sequencer;
    SuspendResume& suspend;
    FccEventQueue& events;
  };
  DieScheduler(bool cache_read, uint32_t dies, const Parts& parts);

  void set_listener(FlashCompletionListener* listener) { listener_ = listener; }
  // The op (on a die of the device) arrives at `arrival` (not before now).
  void submit(const FlashOp& op, const sc_core::sc_time& arrival, int trace_tag, uint64_t cmd);
  void on_event(const FccEvent& e);

  uint64_t ops_completed(FlashOpcode opcode) const { return completed_[size_t(opcode)]; }
  uint64_t ops_failed(FlashOpcode opcode) const { return failed_[size_t(opcode)]; }
  uint64_t ops_in_flight() const;

 private:
  void dispatch(uint32_t die);
  void wake_at(uint32_t die, const sc_core::sc_time& at);
  void finish(uint32_t die);
  void array_done(uint32_t die);
  void complete(uint32_t slot);

  struct Wake {
    bool pending = false;
    sc_core::sc_time at;
  };
  bool cache_read_;
  Parts parts_;
  FlashCompletionListener* listener_ = nullptr;
  std::vector<Wake> wakes_;
  uint64_t submitted_ = 0;
  std::array<uint64_t, 4> completed_{};
  std::array<uint64_t, 4> failed_{};
};

}  // namespace ufs
