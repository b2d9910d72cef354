#include "device_firmware.h"
#include <algorithm>
#include <cmath>
#include <cstring>

namespace ufs {

namespace {
// The kinds of flash operation the parts still inside DeviceFirmware issue: in the top bits
// of the index the flash port hands back.
enum class OpKind : uint64_t { UnitProgram = 2, RecoveryRead = 8, FillRead = 9 };
uint64_t cookie(OpKind k, uint64_t index) { return uint64_t(k) << 48 | index; }
OpKind kind_of(uint64_t c) { return OpKind(c >> 48); }
uint64_t index_of(uint64_t c) { return c & ((1ull << 48) - 1); }

// Host DMA tokens of write-cache data (control data: kControlToken).
uint64_t write_token(uint32_t unit, uint32_t pos, uint32_t count) {
  return uint64_t(unit) | uint64_t(pos) << 20 | uint64_t(count) << 40;
}
constexpr uint8_t kNoTag = 0xFF;
constexpr uint32_t kMaxDataOutRequests = 8;

AllocationPolicy make_policy(const FlashGeometry& g, const FirmwareParams& p) {
  AllocationPolicy::Order order = AllocationPolicy::Order::DieFirst;
  AllocationPolicy::parse_order(p.stripe_order, order);  // validated with the parameters
  return AllocationPolicy(g, order, p.lba_mapping == "static");
}
}  // namespace

DeviceFirmware::DeviceFirmware(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry)
    : hal_(hal),
      params_(params),
      geo_(geometry),
      blocks_(geometry),
      logical_blocks_(static_cast<uint64_t>(double(geometry.total_sectors() - params.writebooster.reserved_sectors(geometry)) *
                                            (1.0 - params.over_provisioning))),
      map_(logical_blocks_),
      spp_(geometry.sectors_per_page()),
      unit_sectors_(params.write_unit_sectors(geometry)),
      prog_sectors_(params.program_pages * geometry.sectors_per_page()),
      lp_sectors_(params.logical_page_kib / 4),
      hybrid_(geometry.hybrid()),
      unit_stride_(geometry.hybrid() ? 1 : params.write_unit_sectors(geometry)),
      shares_(geometry.hybrid() ? std::make_unique<HybridPoolShares>(geometry, params.over_provisioning) : nullptr),
      alloc_(make_policy(geometry, params)),
      read_slots_((params.data_buffer_kib - params.write_cache_kib) / 4),
      tags_(256),
      table_(hal, params.cycles_response, params.cycles_transfer_setup, latency_),
      flash_(hal, blocks_, params.cycles_flash_submit, params.writebooster.enabled),
      map_store_(hal, params_, geometry, logical_blocks_, blocks_, flash_),
      map_writer_(hal, params_, geometry, blocks_, flash_, map_store_, *this, *this, gc_),
      reads_(hal, params_, read_slots_, table_, latency_, map_, blocks_, flash_, map_store_),
      gc_(hal, params_, geometry, blocks_, flash_, *this, map_writer_, *this, shares_.get()) {
  flash_client_ = flash_.attach(*this);
  table_.set_end_listener(this);
  reads_.set_next_waiters(this);
  // Hybrid page size: one unit descriptor per write-cache slot; a small-page unit takes one
  // slot, a large-page unit an aligned run of large_capacity() slots (the others absorbed).
  const uint32_t unit_count = params.write_cache_kib / 4 / unit_stride_;
  const uint32_t unit_slots = hybrid_ ? large_capacity() : unit_sectors_;
  units_.resize(unit_count);
  for (uint32_t i = 0; i < unit_count; ++i) {
    Unit& u = units_[i];
    u.first_slot = read_slots_ + i * unit_stride_;
    u.capacity = unit_sectors_;
    u.lbas.assign(unit_slots, kNoLba);
    u.old_ppa.assign(unit_slots, L2pMap::kUnmapped);
    u.data_seq.assign(unit_slots, 0);
    u.fua_tag.assign(unit_slots, kNoTag);
  }
  if (!hybrid_) for (uint32_t i = unit_count; i-- > 0;) free_units_.push_back(i);
  // Hybrid: one filling host unit per pool (small, large).
  host_units_.assign(alloc_.static_mapping() ? alloc_.pools() : hybrid_ ? 2 : 1, kNone);
  if (hybrid_) slot_runs_ = std::make_unique<HybridSlotRuns>(unit_count, large_capacity());
  map_store_.set_dirty_sink(map_writer_);
  if (params.writebooster.enabled) {
    wb_ = std::make_unique<WriteBooster>(params.writebooster, geometry);
    blocks_.reserve_slc(wb_->slc_blocks_per_die());
  }
  if (params.hpb.enabled) {
    hpb_ = std::make_unique<HpbDevice>(hal, static_cast<HpbFtl&>(*this), params.hpb);
    map_.set_observer(hpb_.get());  // every mapping change marks its sub-region dirty
    hpb_->register_queries(query_);
    table_.set_response_hook(hpb_.get());      // device control mode recommendations ride on responses
    reads_.set_verified_entries(hpb_.get());   // HPB READ: PPAs from verified entries
    map_store_.set_miss_listener(hpb_.get());  // device control mode counts map misses
    map_store_.set_load_listener(hpb_.get());  // READ BUFFER waits for map pages
  }
  // Idle time: background GC first, then a WriteBooster flush (each at its own threshold).
  idle_.add(gc_);
  if (params.bg_map_writeback) gc_.set_idle_write_back(&map_writer_);
  if (wb_) {
    wb_->register_queries(query_);
    flush_ = std::make_unique<WriteBoosterFlush>(params_, geometry, blocks_, gc_, *wb_);
    gc_.set_flush_pacer(flush_.get());
    gc_.set_victim_done_listener(flush_.get());
    idle_.add(*flush_);
  }
}

double DeviceFirmware::write_amplification() const {
  if (stats_.host_write_blocks == 0) return 0.0;
  return double(stats_.host_program_sectors + stats_.padding_sectors + gc_.stats().moved_sectors) /
         double(stats_.host_write_blocks);
}

void DeviceFirmware::visit_stats(StatsVisitor& v) const {
  const FirmwareStats& f = stats_;
  v.count("ftl.logical_blocks", logical_blocks_, "blocks", "LBAs the device exports");
  v.count("ftl.host_write_blocks", f.host_write_blocks, "blocks", "blocks the host wrote");
  reads_.visit_stats(v);
  v.count("ftl.host_program_sectors", f.host_program_sectors, "sectors", "sectors programmed for host data");
  v.count("ftl.padding_sectors", f.padding_sectors, "sectors", "sectors padded to close a partial unit");
  v.count("ftl.host_page_sectors", f.host_page_sectors, "sectors", "page space programmed for host data");
  gc_.visit_stats(v);
  flash_.visit_stats(v);
  v.count("ftl.bad_blocks", blocks_.bad_blocks(), "blocks", "blocks retired");
  v.figure("ftl.write_amplification", write_amplification(), "", "NAND sectors programmed per host sector written");
  table_.visit_stats(v);
  v.flag("ftl.write_protected", f.write_protected != 0, "spare blocks ran out: the device is read-only");
  v.count("ftl.write_protect_rejects", f.write_protect_rejects, "commands", "writes, UNMAPs and syncs refused");
  v.count("ftl.map_chunks_allocated", map_.chunks_allocated(), "chunks", "L2P map chunks allocated");
  v.count("ftl.rmw_writes", f.rmw_writes, "commands", "writes that did not cover whole logical pages");
  v.count("ftl.rmw_flash_sectors", f.rmw_flash_sectors, "sectors", "rest of logical pages read from NAND");
  v.count("ftl.rmw_cache_sectors", f.rmw_cache_sectors, "sectors", "rest of logical pages copied from the cache");
  map_store_.visit_stats(v);
  map_writer_.visit_stats(v);
  v.count("crypto.session_keys_loaded", f.session_keys_loaded, "", "HPB session keys drawn at power-up");
  if (hpb_) hpb_->visit_stats(v);
  if (wb_) wb_->visit_stats(v);
}

bool DeviceFirmware::idle() const {
  if (!table_.all_idle()) return false;
  for (const auto& u : units_) if (u.state == UnitState::Programming || u.state == UnitState::Sealed) return false;
  return gc_.idle();
}

std::string DeviceFirmware::debug_state() const {
  std::string out;
  uint32_t unit_states[4] = {0, 0, 0, 0};
  for (const auto& u : units_) ++unit_states[uint32_t(u.state)];
  out += "units free/filling/sealed/programming " + std::to_string(unit_states[0]) + "/" +
         std::to_string(unit_states[1]) + "/" + std::to_string(unit_states[2]) + "/" +
         std::to_string(unit_states[3]) + "; waiting: reads " + std::to_string(reads_.waiting()) +
         ", writes " + std::to_string(write_waiters_.size()) + ", units for a die " +
         std::to_string(program_waiters_.size()) + ", GC for a unit " + std::to_string(gc_.waiting_for_units()) + "\n";
  for (uint32_t d = 0; d < geo_.dies(); ++d) {
    out += "die " + std::to_string(d) + ": free blocks " + std::to_string(blocks_.free_blocks(d));
    if (hybrid_) out += " (large-page pool: " + std::to_string(blocks_.free_blocks(d, true)) + ")";
    uint32_t closed = 0, fewest = ~0u, fewest_large = ~0u, busy = 0, bad = 0, open = 0;
    const uint32_t per_die = geo_.planes_per_die * geo_.blocks_per_plane;
    for (uint32_t b = d * per_die; b < (d + 1) * per_die; ++b) {
      const BlockInfo& i = blocks_.info(b);
      bad += i.state == BlockState::Bad;
      open += i.state == BlockState::Open;
      if (i.state != BlockState::Closed) continue;
      ++closed;
      if (hybrid_ && i.large) fewest_large = std::min(fewest_large, i.valid);
      busy += i.programs_in_flight != 0;
      fewest = std::min(fewest, i.valid);
    }
    if (hybrid_) out += ", fewest valid in a large-page block " + std::to_string(fewest_large);
    out += ", closed " + std::to_string(closed) + " (fewest valid " + std::to_string(fewest) + ", " +
           std::to_string(busy) + " with programs in flight), open " + std::to_string(open) + ", bad " +
           std::to_string(bad);
    out += gc_.debug_state(d) + "\n";
  }
  return out;
}

// ---------------------------------------------------------------- end of life

// Nothing on the flash and units still wait for a block: every die is out of free blocks and
// its GC cannot get one to move a victim into (grown bad blocks used up the spare). No later
// event frees a block, so the device becomes read-only instead of hanging.
void DeviceFirmware::check_out_of_space() {
  if (write_protected_ || flash_.in_flight() || preconditioning_) return;
  if (program_waiters_.empty() && !map_writer_.programs_waiting()) return;
  for (uint32_t d = 0; d < geo_.dies(); ++d) gc_.check(d);  // last chance: a victim GC can still clean
  if (flash_.in_flight()) return;
  enter_write_protect();
}

void DeviceFirmware::enter_write_protect() {
  write_protected_ = true;
  gc_.stop();
  if (flush_) flush_->stop();
  stats_.write_protected = 1;
  // Writes waiting for buffer space: refused (those with data in flight once it is in).
  std::deque<uint8_t> waiting;
  waiting.swap(write_waiters_);
  for (uint8_t tag : waiting) {
    TagState& t = tags_[tag];
    t.waiting = false;
    t.rejected = true;
    if (t.out_requests == 0) refuse(tag);
  }
  // Syncs and FUA writes waiting for units that will never be programmed cannot be made
  // durable: refused too. The units' data stays in the cache, readable.
  for (Unit& u : units_) {
    if (u.state != UnitState::Sealed) continue;
    for (uint8_t tag : u.sync_tags)
      if (table_.kind(tag) == CommandKind::Sync) refuse(tag);
    u.sync_tags.clear();
    for (uint32_t i = 0; i < u.assigned; ++i) {
      const uint8_t tag = u.fua_tag[i];
      if (tag == kNoTag) continue;
      u.fua_tag[i] = kNoTag;
      TagState& t = tags_[tag];
      if (table_.kind(tag) == CommandKind::Write && !t.rejected) {
        t.rejected = true;
        if (t.out_requests == 0) refuse(tag);
      }
    }
  }
}

void DeviceFirmware::refuse(const HostCommand& c) {
  ++stats_.write_protect_rejects;
  table_.fail(c, sense_key::kDataProtect, asc::kWriteProtected);
}

void DeviceFirmware::refuse(uint8_t tag) {
  if (table_.kind(tag) == CommandKind::Idle) return;
  HostCommand c;
  c.tag = tag;
  c.lun = table_.lun(tag);
  refuse(c);
}

// ---------------------------------------------------------------- commands

void DeviceFirmware::on_command(const HostCommand& c) {
  table_.count_command();
  idle_.command_started();
  latency_.start(c.tag, hal_.now_ps());
  hal_.charge_cycles(params_.cycles_command_decode);
  if (table_.kind(c.tag) != CommandKind::Idle) { table_.reject_overlap(c); return; }  // the host broke the protocol
  if (recovery_) { table_.fail(c, sense_key::kNotReady, asc::kNotReadyCause); return; }
  if (hpb_ && hpb_op::is_hpb_opcode(c.cdb[0])) { hpb_->on_command(c); return; }
  const ScsiCommand s = decode_cdb(c.cdb);
  if (s.invalid_asc) { table_.fail(c, sense_key::kIllegalRequest, s.invalid_asc); return; }
  switch (s.op) {
    case ScsiOp::TestUnitReady:
      table_.respond(c.tag, c.lun);
      return;
    case ScsiOp::RequestSense: {
      uint8_t sense[18] = {0x70, 0, sense_key::kNoSense, 0, 0, 0, 0, 10};
      table_.send_control_data(c, sense, sizeof sense, s.allocation_length);
      return;
    }
    case ScsiOp::Inquiry: {
      uint8_t d[36] = {};
      if (s.evpd) {
        if (s.page_code != 0x00) { table_.fail(c, sense_key::kIllegalRequest, asc::kInvalidFieldInCdb); return; }
        const uint8_t pages[] = {0x00, 0x00, 0x00, 1, 0x00};  // supported VPD pages: only page 0
        table_.send_control_data(c, pages, sizeof pages, s.allocation_length);
        return;
      }
      d[0] = 0x00;   // direct-access block device
      d[2] = 0x06;   // SPC-4
      d[3] = 0x02;   // response data format
      d[4] = 31;     // additional length
      d[7] = 0x02;   // CMDQUE
      std::memcpy(d + 8, "UFSTLM  ", 8);
      std::memcpy(d + 16, "ufs-tlm device  ", 16);
      std::memcpy(d + 32, "0100", 4);
      table_.send_control_data(c, d, sizeof d, s.allocation_length);
      return;
    }
    case ScsiOp::ReadCapacity10: {
      uint8_t d[8];
      const uint64_t last = logical_blocks_ - 1;
      put_be32(d, last > 0xFFFFFFFFull ? 0xFFFFFFFFu : uint32_t(last));
      put_be32(d + 4, uint32_t(kSectorBytes));
      table_.send_control_data(c, d, sizeof d, 8);
      return;
    }
    case ScsiOp::ReadCapacity16: {
      uint8_t d[32] = {};
      put_be64(d, logical_blocks_ - 1);
      put_be32(d + 8, uint32_t(kSectorBytes));
      table_.send_control_data(c, d, sizeof d, s.allocation_length);
      return;
    }
    case ScsiOp::Read:
    case ScsiOp::Write:
      if (s.blocks == 0 || s.blocks > params_.max_transfer_blocks) {
        table_.fail(c, sense_key::kIllegalRequest, asc::kInvalidFieldInCdb);
        return;
      }
      if (s.lba >= logical_blocks_ || s.blocks > logical_blocks_ - s.lba) {
        table_.fail(c, sense_key::kIllegalRequest, asc::kLbaOutOfRange);
        return;
      }
      if (c.expected_length < uint64_t(s.blocks) * kSectorBytes) {
        table_.fail(c, sense_key::kIllegalRequest, asc::kInvalidFieldInCdb);
        return;
      }
      if (s.op == ScsiOp::Write && write_protected_) { refuse(c); return; }
      if (s.op == ScsiOp::Read) reads_.start(c, s.lba, s.blocks, false);
      else start_write(c, s);
      return;
    case ScsiOp::SynchronizeCache:
      if (s.lba >= logical_blocks_ || (s.blocks && s.blocks > logical_blocks_ - s.lba)) {
        table_.fail(c, sense_key::kIllegalRequest, asc::kLbaOutOfRange);
        return;
      }
      if (write_protected_) { refuse(c); return; }
      start_sync(c);
      return;
    case ScsiOp::Unmap:
      if (write_protected_) { refuse(c); return; }
      start_unmap(c, s);
      return;
    case ScsiOp::Unsupported:
      break;
  }
  table_.fail(c, sense_key::kIllegalRequest, asc::kInvalidOpcode);
}

// ---------------------------------------------------------------- reads

void DeviceFirmware::on_data_in_done(uint8_t tag, uint64_t token) {
  hal_.charge_cycles(params_.cycles_transfer_done);
  if (token & kControlToken) { table_.control_data_sent(tag); return; }
  if (token & HpbDevice::kToken) { hpb_->on_data_in_done(tag); return; }
  reads_.data_in_done(tag, token);
}

// ---------------------------------------------------------------- writes

void DeviceFirmware::start_write(const HostCommand& c, const ScsiCommand& s) {
  TagState& t = tags_[c.tag];
  t = TagState{};
  table_.claim(c.tag, CommandKind::Write, c.lun);
  t.lba = s.lba;
  t.blocks = s.blocks;
  t.fua = s.fua || params_.write_through;  // write-through: every write waits for its programs
  t.nondurable = t.fua ? s.blocks : 0;
  // The command's range widened to whole logical pages: what it does not cover is read
  // and rewritten with it (read-modify-write).
  t.span_lba = s.lba / lp_sectors_ * lp_sectors_;
  const uint64_t span_end = std::min(logical_blocks_, (s.lba + s.blocks + lp_sectors_ - 1) / lp_sectors_ * lp_sectors_);
  t.span = uint32_t(span_end - t.span_lba);
  if (t.span != s.blocks) ++stats_.rmw_writes;
  stats_.host_write_blocks += s.blocks;
  hal_.charge_cycles(params_.cycles_write_command);
  request_write_data(c.tag);
}

// The host unit being filled for `lba`: the only one, or its pool's under static mapping.
uint32_t& DeviceFirmware::filling_unit(uint64_t lba) {
  if (!alloc_.static_mapping()) return host_units_[0];
  return host_units_[alloc_.pool_of(lba / lp_sectors_)];
}

// Give the command's next blocks slots in a filling host unit and ask the host for them;
// the parts of its logical pages it does not cover are filled from the current copy.
void DeviceFirmware::request_write_data(uint8_t tag) {
  TagState& t = tags_[tag];
  const uint64_t cmd_end = t.lba + t.blocks, span_end = t.span_lba + t.span;
  // A bounded number of data requests per command in flight (the host interface tracks few
  // transfers per tag, like bMaxNumOfRTT); the rest follow as data arrives.
  while (t.span_staged < t.span && t.out_requests < kMaxDataOutRequests) {
    const uint64_t lba = t.span_lba + t.span_staged;
    // Hybrid page size (IISWC'15 sec. VI): a whole aligned large-page chunk of the command goes
    // to a large page, every other 4 KiB piece to a small page (no padding either way).
    const bool chunk = hybrid_ && lba % large_capacity() == 0 && lba + large_capacity() <= cmd_end;
    const bool large = hybrid_ && shares_->pool_for(chunk, blocks_);
    uint32_t& filling = hybrid_ ? host_units_[large] : filling_unit(lba);
    if (filling == kNone) {
      filling = allocate_unit(WriteStream::Host, false, large);
      if (filling == kNone) {
        // Static mapping: partly filled units of other pools must not hold the cache forever.
        if (alloc_.static_mapping())
          for (uint32_t& other : host_units_)
            if (other != kNone) { const uint32_t full = other; other = kNone; seal_unit(full); }
        if (write_protected_) {  // no unit will ever free up: refuse once its data in flight is in
          t.rejected = true;
          if (t.out_requests == 0) refuse(tag);
          return;
        }
        if (!t.waiting) { t.waiting = true; write_waiters_.push_back(tag); }
        return;
      }
      if (alloc_.static_mapping()) units_[filling].pool = alloc_.pool_of(lba / lp_sectors_);
    }
    const uint32_t unit = filling;
    Unit& u = units_[unit];
    const bool host = lba >= t.lba && lba < cmd_end;
    uint64_t run_end = host ? cmd_end : lba < t.lba ? t.lba : span_end;
    if (alloc_.static_mapping()) run_end = std::min(run_end, (lba / lp_sectors_ + 1) * lp_sectors_);
    if (hybrid_) run_end = std::min<uint64_t>(run_end, lba + (chunk ? large_capacity() : 1));
    const uint32_t n = uint32_t(std::min<uint64_t>(u.capacity - u.assigned, run_end - lba));
    const uint32_t pos = u.assigned;
    if (host) {
      const uint32_t offset = uint32_t(lba - t.lba);
      for (uint32_t i = 0; i < n; ++i) {
        u.lbas[pos + i] = lba + i;
        u.fua_tag[pos + i] = t.fua ? tag : kNoTag;
      }
      u.assigned += n;
      hal_.charge_cycles(params_.cycles_transfer_setup + uint64_t(n) * params_.cycles_cache_insert);
      latency_.begin(tag, LatencyPart::Transfer, hal_.now_ps());
      hal_.request_data_out(tag, offset * uint32_t(kSectorBytes), slot_address(u.first_slot + pos),
                            n * uint32_t(kSectorBytes), write_token(unit, pos, n));
      t.staged += n;
      ++t.out_requests;
    } else {
      fill_rest_of_page(unit, pos, lba, n);
    }
    t.span_staged += n;
    if ((u.assigned == u.capacity || hybrid_) && filling == unit) {  // hybrid: a unit holds one piece
      filling = kNone;
      seal_unit(unit);
    }
  }
}

// Read-modify-write: sectors [lba, lba + n) of a logical page the write does not cover
// go into unit slots from pos on: copied from the write cache, zero when never written
// (they stay unmapped), or read from NAND (one read per run of sectors in one page). Their
// map entries move to the cache only once the data is there, and only if nothing newer
// was written meanwhile.
void DeviceFirmware::fill_rest_of_page(uint32_t unit, uint32_t pos, uint64_t lba, uint32_t n) {
  Unit& u = units_[unit];
  hal_.l2p_sram_access(4 * n, false);
  // The open run of sectors of one page (open: count > 0): one read.
  FlashAddress at;
  uint32_t first_sector = 0, count = 0, prev = 0, run_pos = 0;
  uint64_t buffer = 0;
  auto submit = [&] {
    uint32_t fr;
    if (free_fill_reads_.empty()) { fr = uint32_t(fill_reads_.size()); fill_reads_.emplace_back(); }
    else { fr = free_fill_reads_.back(); free_fill_reads_.pop_back(); }
    fill_reads_[fr] = FillRead{unit, run_pos, count};
    ++u.pending_reads;
    flash_.read(flash_client_, cookie(OpKind::FillRead, fr), at, first_sector, count, buffer);
    count = 0;
  };
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t slot = pos + i;
    u.fua_tag[slot] = kNoTag;
    hal_.charge_cycles(params_.cycles_map_lookup);
    const uint32_t e = map_.get(lba + i);
    const uint64_t dst = slot_address(u.first_slot + slot);
    if (!L2pMap::is_physical(e) && count) submit();  // a read covers consecutive slots only
    if (e == L2pMap::kUnmapped) {
      u.lbas[slot] = kNoLba;
      hal_.zero_buffer(dst, uint32_t(kSectorBytes));
      ++u.arrived;
      continue;
    }
    u.lbas[slot] = lba + i;
    if (L2pMap::is_cached(e)) {
      // The copy takes over the NAND copy the cached one supersedes, and keeps its age.
      ++stats_.rmw_cache_sectors;
      hal_.copy_buffer(dst, slot_address(L2pMap::slot_of(e)), uint32_t(kSectorBytes));
      uint32_t at;
      u.data_seq[slot] = unit_of_slot(L2pMap::slot_of(e), at).data_seq[at];
      uint32_t& owned = superseded_copy(e);
      u.old_ppa[slot] = owned;
      owned = L2pMap::kUnmapped;
      map_.set(lba + i, L2pMap::cached(u.first_slot + slot));
      ++u.arrived;
      continue;
    }
    ++stats_.rmw_flash_sectors;
    u.old_ppa[slot] = e;
    if (count && e == prev + 1 && blocks_.sector_of(e) != 0) {
      ++count;
      prev = e;
      continue;
    }
    if (count) submit();
    at = blocks_.address_of(blocks_.block_of(e), blocks_.page_of(e));
    first_sector = blocks_.sector_of(e);
    count = 1;
    buffer = dst;
    prev = e;
    run_pos = slot;
  }
  if (count) submit();
  u.assigned += n;
  try_program_unit(unit);
}

