#include "fcc/flash_controller.h"
#include "common/sim_time.h"
#include <algorithm>
#include <cstdlib>
#include <string>
#include "common/log.h"
#include "common/trace_recorder.h"

namespace ufs {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
const sc_time& later(const sc_time& a, const sc_time& b) { return a < b ? b : a; }
bool is_array_op(FlashOpcode o) { return o == FlashOpcode::Program || o == FlashOpcode::Erase; }
}  // namespace

FlashController::FlashController(sc_core::sc_module_name name, const FlashControllerParams& params,
                                 const NandParams& nand)
    : sc_core::sc_module(name),
      dma("dma"),
      params_(params),
      nand_params_(nand),
      events_("events", [this](Event& e) { on_event(e); }) {
  std::string err = params.validate();
  if (err.empty()) err = nand.validate();
  if (!err.empty()) SC_REPORT_ERROR(this->name(), err.c_str());

  // Ganging: gang_size packages on one channel act as one wider package. Shared bus:
  // one data bus, a command sequence per package. Shared control: commands go to all
  // at once, each package has its own data path (the gang's bus is gang_size wide).
  uint32_t ways = params.ways_per_channel;
  uint32_t width_bytes = params.bus_width_bits / 8;
  std::string problem;
  geometry_ = geometry_for(params, nand_params_, &problem);
  if (!problem.empty()) SC_REPORT_ERROR(this->name(), problem.c_str());  // the configuration checks this first
  if (params.gang_mode != "none" && params.gang_size > 1) {
    const uint32_t g = params.gang_size;
    ways /= g;
    nand_params_.page_bytes *= g;
    nand_params_.spare_bytes_per_page *= g;
    if (params.gang_mode == "shared_bus") {
      cmd_per_op_ = g;
    } else {
      width_bytes *= g;
      lanes_ = g;
    }
  }

  const uint32_t packages = params.channels * ways;
  for (uint32_t p = 0; p < packages; ++p)
    packages_.emplace_back(nand_params_, p * nand_params_.dies_per_package);
  channels_.reserve(params.channels);
  for (uint32_t c = 0; c < params.channels; ++c) channels_.emplace_back(params.bus_mt_s, width_bytes);
  dies_.resize(geometry_.dies());
  for (uint32_t d = 0; d < geometry_.dies(); ++d) {
    dies_[d].nand = &packages_[d / geometry_.dies_per_way].die(d % geometry_.dies_per_way);
    dies_[d].channel = geometry_.channel_of(d);
    dies_[d].queue.reserve(16);
    dies_[d].active.reserve(nand_params_.planes_per_die);
  }
  finishing_.reserve(nand_params_.planes_per_die);
  t_cmd_ = sc_time(params.t_cmd_addr_ns, sc_core::SC_NS);
  t_ecc_ = sc_time(params.ecc_decode_ns, sc_core::SC_NS);
  t_cache_ = sc_time(params.t_cache_ns, sc_core::SC_NS);
  t_poll_ = sc_time(params.status_poll_ns, sc_core::SC_NS);
  spare_per_sector_ = nand_params_.spare_bytes_per_page / nand_params_.sectors_per_page();
  // Up to a multi-plane, one-shot program's worth of sectors.
  xfer_table_.resize(size_t(kMaxSectorsPerPage) * 4 + 1);
  for (size_t n = 0; n < xfer_table_.size(); ++n)
    xfer_table_[n] = channels_[0].transfer_time(sector_bus_bytes(uint32_t(n)));
}

uint32_t FlashController::alloc_slot() {
  if (free_slots_.empty()) {
    slots_.push_back(std::make_unique<OpSlot>());
    slots_.back()->stamps.resize(kMaxSectorsPerPage);
    return uint32_t(slots_.size() - 1);
  }
  const uint32_t s = free_slots_.back();
  free_slots_.pop_back();
  return s;
}

void FlashController::set_trace(TraceRecorder* trace) {
  trace_ = trace;
  die_track_.clear();
  channel_track_.clear();
  die_busy_.clear();
  die_state_.clear();
  channel_busy_.clear();
  if (!trace_) return;
  auto padded = [](uint32_t i, uint32_t n) {
    std::string s = std::to_string(i);
    while (s.size() < std::to_string(n - 1).size()) s.insert(s.begin(), '0');
    return s;
  };
  const std::string scope = std::string(name());
  for (uint32_t c = 0; c < channels_.size(); ++c) {
    channel_track_.push_back(trace_->track("flash channels", "channel " + std::to_string(c)));
    channel_busy_.push_back(trace_->wire(scope + ".ch" + padded(c, uint32_t(channels_.size())), "busy"));
  }
  for (uint32_t d = 0; d < dies_.size(); ++d) {
    die_track_.push_back(trace_->track("NAND dies", "die " + std::to_string(d) + " (channel " +
                                                        std::to_string(dies_[d].channel) + ")"));
    const std::string die_scope = scope + ".die" + padded(d, uint32_t(dies_.size()));
    die_busy_.push_back(trace_->wire(die_scope, "busy"));
    // 0 idle, 1 read (tR), 2 program, 3 erase, 4 copy-back
    die_state_.push_back(trace_->integer(die_scope, "state"));
  }
}

