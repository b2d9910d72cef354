#include "fcc/die_sequencer.h"
#include <algorithm>
#include "common/sim_time.h"
#include "fcc/array_ledger.h"
#include "fcc/die_queues.h"
#include "fcc/flash_dma.h"
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"
#include "fcc/program_power_budget.h"
#include "fcc/status_poller.h"

namespace ufs {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
const sc_time& later(const sc_time& a, const sc_time& b) { return a < b ? b : a; }
}  // namespace

DieSequencer::DieSequencer(const FlashControllerParams& params, const Parts& parts)
    : params_(params), parts_(parts), dies_(parts.topology.dies()) {
  const uint32_t planes = parts.topology.nand_params().planes_per_die;
  for (uint32_t d = 0; d < dies_.size(); ++d) {
    dies_[d].channel = parts.topology.channel_of(d);
    dies_[d].active.reserve(planes);
  }
  finishing_.reserve(planes);
  t_ecc_ = sc_time(params.ecc_decode_ns, sc_core::SC_NS);
  t_cache_ = sc_time(params.t_cache_ns, sc_core::SC_NS);
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
  FlashChannel& ch = parts_.topology.channel(d.channel);
  NandDie& nand = parts_.topology.die(die);
  const sc_time& cmd = parts_.topology.op_cmd();
  sc_time cursor = start;
  sc_time t_r = SC_ZERO_TIME;
  for (uint32_t s : d.active) {
    OpSlot& slot = parts_.pool[s];
    if (d.cmd_slot && d.cmd_slot_at >= cursor) {
      cursor = d.cmd_slot_at + cmd;  // the slot booked after this die's last data-out
      d.cmd_slot = false;
    } else {
      cursor = ch.reserve(cursor, cmd) + cmd;
    }
    if (parts_.timeline.on()) parts_.timeline.bus(d.channel, "read cmd", cursor - cmd, cmd, slot, 0);
    t_r = later(t_r, nand.read_time(slot.op.address, slot.op.slc));
    // Column address: only the requested sectors cross the bus (0 = rest of the page).
    const uint32_t spp = nand.sectors_per_page(slot.op.address);
    slot.first_sector = std::min(slot.op.sector_offset, spp - 1);
    const uint32_t left = spp - slot.first_sector;
    slot.sectors = slot.op.sector_count ? std::min(slot.op.sector_count, left) : left;
  }
  const sc_time array_start = later(cursor, d.register_free_at);
  book_array(die, array_start, array_start + t_r, t_r);
  parts_.ledger.count(ArrayLedger::kind_of(parts_.pool[d.active[0]].op), t_r, 1, d.active.size());
  if (parts_.timeline.on()) parts_.timeline.array(die, d.array_start, d.array_end, FlashOpcode::Read);
  signal_end(die, FccEvent::Kind::ArrayDone);
}

void DieSequencer::array_done(uint32_t die) {
  Die& d = dies_[die];
  FlashChannel& ch = parts_.topology.channel(d.channel);
  NandDie& nand = parts_.topology.die(die);
  const sc_time now = sim_now();
  // Cache read: the page moves to the cache register, the array is free for the next read.
  const sc_time data_ready = params_.cache_read ? now + t_cache_ : now;
  sc_time last_end = data_ready;
  // Interleaving: without cache read the die takes its next command only after this
  // data-out. When a read waits for the die, book that command's bus slot together with
  // the last data-out, so it is not queued behind data-out bursts of other dies that
  // become ready meanwhile (their tR would otherwise never overlap another die's
  // transfer: a package could not exceed 1 / (tCMD + tR + tXFER) pages per second).
  const sc_time& cmd = parts_.topology.op_cmd();
  const bool book_cmd = !params_.cache_read && parts_.queues.read_waiting(die, now);
  d.cmd_slot = false;
  for (size_t k = 0; k < d.active.size(); ++k) {
    const uint32_t s = d.active[k];
    OpSlot& slot = parts_.pool[s];
    slot.status = nand.read(slot.op.address, slot.first_sector, slot.sectors, slot.stamps.data(), &slot.read_oob,
                            slot.op.slc);
    const uint64_t bytes = parts_.topology.sector_bus_bytes(slot.sectors);
    const sc_time xfer = parts_.topology.read_transfer_time(slot.first_sector, slot.sectors, ch);
    const bool with_cmd = book_cmd && k + 1 == d.active.size();
    const sc_time xfer_start = ch.reserve(later(data_ready, d.cache_free_at), with_cmd ? xfer + cmd : xfer);
    if (with_cmd) {
      d.cmd_slot = true;
      d.cmd_slot_at = xfer_start + xfer;
    }
    ch.count_bytes(bytes);
    if (parts_.timeline.on()) parts_.timeline.bus(d.channel, "data out", xfer_start, xfer, slot, bytes);
    const sc_time xfer_end = xfer_start + xfer;
    last_end = later(last_end, xfer_end);
    const sc_time decoded = xfer_end + (params_.ecc_pipelined ? t_ecc_ : t_ecc_ * double(slot.sectors));
    // Loosely timed: the data lands in the buffer now, annotated with when it is there.
    const sc_time done =
        parts_.dma.transfer(tlm::TLM_WRITE_COMMAND, slot.op.buffer_address, slot.stamps.data(), slot.sectors, decoded);
    parts_.events.push(done, FccEvent{s, 0, FccEvent::Kind::Complete});
  }
  if (parts_.timeline.on()) parts_.timeline.array_end(die, parts_.pool, d.active);  // after the reads: their OOB
  d.active.clear();
  d.cache_free_at = last_end;
  if (params_.cache_read) {
    // The next read's command goes out now; its tR starts once the page register
    // has been copied to the cache register; its data-out waits for this one's.
    d.register_free_at = data_ready;
    d.free_at = now;
  } else {
    d.free_at = last_end;
  }
}