// The rest of a logical page is in the cache: the map points at it; the NAND copy it was
// read from stays valid (u.old_ppa) until the unit is programmed, as for host data.
void DeviceFirmware::fill_read_done(uint32_t index, const FlashCompletion& c) {
  const FillRead r = fill_reads_[index];
  free_fill_reads_.push_back(index);
  Unit& u = units_[r.unit];
  hal_.l2p_sram_access(4 * r.count, true);
  for (uint32_t i = r.pos; i < r.pos + r.count; ++i) {
    const uint64_t lba = u.lbas[i];
    if (map_.get(lba) != u.old_ppa[i]) {  // rewritten or moved meanwhile: the newer copy stands
      u.lbas[i] = kNoLba;
      u.old_ppa[i] = L2pMap::kUnmapped;
      continue;
    }
    hal_.charge_cycles(params_.cycles_map_update);
    u.data_seq[i] = c.oob.data_sequence(blocks_.sector_of(u.old_ppa[i]));  // a copy keeps its age
    map_.set(lba, L2pMap::cached(u.first_slot + i));
  }
  u.arrived += r.count;
  --u.pending_reads;
  try_program_unit(r.unit);
}

void DeviceFirmware::on_data_out_done(uint8_t tag, uint64_t token) {
  hal_.charge_cycles(params_.cycles_transfer_done);
  TagState& t = tags_[tag];
  if (token & kControlToken) { finish_unmap(tag); return; }
  if (token & HpbDevice::kToken) { hpb_->on_data_out_done(tag); return; }
  const uint32_t unit = uint32_t(token & 0xFFFFF);
  const uint32_t pos = uint32_t((token >> 20) & 0xFFFFF);
  const uint32_t count = uint32_t(token >> 40);
  latency_.end(tag, LatencyPart::Transfer, hal_.now_ps());
  write_data_arrived(unit, pos, count);
  t.done += count;
  --t.out_requests;
  if (t.rejected) { if (t.out_requests == 0) refuse(tag); return; }
  if (t.span_staged < t.span && !t.waiting) request_write_data(tag);
  if (t.done < t.blocks) return;
  if (!t.fua || t.nondurable == 0) { table_.respond(tag, table_.lun(tag)); return; }
  latency_.begin(tag, LatencyPart::Nand, hal_.now_ps());  // until its programs end
  // FUA: the data must reach NAND before the response; close the unit holding its tail.
  for (uint32_t& filling : host_units_) {
    if (filling == kNone) continue;
    const Unit& u = units_[filling];
    if (std::find(u.fua_tag.begin(), u.fua_tag.begin() + u.assigned, tag) != u.fua_tag.begin() + u.assigned) {
      const uint32_t tail = filling;
      filling = kNone;
      seal_unit(tail);
    }
  }
}