void FlashController::trace_bus(uint32_t channel, const char* what, const sc_time& start, const sc_time& length,
                                const OpSlot& slot, uint64_t bytes) {
  const sc_time end = start + length;
  trace_->busy(channel_busy_[channel], start, end);
  TraceArgs a;
  a.tag(slot.trace_tag).add("die", slot.op.address.die);
  if (bytes) a.add("bytes", bytes);
  trace_->slice(channel_track_[channel], what, start, end, a);
}

void FlashController::trace_array(uint32_t die, const sc_time& start, const sc_time& end) {
  DieState& d = dies_[die];
  d.trace_start = start;
  d.trace_resumed = false;
  const int64_t code = int64_t(slots_[d.active[0]]->op.opcode) + 1;
  trace_->busy(die_busy_[die], start, end);
  const uint64_t s = TraceRecorder::ps(start), e = TraceRecorder::ps(end);
  if (e > s) {
    trace_->change(die_state_[die], s, code);
    trace_->change(die_state_[die], e, -code);
  }
}

// The die's array phase that ends now, on its timeline track. variant: 0 whole,
// 1 cut short by a suspend, 2 the part after a resume.
void FlashController::trace_array_slice(uint32_t die, const char* variant) {
  DieState& d = dies_[die];
  const OpSlot& lead = *slots_[d.active[0]];
  static const char* const names[4][3] = {{"read", "read", "read"},
                                          {"program", "program (suspended)", "program (resumed)"},
                                          {"erase", "erase (suspended)", "erase (resumed)"},
                                          {"copy-back", "copy-back (suspended)", "copy-back (resumed)"}};
  const int v = variant == nullptr ? 0 : variant[0] == 's' ? 1 : 2;
  TraceArgs a;
  a.tag(lead.trace_tag)
      .add("planes", d.active.size())
      .add("block", lead.op.address.block)
      .add("page", lead.op.address.page)
      .add("cookie", lead.op.cookie);
  trace_->slice(die_track_[die], names[size_t(lead.op.opcode) & 3][v], d.trace_start, sim_now(), a);
}

void FlashController::submit(const FlashOp& op, const sc_time& delay, int trace_tag) {
  if (op.address.die >= dies_.size()) {
    SC_REPORT_ERROR(name(), ("submit: die " + std::to_string(op.address.die) +
                             " beyond the device").c_str());
    return;
  }
  const uint32_t s = alloc_slot();
  OpSlot& slot = *slots_[s];
  slot.op = op;
  slot.arrival = sim_now() + delay;
  slot.seq = seq_++;
  slot.status = FlashStatus::Ok;
  slot.trace_tag = trace_tag;
  ++submitted_;
  DieState& d = dies_[op.address.die];
  d.queue.push_back(s);
  if (d.active.empty()) {
    if (!d.wake_pending && d.suspended.empty()) dispatch(op.address.die);
  } else if (op.opcode == FlashOpcode::Read) {
    try_suspend(op.address.die);
  } else if (op.opcode == FlashOpcode::Program) {
    try_cache_program(op.address.die);
  }
}

// Queue order: higher priority first; then reads first if read_first; then FIFO.
bool FlashController::better(const OpSlot& a, const OpSlot& b) const {
  if (a.op.priority != b.op.priority) return a.op.priority > b.op.priority;
  if (params_.read_first) {
    const bool ra = a.op.opcode == FlashOpcode::Read, rb = b.op.opcode == FlashOpcode::Read;
    if (ra != rb) return ra;
  }
  return a.seq < b.seq;
}

// Pages of a block must be programmed in order: a program may only be paired into a
// multi-plane group when no older program to the same block still waits.
bool FlashController::oldest_program_to_block(const DieState& d, const OpSlot& c) const {
  for (uint32_t q : d.queue) {
    const OpSlot& o = *slots_[q];
    if (o.op.opcode == FlashOpcode::Program && o.seq < c.seq && o.op.address.plane == c.op.address.plane &&
        o.op.address.block == c.op.address.block)
      return false;
  }
  return true;
}

