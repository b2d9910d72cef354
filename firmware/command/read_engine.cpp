#include "command/read_engine.h"
#include <algorithm>
#include "command/buffer_layout.h"
#include "flash/page_run.h"

namespace ufs {

ReadEngine::ReadEngine(Hal& hal, const FirmwareParams& params, uint32_t read_slots, CommandTable& table,
                       LatencySplit& latency, const L2pMap& map, const BlockLayout& layout, FlashPort& flash,
                       MapLookups& lookups)
    : hal_(hal), params_(params), table_(table), latency_(latency), map_(map), layout_(layout), flash_(flash),
      client_(flash.attach(*this)), lookups_(lookups), read_slots_(read_slots), area_(read_slots),
      segments_(read_slots), commands_(CommandTable::kTags) {
  free_segments_.reserve(segments_.size());
  for (uint32_t i = static_cast<uint32_t>(segments_.size()); i-- > 0;) free_segments_.push_back(i);
}

void ReadEngine::start(const HostCommand& c, uint64_t lba, uint32_t blocks, bool verified) {
  Command& t = commands_[c.tag];
  t = Command{};
  table_.claim(c.tag, CommandKind::Read, c.lun);
  t.verified = verified;
  t.lba = lba;
  t.blocks = blocks;
  stats_.host_read_blocks += blocks;
  stage(c.tag);
}

void ReadEngine::stage(uint8_t tag) {
  const FlashPort::WorkFor cause(flash_, tag);  // also when staged in another command's step
  Command& t = commands_[tag];
  // A read queued for buffer space is staged only from the queue (retry_waiting clears
  // `waiting` first). Staged any other way (its own DATA IN ending), it would finish with
  // its tag still queued, and the tag's next command would get read segments and a
  // second RESPONSE.
  if (t.waiting) return;
  // Two segments in flight per command keep NAND and link busy on long reads.
  while (t.staged < t.blocks && t.segments < 2) {
    const uint32_t n = std::min(params_.read_segment_blocks, t.blocks - t.staged);
    const int64_t slot = free_segments_.empty() ? -1 : area_.allocate(n);
    if (slot < 0) {
      if (!t.waiting) { t.waiting = true; waiters_.push_back(tag); }
      return;
    }
    const uint32_t seg = free_segments_.back();
    free_segments_.pop_back();
    Segment& g = segments_[seg];
    g = Segment{};
    g.tag = tag;
    g.first_block = t.staged;
    g.blocks = n;
    g.slot = static_cast<uint32_t>(slot);
    t.staged += n;
    ++t.segments;
    t.segment_ids[t.segment_ids[0] == kNone ? 0 : 1] = seg;

    // HPB: the verified entries replace the lookups, unless the map changed meanwhile.
    if (t.verified && !entries_->still_fresh(tag)) t.verified = false;
    // Map pages first: a lookup whose page is not in SRAM waits for its load from NAND.
    if (!t.verified) {
      g.map_wait = lookups_.wait_for_lookups(t.lba + g.first_block, n, *this, seg);
      if (g.map_wait) { latency_.begin(tag, LatencyPart::MapLoad, hal_.now_ps()); continue; }
    }
    look_up(seg);
  }
}

void ReadEngine::map_page_loaded(uint32_t seg) {
  if (--segments_[seg].map_wait) return;
  latency_.end(segments_[seg].tag, LatencyPart::MapLoad, hal_.now_ps());
  look_up(seg);
}

// Look every block of a staged segment up; merge consecutive sectors of one physical page into one read.
void ReadEngine::look_up(uint32_t seg) {
  Segment& g = segments_[seg];
  const FlashPort::WorkFor cause(flash_, g.tag);  // also when its map page came in another's step
  Command& t = commands_[g.tag];
  const uint32_t n = g.blocks;
  PageRun run;  // the open run of sectors of one page: one read
  auto submit = [&](const PageRun& r) {
    flash_.read(client_, seg, r.at, r.first_sector, r.count, r.buffer);
    ++g.pending_reads;
  };
  hal_.l2p_sram_access(4 * n, false);
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t lba = t.lba + g.first_block + i;
    hal_.charge_cycles(params_.cycles.map_lookup);
    const uint32_t e = t.verified ? entries_->resolved_ppa(g.tag, g.first_block + i) : map_.get(lba);
    const uint64_t dst = slot_address(g.slot + i);
    if (e == L2pMap::kUnmapped) {
      ++stats_.read_unmapped;
      hal_.zero_buffer(dst, uint32_t(kSectorBytes));
      continue;
    }
    if (L2pMap::is_cached(e)) {
      ++stats_.read_cache_hits;
      hal_.copy_buffer(dst, slot_address(L2pMap::slot_of(e)), uint32_t(kSectorBytes));
      continue;
    }
    run.add(layout_, e, dst, submit);
  }
  run.close(submit);
  stats_.flash_reads += g.pending_reads;
  if (g.pending_reads == 0) segment_ready(seg);
  else latency_.begin(g.tag, LatencyPart::Nand, hal_.now_ps());
}