// Data is in the cache: point the map at it (the old copy on NAND becomes invalid).
void DeviceFirmware::write_data_arrived(uint32_t unit, uint32_t pos, uint32_t count) {
  Unit& u = units_[unit];
  hal_.l2p_sram_access(4 * count, true);
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t lba = u.lbas[pos + i];
    hal_.charge_cycles(params_.cycles_map_update);
    const uint32_t e = map_.get(lba);
    uint32_t older = e;
    if (L2pMap::is_cached(e)) {  // overwritten in the cache: this copy takes over the NAND copy
      uint32_t& owned = superseded_copy(e);
      older = owned;
      owned = L2pMap::kUnmapped;
    }
    u.old_ppa[pos + i] = older;
    u.data_seq[pos + i] = flash_.next_sequence();
    map_.set(lba, L2pMap::cached(u.first_slot + pos + i));
  }
  u.arrived += count;
  try_program_unit(unit);
}

uint32_t& DeviceFirmware::superseded_copy(uint32_t cached_entry) {
  uint32_t at;
  return unit_of_slot(L2pMap::slot_of(cached_entry), at).old_ppa[at];
}

void DeviceFirmware::invalidate_old(uint32_t e) {
  if (e == L2pMap::kUnmapped || L2pMap::is_cached(e)) return;
  blocks_.mark_invalid(e);
  const uint32_t block = blocks_.block_of(e);
  if (blocks_.info(block).state == BlockState::Victim) gc_.victim_may_be_empty(blocks_.die_of_block(block));
}