void FlashController::pick_group(DieState& d, const sc_time& at) {
  const bool reads_only = !d.suspended.empty();
  // Leader: the best op that has arrived by `at`.
  long best = -1;
  for (size_t i = 0; i < d.queue.size(); ++i) {
    const OpSlot& c = *slots_[d.queue[i]];
    if (c.arrival > at) continue;
    if (reads_only && c.op.opcode != FlashOpcode::Read) continue;
    if (best < 0 || better(c, *slots_[d.queue[size_t(best)]])) best = long(i);
  }
  if (best < 0) return;
  const uint32_t leader_slot = d.queue[size_t(best)];
  d.queue[size_t(best)] = d.queue.back();
  d.queue.pop_back();
  d.active.push_back(leader_slot);
  const FlashOp& lead = slots_[leader_slot]->op;
  const bool groupable = params_.multi_plane && nand_params_.planes_per_die > 1 &&
                         lead.opcode != FlashOpcode::CopyBack;
  if (!groupable) return;
  // Multi-plane: for each other plane, the best queued op that pairs with the leader.
  for (uint32_t plane = 0; plane < nand_params_.planes_per_die; ++plane) {
    if (plane == lead.address.plane) continue;
    best = -1;
    for (size_t i = 0; i < d.queue.size(); ++i) {
      const OpSlot& c = *slots_[d.queue[i]];
      const FlashOp& o = c.op;
      if (o.opcode != lead.opcode || o.address.plane != plane || c.arrival > at) continue;
      if (nand_params_.multi_plane_same_block && o.address.block != lead.address.block) continue;
      if (lead.opcode != FlashOpcode::Erase && nand_params_.multi_plane_same_page &&
          o.address.page != lead.address.page)
        continue;
      if (lead.opcode == FlashOpcode::Program && o.page_count != lead.page_count) continue;
      // Hybrid page size: a multi-plane program moves pages of one size.
      if (lead.opcode == FlashOpcode::Program && d.nand->large_block(o.address.block) != d.nand->large_block(lead.address.block))
        continue;
      if (lead.opcode == FlashOpcode::Program && !oldest_program_to_block(d, c)) continue;
      if (best < 0 || better(c, *slots_[d.queue[size_t(best)]])) best = long(i);
    }
    if (best < 0) continue;
    d.active.push_back(d.queue[size_t(best)]);
    d.queue[size_t(best)] = d.queue.back();
    d.queue.pop_back();
  }
  if (d.active.size() > 1) {
    multi_plane_ops_ += d.active.size();
    std::sort(d.active.begin(), d.active.end(), [this](uint32_t a, uint32_t b) {
      return slots_[a]->op.address.plane < slots_[b]->op.address.plane;
    });
  }
}

void FlashController::dispatch(uint32_t die) {
  DieState& d = dies_[die];
  if (!d.active.empty()) return;
  const sc_time now = sim_now();
  sc_time at = later(now, d.free_at);
  pick_group(d, at);
  if (d.active.empty()) {
    // Nothing has arrived yet (or, while suspended, no read waits).
    if (!d.suspended.empty()) {
      resume(die);
      return;
    }
    if (d.queue.empty()) return;
    uint32_t first = 0;
    for (uint32_t i = 1; i < d.queue.size(); ++i)
      if (slots_[d.queue[i]]->arrival < slots_[d.queue[first]]->arrival) first = i;
    if (d.queue.size() > 1) {  // decide when they are there
      wake_at(die, slots_[d.queue[first]]->arrival);
      return;
    }
    at = slots_[d.queue[first]]->arrival;  // a lone op: commit now for its arrival time
    pick_group(d, at);
  }
  const FlashOpcode opcode = slots_[d.active[0]]->op.opcode;
  sc_time start = at;
  if (opcode != FlashOpcode::Read) start = later(start, d.cache_free_at);
  for (uint32_t s : d.active) queue_wait_ += start - slots_[s]->arrival;
  switch (opcode) {
    case FlashOpcode::Read: start_read(die, start); break;
    case FlashOpcode::Program: start_program(die, start); break;
    case FlashOpcode::Erase: start_erase(die, start); break;
    case FlashOpcode::CopyBack: start_copy_back(die, start); break;
  }
}

FlashGeometry FlashController::geometry_for(const FlashControllerParams& params, const NandParams& nand,
                                            std::string* problem) {
  FlashGeometry g;
  uint32_t ways = params.ways_per_channel, page_bytes = nand.page_bytes;
  if (params.gang_mode != "none" && params.gang_size > 1) {
    ways /= params.gang_size;
    page_bytes *= params.gang_size;
    if (page_bytes / kSectorBytes > kMaxSectorsPerPage)
      *problem = "fcc.gang_size: the ganged page (" + std::to_string(params.gang_size) + " x nand.page_bytes) exceeds 32 KiB";
    else if (nand.hybrid())
      *problem = "fcc.gang_size: ganging is not modelled with nand.hybrid_large_page_bytes";
  }
  g.channels = params.channels;
  g.ways_per_channel = ways;
  g.dies_per_way = nand.dies_per_package;
  g.planes_per_die = nand.planes_per_die;
  g.blocks_per_plane = nand.blocks_per_plane;
  g.pages_per_block = nand.effective_pages_per_block();
  g.bits_per_cell = nand.operated_bits();
  g.page_bytes = page_bytes;
  g.large_page_bytes = nand.hybrid_large_page_bytes;
  g.small_blocks_per_plane = nand.hybrid() ? nand.hybrid_small_blocks_per_plane : 0;
  // bad_block_list names dies by global index (its syntax is checked by NandParams::validate).
  const std::string& list = nand.bad_block_list;
  for (size_t pos = 0; problem->empty() && pos < list.size();) {
    const size_t end = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, end - pos);
    if (std::strtoull(item.c_str(), nullptr, 10) >= g.dies())
      *problem = "nand.bad_block_list: '" + item + "' names a die beyond the device's " + std::to_string(g.dies());
    pos = end + 1;
  }
  return g;
}

