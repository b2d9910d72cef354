#include "device_firmware.h"
#include <algorithm>
#include <cmath>
#include <cstring>

namespace ufs {

namespace {
// Host DMA tokens of write-cache data (control data: kControlToken).
uint64_t write_token(uint32_t unit, uint32_t pos, uint32_t count) {
  return uint64_t(unit) | uint64_t(pos) << 20 | uint64_t(count) << 40;
}
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
      lp_sectors_(params.logical_page_kib / 4),
      hybrid_(geometry.hybrid()),
      shares_(geometry.hybrid() ? std::make_unique<HybridPoolShares>(geometry, params.over_provisioning) : nullptr),
      alloc_(make_policy(geometry, params)),
      read_slots_((params.data_buffer_kib - params.write_cache_kib) / 4),
      tags_(256),
      table_(hal, params.cycles_response, params.cycles_transfer_setup, latency_),
      flash_(hal, blocks_, params.cycles_flash_submit, params.writebooster.enabled),
      protection_(table_, flash_, *this),
      map_store_(hal, params_, geometry, logical_blocks_, blocks_, flash_),
      placement_(hal, params_, geometry, blocks_, alloc_, gc_),
      cache_(hal, params_, geometry, read_slots_, blocks_, map_, map_store_, flash_, placement_, gc_, gc_),
      gc_units_(cache_, map_, map_store_, blocks_),
      fill_(hal, params_, blocks_, map_, flash_, cache_),
      map_writer_(hal, params_, geometry, blocks_, flash_, map_store_, placement_, cache_, gc_),
      reads_(hal, params_, read_slots_, table_, latency_, map_, blocks_, flash_, map_store_),
      gc_(hal, params_, geometry, blocks_, flash_, gc_units_, map_writer_, *this, shares_.get()),
      wb_(params.writebooster.enabled ? std::make_unique<WriteBooster>(params.writebooster, geometry) : nullptr),
      recovery_(hal, params_, geo_, logical_blocks_, read_slots_, blocks_, map_, map_store_, flash_, wb_.get(), *this) {
  table_.set_end_listener(this);
  reads_.set_next_waiters(this);
  cache_.set_durability_listener(this);
  cache_.set_freed_listener(this);
  // Hybrid: one filling host unit per pool (small, large).
  host_units_.assign(alloc_.static_mapping() ? alloc_.pools() : hybrid_ ? 2 : 1, kNone);
  map_store_.set_dirty_sink(map_writer_);
  if (wb_) {
    blocks_.reserve_slc(wb_->slc_blocks_per_die());
    placement_.set_write_booster(wb_.get());
    cache_.set_write_booster(wb_.get());
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
  return double(cache_.stats().host_program_sectors + cache_.stats().padding_sectors + gc_.stats().moved_sectors) /
         double(stats_.host_write_blocks);
}

void DeviceFirmware::visit_stats(StatsVisitor& v) const {
  const FirmwareStats& f = stats_;
  v.count("ftl.logical_blocks", logical_blocks_, "blocks", "LBAs the device exports");
  v.count("ftl.host_write_blocks", f.host_write_blocks, "blocks", "blocks the host wrote");
  reads_.visit_stats(v);
  cache_.visit_stats(v);
  gc_.visit_stats(v);
  flash_.visit_stats(v);
  v.count("ftl.bad_blocks", blocks_.bad_blocks(), "blocks", "blocks retired");
  v.figure("ftl.write_amplification", write_amplification(), "", "NAND sectors programmed per host sector written");
  table_.visit_stats(v);
  protection_.visit_stats(v);
  v.count("ftl.map_chunks_allocated", map_.chunks_allocated(), "chunks", "L2P map chunks allocated");
  v.count("ftl.rmw_writes", f.rmw_writes, "commands", "writes that did not cover whole logical pages");
  fill_.visit_stats(v);
  map_store_.visit_stats(v);
  map_writer_.visit_stats(v);
  v.count("crypto.session_keys_loaded", f.session_keys_loaded, "", "HPB session keys drawn at power-up");
  if (hpb_) hpb_->visit_stats(v);
  if (wb_) wb_->visit_stats(v);
}

bool DeviceFirmware::idle() const {
  if (!table_.all_idle()) return false;
  if (cache_.busy()) return false;
  return gc_.idle();
}

std::string DeviceFirmware::debug_state() const {
  std::string out;
  uint32_t unit_states[4];
  cache_.count_states(unit_states);
  out += "units free/filling/sealed/programming " + std::to_string(unit_states[0]) + "/" +
         std::to_string(unit_states[1]) + "/" + std::to_string(unit_states[2]) + "/" +
         std::to_string(unit_states[3]) + "; waiting: reads " + std::to_string(reads_.waiting()) +
         ", writes " + std::to_string(write_waiters_.size()) + ", units for a die " +
         std::to_string(cache_.waiting_for_die()) + ", GC for a unit " + std::to_string(gc_.waiting_for_units()) + "\n";
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
void DeviceFirmware::reclaim_space() {
  for (uint32_t d = 0; d < geo_.dies(); ++d) gc_.check(d);  // last chance: a victim GC can still clean
}

void DeviceFirmware::write_protect_entered() {
  gc_.stop();
  if (flush_) flush_->stop();
  // Writes waiting for buffer space: refused (those with data in flight once it is in).
  std::deque<uint8_t> waiting;
  waiting.swap(write_waiters_);
  for (uint8_t tag : waiting) {
    TagState& t = tags_[tag];
    t.waiting = false;
    t.rejected = true;
    if (t.out_requests == 0) protection_.refuse(tag);
  }
  // Syncs and FUA writes waiting for units that will never be programmed cannot be made
  // durable: refused too. The units' data stays in the cache, readable.
  for (uint32_t i = 0; i < cache_.unit_count(); ++i) {
    WriteCache::Unit& u = cache_.unit(i);
    if (u.state != WriteCache::UnitState::Sealed) continue;
    for (uint8_t tag : u.sync_tags)
      if (table_.kind(tag) == CommandKind::Sync) protection_.refuse(tag);
    u.sync_tags.clear();
    for (uint32_t i = 0; i < u.assigned; ++i) {
      const uint8_t tag = u.fua_tag[i];
      if (tag == WriteCache::kNoTag) continue;
      u.fua_tag[i] = WriteCache::kNoTag;
      TagState& t = tags_[tag];
      if (table_.kind(tag) == CommandKind::Write && !t.rejected) {
        t.rejected = true;
        if (t.out_requests == 0) protection_.refuse(tag);
      }
    }
  }
}

// ---------------------------------------------------------------- commands

void DeviceFirmware::on_command(const HostCommand& c) {
  table_.count_command();
  idle_.command_started();
  latency_.start(c.tag, hal_.now_ps());
  hal_.charge_cycles(params_.cycles_command_decode);
  if (table_.kind(c.tag) != CommandKind::Idle) { table_.reject_overlap(c); return; }  // the host broke the protocol
  if (recovery_.active()) { table_.fail(c, sense_key::kNotReady, asc::kNotReadyCause); return; }
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
      if (s.op == ScsiOp::Write && protection_.refuses(c)) return;
      if (s.op == ScsiOp::Read) reads_.start(c, s.lba, s.blocks, false);
      else start_write(c, s);
      return;
    case ScsiOp::SynchronizeCache:
      if (s.lba >= logical_blocks_ || (s.blocks && s.blocks > logical_blocks_ - s.lba)) {
        table_.fail(c, sense_key::kIllegalRequest, asc::kLbaOutOfRange);
        return;
      }
      if (protection_.refuses(c)) return;
      start_sync(c);
      return;
    case ScsiOp::Unmap:
      if (protection_.refuses(c)) return;
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
      filling = cache_.allocate(WriteStream::Host, false, large);
      if (filling == kNone) {
        // Static mapping: partly filled units of other pools must not hold the cache forever.
        if (alloc_.static_mapping())
          for (uint32_t& other : host_units_)
            if (other != kNone) { const uint32_t full = other; other = kNone; cache_.seal(full); }
        if (protection_.on()) {  // no unit will ever free up: refuse once its data in flight is in
          t.rejected = true;
          if (t.out_requests == 0) protection_.refuse(tag);
          return;
        }
        if (!t.waiting) { t.waiting = true; write_waiters_.push_back(tag); }
        return;
      }
      if (alloc_.static_mapping()) cache_.unit(filling).pool = alloc_.pool_of(lba / lp_sectors_);
    }
    const uint32_t unit = filling;
    WriteCache::Unit& u = cache_.unit(unit);
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
        u.fua_tag[pos + i] = t.fua ? tag : WriteCache::kNoTag;
      }
      u.assigned += n;
      hal_.charge_cycles(params_.cycles_transfer_setup + uint64_t(n) * params_.cycles_cache_insert);
      latency_.begin(tag, LatencyPart::Transfer, hal_.now_ps());
      hal_.request_data_out(tag, offset * uint32_t(kSectorBytes), slot_address(u.first_slot + pos),
                            n * uint32_t(kSectorBytes), write_token(unit, pos, n));
      t.staged += n;
      ++t.out_requests;
    } else {
      fill_.fill(unit, pos, lba, n);
    }
    t.span_staged += n;
    if ((u.assigned == u.capacity || hybrid_) && filling == unit) {  // hybrid: a unit holds one piece
      filling = kNone;
      cache_.seal(unit);
    }
  }
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
  cache_.host_data_arrived(unit, pos, count);
  t.done += count;
  --t.out_requests;
  if (t.rejected) { if (t.out_requests == 0) protection_.refuse(tag); return; }
  if (t.span_staged < t.span && !t.waiting) request_write_data(tag);
  if (t.done < t.blocks) return;
  if (!t.fua || t.nondurable == 0) { table_.respond(tag, table_.lun(tag)); return; }
  latency_.begin(tag, LatencyPart::Nand, hal_.now_ps());  // until its programs end
  // FUA: the data must reach NAND before the response; close the unit holding its tail.
  for (uint32_t& filling : host_units_) {
    if (filling == kNone) continue;
    const WriteCache::Unit& u = cache_.unit(filling);
    if (std::find(u.fua_tag.begin(), u.fua_tag.begin() + u.assigned, tag) != u.fua_tag.begin() + u.assigned) {
      const uint32_t tail = filling;
      filling = kNone;
      cache_.seal(tail);
    }
  }
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
    cache_.seal(u);
  }
  // Wait for every host unit holding data: sealed (data still arriving or no die yet) or programming.
  for (uint32_t i = 0; i < cache_.unit_count(); ++i) {
    WriteCache::Unit& u = cache_.unit(i);
    if (u.stream == WriteStream::Host &&
        (u.state == WriteCache::UnitState::Sealed || u.state == WriteCache::UnitState::Programming)) {
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
        cache_.copy_obsolete(cache_.superseded_copy(e));
        cache_.superseded_copy(e) = L2pMap::kUnmapped;
      }
      cache_.copy_obsolete(e);
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

void DeviceFirmware::on_flash_complete(const FlashCompletion& c) {
  hal_.charge_cycles(params_.cycles_flash_complete);
  flash_.complete(c);
  // Programs waiting for a block with nothing on the flash: no later event frees one.
  if (protection_.may_be_stuck() && !preconditioning_ && (cache_.waiting_for_die() || map_writer_.programs_waiting()))
    protection_.out_of_space();
}

// An erase gave the die a block back: units waiting for a die go first.
void DeviceFirmware::space_returned(uint32_t) {
  cache_.retry_programs();
  map_writer_.retry_programs();
}

void DeviceFirmware::fua_sector_programmed(uint8_t tag) {
  if (table_.kind(tag) != CommandKind::Write || tags_[tag].nondurable == 0) return;
  TagState& t = tags_[tag];
  if (--t.nondurable == 0 && t.done == t.blocks) table_.respond(tag, table_.lun(tag));
}

void DeviceFirmware::sync_unit_programmed(uint8_t tag) {
  if (table_.kind(tag) == CommandKind::Sync && --tags_[tag].sync_pending == 0) table_.respond(tag, table_.lun(tag));
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
  recovery_.power_up();
}

void DeviceFirmware::recovery_started() {
  idle_.pause(true);
  if (flush_) flush_->hold(true);
}

void DeviceFirmware::recovery_finished(const std::vector<uint8_t>& replayed) {
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
  placement_.set_preconditioning(true);
  gc_.hold(true);
  if (flush_) flush_->hold(true);
  const uint64_t end = std::min(first_lba + count, logical_blocks_);
  // Hybrid page size: the range as one sequential write, split as the write path splits it.
  for (uint64_t lba = first_lba; hybrid_ && lba < end;) {
    const bool chunk = lba % large_capacity() == 0 && lba + large_capacity() <= end;
    UnitPlace scratch;
    scratch.stream = WriteStream::Host;
    scratch.capacity = shares_->pool_for(chunk, blocks_) ? large_capacity() : 1;
    if (!placement_.place(scratch)) break;  // device full
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
      cache_.copy_obsolete(map_.get(at));
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
      UnitPlace scratch;
      scratch.stream = WriteStream::Host;
      if (alloc_.static_mapping()) scratch.pool = group;
      if (!placement_.place(scratch)) { full = true; break; }  // device full
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
          cache_.copy_obsolete(map_.get(lba));
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
      if (!placement_.place(where)) break;
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
        cache_.copy_obsolete(map_store_.location(page));
        map_store_.set_location(page, ppa, seq);
        for (uint32_t s = 0; s < spp_; ++s) blocks_.mark_valid(ppa + s);
      }
      backdoor.preload_pages(blocks_.address_of(where.block, where.page), params_.program_pages, stamps.data(),
                             oobs.data());
    }
  }
  preconditioning_ = false;
  placement_.set_preconditioning(false);
  gc_.hold(false);
  if (flush_) flush_->hold(false);
}

}  // namespace ufs