void DeviceFirmware::start_sync(const HostCommand& c) {
  ++stats_.flushes;
  TagState& t = tags_[c.tag];
  t = TagState{};
  table_.claim(c.tag, CommandKind::Sync, c.lun);
  for (uint32_t& filling : host_units_) {
    if (filling == kNone) continue;
    const uint32_t u = filling;
    filling = kNone;
    seal_unit(u);
  }
  // Wait for every host unit holding data: sealed (data still arriving or no die yet) or programming.
  for (uint32_t i = 0; i < units_.size(); ++i) {
    Unit& u = units_[i];
    if (u.stream == WriteStream::Host && (u.state == UnitState::Sealed || u.state == UnitState::Programming)) {
      u.sync_tags.push_back(c.tag);
      ++t.sync_pending;
    }
  }
  if (t.sync_pending == 0) table_.respond(c.tag, c.lun);
}

void DeviceFirmware::start_unmap(const HostCommand& c, const ScsiCommand& s) {
  TagState& t = tags_[c.tag];
  t = TagState{};
  table_.claim(c.tag, CommandKind::Idle, c.lun);
  if (s.parameter_length == 0) { table_.respond(c.tag, c.lun); return; }
  if (s.parameter_length < 8 || s.parameter_length > 4096 || c.expected_length < s.parameter_length) {
    table_.fail(c, sense_key::kIllegalRequest, asc::kParamListLength);
    return;
  }
  table_.claim(c.tag, CommandKind::Unmap, c.lun);
  t.control_bytes = s.parameter_length;
  hal_.charge_cycles(params_.cycles_transfer_setup);
  hal_.request_data_out(c.tag, 0, control_address(c.tag), s.parameter_length, kControlToken);
}