void FlashController::start_read(uint32_t die, const sc_time& start) {
  DieState& d = dies_[die];
  FlashChannel& ch = channels_[d.channel];
  const sc_time cmd = t_cmd_ * double(cmd_per_op_);
  sc_time cursor = start;
  sc_time t_r = SC_ZERO_TIME;
  for (uint32_t s : d.active) {
    OpSlot& slot = *slots_[s];
    if (d.cmd_slot && d.cmd_slot_at >= cursor) {
      cursor = d.cmd_slot_at + cmd;  // the slot booked after this die's last data-out
      d.cmd_slot = false;
    } else {
      cursor = ch.reserve(cursor, cmd) + cmd;
    }
    if (trace_) trace_bus(d.channel, "read cmd", cursor - cmd, cmd, slot, 0);
    t_r = later(t_r, d.nand->read_time(slot.op.address, slot.op.slc));
    // Column address: only the requested sectors cross the bus (0 = rest of the page).
    const uint32_t spp = d.nand->sectors_per_page(slot.op.address);
    slot.first_sector = std::min(slot.op.sector_offset, spp - 1);
    const uint32_t left = spp - slot.first_sector;
    slot.sectors = slot.op.sector_count ? std::min(slot.op.sector_count, left) : left;
  }
  d.array_start = later(cursor, d.register_free_at);
  d.array_end = d.array_start + t_r;
  d.free_at = d.array_end;
  d.array_busy += t_r;
  d.busy_to = d.array_end;
  d.busy_from = d.array_end - (t_r);
  if (trace_) trace_array(die, d.array_start, d.array_end);
  push(ready_seen(die, d.array_start, d.array_end), EventKind::ArrayDone, die);
}

void FlashController::array_done(uint32_t die) {
  DieState& d = dies_[die];
  FlashChannel& ch = channels_[d.channel];
  const sc_time now = sim_now();
  if (trace_) trace_array_slice(die, nullptr);
  // Cache read: the page moves to the cache register, the array is free for the next read.
  const sc_time data_ready = params_.cache_read ? now + t_cache_ : now;
  sc_time last_end = data_ready;
  // Interleaving: without cache read the die takes its next command only after this
  // data-out. When a read waits for the die, book that command's bus slot together with
  // the last data-out, so it is not queued behind data-out bursts of other dies that
  // become ready meanwhile (their tR would otherwise never overlap another die's
  // transfer: a package could not exceed 1 / (tCMD + tR + tXFER) pages per second).
  const sc_time cmd = t_cmd_ * double(cmd_per_op_);
  bool book_cmd = false;
  if (!params_.cache_read) {
    for (uint32_t q : d.queue)
      if (slots_[q]->op.opcode == FlashOpcode::Read && slots_[q]->arrival <= now) book_cmd = true;
  }
  d.cmd_slot = false;
  for (size_t k = 0; k < d.active.size(); ++k) {
    const uint32_t s = d.active[k];
    OpSlot& slot = *slots_[s];
    slot.status = d.nand->read(slot.op.address, slot.first_sector, slot.sectors,
                               slot.stamps.data(), &slot.read_oob, slot.op.slc);
    const uint64_t bytes = sector_bus_bytes(slot.sectors);
    const sc_time xfer = read_transfer_time(slot.first_sector, slot.sectors, ch);
    const bool with_cmd = book_cmd && k + 1 == d.active.size();
    const sc_time xfer_start = ch.reserve(later(data_ready, d.cache_free_at), with_cmd ? xfer + cmd : xfer);
    if (with_cmd) {
      d.cmd_slot = true;
      d.cmd_slot_at = xfer_start + xfer;
    }
    ch.count_bytes(bytes);
    if (trace_) trace_bus(d.channel, "data out", xfer_start, xfer, slot, bytes);
    const sc_time xfer_end = xfer_start + xfer;
    last_end = later(last_end, xfer_end);
    const sc_time decoded =
        xfer_end + (params_.ecc_pipelined ? t_ecc_ : t_ecc_ * double(slot.sectors));
    // Loosely timed: the data lands in the buffer now, annotated with when it is there.
    const sc_time done = dma_transfer(tlm::TLM_WRITE_COMMAND, slot.op.buffer_address,
                                      slot.stamps.data(), slot.sectors, decoded);
    push(done, EventKind::Complete, s);
  }
  d.active.clear();
  d.cache_free_at = last_end;
  if (params_.cache_read) {
    // The next read's command goes out now; its tR starts once the page register
    // has been copied to the cache register; its data-out waits for this one's.
    d.register_free_at = data_ready;
    d.free_at = now;
    if (!d.queue.empty() || !d.suspended.empty()) dispatch(die);
  } else {
    d.free_at = last_end;
    if (!d.queue.empty() || !d.suspended.empty()) wake_at(die, d.free_at);
  }
}