void DieSequencer::start_program(uint32_t die, const sc_time& start) {
  Die& d = dies_[die];
  FlashChannel& ch = parts_.topology.channel(d.channel);
  NandDie& nand = parts_.topology.die(die);
  sc_time cursor = start;
  sc_time t_prog = SC_ZERO_TIME;
  for (uint32_t s : d.active) {
    OpSlot& slot = parts_.pool[s];
    const uint32_t pages = std::max(1u, slot.op.page_count);
    const uint32_t sectors = pages * nand.sectors_per_page(slot.op.address);
    if (slot.stamps.size() < sectors) slot.stamps.resize(sectors);
    const sc_time ready =
        parts_.dma.transfer(tlm::TLM_READ_COMMAND, slot.op.buffer_address, slot.stamps.data(), sectors, cursor);
    // Data-in: a command/address sequence and the page data per page.
    const uint64_t bytes = parts_.topology.sector_bus_bytes(sectors);
    const sc_time busy = parts_.topology.t_cmd() * double(pages * parts_.topology.cmd_per_op()) +
                         parts_.topology.sector_transfer_time(sectors, ch);
    cursor = ch.reserve(ready, busy) + busy;
    ch.count_bytes_to_die(bytes);
    if (parts_.timeline.on()) parts_.timeline.bus(d.channel, "data in", cursor - busy, busy, slot, bytes);
    t_prog = later(t_prog, nand.program_time(slot.op.address, pages, slot.op.slc));
  }
  const sc_time array_start = parts_.budget.book(die, cursor, t_prog);
  book_array(die, array_start, array_start + t_prog, t_prog);
  parts_.ledger.count(ArrayLedger::kind_of(parts_.pool[d.active[0]].op), t_prog, 1, d.active.size());
  if (parts_.timeline.on()) parts_.timeline.array(die, d.array_start, d.array_end, FlashOpcode::Program);
  signal_end(die, FccEvent::Kind::Finish);
  try_cache_program(die);
}

// Cache program (ONFI page cache program, 80h-15h): while the die programs, the next
// program's data goes into the cache register; its tPROG starts when both the data-in
// and the program in flight are done. Only when no read waits for the die (reads keep
// their precedence), one page group at a time, no multi-plane pairing of the cached op.
// (A die with a suspended program runs only reads, so none is cached then.)
void DieSequencer::try_cache_program(uint32_t die) {
  Die& d = dies_[die];
  if (!params_.cache_program || !d.cached.empty() || d.active.empty()) return;
  if (parts_.pool[d.active[0]].op.opcode != FlashOpcode::Program) return;
  const sc_time now = sim_now();
  const long taken = parts_.queues.take_program(die, now);
  if (taken < 0) return;
  const uint32_t s = uint32_t(taken);
  d.cached.push_back(s);
  OpSlot& slot = parts_.pool[s];
  FlashChannel& ch = parts_.topology.channel(d.channel);
  const uint32_t pages = std::max(1u, slot.op.page_count);
  const uint32_t sectors = pages * parts_.topology.die(die).sectors_per_page(slot.op.address);
  if (slot.stamps.size() < sectors) slot.stamps.resize(sectors);
  // The cache register is free once the program in flight has taken its data.
  const sc_time start = later(now, d.array_start);
  queue_wait_ += start - slot.arrival;
  const sc_time ready =
      parts_.dma.transfer(tlm::TLM_READ_COMMAND, slot.op.buffer_address, slot.stamps.data(), sectors, start);
  const sc_time busy = parts_.topology.t_cmd() * double(pages * parts_.topology.cmd_per_op()) +
                       parts_.topology.sector_transfer_time(sectors, ch);
  d.cached_ready = ch.reserve(ready, busy) + busy;
  const uint64_t bytes = parts_.topology.sector_bus_bytes(sectors);
  ch.count_bytes_to_die(bytes);
  if (parts_.timeline.on()) parts_.timeline.bus(d.channel, "data in (cache)", d.cached_ready - busy, busy, slot, bytes);
}