void DeviceFirmware::finish_unmap(uint8_t tag) {
  TagState& t = tags_[tag];
  uint8_t list[4096];
  hal_.read_buffer_bytes(control_address(tag), list, t.control_bytes);
  HostCommand c;
  c.tag = tag;
  c.lun = table_.lun(tag);
  const uint32_t desc_len = get_be16(list + 2);
  if (desc_len % 16 != 0 || 8 + desc_len > t.control_bytes) {
    table_.fail(c, sense_key::kIllegalRequest, asc::kInvalidFieldInParam);
    return;
  }
  // Check every descriptor before changing anything: a bad one rejects the whole command.
  for (uint32_t off = 8; off < 8 + desc_len; off += 16) {
    const uint64_t lba = get_be64(list + off);
    const uint32_t n = get_be32(list + off + 8);
    if (lba >= logical_blocks_ || n > logical_blocks_ - lba) {
      table_.fail(c, sense_key::kIllegalRequest, asc::kLbaOutOfRange);
      return;
    }
  }
  for (uint32_t off = 8; off < 8 + desc_len; off += 16) {
    const uint64_t lba = get_be64(list + off);
    const uint32_t n = get_be32(list + off + 8);
    hal_.l2p_sram_access(4 * n, true);
    for (uint32_t i = 0; i < n; ++i) {
      hal_.charge_cycles(params_.cycles_map_update);
      const uint32_t e = map_.get(lba + i);
      if (e == L2pMap::kUnmapped) continue;
      if (L2pMap::is_cached(e)) {
        invalidate_old(superseded_copy(e));
        superseded_copy(e) = L2pMap::kUnmapped;
      }
      invalidate_old(e);
      map_store_.updated(lba + i);
      map_.set(lba + i, L2pMap::kUnmapped);
      ++stats_.unmapped_blocks;
    }
  }
  table_.respond(tag, table_.lun(tag));
}

void DeviceFirmware::retry_waiters() {
  reads_.retry_waiting();
  retry_waiting();
}

void DeviceFirmware::retry_waiting() {
  for (size_t n = write_waiters_.size(); n > 0 && !write_waiters_.empty(); --n) {
    const uint8_t tag = write_waiters_.front();
    write_waiters_.pop_front();
    tags_[tag].waiting = false;
    request_write_data(tag);
    if (tags_[tag].waiting) break;
  }
}

// ---------------------------------------------------------------- units

uint32_t DeviceFirmware::allocate_unit(WriteStream stream, bool may_use_reserve, bool large) {
  // Host data may not take the last units: GC must always find one to make progress.
  uint32_t i;
  if (hybrid_) {
    // A small-page unit takes one slot, a large-page unit an aligned run (the run's other
    // descriptors are absorbed into it); host data leaves a reserve for GC.
    i = slot_runs_->allocate(large, may_use_reserve ? 0 : std::min<uint32_t>(2 * large_capacity(), uint32_t(units_.size()) / 4));
    if (i == HybridSlotRuns::kNone) return kNone;
    for (uint32_t k = 1; large && k < large_capacity(); ++k) units_[i + k].absorbed = uint8_t(k);
  } else {
    const size_t reserve = may_use_reserve ? 0 : std::min<size_t>(2, units_.size() / 4);
    if (free_units_.size() <= reserve) return kNone;
    i = free_units_.back();
    free_units_.pop_back();
  }
  Unit& u = units_[i];
  u.capacity = !hybrid_ ? unit_sectors_ : large ? large_capacity() : 1;
  u.state = UnitState::Filling;
  u.stream = stream;
  u.assigned = 0;
  u.arrived = 0;
  u.pending_reads = 0;
  u.block = BlockManager::kNoBlock;
  u.pool = kNone;
  u.open_slot = 0;
  u.slc = false;
  u.flush = false;
  std::fill(u.lbas.begin(), u.lbas.end(), kNoLba);
  std::fill(u.fua_tag.begin(), u.fua_tag.end(), kNoTag);
  std::fill(u.old_ppa.begin(), u.old_ppa.end(), L2pMap::kUnmapped);
  u.sync_tags.clear();
  return i;
}

void DeviceFirmware::seal_unit(uint32_t unit) {
  Unit& u = units_[unit];
  u.state = UnitState::Sealed;
  if (u.assigned < u.capacity) {
    hal_.zero_buffer(slot_address(u.first_slot + u.assigned), (u.capacity - u.assigned) * uint32_t(kSectorBytes));
    stats_.padding_sectors += u.capacity - u.assigned;
  }
  try_program_unit(unit);
}

void DeviceFirmware::try_program_unit(uint32_t unit) {
  Unit& u = units_[unit];
  if (u.state != UnitState::Sealed || u.arrived < u.assigned || u.pending_reads) return;
  if (!place_unit(u)) { program_waiters_.push_back(unit); return; }
  u.state = UnitState::Programming;
  // A unit larger than a program unit (a big logical page) goes as consecutive programs
  // into consecutive pages of one block.
  const uint64_t seq = flash_.next_sequence();
  const uint32_t page_spp = hybrid_ ? u.capacity : spp_;  // hybrid: a unit is one page of its pool's size
  const uint32_t prog = params_.program_pages * page_spp;
  u.programs_pending = u.capacity / prog;
  u.program_failed = false;
  for (uint32_t k = 0; k < u.programs_pending; ++k) {
    std::vector<PageOob>& oob = flash_.program_oob(params_.program_pages);
    for (uint32_t p = 0; p < params_.program_pages; ++p) {
      PageOob& o = oob[p];
      o.kind = PageKind::UserData;
      o.sequence = seq;
      for (uint32_t s = 0; s < page_spp; ++s) {
        const uint64_t lba = u.lbas[k * prog + p * page_spp + s];
        o.lba[s] = lba == kNoLba ? kNoOobLba : uint32_t(lba);
        o.data_seq[s] = lba == kNoLba ? 0 : u.data_seq[k * prog + p * page_spp + s];
      }
    }
    flash_.program(flash_client_, cookie(OpKind::UnitProgram, unit),
                   blocks_.address_of(u.block, u.page + k * params_.program_pages), params_.program_pages,
                   slot_address(u.first_slot + k * prog));
  }
}