sc_time FlashController::read_transfer_time(uint32_t first, uint32_t n, const FlashChannel& ch) const {
  if (lanes_ <= 1) return sector_transfer_time(n, ch);
  const uint32_t per_package = std::max(1u, nand_params_.sectors_per_page() / lanes_);
  uint32_t most = 0;
  for (uint32_t k = 0; k < lanes_; ++k) {
    const uint32_t lo = std::max(first, k * per_package), hi = std::min(first + n, (k + 1) * per_package);
    if (hi > lo) most = std::max(most, hi - lo);
  }
  // `most` sectors through one package's path = most x lanes_ sectors' time on the wide bus.
  return sector_transfer_time(most * lanes_, ch);
}

void FlashController::start_program(uint32_t die, const sc_time& start) {
  DieState& d = dies_[die];
  FlashChannel& ch = channels_[d.channel];
  sc_time cursor = start;
  sc_time t_prog = SC_ZERO_TIME;
  for (uint32_t s : d.active) {
    OpSlot& slot = *slots_[s];
    const uint32_t pages = std::max(1u, slot.op.page_count);
    const uint32_t sectors = pages * d.nand->sectors_per_page(slot.op.address);
    if (slot.stamps.size() < sectors) slot.stamps.resize(sectors);
    const sc_time ready = dma_transfer(tlm::TLM_READ_COMMAND, slot.op.buffer_address,
                                       slot.stamps.data(), sectors, cursor);
    // Data-in: a command/address sequence and the page data per page.
    const uint64_t bytes = sector_bus_bytes(sectors);
    const sc_time busy = t_cmd_ * double(pages * cmd_per_op_) + sector_transfer_time(sectors, ch);
    cursor = ch.reserve(ready, busy) + busy;
    ch.count_bytes(bytes);
    if (trace_) trace_bus(d.channel, "data in", cursor - busy, busy, slot, bytes);
    t_prog = later(t_prog, d.nand->program_time(slot.op.address, pages, slot.op.slc));
  }
  d.array_start = program_slot(die, cursor, t_prog);
  d.array_end = d.array_start + t_prog;
  d.free_at = d.array_end;
  d.array_busy += t_prog;
  d.busy_to = d.array_end;
  d.busy_from = d.array_end - (t_prog);
  if (trace_) trace_array(die, d.array_start, d.array_end);
  push(ready_seen(die, d.array_start, d.array_end), EventKind::Finish, die, d.generation);
  try_cache_program(die);
}

// Cache program (ONFI page cache program, 80h-15h): while the die programs, the next
// program's data goes into the cache register; its tPROG starts when both the data-in
// and the program in flight are done. Only when no read waits for the die (reads keep
// their precedence), one page group at a time, no multi-plane pairing of the cached op.
void FlashController::try_cache_program(uint32_t die) {
  DieState& d = dies_[die];
  if (!params_.cache_program || !d.cached.empty() || d.active.empty() || !d.suspended.empty()) return;
  if (slots_[d.active[0]]->op.opcode != FlashOpcode::Program) return;
  const sc_time now = sim_now();
  long best = -1;
  for (size_t i = 0; i < d.queue.size(); ++i) {
    const OpSlot& c = *slots_[d.queue[i]];
    if (c.arrival > now) continue;
    if (c.op.opcode == FlashOpcode::Read && params_.read_first) return;
    if (c.op.opcode != FlashOpcode::Program || !oldest_program_to_block(d, c)) continue;
    if (best < 0 || better(c, *slots_[d.queue[size_t(best)]])) best = long(i);
  }
  if (best < 0) return;
  const uint32_t s = d.queue[size_t(best)];
  d.queue[size_t(best)] = d.queue.back();
  d.queue.pop_back();
  d.cached.push_back(s);
  OpSlot& slot = *slots_[s];
  FlashChannel& ch = channels_[d.channel];
  const uint32_t pages = std::max(1u, slot.op.page_count);
  const uint32_t sectors = pages * d.nand->sectors_per_page(slot.op.address);
  if (slot.stamps.size() < sectors) slot.stamps.resize(sectors);
  // The cache register is free once the program in flight has taken its data.
  const sc_time start = later(now, d.array_start);
  queue_wait_ += start - slot.arrival;
  const sc_time ready = dma_transfer(tlm::TLM_READ_COMMAND, slot.op.buffer_address, slot.stamps.data(), sectors, start);
  const sc_time busy = t_cmd_ * double(pages * cmd_per_op_) + sector_transfer_time(sectors, ch);
  d.cached_ready = ch.reserve(ready, busy) + busy;
  ch.count_bytes(sector_bus_bytes(sectors));
  if (trace_) trace_bus(d.channel, "data in (cache)", d.cached_ready - busy, busy, slot, sector_bus_bytes(sectors));
}

