#include "write/write_engine.h"
#include <algorithm>
#include "command/buffer_layout.h"
#include "protocol/ufs_protocol.h"

namespace ufs {

namespace {
// Host DMA tokens of write-cache data (control data: kControlToken).
uint64_t write_token(uint32_t unit, uint32_t pos, uint32_t count) {
  return uint64_t(unit) | uint64_t(pos) << 20 | uint64_t(count) << 40;
}
}  // namespace

WriteEngine::WriteEngine(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry,
                         uint64_t logical_blocks, CommandTable& table, LatencySplit& latency, L2pMap& map,
                         MapStore& store, const AllocationPolicy& alloc, HybridPoolShares* shares,
                         const BlockManager& blocks, WriteCache& cache, PageFill& fill, WriteProtection& protection)
    : hal_(hal),
      params_(params),
      shape_{logical_blocks, params.logical_page_kib / 4, geometry.hybrid() ? geometry.large_sectors_per_page() : 0},
      table_(table),
      latency_(latency),
      map_(map),
      store_(store),
      alloc_(alloc),
      shares_(shares),
      blocks_(blocks),
      cache_(cache),
      fill_(fill),
      protection_(protection),
      commands_(CommandTable::kTags),
      // Hybrid: one filling host unit per pool (small, large).
      host_units_(alloc.static_mapping() ? alloc.pools() : geometry.hybrid() ? 2 : 1, kNone) {}

void WriteEngine::start_write(const HostCommand& c, const ScsiCommand& s) {
  Command& t = commands_[c.tag];
  t = Command{};
  table_.claim(c.tag, CommandKind::Write, c.lun);
  t.lba = s.lba;
  t.blocks = s.blocks;
  t.fua = s.fua || params_.write_through;  // write-through: every write waits for its programs
  t.nondurable = t.fua ? s.blocks : 0;
  // The command's range widened to whole logical pages: what it does not cover is read
  // and rewritten with it (read-modify-write).
  const uint32_t lp = shape_.lp_sectors;
  t.span_lba = s.lba / lp * lp;
  const uint64_t span_end = std::min(shape_.logical_blocks, (s.lba + s.blocks + lp - 1) / lp * lp);
  t.span = uint32_t(span_end - t.span_lba);
  if (t.span != s.blocks) ++stats_.rmw_writes;
  stats_.host_write_blocks += s.blocks;
  hal_.charge_cycles(params_.cycles.write_command);
  request_data(c.tag);
}

// The host unit being filled for `lba`: the only one, or its pool's under static mapping.
uint32_t& WriteEngine::filling_unit(uint64_t lba) {
  if (!alloc_.static_mapping()) return host_units_[0];
  return host_units_[alloc_.pool_of(lba / shape_.lp_sectors)];
}

// Give the command's next blocks slots in a filling host unit and ask the host for them;
// the parts of its logical pages it does not cover are filled from the current copy.
void WriteEngine::request_data(uint8_t tag) {
  Command& t = commands_[tag];
  const uint64_t cmd_end = t.lba + t.blocks, span_end = t.span_lba + t.span;
  const uint32_t lp = shape_.lp_sectors, large_slots = shape_.large;
  const bool hybrid = large_slots != 0;
  // A bounded number of data requests per command in flight (the host interface tracks few
  // transfers per tag, like bMaxNumOfRTT); the rest follow as data arrives.
  while (t.span_staged < t.span && t.out_requests < kMaxDataOutRequests) {
    const uint64_t lba = t.span_lba + t.span_staged;
    // Hybrid page size (IISWC'15 sec. VI): a whole aligned large-page chunk of the command goes
    // to a large page, every other 4 KiB piece to a small page (no padding either way).
    const bool chunk = hybrid && lba % large_slots == 0 && lba + large_slots <= cmd_end;
    const bool large = hybrid && shares_->pool_for(chunk, blocks_);
    uint32_t& filling = hybrid ? host_units_[large] : filling_unit(lba);
    if (filling == kNone) {
      filling = cache_.units().allocate(WriteStream::Host, false, large);
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
        if (!t.waiting) { t.waiting = true; waiters_.push_back(tag); }
        return;
      }
      if (alloc_.static_mapping()) cache_.units().place(filling).pool = alloc_.pool_of(lba / lp);
    }
    const uint32_t unit = filling;
    const bool host = lba >= t.lba && lba < cmd_end;
    uint64_t run_end = host ? cmd_end : lba < t.lba ? t.lba : span_end;
    if (alloc_.static_mapping()) run_end = std::min(run_end, (lba / lp + 1) * lp);
    if (hybrid) run_end = std::min<uint64_t>(run_end, lba + (chunk ? large_slots : 1));
    const uint32_t n = uint32_t(std::min<uint64_t>(cache_.units().room(unit), run_end - lba));
    if (host) {
      const uint32_t pos = cache_.units().stage(unit, n);
      const uint32_t offset = uint32_t(lba - t.lba);
      for (uint32_t i = 0; i < n; ++i) {
        const CacheUnits::Slot s = cache_.units().slot(unit, pos + i);
        s.lba = lba + i;
        s.fua_tag = t.fua ? tag : CacheUnits::kNoTag;
      }
      hal_.charge_cycles(params_.cycles.transfer_setup + uint64_t(n) * params_.cycles.cache_insert);
      latency_.begin(tag, LatencyPart::Transfer, hal_.now_ps());
      hal_.request_data_out(tag, offset * uint32_t(kSectorBytes), slot_address(cache_.units().buffer_slot(unit, pos)),
                            n * uint32_t(kSectorBytes), write_token(unit, pos, n));
      ++t.out_requests;
    } else {
      fill_.fill(unit, lba, n);
    }
    t.span_staged += n;
    if ((cache_.units().room(unit) == 0 || hybrid) && filling == unit) {  // hybrid: a unit holds one piece
      filling = kNone;
      cache_.seal(unit);
    }
  }
}