// Choose where the unit goes: GC units on their own die, map pages round robin over the
// dies, host units by the allocation policy (the next pool in stripe order with room, or
// their logical pages' pool under static mapping).
bool DeviceFirmware::place_unit(UnitPlace& u) {
  const bool map = u.stream == WriteStream::Map, host = u.stream == WriteStream::Host;
  const uint32_t dies = geo_.dies();
  const bool fixed = u.stream == WriteStream::Gc || u.stream == WriteStream::Cold || u.gc_privilege;
  const bool pooled = host && !fixed;          // host data placed by the allocation policy
  const bool pinned = pooled && u.pool != kNone;  // static mapping: its pool only
  const uint32_t candidates = pooled ? alloc_.pools() : dies;
  const uint32_t unit_pages = map ? params_.program_pages : hybrid_ ? 1 : unit_sectors_ / spp_;
  const bool large = hybrid_ && !map && u.capacity > spp_;  // hybrid: the large-page pool's blocks
  for (uint32_t k = 0; k < candidates; ++k) {
    if (pinned && k > 0) return false;
    const uint32_t pool = pinned ? u.pool : (next_pool_ + k) % candidates;
    // GC work goes to its own die (u.die stays that die); only when a failed program or
    // erase left that die without a block does it spill onto another die's spare.
    const uint32_t die = fixed ? (u.die + k) % dies : pooled ? alloc_.die(pool) : (next_map_die_ + k) % dies;
    const uint32_t plane = pooled && alloc_.per_plane() ? alloc_.plane(pool) : BlockManager::kAnyPlane;
    const uint32_t slot = plane == BlockManager::kAnyPlane ? 0 : plane;
    // WriteBooster: host data goes to the die's SLC buffer while it has room (plane-first:
    // an open SLC block per plane, so SLC programs pair into multi-plane ones as TLC's do).
    const bool to_slc = pooled && wb_ && wb_->writes_to_buffer() && !preconditioning_ &&
                        (blocks_.open_block(die, WriteStream::Slc, slot) != BlockManager::kNoBlock ||
                         blocks_.free_slc_blocks(die) > 0);
    uint32_t& open = to_slc ? blocks_.open_block(die, WriteStream::Slc, slot) : blocks_.open_block(die, u.stream, slot, large);
    if (open == BlockManager::kNoBlock && to_slc) {
      open = blocks_.take_free_slc_block(die, plane);
      if (open == BlockManager::kNoBlock) open = blocks_.take_free_slc_block(die);  // another plane's
    }
    if (open == BlockManager::kNoBlock) {
      // Host data and map pages leave each die one free block so its GC can always move data.
      const uint32_t reserve = fixed ? (k == 0 ? 0 : 1) : 1;
      if (blocks_.free_blocks(die, large) <= reserve) { if (!fixed) gc_.check(die); continue; }
      open = blocks_.take_free_block(die, plane, large);
      // A plane out of free blocks borrows from the die's other planes rather than wait
      // for GC, which the die's free count may not start.
      if (open == BlockManager::kNoBlock && plane != BlockManager::kAnyPlane) open = blocks_.take_free_block(die);
      if (open == BlockManager::kNoBlock) continue;
      blocks_.info(open).holds_map = u.stream == WriteStream::Map;
      gc_.check(die);
    }
    BlockInfo& b = blocks_.info(open);
    u.block = open;
    u.page = b.next_page;
    if (!fixed) u.die = die;
    u.open_slot = slot;
    u.slc = to_slc;
    if (to_slc) wb_->add_used(int64_t(unit_pages) * spp_);
    b.next_page += unit_pages;
    ++b.programs_in_flight;
    b.last_write_ps = hal_.now_ps();
    if (b.next_page >= blocks_.pages_in_block(u.block)) { b.state = BlockState::Closed; open = BlockManager::kNoBlock; }
    if (pooled && !pinned) next_pool_ = (pool + 1) % candidates;
    if (map) next_map_die_ = (die + 1) % dies;
    return true;
  }
  return false;
}

void DeviceFirmware::on_flash_complete(const FlashCompletion& c) {
  hal_.charge_cycles(params_.cycles_flash_complete);
  flash_.complete(c);
  check_out_of_space();
}

void DeviceFirmware::on_flash_done(uint64_t op, const FlashCompletion& c) {
  const uint64_t index = index_of(op);
  switch (kind_of(op)) {
    case OpKind::UnitProgram: unit_programmed(static_cast<uint32_t>(index), c.status); return;
    case OpKind::RecoveryRead: recovery_read_done(static_cast<uint32_t>(index), c); return;
    case OpKind::FillRead: fill_read_done(static_cast<uint32_t>(index), c); return;
  }
}

void DeviceFirmware::unit_programmed(uint32_t unit, FlashStatus status) {
  Unit& u = units_[unit];
  if (status != FlashStatus::Ok) u.program_failed = true;
  if (--u.programs_pending) return;  // the unit's other programs are still going
  BlockInfo& b = blocks_.info(u.block);
  --b.programs_in_flight;
  if (u.program_failed) {
    // Grown bad block: the data is still in the buffer; retire the block and program elsewhere.
    flash_.count_program_failure();
    const uint32_t failed_die = blocks_.die_of_block(u.block);
    uint32_t& open = blocks_.open_block(failed_die, u.slc ? WriteStream::Slc : u.stream, u.open_slot, b.large);
    if (open == u.block) open = BlockManager::kNoBlock;
    b.state = BlockState::Closed;  // its valid data (if any) is moved out by GC, then it is retired
    b.retire_after_gc = true;
    u.state = UnitState::Sealed;
    u.block = BlockManager::kNoBlock;
    try_program_unit(unit);
    gc_.check(failed_die);
    return;
  }
  hal_.l2p_sram_access(4 * u.capacity, true);
  const uint32_t page_spp = blocks_.spp_of(u.block);
  for (uint32_t s = 0; s < u.capacity; ++s) {
    const uint64_t lba = u.lbas[s];
    if (lba == kNoLba) continue;
    const uint32_t ppa = blocks_.ppa(u.block, u.page + s / page_spp, s % page_spp);
    const uint32_t e = map_.get(lba);
    if (u.stream == WriteStream::Host) {
      ++stats_.host_program_sectors;
      if (e == L2pMap::cached(u.first_slot + s)) {
        hal_.charge_cycles(params_.cycles_map_update);
        map_store_.updated(lba);
        map_.set(lba, ppa);
        blocks_.mark_valid(ppa);
        invalidate_old(u.old_ppa[s]);  // the new copy is on NAND: the one it supersedes may go
        u.old_ppa[s] = L2pMap::kUnmapped;
      }
      const uint8_t fua = u.fua_tag[s];
      if (fua != kNoTag && table_.kind(fua) == CommandKind::Write && tags_[fua].nondurable) {
        TagState& t = tags_[fua];
        if (--t.nondurable == 0 && t.done == t.blocks) table_.respond(fua, table_.lun(fua));
      }
    } else {
      gc_.moved(lba, u.old_ppa[s], ppa);
    }
  }
  if (u.stream == WriteStream::Host) stats_.host_page_sectors += u.capacity;
  if (wb_ && u.stream == WriteStream::Host)
    (u.slc ? wb_->stats().slc_write_sectors : wb_->stats().tlc_write_sectors) += u.assigned;
  for (uint8_t tag : u.sync_tags) {
    TagState& t = tags_[tag];
    if (table_.kind(tag) == CommandKind::Sync && --t.sync_pending == 0) table_.respond(tag, table_.lun(tag));
  }
  const uint32_t die = u.die;
  const bool gc_unit = u.stream == WriteStream::Gc || u.stream == WriteStream::Cold;
  const bool flush_unit = u.flush;
  release_unit(unit);
  if (gc_unit) gc_.unit_programmed(die, flush_unit);
}