// The program in flight is done: the cached one takes the array.
void FlashController::start_cached_program(uint32_t die) {
  DieState& d = dies_[die];
  d.active.swap(d.cached);
  d.cached.clear();
  const OpSlot& slot = *slots_[d.active[0]];
  const sc_time t_prog = d.nand->program_time(slot.op.address, std::max(1u, slot.op.page_count), slot.op.slc);
  d.array_start = program_slot(die, later(sim_now(), d.cached_ready), t_prog);
  d.array_end = d.array_start + t_prog;
  d.free_at = d.array_end;
  d.array_busy += t_prog;
  d.busy_to = d.array_end;
  d.busy_from = d.array_end - (t_prog);
  if (trace_) trace_array(die, d.array_start, d.array_end);
  push(ready_seen(die, d.array_start, d.array_end), EventKind::Finish, die, d.generation);
}

void FlashController::start_erase(uint32_t die, const sc_time& start) {
  DieState& d = dies_[die];
  FlashChannel& ch = channels_[d.channel];
  const sc_time cmd = t_cmd_ * double(cmd_per_op_);
  sc_time cursor = start;
  for (size_t i = 0; i < d.active.size(); ++i) {
    cursor = ch.reserve(cursor, cmd) + cmd;
    if (trace_) trace_bus(d.channel, "erase cmd", cursor - cmd, cmd, *slots_[d.active[i]], 0);
  }
  d.array_start = cursor;
  d.array_end = cursor + d.nand->erase_time();
  d.free_at = d.array_end;
  d.array_busy += d.nand->erase_time();
  d.busy_to = d.array_end;
  d.busy_from = d.array_end - (d.nand->erase_time());
  if (trace_) trace_array(die, d.array_start, d.array_end);
  push(ready_seen(die, d.array_start, d.array_end), EventKind::Finish, die, d.generation);
}

void FlashController::start_copy_back(uint32_t die, const sc_time& start) {
  DieState& d = dies_[die];
  FlashChannel& ch = channels_[d.channel];
  const FlashOp& op = slots_[d.active[0]]->op;
  const uint32_t pages = std::max(1u, op.page_count);
  const sc_time cmd = t_cmd_ * double(cmd_per_op_);
  // Read command, tR per source page into the page register, program command, tPROG.
  sc_time t_r = SC_ZERO_TIME;
  for (uint32_t i = 0; i < pages; ++i) {
    FlashAddress a = op.address;
    a.page += i;
    t_r += d.nand->read_time(a, op.slc);
  }
  const sc_time t_p = d.nand->program_time(op.dest, pages, op.slc);
  const sc_time read_start = ch.reserve(start, cmd) + cmd;
  const sc_time read_end = ready_seen(die, read_start, read_start + t_r);
  // read_oob: a random data output of the spare bytes (the page's OOB) from the page
  // register before the program command (the data itself stays in the plane).
  sc_time prog_earliest = read_end;
  if (op.read_oob) {
    const uint64_t bytes = uint64_t(nand_params_.spare_bytes_per_page) * pages;
    const sc_time spare = cmd + ch.transfer_time(bytes);
    prog_earliest = ch.reserve(read_end, spare) + spare;
    ch.count_bytes(bytes);
    if (trace_) trace_bus(d.channel, "copy-back spare out", prog_earliest - spare, spare, *slots_[d.active[0]], bytes);
  }
  const sc_time prog_start = program_slot(die, ch.reserve(prog_earliest, cmd) + cmd, t_p);
  d.array_start = prog_start;
  d.array_end = prog_start + t_p;
  d.free_at = d.array_end;
  d.array_busy += t_r + t_p;
  d.busy_to = d.array_end;
  d.busy_from = d.array_end - (t_r + t_p);
  if (trace_) {
    const OpSlot& slot = *slots_[d.active[0]];
    trace_bus(d.channel, "copy-back cmd", read_start - cmd, cmd, slot, 0);
    trace_bus(d.channel, "copy-back cmd", prog_start - cmd, cmd, slot, 0);
    trace_array(die, read_start, d.array_end);
  }
  push(ready_seen(die, d.array_start, d.array_end), EventKind::Finish, die, d.generation);
}

sc_time FlashController::program_slot(uint32_t die, const sc_time& earliest, const sc_time& length) {
  const uint32_t limit = params_.max_concurrent_programs;
  if (limit == 0) return earliest;
  const sc_time now = sim_now();
  program_windows_.erase(std::remove_if(program_windows_.begin(), program_windows_.end(),
                                        [&](const ProgramWindow& w) { return w.end <= now; }),
                         program_windows_.end());
  // The most windows in flight at once during [t, t + length): counted where one starts.
  auto active_at = [&](const sc_time& p) {
    uint32_t n = 0;
    for (const ProgramWindow& w : program_windows_) n += w.start <= p && p < w.end;
    return n;
  };
  auto most_during = [&](const sc_time& t) {
    uint32_t most = active_at(t);
    for (const ProgramWindow& w : program_windows_)
      if (w.start > t && w.start < t + length) most = std::max(most, active_at(w.start));
    return most;
  };
  sc_time start = earliest;
  if (most_during(start) >= limit) {
    // A slot opens where a booked window ends (after the last one none is left).
    std::vector<sc_time> ends;
    for (const ProgramWindow& w : program_windows_)
      if (w.end > earliest) ends.push_back(w.end);
    std::sort(ends.begin(), ends.end());
    for (const sc_time& e : ends)
      if (most_during(e) < limit) {
        start = e;
        break;
      }
    ++power_budget_delays_;
    power_budget_wait_ += start - earliest;
  }
  program_windows_.push_back(ProgramWindow{start, start + length, die});
  return start;
}

