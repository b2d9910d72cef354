#include "write/page_fill.h"
#include "command/buffer_layout.h"
#include "flash/page_run.h"

namespace ufs {

PageFill::PageFill(Hal& hal, const FirmwareParams& params, const BlockLayout& layout, L2pMap& map,
                   FlashPort& flash, WriteCache& cache)
    : hal_(hal), params_(params), layout_(layout), map_(map), flash_(flash), client_(flash.attach(*this)),
      cache_(cache) {}

void PageFill::fill(uint32_t unit, uint64_t lba, uint32_t n) {
  const uint32_t pos = cache_.units().stage(unit, n);
  const uint32_t first_slot = cache_.units().buffer_slot(unit, 0);
  hal_.l2p_sram_access(4 * n, false);
  PageRun run;
  auto submit = [&](const PageRun& r) {
    uint32_t index;
    if (free_reads_.empty()) { index = uint32_t(reads_.size()); reads_.emplace_back(); }
    else { index = free_reads_.back(); free_reads_.pop_back(); }
    reads_[index] = Read{unit, uint32_t(r.buffer / kSectorBytes) - first_slot, r.count};
    cache_.units().reads_started(unit);
    flash_.read(client_, index, r.at, r.first_sector, r.count, r.buffer);
  };
  uint32_t in_buffer = 0;  // slots whose data is there at once (zeros, cache copies)
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t slot = pos + i;
    const CacheUnits::Slot s = cache_.units().slot(unit, slot);
    s.fua_tag = CacheUnits::kNoTag;
    hal_.charge_cycles(params_.cycles.map_lookup);
    const uint32_t e = map_.get(lba + i);
    const uint64_t dst = slot_address(first_slot + slot);
    if (!L2pMap::is_physical(e)) run.close(submit);  // a read covers consecutive slots only
    if (e == L2pMap::kUnmapped) {
      s.lba = kNoLba;
      hal_.zero_buffer(dst, uint32_t(kSectorBytes));
      ++in_buffer;
      continue;
    }
    s.lba = lba + i;
    if (L2pMap::is_cached(e)) {
      // The copy takes over the NAND copy the cached one supersedes, and keeps its age.
      ++stats_.cache_sectors;
      hal_.copy_buffer(dst, slot_address(L2pMap::slot_of(e)), uint32_t(kSectorBytes));
      const CacheUnits::Slot from = cache_.units().cached(e);
      s.data_seq = from.data_seq;
      s.old_ppa = from.old_ppa;
      from.old_ppa = L2pMap::kUnmapped;
      map_.set(lba + i, L2pMap::cached(first_slot + slot));
      ++in_buffer;
      continue;
    }
    ++stats_.flash_sectors;
    s.old_ppa = e;
    run.add(layout_, e, dst, submit);
  }
  run.close(submit);
  cache_.arrived(unit, in_buffer, false);
}

// The rest of a logical page is in the cache: the map points at it; the NAND copy it was
// read from stays valid (old_ppa) until the unit is programmed, as for host data.
void PageFill::on_flash_done(uint64_t index, const FlashCompletion& c) {
  const Read r = reads_[index];
  free_reads_.push_back(uint32_t(index));
  hal_.l2p_sram_access(4 * r.count, true);
  for (uint32_t i = r.pos; i < r.pos + r.count; ++i) {
    const CacheUnits::Slot s = cache_.units().slot(r.unit, i);
    const uint64_t lba = s.lba;
    if (map_.get(lba) != s.old_ppa) {  // rewritten or moved meanwhile: the newer copy stands
      s.lba = kNoLba;
      s.old_ppa = L2pMap::kUnmapped;
      continue;
    }
    hal_.charge_cycles(params_.cycles.map_update);
    s.data_seq = c.oob.data_sequence(layout_.sector_of(s.old_ppa));  // a copy keeps its age
    map_.set(lba, L2pMap::cached(cache_.units().buffer_slot(r.unit, i)));
  }
  cache_.arrived(r.unit, r.count, true);
}

void PageFill::visit_stats(StatsVisitor& v) const {
  v.count("ftl.rmw_flash_sectors", stats_.flash_sectors, "sectors", "rest of logical pages read from NAND");
  v.count("ftl.rmw_cache_sectors", stats_.cache_sectors, "sectors", "rest of logical pages copied from the cache");
}

}  // namespace ufs