// GC wrote a copy of `from` at `to`: the map follows it when `from` is still the live
// copy (the host did not overwrite it meanwhile), or the copy that newer data waiting in
// the cache supersedes (it stays that data's fallback).
bool DeviceFirmware::gc_follow_move(uint64_t lba, uint32_t from, uint32_t to) {
  const uint32_t e = map_.get(lba);
  if (e == from) {
    map_store_.updated(lba);
    map_.set(lba, to);
  } else if (L2pMap::is_cached(e) && superseded_copy(e) == from) {
    superseded_copy(e) = to;
  } else {
    return false;
  }
  blocks_.mark_valid(to);
  blocks_.mark_invalid(from);
  return true;
}

void DeviceFirmware::release_unit(uint32_t unit) {
  Unit& u = units_[unit];
  u.state = UnitState::Free;
  if (hybrid_) {
    for (uint32_t k = 1; k < u.capacity; ++k) units_[unit + k].absorbed = 0;
    slot_runs_->release(unit, u.capacity > 1);
  } else {
    free_units_.push_back(unit);
  }
  gc_.units_freed();  // a freed unit may unblock GC first (it frees blocks), then host writes
  retry_waiters();
}

// ---------------------------------------------------------------- the garbage collector's side

uint32_t DeviceFirmware::gc_unit(WriteStream stream, bool large, uint32_t die, bool flush) {
  const uint32_t unit = allocate_unit(stream, true, large);
  if (unit == kNone) return kNoUnit;
  units_[unit].die = die;
  units_[unit].flush = flush;
  return unit;
}

uint64_t DeviceFirmware::gc_stage(uint32_t unit, uint32_t from, uint32_t n, uint32_t& pos) {
  Unit& u = units_[unit];
  pos = u.assigned;
  for (uint32_t i = 0; i < n; ++i) u.old_ppa[pos + i] = from + i;
  u.assigned += n;
  ++u.pending_reads;
  return slot_address(u.first_slot + pos);
}

void DeviceFirmware::gc_data_arrived(uint32_t unit, uint32_t pos, uint32_t n, const PageOob& oob) {
  Unit& u = units_[unit];
  // The OOB names each sector's LBA: that is what GC programs with the moved data.
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t sector = blocks_.sector_of(u.old_ppa[pos + i]);
    const uint32_t lba = oob.lba[sector];
    u.lbas[pos + i] = lba == kNoOobLba ? kNoLba : lba;
    u.data_seq[pos + i] = oob.data_sequence(sector);  // a copy keeps its age
  }
  u.arrived += n;
  --u.pending_reads;
  try_program_unit(unit);
}

// An erase gave the die a block back: units waiting for a die go first.
void DeviceFirmware::space_returned(uint32_t) {
  for (size_t n = program_waiters_.size(); n > 0; --n) {
    const uint32_t unit = program_waiters_.front();
    program_waiters_.pop_front();
    try_program_unit(unit);
  }
  map_writer_.retry_programs();
}

void DeviceFirmware::on_timer(uint64_t cookie) {
  if (cookie == IdleScheduler::kTimerCookie) idle_.on_timer();
}

// Boot: a fresh HPB session key from the hardware RNG each power cycle, so entries
// handed out before a power cycle no longer verify (rtl/README.md). The key goes
// into the engine's write-only registers and is never kept in firmware memory.
void DeviceFirmware::on_power_up() {
  for (uint32_t word = 0; word < 4; word += 2) {
    const uint64_t r = hal_.random64();
    hal_.write_crypto_register(hpb_crypto_reg::kKey0 + 4 * word, uint32_t(r >> 32));
    hal_.write_crypto_register(hpb_crypto_reg::kKey0 + 4 * (word + 1), uint32_t(r));
  }
  hal_.write_crypto_register(hpb_crypto_reg::kCtrl, hpb_crypto_reg::kCtrlKeyCommit);
  ++stats_.session_keys_loaded;
  if (hpb_) hpb_->on_power_up();
  if (recover_on_power_up_) {
    recover_on_power_up_ = false;
    recovery_start_ps_ = hal_.now_ps();
    recovery_ = std::make_unique<RecoveryScan>(blocks_, logical_blocks_, map_store_.pages());
    idle_.pause(true);
    if (flush_) flush_->hold(true);
    for (uint32_t die = 0; die < geo_.dies(); ++die) issue_recovery_read(die);
  }
}

// ---------------------------------------------------------------- power-loss recovery

// One OOB read per die at a time, all dies in parallel; the sector lands in a read slot
// nobody uses yet (commands wait until recovery ends).
void DeviceFirmware::issue_recovery_read(uint32_t die) {
  uint32_t block, page;
  recovery_->next(die, block, page);
  if (block == RecoveryScan::kDone) {
    if (recovery_->done()) finish_recovery();
    return;
  }
  flash_.read(flash_client_, cookie(OpKind::RecoveryRead, die), blocks_.address_of(block, page), 0, 1,
              slot_address(die % read_slots_));
}

void DeviceFirmware::recovery_read_done(uint32_t die, const FlashCompletion& c) {
  recovery_->page_read(die, c.status, c.oob);
  issue_recovery_read(die);
}

// The scan is complete: blocks, map and map directory from what it found. Blocks that
// hold anything are closed (GC reclaims them); the replayed map pages are written back
// so the map on NAND is current again.
void DeviceFirmware::finish_recovery() {
  const RecoveryScan& r = *recovery_;
  const auto& found = r.blocks_found();
  for (uint32_t b = 0; b < found.size(); ++b) {
    BlockInfo& info = blocks_.info(b);
    if (found[b].bad) { info.state = BlockState::Bad; continue; }
    if (found[b].pages_written == 0) continue;
    info.state = BlockState::Closed;
    info.next_page = blocks_.pages_in_block(b);
    info.holds_map = found[b].holds_map;
    info.last_write_ps = hal_.now_ps();
    // A block cut part-way is written on from the next program unit (a torn unit is
    // simply skipped): one per stream and die, the others are closed for GC.
    const uint32_t step = info.holds_map ? params_.program_pages : hybrid_ ? 1 : unit_sectors_ / spp_;  // pages per unit
    const uint32_t next = (found[b].pages_written + step - 1) / step * step;
    if (next + step > blocks_.pages_in_block(b)) continue;
    const uint32_t die = blocks_.die_of_block(b);
    for (WriteStream stream : {WriteStream::Map, WriteStream::Host, WriteStream::Gc, WriteStream::Slc}) {
      if ((stream == WriteStream::Map) != info.holds_map || (stream == WriteStream::Slc) != info.slc) continue;
      uint32_t& open = blocks_.open_block(die, stream, 0, info.large);
      if (open != BlockManager::kNoBlock) continue;
      open = b;
      info.state = BlockState::Open;
      info.next_page = next;
      break;
    }
  }
  blocks_.rebuild_free_lists();
  if (wb_) {  // the buffer's fill: the SLC pages written (what their erase will take off again)
    wb_->reset_used();
    for (uint32_t b = 0; b < found.size(); ++b)
      if (blocks_.info(b).slc && found[b].pages_written) wb_->add_used(int64_t(blocks_.info(b).next_page) * spp_);
  }
  uint64_t recovered = 0;
  for (uint64_t lba = 0; lba < logical_blocks_; ++lba) {
    if (r.lba_sequence(lba) == 0) continue;
    map_.set(lba, r.lba_ppa(lba));
    blocks_.mark_valid(r.lba_ppa(lba));
    ++recovered;
  }
  stats_.recovered_lbas += recovered;
  std::vector<uint8_t> replayed(map_store_.pages(), 0);
  for (uint32_t mp = 0; mp < map_store_.pages(); ++mp) {
    if (r.map_sequence(mp) != 0) {
      map_store_.set_location(mp, r.map_ppa(mp), r.map_sequence(mp));
      for (uint32_t s = 0; s < spp_; ++s) blocks_.mark_valid(r.map_ppa(mp) + s);
    }
    const uint64_t first = uint64_t(mp) * map_store_.entries_per_page();
    const uint64_t end = std::min<uint64_t>(first + map_store_.entries_per_page(), logical_blocks_);
    for (uint64_t lba = first; lba < end && !replayed[mp]; ++lba)
      replayed[mp] = r.lba_sequence(lba) > map_store_.sequence(mp);
  }
  flash_.restart_sequence(r.max_sequence());
  hal_.charge_cycles(uint64_t(params_.cycles_map_update) * recovered);
  ++stats_.recoveries;
  stats_.recovery_page_reads += r.pages_read();
  stats_.recovery_torn_pages += r.torn_pages();
  stats_.recovery_ps = hal_.now_ps() - recovery_start_ps_;
  recovery_.reset();
  idle_.pause(false);
  if (flush_) flush_->hold(false);
  map_writer_.write_back_pages(replayed);
  for (uint32_t die = 0; die < geo_.dies(); ++die) gc_.check(die);
}