void FlashController::end_program_slot(uint32_t die, const sc_time& at) {
  for (ProgramWindow& w : program_windows_)
    if (w.die == die && w.start <= at && at < w.end) w.end = at;
}

uint64_t FlashController::power_cut() {
  const sc_time now = sim_now();
  uint64_t torn = 0;
  program_windows_.clear();
  for (DieState& d : dies_) {
    auto tear = [&](uint32_t s) {
      const FlashOp& op = slots_[s]->op;
      if (op.opcode != FlashOpcode::Program && op.opcode != FlashOpcode::CopyBack) return;
      const FlashAddress& at = op.opcode == FlashOpcode::CopyBack ? op.dest : op.address;
      const uint32_t pages = std::max(1u, op.page_count);
      d.nand->tear(at, pages, op.slc);
      torn += pages;
    };
    if (!d.active.empty() && d.array_start <= now)
      for (uint32_t s : d.active) tear(s);
    for (uint32_t s : d.suspended) tear(s);
    d.active.clear();
    d.suspended.clear();
    d.cached.clear();
    d.queue.clear();
  }
  return torn;
}

void FlashController::finish(uint32_t die) {
  DieState& d = dies_[die];
  if (trace_) trace_array_slice(die, d.trace_resumed ? "resumed" : nullptr);
  for (uint32_t s : d.active) {
    OpSlot& slot = *slots_[s];
    const FlashOp& op = slot.op;
    switch (op.opcode) {
      case FlashOpcode::Program:
        slot.status = d.nand->program(op.address, std::max(1u, op.page_count), slot.stamps.data(),
                                      op.oob.data(), op.oob.size(), op.slc);
        break;
      case FlashOpcode::Erase: slot.status = d.nand->erase(op.address); break;
      case FlashOpcode::CopyBack:
        slot.status = d.nand->copy_back(op.address, op.dest, std::max(1u, op.page_count),
                                        op.read_oob ? &slot.read_oob : nullptr, op.slc);
        break;
      case FlashOpcode::Read: break;
    }
  }
  finishing_.assign(d.active.begin(), d.active.end());
  d.active.clear();
  d.free_at = later(d.free_at, sim_now());
  if (!d.cached.empty()) start_cached_program(die);
  // Completions first, so ops the firmware submits from them compete for the die.
  for (uint32_t s : finishing_) complete(s);
  try_cache_program(die);
  if (d.active.empty() && !d.wake_pending && (!d.queue.empty() || !d.suspended.empty()))
    dispatch(die);
}

bool FlashController::try_suspend(uint32_t die) {
  DieState& d = dies_[die];
  if (!params_.suspend_for_read || !d.suspended.empty() || d.active.empty()) return false;
  const sc_time now = sim_now();
  if (!is_array_op(slots_[d.active[0]]->op.opcode) || now < d.array_start || now >= d.array_end)
    return false;
  // Set the program/erase aside with the array time it still needs; its Finish is void.
  d.suspend_left = d.array_end - now;
  d.array_busy -= d.suspend_left;
  d.busy_to = now;
  if (slots_[d.active[0]]->op.opcode == FlashOpcode::Program) end_program_slot(die, now);
  if (trace_) {
    trace_array_slice(die, "suspended");
    // The die frees now instead of at array_end: undo the rest of the booked interval.
    const int64_t code = int64_t(slots_[d.active[0]]->op.opcode) + 1;
    const uint64_t n = TraceRecorder::ps(now), e = TraceRecorder::ps(d.array_end);
    trace_->change(die_busy_[die], e, +1);
    trace_->change(die_busy_[die], n, -1);
    trace_->change(die_state_[die], e, code);
    trace_->change(die_state_[die], n, -code);
  }
  UFS_LOG(Debug, Fcc, name(), "die " << die << ": program/erase suspended for a read, "
                                     << d.suspend_left.to_seconds() * 1e6 << " us of array time left");
  ++d.generation;
  d.suspended.swap(d.active);
  d.active.clear();
  d.free_at = now + d.nand->suspend_time();
  ++suspensions_;
  dispatch(die);
  return true;
}

