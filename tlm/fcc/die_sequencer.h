// The group a die runs, from its start to its results: the reads', programs' and
// copy-backs' own sequences are ReadSequence's, ProgramSequence's and CopyBackSequence's
// (command cycles, data in/out, ECC, DMA, cache read, cache program); here the erase's
// commands, the array phase (tR/tPROG/tBERS, a copy-back's read and program) booked on
// the die, the results taken from the NAND die at the array's end, suspend/resume and
// the power cut.
// Owns each die's group in flight and its times; tells the controller through its
// event queue when an array phase ends (ArrayDone for reads, Finish otherwise; seen
// when StatusPoller says) and when a read's data is in the buffer (Complete); books
// each phase's array time in the ArrayLedger. All timing is booked ahead.
#pragma once
#include <systemc>
#include <tlm>
#include <cstdint>
#include <vector>
#include "common/timed_queue.h"
#include "fcc/flash_controller_params.h"
#include "fcc/copy_back_sequence.h"
#include "fcc/op_pool.h"
#include "fcc/program_sequence.h"
#include "fcc/read_sequence.h"

namespace ufs {

class ArrayLedger;
class DieQueues;
class FlashDma;
class FlashTimeline;
class FlashTopology;
class ProgramPowerBudget;
class StatusPoller;

struct FccEvent {
  enum class Kind : uint8_t { ArrayDone, Finish, Complete, DieWake };
  uint32_t index = 0;  // die (ArrayDone, Finish, DieWake) or op slot (Complete)
  uint32_t generation = 0;
  Kind kind = Kind::Complete;
};

// The controller's queue of moments, delivered straight to the die scheduler.
class DieScheduler;
struct FccDeliver {
  DieScheduler* scheduler;
  void operator()(FccEvent& e) const;  // scheduler->on_event(e)
};
using FccEventQueue = TimedQueue<FccEvent, FccDeliver>;

class DieSequencer {
 public:
  struct Parts {
    FlashTopology& topology;
    OpPool& pool;
    DieQueues& queues;
    ProgramPowerBudget& budget;
    FlashDma& dma;
    FlashTimeline& timeline;
    FccEventQueue& events;
    ArrayLedger& ledger;
    StatusPoller& poller;
  };
  DieSequencer(const FlashControllerParams& params, const Parts& parts);

  // The group the die runs (empty: the die takes a new one); the queues fill it.
  std::vector<uint32_t>& group(uint32_t die) { return dies_[die].active; }
  bool idle(uint32_t die) const { return dies_[die].active.empty(); }
  // Earliest start of the die's next command.
  const sc_core::sc_time& free_at(uint32_t die) const { return dies_[die].free_at; }
  // Bumps when a booked Finish is void (its group was suspended).
  uint32_t generation(uint32_t die) const { return dies_[die].generation; }
  // Starts the die's group for `at` (not before the die's cache register frees).
  void start(uint32_t die, const sc_core::sc_time& at);
  // A read's array phase is over: its data goes out, is decoded and lands in the buffer.
  void array_done(uint32_t die);
  // A program/erase/copy-back is over: the group's results (statuses) are in its slots,
  // listed by finished(); a cached program takes the array.
  void finish(uint32_t die);
  const std::vector<uint32_t>& finished() const { return finishing_; }
  // Cache program: the next program's data-in overlaps the program in flight.
  void try_cache_program(uint32_t die);

  // Suspend: whether a program/erase is in its array phase now; setting it aside moves
  // the group into `into` and returns the array time it still needs.
  bool suspendable(uint32_t die) const;
  sc_core::sc_time set_aside(uint32_t die, std::vector<uint32_t>& into);
  // Returns when the resumed array phase starts.
  sc_core::sc_time resume(uint32_t die, std::vector<uint32_t>& group, const sc_core::sc_time& left);
  // Power cut: tears the pages a group programs (the die's own only if its array phase
  // has begun) and drops what the die runs; returns the pages torn.
  uint64_t tear(uint32_t die, const std::vector<uint32_t>& group);
  uint64_t cut_power(uint32_t die);
  // Timeline at the end of the run: each die's array phase in flight, and the ops still
  // waiting for it (a cached program, the die queue).
  void trace_in_flight();

  const sc_core::sc_time& queue_wait() const { return queue_wait_; }  // dispatch - arrival, summed

 private:
  struct Die {
    uint32_t channel = 0;
    std::vector<uint32_t> active;  // op slots in flight on the die (a multi-plane group)
    sc_core::sc_time free_at;      // earliest start of the die's next command
    sc_core::sc_time cache_free_at;  // cache register busy with data-out until then
    sc_core::sc_time array_start;   // start of the array phase (tR/tPROG/tBERS) in flight
    sc_core::sc_time array_end;     // end of the array operation in flight
    uint32_t generation = 0;        // bumps when a pending Finish is cancelled (suspend)
  };

  void start_read(uint32_t die, const sc_core::sc_time& start);
  void start_program(uint32_t die, const sc_core::sc_time& start);
  void start_cached_program(uint32_t die);
  void start_erase(uint32_t die, const sc_core::sc_time& start);
  void start_copy_back(uint32_t die, const sc_core::sc_time& start);
  // Books the array phase [start, end) holding `busy` of array time.
  void book_array(uint32_t die, const sc_core::sc_time& start, const sc_core::sc_time& end,
                  const sc_core::sc_time& busy);
  // The event at which the controller sees the booked array phase end.
  void signal_end(uint32_t die, FccEvent::Kind kind);

  Parts parts_;
  ReadSequence reads_;
  ProgramSequence programs_;
  CopyBackSequence copy_backs_;
  std::vector<Die> dies_;
  std::vector<uint32_t> finishing_;
  std::vector<sc_core::sc_time> landed_;  // a read group's data in the buffer (ReadSequence::data_out)
  sc_core::sc_time queue_wait_;
};

}  // namespace ufs
