#include "recovery/power_up_recovery.h"
#include <algorithm>
#include "command/buffer_layout.h"

namespace ufs {

PowerUpRecovery::PowerUpRecovery(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry,
                                     uint64_t logical_blocks, uint32_t read_slots, BlockManager& blocks, L2pMap& map,
                                     MapStore& map_store, FlashPort& flash, WriteBooster* wb,
                                     RecoveryListener& listener)
    : hal_(hal),
      params_(params),
      geo_(geometry),
      logical_blocks_(logical_blocks),
      read_slots_(read_slots),
      blocks_(blocks),
      map_(map),
      map_store_(map_store),
      flash_(flash),
      wb_(wb),
      listener_(listener),
      client_(flash.attach(*this)),
      unit_pages_(geometry.hybrid() ? 1 : params.write_unit_sectors(geometry) / geometry.sectors_per_page()) {}

uint32_t PowerUpRecovery::batch_pages(const FirmwareParams& params, const FlashGeometry& geometry,
                                      const MapStore& store) {
  (void)geometry;
  return RecoveryScan::batch_pages(uint64_t(params.l2p_sram_kib) * 1024, store.entries_per_page(), store.pages());
}

uint64_t PowerUpRecovery::ram_bytes(const FirmwareParams& params, const FlashGeometry& geometry,
                                    const BlockManager& blocks, uint64_t logical_blocks, const MapStore& store) {
  return RecoveryScan::ram_bytes(blocks, logical_blocks, store.entries_per_page(), batch_pages(params, geometry, store));
}

void PowerUpRecovery::power_up() {
  if (!armed_) return;
  armed_ = false;
  start_ps_ = hal_.now_ps();
  scan_ = std::make_unique<RecoveryScan>(blocks_, logical_blocks_, map_store_.entries_per_page(),
                                         batch_pages(params_, geo_, map_store_));
  pass_ = Pass::Scan;
  recovered_ = 0;
  at_start_ = stats_;
  listener_.recovery_started();
  for (uint32_t die = 0; die < geo_.dies(); ++die) issue_read(die);
}

// One OOB read per die at a time, all dies in parallel; the sector lands in a read slot
// nobody uses yet (commands wait until recovery ends).
void PowerUpRecovery::issue_read(uint32_t die) {
  uint32_t block, page;
  if (pass_ == Pass::Scan) scan_->next(die, block, page);
  else scan_->replay_next(die, block, page);
  if (block == RecoveryScan::kDone) {
    if (pass_ == Pass::Scan && scan_->done()) {
      rebuild_blocks();
      rebuild_map_directory();  // first: the map reads a page without a frame from the copy it names
      next_batch();
    } else if (pass_ == Pass::Replay && scan_->replay_done()) {
      if (!start_loads()) next_batch();
    }
    return;
  }
  flash_.read(client_, die, blocks_.layout().address_of(block, page), 0, 1, slot_address(die % read_slots_));
}

void PowerUpRecovery::on_flash_done(uint64_t die, const FlashCompletion& c) {
  const uint32_t d = uint32_t(die);
  if (pass_ == Pass::Load) {
    loading_[d] = 0;
    const LoadRead r = in_flight_[d];
    if (r.check) checked(r, c.status, c.oob);
    else copy_loaded(d, r, c.status);
    --loads_left_;
    issue_load(d);
    if (loads_left_ == 0) next_batch();
    return;
  }
  if (pass_ == Pass::Scan) scan_->page_read(d, c.status, c.oob);
  else scan_->replay_page_read(d, c.status, c.oob);
  issue_read(d);
}

// The next batch of map pages: its replayed data read again, then its copies loaded (a loop:
// batches with nothing to read follow at once).
void PowerUpRecovery::next_batch() {
  for (;;) {
    if (!scan_->start_batch()) { finish(); return; }
    if (scan_->batch_replays() && !scan_->replay_done()) {
      pass_ = Pass::Replay;
      for (uint32_t die = 0; die < geo_.dies(); ++die) issue_read(die);
      return;
    }
    if (start_loads()) return;
  }
}

// Pass 3 for the batch: each page's copy is read on its die; a replayed page without a copy
// is its replayed entries alone. False: nothing to read.
bool PowerUpRecovery::start_loads() {
  pass_ = Pass::Load;
  const uint32_t dies = geo_.dies();
  if (loads_.empty()) {
    loads_.resize(dies);
    loading_.assign(dies, 0);
    in_flight_.resize(dies);
    words_.resize(dies);
    replayed_.assign(map_store_.pages(), 0);
  }
  const uint64_t per_page = scan_->entries_per_page();
  for (uint32_t mp = scan_->batch_end(); mp-- > scan_->batch_first();) {  // a stack: lowest first
    const RecoveryScan::MapPageFound& f = scan_->map_page(mp);
    if (scan_->replayed(mp)) {
      ++stats_.replayed_pages;
      if (mp < replayed_.size()) replayed_[mp] = 1;
    }
    if (f.seq != 0) {
      loads_[blocks_.layout().die_of_block(blocks_.layout().block_of(f.ppa))].push_back(LoadRead{mp, 0, f.ppa, false});
      ++loads_left_;
      continue;
    }
    if (!scan_->replayed(mp)) continue;
    const uint64_t first = uint64_t(mp) * per_page, end = std::min(first + per_page, logical_blocks_);
    for (uint64_t lba = first; lba < end; ++lba) {
      const RecoveryScan::Replayed& r = scan_->replayed_entry(lba);
      if (r.data_seq) install(lba, r.ppa);
    }
  }
  if (loads_left_ == 0) return false;
  for (uint32_t die = 0; die < dies; ++die) issue_load(die);
  return true;
}

void PowerUpRecovery::issue_load(uint32_t die) {
  if (loading_[die] || loads_[die].empty()) return;
  const LoadRead r = loads_[die].back();
  loads_[die].pop_back();
  loading_[die] = 1;
  in_flight_[die] = r;
  const FlashAddress at = blocks_.layout().address_of(blocks_.layout().block_of(r.ppa), blocks_.layout().page_of(r.ppa));
  if (r.check) {  // the OOB of the page the copy names
    ++stats_.check_reads;
    flash_.read(client_, die, at, blocks_.layout().sector_of(r.ppa), 1, slot_address(die % read_slots_));
    return;
  }
  ++stats_.map_loads;
  const uint32_t per_page = uint32_t(scan_->entries_per_page());
  // A word no copy holds (a cached entry's flag): still there after the read, the copy carried no entries.
  words_[die].assign(per_page, L2pMap::kCachedFlag);
  flash_.read(client_, die, at, 0, 0, kL2pSramBase, uint8_t(params_.map_read_priority), words_[die].data(), per_page);
}

// A map page's copy is in: each entry checked against what the scan found, the replayed
// entries applied; an entry both name differently waits for a check read.
void PowerUpRecovery::copy_loaded(uint32_t die, const LoadRead& load, FlashStatus status) {
  const uint32_t mp = load.map_page;
  const RecoveryScan::MapPageFound& f = scan_->map_page(mp);
  const uint64_t per_page = scan_->entries_per_page();
  const uint64_t first = uint64_t(mp) * per_page, end = std::min(first + per_page, logical_blocks_);
  const std::vector<uint32_t>& w = words_[die];
  const bool entries = status == FlashStatus::Ok && !L2pMap::is_cached(w[0]);
  if (!entries) ++stats_.no_entries;
  hal_.l2p_sram_access(uint32_t(per_page * 4), true);
  for (uint64_t lba = first; lba < end; ++lba) {
    uint32_t e = entries ? w[lba - first] : L2pMap::kUnmapped;
    if (e != L2pMap::kUnmapped && scan_->gone(e, mp)) {
      ++stats_.gone_entries;
      if (mp < replayed_.size()) replayed_[mp] = 1;
      e = L2pMap::kUnmapped;
    }
    const RecoveryScan::Replayed& r = scan_->replayed_entry(lba);
    if (r.data_seq && e != r.ppa) {
      if (e != L2pMap::kUnmapped && r.data_seq < f.seq) {  // maybe older data than the copy's: compare
        const uint32_t on = blocks_.layout().die_of_block(blocks_.layout().block_of(e));
        loads_[on].push_back(LoadRead{mp, lba, e, true});
        ++loads_left_;
        if (on != die) issue_load(on);
        continue;
      }
      e = r.ppa;
    }
    install(lba, e);
  }
}

// The page a copy's entry names, against the replayed copy of the same LBA: the newer wins
// (a GC move of data the host overwrote before the copy was taken loses).
void PowerUpRecovery::checked(const LoadRead& r, FlashStatus status, const PageOob& oob) {
  const RecoveryScan::Replayed& rep = scan_->replayed_entry(r.lba);
  const uint32_t s = blocks_.layout().sector_of(r.ppa);
  const bool named = status == FlashStatus::Ok && oob.kind == PageKind::UserData && oob.lba[s] == r.lba;
  const bool copy_newer = named && (oob.data_sequence(s) > rep.data_seq ||
                                    (oob.data_sequence(s) == rep.data_seq && oob.sequence > rep.prog_seq));
  install(r.lba, copy_newer ? r.ppa : rep.ppa);
}

// Only an entry that differs from what the map says is set (L2pMap::recover: the map pages
// recovery changes are written back after it; map_verify's shadow takes every one); every
// mapped one counts valid.
void PowerUpRecovery::install(uint64_t lba, uint32_t ppa) {
  map_.recover(lba, ppa);
  if (ppa == L2pMap::kUnmapped) return;
  blocks_.mark_valid(ppa);
  ++recovered_;
}

// Every batch is in: the map directory, the program sequence; the replayed map pages then go
// back to NAND (the listener) so the map there is current again.
void PowerUpRecovery::finish() {
  const RecoveryScan& r = *scan_;
  stats_.recovered_lbas += recovered_;
  flash_.restart_sequence(r.max_sequence());
  hal_.charge_cycles(uint64_t(params_.cycles.map_update) * recovered_);
  ++stats_.recoveries;
  stats_.scan_reads += r.pages_read();
  stats_.replay_reads += r.replay_pages_read();
  stats_.page_reads += r.pages_read() + r.replay_pages_read() + (stats_.map_loads - at_start_.map_loads) +
                       (stats_.check_reads - at_start_.check_reads);
  stats_.torn_pages += r.torn_pages();
  stats_.recovery_ps = hal_.now_ps() - start_ps_;
  scan_.reset();
  pass_ = Pass::Scan;
  std::vector<uint8_t> replayed = std::move(replayed_);
  replayed.resize(map_store_.pages(), 0);
  loads_.clear();
  loading_.clear();
  in_flight_.clear();
  words_.clear();
  replayed_.clear();
  listener_.recovery_finished(replayed);
}

// Blocks that hold anything are closed (GC reclaims them). A block cut part-way is written
// on from the next program unit (a torn unit is simply skipped): one per stream, die and
// pool, the others stay closed for GC. The NAND does not say which stream wrote a block, so
// GC gets the one with the most room, the host the next: GC may have taken the pool's last
// free block for the victim it was moving when the power went (or, with host pacing, host
// data took it while GC's block covered that victim: gc/host_pacing.h), and then only a
// write point of its own lets it finish that victim and give the pool a block back. The
// victim holds at most what GC's own block has room for: the scan finds GC's moves not yet
// programmed still in the victim, and those programmed in GC's block (the copy programmed
// last wins: ftl/recovery.h).
void PowerUpRecovery::rebuild_blocks() {
  const auto& found = scan_->blocks_found();
  std::vector<std::pair<uint32_t, uint32_t>> part_written;  // (next page, block)
  for (uint32_t b = 0; b < found.size(); ++b) {
    BlockInfo& info = blocks_.info(b);
    if (found[b].bad) { info.state = BlockState::Bad; continue; }
    if (found[b].pages_written == 0) continue;
    info.state = BlockState::Closed;
    info.next_page = blocks_.pages_in_block(b);
    info.holds_map = found[b].holds_map;
    info.last_write_ps = hal_.now_ps();
    const uint32_t step = info.holds_map ? params_.program_pages : unit_pages_;
    const uint32_t next = (found[b].pages_written + step - 1) / step * step;
    if (next + step <= blocks_.pages_in_block(b)) part_written.emplace_back(next, b);
  }
  std::sort(part_written.begin(), part_written.end());  // most room first
  for (const auto& [next, b] : part_written) {
    BlockInfo& info = blocks_.info(b);
    const uint32_t die = blocks_.layout().die_of_block(b);
    for (WriteStream stream : {WriteStream::Map, WriteStream::Gc, WriteStream::Host, WriteStream::Slc}) {
      if ((stream == WriteStream::Map) != info.holds_map || (stream == WriteStream::Slc) != info.slc) continue;
      uint32_t& open = blocks_.write_points().open_block(die, stream, 0, info.large);
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
      if (blocks_.info(b).slc && found[b].pages_written)
        wb_->add_used(int64_t(blocks_.info(b).next_page) * geo_.sectors_per_page());
  }
}

// Each map page's newest copy.
void PowerUpRecovery::rebuild_map_directory() {
  const RecoveryScan& r = *scan_;
  for (uint32_t mp = 0; mp < map_store_.pages(); ++mp) {
    const RecoveryScan::MapPageFound& f = r.map_page(mp);
    if (f.seq == 0) continue;
    map_store_.set_location(mp, f.ppa, f.seq);
    const uint32_t spp = blocks_.layout().spp_of(blocks_.layout().block_of(f.ppa));
    for (uint32_t s = 0; s < spp; ++s) blocks_.mark_valid(f.ppa + s);
  }
}

}  // namespace ufs