void ReadEngine::on_flash_done(uint64_t seg, const FlashCompletion&) {
  Segment& g = segments_[seg];
  if (--g.pending_reads) return;
  latency_.end(g.tag, LatencyPart::Nand, hal_.now_ps());
  segment_ready(uint32_t(seg));
}

void ReadEngine::segment_ready(uint32_t seg) {
  segments_[seg].ready = true;
  send_ready(segments_[seg].tag);
}

// DATA IN leaves in offset order: a segment goes only when it is the next one.
void ReadEngine::send_ready(uint8_t tag) {
  Command& t = commands_[tag];
  bool progress = true;
  while (progress) {
    progress = false;
    for (uint32_t i : t.segment_ids) {
      if (i == kNone) continue;
      Segment& g = segments_[i];
      if (!g.ready || g.sent || g.first_block != t.next_send) continue;
      g.sent = true;
      t.next_send += g.blocks;
      hal_.charge_cycles(params_.cycles.transfer_setup);
      latency_.begin(tag, LatencyPart::Transfer, hal_.now_ps());
      hal_.send_data_in(tag, g.first_block * uint32_t(kSectorBytes), slot_address(g.slot),
                        g.blocks * uint32_t(kSectorBytes), i);
      progress = true;
    }
  }
}

void ReadEngine::data_in_done(uint8_t tag, uint64_t token) {
  Command& t = commands_[tag];
  Segment& g = segments_[token];
  latency_.end(tag, LatencyPart::Transfer, hal_.now_ps());
  area_.release(g.slot, g.blocks);
  free_segments_.push_back(static_cast<uint32_t>(token));
  --t.segments;
  for (uint32_t& id : t.segment_ids) if (id == token) id = kNone;
  t.done += g.blocks;
  if (t.done == t.blocks) table_.respond(tag, table_.lun(tag));
  else stage(tag);
  retry_waiting();
  if (next_) next_->retry_waiting();
}

void ReadEngine::retry_waiting() {
  for (size_t n = waiters_.size(); n > 0 && !waiters_.empty(); --n) {
    const uint8_t tag = waiters_.front();
    waiters_.pop_front();
    commands_[tag].waiting = false;
    stage(tag);
    if (commands_[tag].waiting) break;  // still no room: keep FIFO order
  }
}

void ReadEngine::visit_stats(StatsVisitor& v) const {
  v.count("ftl.host_read_blocks", stats_.host_read_blocks, "blocks", "blocks the host read");
  v.count("ftl.read_cache_hits", stats_.read_cache_hits, "blocks", "read blocks served from the write cache");
  v.count("ftl.read_unmapped", stats_.read_unmapped, "blocks", "read blocks never written (zeros)");
  v.count("ftl.flash_reads", stats_.flash_reads, "reads", "NAND reads of host data");
}

}  // namespace ufs
