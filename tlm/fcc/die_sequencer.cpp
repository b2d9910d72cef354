#include "fcc/die_sequencer.h"
#include <algorithm>
#include "common/sim_time.h"
#include "fcc/array_ledger.h"
#include "fcc/die_queues.h"
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"
#include "fcc/program_power_budget.h"
#include "fcc/status_poller.h"

namespace ufs {

using sc_core::sc_time;

namespace {
const sc_time& later(const sc_time& a, const sc_time& b) { return a < b ? b : a; }
// The read and program sequences' share of the sequencer's parts.
DataPathParts data_path(const DieSequencer::Parts& parts) {
  return {parts.topology, parts.pool, parts.queues, parts.dma, parts.timeline};
}

}  // namespace

DieSequencer::DieSequencer(const FlashControllerParams& params, const Parts& parts)
    : parts_(parts),
      reads_(params, data_path(parts)),
      programs_(params.cache_program,
                data_path(parts)),
      copy_backs_(CopyBackSequence::Parts{parts.topology, parts.budget, parts.poller, parts.timeline}),
      dies_(parts.topology.dies()) {
  const uint32_t planes = parts.topology.nand_params().planes_per_die;
  for (uint32_t d = 0; d < dies_.size(); ++d) {
    dies_[d].channel = parts.topology.channel_of(d);
    dies_[d].active.reserve(planes);
  }
  finishing_.reserve(planes);
  landed_.reserve(planes);
}

void DieSequencer::start(uint32_t die, const sc_time& at) {
  Die& d = dies_[die];
  const FlashOpcode opcode = parts_.pool[d.active[0]].op.opcode;
  sc_time start = at;
  if (opcode != FlashOpcode::Read) start = later(start, d.cache_free_at);
  for (uint32_t s : d.active) queue_wait_ += start - parts_.pool[s].arrival;
  switch (opcode) {
    case FlashOpcode::Read: start_read(die, start); break;
    case FlashOpcode::Program: start_program(die, start); break;
    case FlashOpcode::Erase: start_erase(die, start); break;
    case FlashOpcode::CopyBack: start_copy_back(die, start); break;
  }
}

void DieSequencer::book_array(uint32_t die, const sc_time& start, const sc_time& end, const sc_time& busy) {
  Die& d = dies_[die];
  d.array_start = start;
  d.array_end = end;
  d.free_at = end;
  parts_.ledger.book(die, end, busy);
}

void DieSequencer::signal_end(uint32_t die, FccEvent::Kind kind) {
  const Die& d = dies_[die];
  const sc_time seen = parts_.poller.ready_seen(d.channel, d.array_start, d.array_end, parts_.pool[d.active[0]]);
  parts_.events.push(seen, FccEvent{die, d.generation, kind});
}

void DieSequencer::start_read(uint32_t die, const sc_time& start) {
  Die& d = dies_[die];
  sc_time t_r;
  const sc_time array_start = reads_.commands(die, d.active, start, &t_r);
  book_array(die, array_start, array_start + t_r, t_r);
  parts_.ledger.count(ArrayLedger::kind_of(parts_.pool[d.active[0]].op), t_r, 1, d.active.size());
  if (parts_.timeline.on()) parts_.timeline.array(die, d.array_start, d.array_end, FlashOpcode::Read);
  signal_end(die, FccEvent::Kind::ArrayDone);
}

void DieSequencer::array_done(uint32_t die) {
  Die& d = dies_[die];
  const ReadSequence::DataOut out = reads_.data_out(die, d.active, d.cache_free_at, landed_);
  for (size_t k = 0; k < d.active.size(); ++k)
    parts_.events.push(landed_[k], FccEvent{d.active[k], 0, FccEvent::Kind::Complete});
  if (parts_.timeline.on()) parts_.timeline.array_end(die, parts_.pool, d.active);  // after the reads: their OOB
  d.active.clear();
  d.cache_free_at = out.cache_free_at;
  d.free_at = out.free_at;
}

void DieSequencer::start_program(uint32_t die, const sc_time& start) {
  Die& d = dies_[die];
  sc_time t_prog;
  const sc_time data_in_end = programs_.data_in(die, d.active, start, &t_prog);
  const sc_time array_start = parts_.budget.book(die, data_in_end, t_prog);
  book_array(die, array_start, array_start + t_prog, t_prog);
  parts_.ledger.count(ArrayLedger::kind_of(parts_.pool[d.active[0]].op), t_prog, 1, d.active.size());
  if (parts_.timeline.on()) parts_.timeline.array(die, d.array_start, d.array_end, FlashOpcode::Program);
  signal_end(die, FccEvent::Kind::Finish);
  try_cache_program(die);
}

// A program in flight: the next one's data-in may go into the cache register meanwhile.
void DieSequencer::try_cache_program(uint32_t die) {
  Die& d = dies_[die];
  if (d.active.empty() || parts_.pool[d.active[0]].op.opcode != FlashOpcode::Program) return;
  const long s = programs_.try_cache(die, d.array_start);
  if (s >= 0) queue_wait_ += later(sim_now(), d.array_start) - parts_.pool[uint32_t(s)].arrival;
}

// The program in flight is done: the cached one takes the array.
void DieSequencer::start_cached_program(uint32_t die) {
  Die& d = dies_[die];
  const sc_time& ready = programs_.take_cached(die, d.active);
  const OpSlot& slot = parts_.pool[d.active[0]];
  const sc_time t_prog =
      parts_.topology.die(die).program_time(slot.op.address, std::max(1u, slot.op.page_count), slot.op.slc);
  const sc_time start = parts_.budget.book(die, later(sim_now(), ready), t_prog);
  book_array(die, start, start + t_prog, t_prog);
  parts_.ledger.count(ArrayLedger::kind_of(slot.op), t_prog);
  if (parts_.timeline.on()) parts_.timeline.array(die, d.array_start, d.array_end, FlashOpcode::Program);
  signal_end(die, FccEvent::Kind::Finish);
}

void DieSequencer::start_erase(uint32_t die, const sc_time& start) {
  Die& d = dies_[die];
  FlashChannel& ch = parts_.topology.channel(d.channel);
  const sc_time& cmd = parts_.topology.op_cmd();
  sc_time cursor = start;
  for (size_t i = 0; i < d.active.size(); ++i) {
    cursor = ch.reserve(cursor, cmd) + cmd;
    if (parts_.timeline.on()) parts_.timeline.bus(d.channel, "erase cmd", cursor - cmd, cmd, parts_.pool[d.active[i]], 0);
  }
  const sc_time t_bers = parts_.topology.die(die).erase_time();
  book_array(die, cursor, cursor + t_bers, t_bers);
  parts_.ledger.count(ArrayLedger::kArrayErase, t_bers, 1, d.active.size());
  if (parts_.timeline.on()) parts_.timeline.array(die, d.array_start, d.array_end, FlashOpcode::Erase);
  signal_end(die, FccEvent::Kind::Finish);
}

void DieSequencer::start_copy_back(uint32_t die, const sc_time& start) {
  Die& d = dies_[die];
  const FlashOp& op = parts_.pool[d.active[0]].op;
  const CopyBackSequence::Phases p = copy_backs_.book(die, parts_.pool[d.active[0]], start);
  book_array(die, p.program_start, p.program_start + p.t_p, p.t_r + p.t_p);
  parts_.ledger.count(op.slc ? ArrayLedger::kArrayReadSlc : ArrayLedger::kArrayRead, p.t_r);
  parts_.ledger.count(op.slc ? ArrayLedger::kArrayProgramSlc : ArrayLedger::kArrayProgram, p.t_p);
  if (parts_.timeline.on()) parts_.timeline.array(die, p.read_start, d.array_end, FlashOpcode::CopyBack);
  signal_end(die, FccEvent::Kind::Finish);
}

void DieSequencer::finish(uint32_t die) {
  Die& d = dies_[die];
  NandDie& nand = parts_.topology.die(die);
  if (parts_.timeline.on()) parts_.timeline.array_end(die, parts_.pool, d.active);
  for (uint32_t s : d.active) {
    OpSlot& slot = parts_.pool[s];
    const FlashOp& op = slot.op;
    switch (op.opcode) {
      case FlashOpcode::Program:
        slot.status = nand.program(op.address, std::max(1u, op.page_count), slot.stamps.data(), op.oob.data(),
                                   op.oob.size(), op.slc, op.words, op.words_per_page);
        break;
      case FlashOpcode::Erase: slot.status = nand.erase(op.address); break;
      case FlashOpcode::CopyBack:
        slot.status = nand.copy_back(op.address, op.dest, std::max(1u, op.page_count),
                                     op.read_oob ? &slot.done.oob : nullptr, op.slc,
                                     op.oob.empty() ? 0 : op.oob[0].sequence);
        break;
      case FlashOpcode::Read: break;
    }
  }
  finishing_.assign(d.active.begin(), d.active.end());
  d.active.clear();
  d.free_at = later(d.free_at, sim_now());
  if (programs_.cached(die)) start_cached_program(die);
}

bool DieSequencer::suspendable(uint32_t die) const {
  const Die& d = dies_[die];
  if (d.active.empty()) return false;
  const FlashOpcode o = parts_.pool[d.active[0]].op.opcode;
  const sc_time now = sim_now();
  return (o == FlashOpcode::Program || o == FlashOpcode::Erase) && now >= d.array_start && now < d.array_end;
}

sc_time DieSequencer::set_aside(uint32_t die, std::vector<uint32_t>& into) {
  Die& d = dies_[die];
  const sc_time now = sim_now();
  // The group's Finish is void; the array time it still needs is no longer booked.
  const sc_time left = d.array_end - now;
  const OpSlot& lead = parts_.pool[d.active[0]];
  parts_.ledger.give_back(die, ArrayLedger::kind_of(lead.op), now, left, d.active.size());  // resume() books it again
  if (lead.op.opcode == FlashOpcode::Program) parts_.budget.end(die, now);
  if (parts_.timeline.on()) parts_.timeline.array_suspended(die, parts_.pool, d.active, d.array_end);
  ++d.generation;
  into.swap(d.active);
  d.active.clear();
  d.free_at = now + parts_.topology.die(die).suspend_time();
  return left;
}

sc_time DieSequencer::resume(uint32_t die, std::vector<uint32_t>& group, const sc_time& left) {
  Die& d = dies_[die];
  d.active.swap(group);
  group.clear();
  const FlashOpcode opcode = parts_.pool[d.active[0]].op.opcode;
  const sc_time length = parts_.topology.die(die).resume_time() + left;
  sc_time start = later(later(sim_now(), d.free_at), d.cache_free_at);
  if (opcode == FlashOpcode::Program) start = parts_.budget.book(die, start, length);
  book_array(die, start, start + length, left);
  parts_.ledger.count(ArrayLedger::kind_of(parts_.pool[d.active[0]].op), left, 0, d.active.size());
  if (parts_.timeline.on()) parts_.timeline.array(die, d.array_start, d.array_end, opcode, true);
  signal_end(die, FccEvent::Kind::Finish);
  return start;
}

uint64_t DieSequencer::tear(uint32_t die, const std::vector<uint32_t>& group) {
  uint64_t torn = 0;
  for (uint32_t s : group) {
    const FlashOp& op = parts_.pool[s].op;
    if (op.opcode != FlashOpcode::Program && op.opcode != FlashOpcode::CopyBack) continue;
    const FlashAddress& at = op.opcode == FlashOpcode::CopyBack ? op.dest : op.address;
    const uint32_t pages = std::max(1u, op.page_count);
    parts_.topology.die(die).tear(at, pages, op.slc);
    torn += pages;
  }
  return torn;
}

uint64_t DieSequencer::cut_power(uint32_t die) {
  Die& d = dies_[die];
  const uint64_t torn = !d.active.empty() && d.array_start <= sim_now() ? tear(die, d.active) : 0;
  d.active.clear();
  programs_.drop(die);
  return torn;
}

void DieSequencer::trace_in_flight() {
  if (!parts_.timeline.on()) return;
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    if (!dies_[die].active.empty()) parts_.timeline.array_in_flight(die, parts_.pool, dies_[die].active, dies_[die].array_end);
    for (uint32_t s : programs_.cached_ops(die)) parts_.timeline.waiting(die, parts_.pool, s, "cache register");
    for (uint32_t s : parts_.queues.waiting(die)) parts_.timeline.waiting(die, parts_.pool, s, "die queue");
  }
}

}  // namespace ufs
