#include "fcc/die_scheduler.h"
#include "common/sim_time.h"
#include "fcc/die_queues.h"
#include "fcc/op_pool.h"
#include "fcc/suspend_resume.h"

namespace ufs {

void FccDeliver::operator()(FccEvent& e) const { scheduler->on_event(e); }

using sc_core::sc_time;

DieScheduler::DieScheduler(bool cache_read, uint32_t dies, const Parts& parts)
    : cache_read_(cache_read), parts_(parts), wakes_(dies) {}

void DieScheduler::submit(const FlashOp& op, const sc_time& arrival, int trace_tag, uint64_t cmd) {
  const uint32_t s = parts_.pool.alloc();
  OpSlot& slot = parts_.pool[s];
  slot.op = op;
  slot.arrival = arrival;
  slot.status = FlashStatus::Ok;
  slot.trace_tag = trace_tag;
  slot.cmd = cmd;
  ++submitted_;
  const uint32_t die = op.address.die;
  parts_.queues.enqueue(die, s);
  if (parts_.sequencer.idle(die)) {
    if (!wakes_[die].pending && !parts_.suspend.suspended(die)) dispatch(die);
  } else if (op.opcode == FlashOpcode::Read) {
    if (parts_.suspend.try_suspend(die)) dispatch(die);
  } else if (op.opcode == FlashOpcode::Program) {
    parts_.sequencer.try_cache_program(die);
  }
}

void DieScheduler::dispatch(uint32_t die) {
  DieSequencer& seq = parts_.sequencer;
  if (!seq.idle(die)) return;
  const sc_time now = sim_now();
  sc_time at = now < seq.free_at(die) ? seq.free_at(die) : now;
  const bool suspended = parts_.suspend.suspended(die);
  parts_.queues.pick_group(die, at, suspended, seq.group(die));
  if (seq.idle(die)) {
    // Nothing has arrived yet (or, while suspended, no read waits).
    if (suspended) {
      parts_.suspend.resume(die);
      return;
    }
    if (parts_.queues.empty(die)) return;
    const sc_time first = parts_.pool[parts_.queues.first_arrival(die)].arrival;
    if (parts_.queues.size(die) > 1) {  // decide when they are there
      wake_at(die, first);
      return;
    }
    at = first;  // a lone op: commit now for its arrival time
    parts_.queues.pick_group(die, at, false, seq.group(die));
  }
  seq.start(die, at);
}

void DieScheduler::wake_at(uint32_t die, const sc_time& at) {
  Wake& w = wakes_[die];
  if (w.pending && w.at <= at) return;  // an earlier wake reconsiders then
  w.pending = true;
  w.at = at;
  parts_.events.push(at, FccEvent{die, 0, FccEvent::Kind::DieWake});
}

void DieScheduler::on_event(const FccEvent& e) {
  switch (e.kind) {
    case FccEvent::Kind::ArrayDone: array_done(e.index); break;
    case FccEvent::Kind::Finish:
      if (e.generation == parts_.sequencer.generation(e.index)) finish(e.index);
      break;
    case FccEvent::Kind::Complete: complete(e.index); break;
    case FccEvent::Kind::DieWake: {
      Wake& w = wakes_[e.index];
      if (!w.pending || sim_now() < w.at) break;  // superseded
      w.pending = false;
      if (parts_.sequencer.idle(e.index)) dispatch(e.index);
      break;
    }
  }
}

void DieScheduler::array_done(uint32_t die) {
  parts_.sequencer.array_done(die);
  if (parts_.queues.empty(die) && !parts_.suspend.suspended(die)) return;
  // Cache read: the next read's command goes out now; else the die takes it after the data-out.
  if (cache_read_) dispatch(die);
  else wake_at(die, parts_.sequencer.free_at(die));
}

void DieScheduler::finish(uint32_t die) {
  DieSequencer& seq = parts_.sequencer;
  seq.finish(die);
  // Completions first, so ops the firmware submits from them compete for the die.
  for (uint32_t s : seq.finished()) complete(s);
  seq.try_cache_program(die);
  if (seq.idle(die) && !wakes_[die].pending && (!parts_.queues.empty(die) || parts_.suspend.suspended(die)))
    dispatch(die);
}

// The completion is the slot's own; the slot is freed once the listener has it (an op the
// firmware submits from the completion takes another slot).
void DieScheduler::complete(uint32_t s) {
  OpSlot& slot = parts_.pool[s];
  FlashCompletion& c = slot.done;
  c.cookie = slot.op.cookie;
  c.opcode = slot.op.opcode;
  c.status = slot.status;
  c.address = slot.op.address;
  if (!(slot.op.opcode == FlashOpcode::Read || (slot.op.opcode == FlashOpcode::CopyBack && slot.op.read_oob)))
    c.oob = PageOob{};  // no OOB came out
  ++completed_[size_t(c.opcode)];
  if (c.status != FlashStatus::Ok) ++failed_[size_t(c.opcode)];
  if (listener_) listener_->flash_complete(c);
  parts_.pool.free(s);
}

uint64_t DieScheduler::ops_in_flight() const {
  uint64_t n = 0;
  for (uint64_t c : completed_) n += c;
  return submitted_ - n;
}

}  // namespace ufs
