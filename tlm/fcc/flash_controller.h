// The flash demux (flash channel controller): takes FlashOps from the firmware,
// queues them per die, drives each channel's bus (command/address cycles, data
// in/out), keeps the dies' array times (tR/tPROG/tBERS), decodes ECC, moves page
// data to and from the data buffer over `dma`, and reports each completion.
//
// Speed: no thread per die or op. All timing is booked ahead on per-die and
// per-channel calendars and one TimedQueue (one sc_event) delivers the moments
// something must happen: a read costs a wake-up at its tR end and one at its
// completion (plus one at its data-out end only if another op waits for the die);
// a program or erase costs one. Op records live in a pool reused across ops.
//
// Scheduling (loosely timed): an op submitted to an idle die with an empty queue is
// committed at once for its arrival time; otherwise it waits in the die queue and
// the die picks the best arrived op when it frees (priority, then reads first if
// read_first, then FIFO). Multi-plane groups form from ops queued together on one
// die (an idle die starts the first op alone). The data buffer target must answer
// b_transport without wait() (it is called from a method process, with the time the
// data moves as the annotated delay). Suspend: a read submitted while its die is in
// the array phase of a program/erase suspends it; reads then run until none waits
// (no cap), then the program/erase resumes with the time it had left.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>
#include "fcc/flash_channel.h"
#include "common/timed_queue.h"
#include "fcc/flash_controller_params.h"
#include "hal/flash_types.h"
#include "nand/nand_package.h"
#include "nand/nand_params.h"

namespace ufs {

class TraceRecorder;

class FlashCompletionListener {  // implemented by the CPU model
 public:
  virtual ~FlashCompletionListener() = default;
  // Called from the demux's process at the completion time.
  virtual void flash_complete(const FlashCompletion& c) = 0;
};

class FlashController : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<FlashController> dma;  // on-chip bus -> data buffer

  FlashController(sc_core::sc_module_name name, const FlashControllerParams& params,
                  const NandParams& nand);
  SC_HAS_PROCESS(FlashController);