void WriteEngine::data_out_done(uint8_t tag, uint64_t token) {
  Command& t = commands_[tag];
  if (token & kControlToken) { finish_unmap(tag); return; }
  const uint32_t unit = uint32_t(token & 0xFFFFF);
  const uint32_t pos = uint32_t((token >> 20) & 0xFFFFF);
  const uint32_t count = uint32_t(token >> 40);
  latency_.end(tag, LatencyPart::Transfer, hal_.now_ps());
  cache_.host_data_arrived(unit, pos, count);
  t.done += count;
  --t.out_requests;
  if (t.rejected) { if (t.out_requests == 0) protection_.refuse(tag); return; }
  if (t.span_staged < t.span && !t.waiting) request_data(tag);
  if (t.done < t.blocks) return;
  if (!t.fua || t.nondurable == 0) { table_.respond(tag, table_.lun(tag)); return; }
  latency_.begin(tag, LatencyPart::Nand, hal_.now_ps());  // until its programs end
  // FUA: the data must reach NAND before the response; close the unit holding its tail.
  for (uint32_t& filling : host_units_) {
    if (filling == kNone) continue;
    if (cache_.units().holds_fua(filling, tag)) {
      const uint32_t tail = filling;
      filling = kNone;
      cache_.seal(tail);
    }
  }
}

void WriteEngine::fua_sector_programmed(uint8_t tag) {
  Command& t = commands_[tag];
  if (table_.kind(tag) != CommandKind::Write || t.nondurable == 0) return;
  if (--t.nondurable == 0 && t.done == t.blocks) table_.respond(tag, table_.lun(tag));
}

void WriteEngine::sync_unit_programmed(uint8_t tag) {
  if (table_.kind(tag) == CommandKind::Sync && --commands_[tag].sync_pending == 0) table_.respond(tag, table_.lun(tag));
}

void WriteEngine::start_sync(const HostCommand& c) {
  ++stats_.flushes;
  Command& t = commands_[c.tag];
  t = Command{};
  table_.claim(c.tag, CommandKind::Sync, c.lun);
  for (uint32_t& filling : host_units_) {
    if (filling == kNone) continue;
    const uint32_t u = filling;
    filling = kNone;
    cache_.seal(u);
  }
  // Wait for every host unit holding data: sealed (data still arriving or no die yet) or programming.
  t.sync_pending = cache_.wait_for_host_units(c.tag);
  if (t.sync_pending == 0) table_.respond(c.tag, c.lun);
}

