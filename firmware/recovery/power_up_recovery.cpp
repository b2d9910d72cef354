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

void PowerUpRecovery::power_up() {
  if (!armed_) return;
  armed_ = false;
  start_ps_ = hal_.now_ps();
  scan_ = std::make_unique<RecoveryScan>(blocks_, logical_blocks_, map_store_.pages());
  listener_.recovery_started();
  for (uint32_t die = 0; die < geo_.dies(); ++die) issue_read(die);
}

// One OOB read per die at a time, all dies in parallel; the sector lands in a read slot
// nobody uses yet (commands wait until recovery ends).
void PowerUpRecovery::issue_read(uint32_t die) {
  uint32_t block, page;
  scan_->next(die, block, page);
  if (block == RecoveryScan::kDone) {
    if (scan_->done()) finish();
    return;
  }
  flash_.read(client_, die, blocks_.layout().address_of(block, page), 0, 1, slot_address(die % read_slots_));
}

void PowerUpRecovery::on_flash_done(uint64_t die, const FlashCompletion& c) {
  scan_->page_read(uint32_t(die), c.status, c.oob);
  issue_read(uint32_t(die));
}

// The scan is complete: blocks, map and map directory from what it found; the replayed map
// pages then go back to NAND (the listener) so the map there is current again.
void PowerUpRecovery::finish() {
  const RecoveryScan& r = *scan_;
  rebuild_blocks();
  const uint64_t recovered = rebuild_map();
  stats_.recovered_lbas += recovered;
  const std::vector<uint8_t> replayed = rebuild_map_directory();
  flash_.restart_sequence(r.max_sequence());
  hal_.charge_cycles(uint64_t(params_.cycles.map_update) * recovered);
  ++stats_.recoveries;
  stats_.page_reads += r.pages_read();
  stats_.torn_pages += r.torn_pages();
  stats_.recovery_ps = hal_.now_ps() - start_ps_;
  scan_.reset();
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

// Every LBA whose newest copy the scan found; returns how many.
uint64_t PowerUpRecovery::rebuild_map() {
  const RecoveryScan& r = *scan_;
  uint64_t recovered = 0;
  for (uint64_t lba = 0; lba < logical_blocks_; ++lba) {
    if (r.lba_sequence(lba) == 0) continue;
    map_.set(lba, r.lba_ppa(lba));
    blocks_.mark_valid(r.lba_ppa(lba));
    ++recovered;
  }
  return recovered;
}

// Each map page's newest copy; a page is replayed when data newer than that copy was found.
std::vector<uint8_t> PowerUpRecovery::rebuild_map_directory() {
  const RecoveryScan& r = *scan_;
  const uint32_t spp = geo_.sectors_per_page();
  std::vector<uint8_t> replayed(map_store_.pages(), 0);
  for (uint32_t mp = 0; mp < map_store_.pages(); ++mp) {
    if (r.map_sequence(mp) != 0) {
      map_store_.set_location(mp, r.map_ppa(mp), r.map_sequence(mp));
      for (uint32_t s = 0; s < spp; ++s) blocks_.mark_valid(r.map_ppa(mp) + s);
    }
    const uint64_t first = uint64_t(mp) * map_store_.entries_per_page();
    const uint64_t end = std::min<uint64_t>(first + map_store_.entries_per_page(), logical_blocks_);
    for (uint64_t lba = first; lba < end && !replayed[mp]; ++lba)
      replayed[mp] = r.lba_sequence(lba) > map_store_.sequence(mp);
  }
  return replayed;
}

}  // namespace ufs