  void set_listener(FlashCompletionListener* listener) { listener_ = listener; }
  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel) { events_.attach(wheel); }
  // The op arrives at now + delay. The demux copies what it needs. trace_tag: the host
  // command tag the timeline shows on the op's slices (-1: none).
  void submit(const FlashOp& op, const sc_core::sc_time& delay, int trace_tag = -1);
  // Observability (nullptr = off): die array phases and channel bus use on the timeline,
  // die busy/state and channel busy in the waves. Call before the simulation starts.
  void set_trace(TraceRecorder* trace);
  FlashGeometry geometry() const { return geometry_; }
  // The geometry the firmware sees for these parameters (ganged packages act as one wider
  // package), known before elaboration; "" or "key: problem" in `problem` when the
  // combination cannot be built (the checks the constructor would otherwise fail on).
  static FlashGeometry geometry_for(const FlashControllerParams& params, const NandParams& nand, std::string* problem);
  // Sudden power-off now: programs (and copy-backs) in their array phase, running or
  // suspended, leave torn pages; anything else in flight never reached the array.
  // Returns the pages torn. The simulation stops right after (nothing completes).
  uint64_t power_cut();

  // --- statistics (times are booked time so far, which may reach past now) ---
  // Array busy time of a die: tR + tPROG + tBERS it has been given.
  const sc_core::sc_time& die_busy_time(uint32_t die) const { return dies_[die].array_busy; }
  // Array time before `t` (t >= now): an operation is booked whole when it starts, so the
  // part of the one in flight that lies after t is not counted.
  sc_core::sc_time die_busy_until(uint32_t die, const sc_core::sc_time& t) const {
    const DieState& d = dies_[die];
    const sc_core::sc_time from = d.busy_from > t ? d.busy_from : t;
    return d.busy_to > from ? d.array_busy - (d.busy_to - from) : d.array_busy;
  }
  sc_core::sc_time channel_busy_until(uint32_t channel, const sc_core::sc_time& t) const {
    return channels_[channel].busy_until(t);
  }
  // Bus time of a channel: command/address cycles and data transfers.
  const sc_core::sc_time& channel_busy_time(uint32_t channel) const {
    return channels_[channel].busy_time();
  }
  uint64_t channel_bytes(uint32_t channel) const { return channels_[channel].bytes_transferred(); }
  uint64_t ops_completed(FlashOpcode opcode) const { return completed_[size_t(opcode)]; }
  uint64_t ops_failed(FlashOpcode opcode) const { return failed_[size_t(opcode)]; }
  uint64_t ops_submitted() const { return submitted_; }
  uint64_t ops_in_flight() const { return submitted_ - completed_total(); }
  // Ops that went out as part of a multi-plane operation (2 or more planes).
  uint64_t multi_plane_ops() const { return multi_plane_ops_; }
  // Program/erase suspensions granted to reads.
  uint64_t suspensions() const { return suspensions_; }
  uint64_t status_polls() const { return status_polls_; }
  // Power budget (max_concurrent_programs): programs whose array phase waited for a slot,
  // and the time they waited in all.
  uint64_t power_budget_delays() const { return power_budget_delays_; }
  const sc_core::sc_time& power_budget_wait() const { return power_budget_wait_; }
  // Sum of (dispatch - arrival) over ops: time spent queued for a die.
  const sc_core::sc_time& total_queue_wait() const { return queue_wait_; }
  // NAND rule violations over all dies (zero for correct firmware).
  uint64_t rule_violations() const;
  NandRuleViolations violation_counts() const;
  uint32_t erase_count(uint32_t die, uint32_t plane, uint32_t block) const {
    return nand_die(die).block(plane, block).erase_count();
  }
  uint64_t allocated_blocks() const;
  // The NAND dies themselves (inspection, tests): global die index as in FlashGeometry.
  NandDie& nand_die(uint32_t die) { return *dies_[die].nand; }
  const NandDie& nand_die(uint32_t die) const { return *dies_[die].nand; }
  const FlashControllerParams& params() const { return params_; }

 private:
  enum class EventKind : uint8_t { ArrayDone, Finish, Complete, DieWake };
  struct Event {
    uint32_t index = 0;  // die (ArrayDone, Finish, DieWake) or op slot (Complete)
    uint32_t generation = 0;
    EventKind kind = EventKind::Complete;
  };
  struct OpSlot {
    FlashOp op;  // its oob vector keeps its capacity across reuse
    std::vector<SectorStamp> stamps;
    sc_core::sc_time arrival;
    uint64_t seq = 0;
    FlashStatus status = FlashStatus::Ok;
    PageOob read_oob;
    uint32_t first_sector = 0, sectors = 0;  // read: what crosses the bus
    int trace_tag = -1;                      // host command tag for the timeline
  };
  struct DieState {
    NandDie* nand = nullptr;
    uint32_t channel = 0;
    std::vector<uint32_t> queue;   // waiting op slots
    std::vector<uint32_t> active;  // op slots in flight on the die (a multi-plane group)
    sc_core::sc_time free_at;      // earliest start of the die's next command
    sc_core::sc_time cache_free_at;  // cache register busy with data-out until then
    sc_core::sc_time register_free_at;  // page register copied to the cache register (cache read)
    // A command slot booked on the channel right after the die's data-out, for the op
    // waiting on the die (interleaving: a short command goes ahead of other dies' bursts).
    bool cmd_slot = false;
    sc_core::sc_time cmd_slot_at;
    // Cache program: a program whose data is already in the cache register, waiting
    // for the program in flight to free the array.
    std::vector<uint32_t> cached;
    sc_core::sc_time cached_ready;  // its data-in ends then
    sc_core::sc_time array_start;  // start of the array phase (tR/tPROG/tBERS) in flight
    sc_core::sc_time array_end;    // end of the array operation in flight
    sc_core::sc_time array_busy;
    sc_core::sc_time busy_from, busy_to;  // the latest array time added to array_busy (see die_busy_until)
    uint32_t generation = 0;       // bumps when a pending Finish is cancelled (suspend)
    bool wake_pending = false;
    sc_core::sc_time wake_at;
    // Suspend: a program/erase group set aside while reads run.
    std::vector<uint32_t> suspended;
    sc_core::sc_time suspend_left;  // array time the suspended group still needs
    sc_core::sc_time trace_start;   // timeline: start of the die's current array slice
    bool trace_resumed = false;     // timeline: the current array slice follows a resume
  };

  void on_event(Event& e);
  void dispatch(uint32_t die);
  void start_read(uint32_t die, const sc_core::sc_time& start);
  void start_program(uint32_t die, const sc_core::sc_time& start);
  void start_erase(uint32_t die, const sc_core::sc_time& start);
  void start_copy_back(uint32_t die, const sc_core::sc_time& start);
  void try_cache_program(uint32_t die);
  sc_core::sc_time ready_seen(uint32_t die, const sc_core::sc_time& start, const sc_core::sc_time& end);
  void start_cached_program(uint32_t die);
  // Power budget: the earliest start at or after `earliest` of a program array phase of
  // `length` on `die` that keeps at most max_concurrent_programs in flight; books it.
  sc_core::sc_time program_slot(uint32_t die, const sc_core::sc_time& earliest, const sc_core::sc_time& length);
  void end_program_slot(uint32_t die, const sc_core::sc_time& at);  // suspended: the die draws no more
  void array_done(uint32_t die);
  void finish(uint32_t die);
  void resume(uint32_t die);
  bool try_suspend(uint32_t die);
  void complete(uint32_t slot);
  void wake_at(uint32_t die, const sc_core::sc_time& at);
  void push(const sc_core::sc_time& at, EventKind kind, uint32_t index, uint32_t generation = 0) {
    events_.push(at, Event{index, generation, kind});
  }
  bool better(const OpSlot& a, const OpSlot& b) const;
  // Observability hooks (only called when trace_ is set).
  void trace_bus(uint32_t channel, const char* what, const sc_core::sc_time& start, const sc_core::sc_time& length,
                 const OpSlot& slot, uint64_t bytes);
  void trace_array(uint32_t die, const sc_core::sc_time& start, const sc_core::sc_time& end);
  void trace_array_slice(uint32_t die, const char* suffix);
  bool oldest_program_to_block(const DieState& d, const OpSlot& c) const;
  void pick_group(DieState& d, const sc_core::sc_time& at);
  uint32_t alloc_slot();
  void free_slot(uint32_t s) { free_slots_.push_back(s); }
  sc_core::sc_time dma_transfer(tlm::tlm_command cmd, uint64_t address, SectorStamp* stamps,
                                uint32_t sectors, const sc_core::sc_time& at);
  uint64_t completed_total() const {
    uint64_t n = 0;
    for (uint64_t c : completed_) n += c;
    return n;
  }
  uint64_t sector_bus_bytes(uint32_t sectors) const {
    return uint64_t(sectors) * (kSectorBytes + spare_per_sector_);
  }
  // Channel time of `sectors` sectors with their spare bytes (table: sc_time from a
  // double is slow on the hot path).
  sc_core::sc_time sector_transfer_time(uint32_t sectors, const FlashChannel& ch) const {
    return sectors < xfer_table_.size() ? xfer_table_[sectors]
                                        : ch.transfer_time(sector_bus_bytes(sectors));
  }

  FlashControllerParams params_;
  NandParams nand_params_;
  FlashGeometry geometry_;
  FlashCompletionListener* listener_ = nullptr;
  std::deque<NandPackage> packages_;  // never moves: dies_ point into it
  std::vector<FlashChannel> channels_;
  std::vector<DieState> dies_;
  std::vector<std::unique_ptr<OpSlot>> slots_;
  std::vector<uint32_t> free_slots_;
  std::vector<uint32_t> finishing_;
  TimedQueue<Event> events_;
  tlm::tlm_generic_payload payload_;
  sc_core::sc_time t_cmd_, t_ecc_, t_cache_, t_poll_;
  std::vector<sc_core::sc_time> xfer_table_;
  uint32_t spare_per_sector_ = 0;
  uint32_t cmd_per_op_ = 1;  // command sequences per op (shared-bus gang: one per package)
  uint32_t lanes_ = 1;       // shared-control gang: packages whose data paths form the bus
  // Bus time of sectors [first, first + n) of a page: on a shared-control gang each
  // package's share of the gang page crosses its own data path, so a partial read
  // takes as long as the package holding most of the sectors needs.
  sc_core::sc_time read_transfer_time(uint32_t first, uint32_t n, const FlashChannel& ch) const;
  uint64_t seq_ = 0;
  uint64_t submitted_ = 0;
  std::array<uint64_t, 4> completed_{};
  std::array<uint64_t, 4> failed_{};
  uint64_t multi_plane_ops_ = 0;
  uint64_t suspensions_ = 0;
  uint64_t status_polls_ = 0;
  struct ProgramWindow {
    sc_core::sc_time start, end;
    uint32_t die;
  };
  std::vector<ProgramWindow> program_windows_;  // booked program array phases (power budget on)
  uint64_t power_budget_delays_ = 0;
  sc_core::sc_time power_budget_wait_;
  sc_core::sc_time queue_wait_;
  TraceRecorder* trace_ = nullptr;
  std::vector<int> die_track_, channel_track_, die_busy_, die_state_, channel_busy_;
};

}  // namespace ufs