void WriteEngine::start_unmap(const HostCommand& c, const ScsiCommand& s) {
  Command& t = commands_[c.tag];
  t = Command{};
  table_.claim(c.tag, CommandKind::Idle, c.lun);
  if (s.parameter_length == 0) { table_.respond(c.tag, c.lun); return; }
  if (s.parameter_length < 8 || s.parameter_length > 4096 || c.expected_length < s.parameter_length) {
    table_.fail(c, sense_key::kIllegalRequest, asc::kParamListLength);
    return;
  }
  table_.claim(c.tag, CommandKind::Unmap, c.lun);
  t.control_bytes = s.parameter_length;
  hal_.charge_cycles(params_.cycles.transfer_setup);
  hal_.request_data_out(c.tag, 0, control_address(c.tag), s.parameter_length, kControlToken);
}

void WriteEngine::finish_unmap(uint8_t tag) {
  Command& t = commands_[tag];
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
  const uint64_t logical_blocks = shape_.logical_blocks;
  for (uint32_t off = 8; off < 8 + desc_len; off += 16) {
    const uint64_t lba = get_be64(list + off);
    const uint32_t n = get_be32(list + off + 8);
    if (lba >= logical_blocks || n > logical_blocks - lba) {
      table_.fail(c, sense_key::kIllegalRequest, asc::kLbaOutOfRange);
      return;
    }
  }
  for (uint32_t off = 8; off < 8 + desc_len; off += 16) {
    const uint64_t lba = get_be64(list + off);
    const uint32_t n = get_be32(list + off + 8);
    hal_.l2p_sram_access(4 * n, true);
    for (uint32_t i = 0; i < n; ++i) {
      hal_.charge_cycles(params_.cycles.map_update);
      const uint32_t e = map_.get(lba + i);
      if (e == L2pMap::kUnmapped) continue;
      if (L2pMap::is_cached(e)) {
        const CacheUnits::Slot cached = cache_.units().cached(e);
        cache_.copy_obsolete(cached.old_ppa);
        cached.old_ppa = L2pMap::kUnmapped;
      }
      cache_.copy_obsolete(e);
      store_.updated(lba + i);
      map_.set(lba + i, L2pMap::kUnmapped);
      ++stats_.unmapped_blocks;
    }
  }
  table_.respond(tag, table_.lun(tag));
}

void WriteEngine::units_freed() {
  if (reads_) reads_->retry_waiting();
  retry_waiting();
}

void WriteEngine::retry_waiting() {
  for (size_t n = waiters_.size(); n > 0 && !waiters_.empty(); --n) {
    const uint8_t tag = waiters_.front();
    waiters_.pop_front();
    commands_[tag].waiting = false;
    request_data(tag);
    if (commands_[tag].waiting) break;
  }
}

void WriteEngine::refuse_undurable() {
  // Writes waiting for buffer space: refused (those with data in flight once it is in).
  std::deque<uint8_t> waiting;
  waiting.swap(waiters_);
  for (uint8_t tag : waiting) {
    Command& t = commands_[tag];
    t.waiting = false;
    t.rejected = true;
    if (t.out_requests == 0) protection_.refuse(tag);
  }
  // Syncs and FUA writes waiting for units that will never be programmed cannot be made
  // durable: refused too. The units' data stays in the cache, readable.
  std::vector<std::pair<uint8_t, bool>> undurable;
  cache_.take_undurable(undurable);
  for (const auto& [tag, sync] : undurable) {
    if (sync) {
      if (table_.kind(tag) == CommandKind::Sync) protection_.refuse(tag);
      continue;
    }
    Command& t = commands_[tag];
    if (table_.kind(tag) == CommandKind::Write && !t.rejected) {
      t.rejected = true;
      if (t.out_requests == 0) protection_.refuse(tag);
    }
  }
}

void WriteEngine::visit_stats(StatsVisitor& v) const {
  v.count("ftl.host_write_blocks", stats_.host_write_blocks, "blocks", "blocks the host wrote");
  v.count("ftl.rmw_writes", stats_.rmw_writes, "commands", "writes that did not cover whole logical pages");
}

}  // namespace ufs