// The program in flight is done: the cached one takes the array.
void DieSequencer::start_cached_program(uint32_t die) {
  Die& d = dies_[die];
  d.active.swap(d.cached);
  d.cached.clear();
  const OpSlot& slot = parts_.pool[d.active[0]];
  const sc_time t_prog =
      parts_.topology.die(die).program_time(slot.op.address, std::max(1u, slot.op.page_count), slot.op.slc);
  const sc_time start = parts_.budget.book(die, later(sim_now(), d.cached_ready), t_prog);
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
  FlashChannel& ch = parts_.topology.channel(d.channel);
  NandDie& nand = parts_.topology.die(die);
  const OpSlot& slot = parts_.pool[d.active[0]];
  const FlashOp& op = slot.op;
  const uint32_t pages = std::max(1u, op.page_count);
  const sc_time& cmd = parts_.topology.op_cmd();
  // Read command, tR per source page into the page register, program command, tPROG.
  sc_time t_r = SC_ZERO_TIME;
  for (uint32_t i = 0; i < pages; ++i) {
    FlashAddress a = op.address;
    a.page += i;
    t_r += nand.read_time(a, op.slc);
  }
  const sc_time t_p = nand.program_time(op.dest, pages, op.slc);
  const sc_time read_start = ch.reserve(start, cmd) + cmd;
  const sc_time read_end = parts_.poller.ready_seen(d.channel, read_start, read_start + t_r, slot);
  // read_oob: a random data output of the spare bytes (the page's OOB) from the page
  // register before the program command (the data itself stays in the plane).
  sc_time prog_earliest = read_end;
  if (op.read_oob) {
    const uint64_t bytes = uint64_t(parts_.topology.nand_params().spare_bytes_per_page) * pages;
    const sc_time spare = cmd + ch.transfer_time(bytes);
    prog_earliest = ch.reserve(read_end, spare) + spare;
    ch.count_bytes(bytes);
    if (parts_.timeline.on()) parts_.timeline.bus(d.channel, "copy-back spare out", prog_earliest - spare, spare, slot, bytes);
  }
  const sc_time prog_start = parts_.budget.book(die, ch.reserve(prog_earliest, cmd) + cmd, t_p);
  book_array(die, prog_start, prog_start + t_p, t_r + t_p);
  parts_.ledger.count(op.slc ? ArrayLedger::kArrayReadSlc : ArrayLedger::kArrayRead, t_r);
  parts_.ledger.count(op.slc ? ArrayLedger::kArrayProgramSlc : ArrayLedger::kArrayProgram, t_p);
  if (parts_.timeline.on()) {
    parts_.timeline.bus(d.channel, "copy-back cmd", read_start - cmd, cmd, slot, 0);
    parts_.timeline.bus(d.channel, "copy-back cmd", prog_start - cmd, cmd, slot, 0);
    parts_.timeline.array(die, read_start, d.array_end, FlashOpcode::CopyBack);
  }
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
                                   op.oob.size(), op.slc);
        break;
      case FlashOpcode::Erase: slot.status = nand.erase(op.address); break;
      case FlashOpcode::CopyBack:
        slot.status = nand.copy_back(op.address, op.dest, std::max(1u, op.page_count),
                                     op.read_oob ? &slot.read_oob : nullptr, op.slc);
        break;
      case FlashOpcode::Read: break;
    }
  }
  finishing_.assign(d.active.begin(), d.active.end());
  d.active.clear();
  d.free_at = later(d.free_at, sim_now());
  if (!d.cached.empty()) start_cached_program(die);
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
  d.cached.clear();
  return torn;
}

void DieSequencer::trace_in_flight() {
  if (!parts_.timeline.on()) return;
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    if (!dies_[die].active.empty()) parts_.timeline.array_in_flight(die, parts_.pool, dies_[die].active, dies_[die].array_end);
    for (uint32_t s : dies_[die].cached) parts_.timeline.waiting(die, parts_.pool, s, "cache register");
    for (uint32_t s : parts_.queues.waiting(die)) parts_.timeline.waiting(die, parts_.pool, s, "die queue");
  }
}

}  // namespace ufs