void FlashController::resume(uint32_t die) {
  DieState& d = dies_[die];
  d.active.swap(d.suspended);
  d.suspended.clear();
  sc_time start = later(later(sim_now(), d.free_at), d.cache_free_at);
  if (slots_[d.active[0]]->op.opcode == FlashOpcode::Program)
    start = program_slot(die, start, d.nand->resume_time() + d.suspend_left);
  d.array_start = start;
  d.array_end = start + d.nand->resume_time() + d.suspend_left;
  d.array_busy += d.suspend_left;
  d.busy_to = d.array_end;
  d.busy_from = d.array_end - (d.suspend_left);
  d.free_at = d.array_end;
  if (trace_) {
    trace_array(die, d.array_start, d.array_end);
    d.trace_resumed = true;
  }
  UFS_LOG(Debug, Fcc, name(), "die " << die << ": program/erase resumes at " << start.to_seconds() * 1e6 << " us");
  push(ready_seen(die, d.array_start, d.array_end), EventKind::Finish, die, d.generation);
}

// When the controller sees the end of an array operation on `die` running [start, end):
// at once with the ready/busy line; with status polling at the first status read (every
// status_poll_ns from the start, each taking the bus for one command time) that finds
// the die ready.
sc_time FlashController::ready_seen(uint32_t die, const sc_time& start, const sc_time& end) {
  if (t_poll_ == SC_ZERO_TIME) return end;
  const DieState& d = dies_[die];
  FlashChannel& ch = channels_[d.channel];
  sc_time poll = start;
  for (;;) {
    poll = ch.reserve(poll + t_poll_, t_cmd_);
    ++status_polls_;
    if (trace_ && !d.active.empty()) trace_bus(d.channel, "status poll", poll, t_cmd_, *slots_[d.active[0]], 0);
    if (poll >= end) return poll + t_cmd_;
  }
}

void FlashController::complete(uint32_t s) {
  OpSlot& slot = *slots_[s];
  FlashCompletion c;
  c.cookie = slot.op.cookie;
  c.opcode = slot.op.opcode;
  c.status = slot.status;
  c.address = slot.op.address;
  if (slot.op.opcode == FlashOpcode::Read || (slot.op.opcode == FlashOpcode::CopyBack && slot.op.read_oob))
    c.oob = slot.read_oob;
  ++completed_[size_t(c.opcode)];
  if (c.status != FlashStatus::Ok) ++failed_[size_t(c.opcode)];
  free_slot(s);
  if (listener_) listener_->flash_complete(c);
}

void FlashController::wake_at(uint32_t die, const sc_time& at) {
  DieState& d = dies_[die];
  if (d.wake_pending && d.wake_at <= at) return;  // an earlier wake reconsiders then
  d.wake_pending = true;
  d.wake_at = at;
  push(at, EventKind::DieWake, die);
}

void FlashController::on_event(Event& e) {
  switch (e.kind) {
    case EventKind::ArrayDone: array_done(e.index); break;
    case EventKind::Finish:
      if (e.generation == dies_[e.index].generation) finish(e.index);
      break;
    case EventKind::Complete: complete(e.index); break;
    case EventKind::DieWake: {
      DieState& d = dies_[e.index];
      if (!d.wake_pending || sim_now() < d.wake_at) break;  // superseded
      d.wake_pending = false;
      if (d.active.empty()) dispatch(e.index);
      break;
    }
  }
}

sc_time FlashController::dma_transfer(tlm::tlm_command cmd, uint64_t address, SectorStamp* stamps,
                                      uint32_t sectors, const sc_time& at) {
  const sc_time now = sim_now();
  sc_time delay = at > now ? at - now : SC_ZERO_TIME;
  const uint32_t bytes = uint32_t(sectors * kSectorBytes);
  payload_.set_command(cmd);
  payload_.set_address(address);
  payload_.set_data_ptr(reinterpret_cast<unsigned char*>(stamps));
  payload_.set_data_length(bytes);
  payload_.set_streaming_width(bytes);
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_dmi_allowed(false);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  dma->b_transport(payload_, delay);
  if (payload_.is_response_error())
    SC_REPORT_ERROR(name(), ("DMA to the data buffer failed: " +
                             payload_.get_response_string()).c_str());
  return now + delay;
}

uint64_t FlashController::rule_violations() const { return violation_counts().total(); }

NandRuleViolations FlashController::violation_counts() const {
  NandRuleViolations sum;
  for (const DieState& d : dies_) {
    const NandRuleViolations& v = d.nand->violations();
    sum.program_not_erased += v.program_not_erased;
    sum.program_out_of_order += v.program_out_of_order;
    sum.one_shot_misuse += v.one_shot_misuse;
    sum.address_out_of_range += v.address_out_of_range;
    sum.plane_mismatch += v.plane_mismatch;
    sum.mode_mismatch += v.mode_mismatch;
  }
  return sum;
}

uint64_t FlashController::allocated_blocks() const {
  uint64_t n = 0;
  for (const DieState& d : dies_) n += d.nand->allocated_blocks();
  return n;
}

}  // namespace ufs
