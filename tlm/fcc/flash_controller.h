// The flash demux (flash channel controller): takes FlashOps from the firmware,
// queues them per die, drives each channel's bus (command/address cycles, data
// in/out), keeps the dies' array times (tR/tPROG/tBERS), decodes ECC, moves page
// data to and from the data buffer over `dma`, and reports each completion.
//
// The module is the composition root of its parts (tlm/README.md has the picture):
//   FlashTopology       packages, channels, gangs, bus timing          flash_topology
//   OpPool              the records of ops in flight                   op_pool
//   DieQueues           waiting ops, what a die runs next (multi-plane) die_queues
//   DieScheduler        when a die takes it; events; completions       die_scheduler
//   DieSequencer        each die's group: array phases, results        die_sequencer
//     ReadSequence      reads' commands, data-out, ECC, cache read     read_sequence
//     ProgramSequence   programs' data-in, cache program               program_sequence
//     CopyBackSequence  copy-back's commands, spare out                copy_back_sequence
//   StatusPoller        when an array phase's end is seen (R/B#, polls) status_poller
//   ArrayLedger         array time booked, per die and per kind        array_ledger
//   SuspendResume       program/erase suspended for reads              suspend_resume
//   ProgramPowerBudget  programs in their array phase at once          program_power_budget
//   FlashDma            page data to and from the data buffer          flash_dma
//   FlashTimeline       slices and waves (observability)               flash_timeline
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
#include <cstdint>
#include <string>
#include "common/timed_queue.h"
#include "fcc/array_ledger.h"
#include "fcc/die_queues.h"
#include "fcc/die_scheduler.h"
#include "fcc/die_sequencer.h"
#include "fcc/flash_controller_params.h"
#include "fcc/flash_dma.h"
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"
#include "fcc/op_pool.h"
#include "fcc/program_power_budget.h"
#include "fcc/status_poller.h"
#include "fcc/suspend_resume.h"
#include "hal/flash_types.h"
#include "nand/nand_params.h"

namespace ufs {

class TraceRecorder;

class FlashController : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<FlashController> dma;  // on-chip bus -> data buffer

  // No process of its own: its TimedQueue's method delivers every moment.
  FlashController(sc_core::sc_module_name name, const FlashControllerParams& params, const NandParams& nand);

  void set_listener(FlashCompletionListener* listener) { scheduler_.set_listener(listener); }
  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel) { events_.attach(wheel); }
  // The op arrives at now + delay. The demux copies what it needs. Timeline: trace_tag, the
  // host command tag shown on the op's slices (-1: none); cmd, the id of the command it
  // works for (TraceRecorder::command_issued; 0: none), the source of its flow arrow.
  void submit(const FlashOp& op, const sc_core::sc_time& delay, int trace_tag = -1, uint64_t cmd = 0);
  // Observability (nullptr = off): die array phases and channel bus use on the timeline,
  // die busy/state and channel busy in the waves. Call before the simulation starts.
  void set_trace(TraceRecorder* trace) { timeline_.attach(trace, name(), topology_); }
  // Timeline at the end of the run: the array phases still in flight, as slices up to
  // their booked end (args.in_flight), and the ops still waiting for a die, from their
  // arrival to now (args.queued), and the programs/erases suspended for reads, from
  // their suspend to now (args.queued, waiting "suspended").
  void trace_in_flight() {
    sequencer_.trace_in_flight();
    if (timeline_.on()) suspend_.trace_in_flight(timeline_, pool_);
  }
  FlashGeometry geometry() const { return topology_.geometry(); }
  // The geometry the firmware sees for these parameters (ganged packages act as one wider
  // package), known before elaboration; "" or "key: problem" in `problem` when the
  // combination cannot be built (the checks the constructor would otherwise fail on).
  static FlashGeometry geometry_for(const FlashControllerParams& params, const NandParams& nand, std::string* problem) {
    return FlashTopology::geometry_for(params, nand, problem);
  }
  // Sudden power-off now: programs (and copy-backs) in their array phase, running or
  // suspended, leave torn pages; anything else in flight never reached the array.
  // Returns the pages torn. The simulation stops right after (nothing completes).
  uint64_t power_cut();

  // --- statistics (times are booked time so far, which may reach past now) ---
  // Array time per die (busy_until(die, t)) and per kind of array operation.
  const ArrayLedger& arrays() const { return ledger_; }
  uint64_t channel_bytes(uint32_t channel) const { return topology_.channel(channel).bytes_transferred(); }
  uint64_t ops_completed(FlashOpcode opcode) const { return scheduler_.ops_completed(opcode); }
  uint64_t ops_failed(FlashOpcode opcode) const { return scheduler_.ops_failed(opcode); }
  uint64_t ops_in_flight() const { return scheduler_.ops_in_flight(); }
  // Program/erase suspensions granted to reads.
  uint64_t suspensions() const { return suspend_.suspensions(); }
  uint64_t status_polls() const { return poller_.polls(); }
  // Power budget (max_concurrent_programs): programs whose array phase waited for a slot
  // (delays()), and the time they waited in all (wait()).
  const ProgramPowerBudget& power_budget() const { return budget_; }
  // NAND rule violations over all dies (zero for correct firmware).
  uint64_t rule_violations() const { return topology_.violation_counts().total(); }
  // The NAND dies themselves (inspection, tests): global die index as in FlashGeometry.
  NandDie& nand_die(uint32_t die) { return topology_.die(die); }
  const NandDie& nand_die(uint32_t die) const { return topology_.die(die); }
  const FlashControllerParams& params() const { return params_; }
  // The parts' own figures: channels (busy_until, bytes) and NAND totals, queue times,
  // multi-plane grouping.
  const FlashTopology& topology() const { return topology_; }
  const DieSequencer& sequencer() const { return sequencer_; }
  const DieQueues& queues() const { return queues_; }

 private:
  FlashControllerParams params_;
  FlashTopology topology_;
  OpPool pool_;
  DieQueues queues_;
  ProgramPowerBudget budget_;
  FlashDma dma_port_;
  FlashTimeline timeline_;
  FccEventQueue events_;
  ArrayLedger ledger_;
  StatusPoller poller_;
  DieSequencer sequencer_;
  SuspendResume suspend_;
  DieScheduler scheduler_;
};

}  // namespace ufs