// HPB READ verification and READ BUFFER signing results go to the HPB device.
void DeviceFirmware::on_crypto_done(const HpbCryptoResult& result) {
  ++stats_.crypto_results;
  if (!result.valid) ++stats_.crypto_rejected;
  if (hpb_) hpb_->on_crypto_done(result);
}

// ---------------------------------------------------------------- preconditioning

void DeviceFirmware::precondition(uint64_t first_lba, uint64_t count, FlashBackdoor& backdoor) {
  const uint32_t unit_pages = unit_sectors_ / spp_;
  std::vector<SectorStamp> stamps(std::max(unit_sectors_, large_capacity()));
  std::vector<PageOob> oobs(std::max(unit_pages, params_.program_pages));
  preconditioning_ = true;
  gc_.hold(true);
  if (flush_) flush_->hold(true);
  const uint64_t end = std::min(first_lba + count, logical_blocks_);
  // Hybrid page size: the range as one sequential write, split as the write path splits it.
  for (uint64_t lba = first_lba; hybrid_ && lba < end;) {
    const bool chunk = lba % large_capacity() == 0 && lba + large_capacity() <= end;
    Unit scratch;
    scratch.stream = WriteStream::Host;
    scratch.capacity = shares_->pool_for(chunk, blocks_) ? large_capacity() : 1;
    if (!place_unit(scratch)) break;  // device full
    BlockInfo& b = blocks_.info(scratch.block);
    --b.programs_in_flight;
    b.last_write_ps = 0;
    oobs[0] = PageOob{};
    oobs[0].kind = PageKind::UserData;
    oobs[0].sequence = flash_.next_sequence();
    const uint32_t fill = chunk ? scratch.capacity : 1;  // a single piece in a large page: padding
    for (uint32_t s = 0; s < scratch.capacity; ++s) {
      stamps[s] = SectorStamp{};
      if (s >= fill) continue;
      const uint64_t at = lba + s;
      invalidate_old(map_.get(at));
      const uint32_t ppa = blocks_.ppa(scratch.block, scratch.page, s);
      map_.set(at, ppa);
      blocks_.mark_valid(ppa);
      stamps[s] = SectorStamp{at, 0};
      oobs[0].lba[s] = uint32_t(at);
    }
    lba += fill;
    backdoor.preload_pages(blocks_.address_of(scratch.block, scratch.page), 1, stamps.data(), oobs.data());
  }
  // Whole logical pages, one write unit at a time, placed exactly as the write path would:
  // in LBA order, or pool by pool under static mapping (sectors outside the range are padding).
  const uint64_t first_lp = first_lba / lp_sectors_, end_lp = (end + lp_sectors_ - 1) / lp_sectors_;
  const uint32_t groups = alloc_.static_mapping() ? alloc_.pools() : 1;
  bool full = false;
  for (uint32_t group = 0; group < groups && !full && end > first_lba && !hybrid_; ++group) {
    uint64_t lp = first_lp;
    if (alloc_.static_mapping()) lp += (group + groups - first_lp % groups) % groups;
    while (lp < end_lp) {
      Unit scratch;
      scratch.stream = WriteStream::Host;
      if (alloc_.static_mapping()) scratch.pool = group;
      if (!place_unit(scratch)) { full = true; break; }  // device full
      BlockInfo& b = blocks_.info(scratch.block);
      --b.programs_in_flight;
      b.last_write_ps = 0;
      const uint64_t seq = flash_.next_sequence();
      for (uint32_t p = 0; p < unit_pages; ++p) { oobs[p] = PageOob{}; oobs[p].kind = PageKind::UserData; oobs[p].sequence = seq; }
      for (uint32_t slot = 0; slot < unit_sectors_; slot += lp_sectors_, lp += groups) {
        for (uint32_t s = 0; s < lp_sectors_; ++s) {
          const uint64_t lba = lp * lp_sectors_ + s;
          SectorStamp& st = stamps[slot + s];
          st = SectorStamp{};
          if (lp >= end_lp || lba < first_lba || lba >= end) continue;
          invalidate_old(map_.get(lba));
          const uint32_t ppa = blocks_.ppa(scratch.block, scratch.page + (slot + s) / spp_, (slot + s) % spp_);
          map_.set(lba, ppa);
          blocks_.mark_valid(ppa);
          st = SectorStamp{lba, 0};
          oobs[(slot + s) / spp_].lba[(slot + s) % spp_] = uint32_t(lba);
        }
      }
      backdoor.preload_pages(blocks_.address_of(scratch.block, scratch.page), unit_pages, stamps.data(), oobs.data());
    }
  }
  // The map pages of the filled range, on NAND in map blocks (none of them in SRAM yet).
  if (map_store_.enabled() && end > first_lba) {
    const uint32_t first_page = map_store_.page_of(first_lba), last_page = map_store_.page_of(end - 1);
    for (uint32_t page = first_page; page <= last_page;) {
      UnitPlace where;
      where.stream = WriteStream::Map;
      if (!place_unit(where)) break;
      --blocks_.info(where.block).programs_in_flight;
      const uint64_t seq = flash_.next_sequence();
      for (uint32_t p = 0; p < params_.program_pages; ++p, ++page) {
        PageOob& oob = oobs[p];
        oob = PageOob{};
        oob.kind = page <= last_page ? PageKind::MapData : PageKind::Padding;
        oob.sequence = seq;
        for (uint32_t s = 0; s < spp_; ++s) {
          stamps[p * spp_ + s] = SectorStamp{};
          oob.lba[s] = page <= last_page ? page : kNoOobLba;
        }
        if (page > last_page) continue;
        const uint32_t ppa = blocks_.ppa(where.block, where.page + p, 0);
        invalidate_old(map_store_.location(page));
        map_store_.set_location(page, ppa, seq);
        for (uint32_t s = 0; s < spp_; ++s) blocks_.mark_valid(ppa + s);
      }
      backdoor.preload_pages(blocks_.address_of(where.block, where.page), params_.program_pages, stamps.data(),
                             oobs.data());
    }
  }
  preconditioning_ = false;
  gc_.hold(false);
  if (flush_) flush_->hold(false);
}

}  // namespace ufs
