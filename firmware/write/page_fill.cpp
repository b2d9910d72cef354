#include "write/page_fill.h"
#include "command/buffer_layout.h"
#include "flash/page_run.h"

namespace ufs {

PageFill::PageFill(Hal& hal, const FirmwareParams& params, const BlockManager& blocks, L2pMap& map,
                   FlashPort& flash, WriteCache& cache)
    : hal_(hal), params_(params), blocks_(blocks), map_(map), flash_(flash), client_(flash.attach(*this)),
      cache_(cache) {}

void PageFill::fill(uint32_t unit, uint32_t pos, uint64_t lba, uint32_t n) {
  WriteCache::Unit& u = cache_.unit(unit);
  hal_.l2p_sram_access(4 * n, false);
  PageRun run;
  auto submit = [&](const PageRun& r) {
    uint32_t index;
    if (free_reads_.empty()) { index = uint32_t(reads_.size()); reads_.emplace_back(); }
    else { index = free_reads_.back(); free_reads_.pop_back(); }
    reads_[index] = Read{unit, uint32_t(r.buffer / kSectorBytes) - u.first_slot, r.count};
    ++u.pending_reads;
    flash_.read(client_, index, r.at, r.first_sector, r.count, r.buffer);
  };
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t slot = pos + i;
    u.fua_tag[slot] = WriteCache::kNoTag;
    hal_.charge_cycles(params_.cycles_map_lookup);
    const uint32_t e = map_.get(lba + i);
    const uint64_t dst = slot_address(u.first_slot + slot);
    if (!L2pMap::is_physical(e)) run.close(submit);  // a read covers consecutive slots only
    if (e == L2pMap::kUnmapped) {
      u.lbas[slot] = kNoLba;
      hal_.zero_buffer(dst, uint32_t(kSectorBytes));
      ++u.arrived;
      continue;
    }
    u.lbas[slot] = lba + i;
    if (L2pMap::is_cached(e)) {
      // The copy takes over the NAND copy the cached one supersedes, and keeps its age.
      ++stats_.cache_sectors;
      hal_.copy_buffer(dst, slot_address(L2pMap::slot_of(e)), uint32_t(kSectorBytes));
      uint32_t at;
      u.data_seq[slot] = cache_.unit_of_slot(L2pMap::slot_of(e), at).data_seq[at];
      uint32_t& owned = cache_.superseded_copy(e);
      u.old_ppa[slot] = owned;
      owned = L2pMap::kUnmapped;
      map_.set(lba + i, L2pMap::cached(u.first_slot + slot));
      ++u.arrived;
      continue;
    }
    ++stats_.flash_sectors;
    u.old_ppa[slot] = e;
    run.add(blocks_, e, dst, submit);
  }
  run.close(submit);
  u.assigned += n;
  cache_.try_program(unit);
}

// The rest of a logical page is in the cache: the map points at it; the NAND copy it was
// read from stays valid (old_ppa) until the unit is programmed, as for host data.
void PageFill::on_flash_done(uint64_t index, const FlashCompletion& c) {
  const Read r = reads_[index];
  free_reads_.push_back(uint32_t(index));
  WriteCache::Unit& u = cache_.unit(r.unit);
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
  cache_.try_program(r.unit);
}

void PageFill::visit_stats(StatsVisitor& v) const {
  v.count("ftl.rmw_flash_sectors", stats_.flash_sectors, "sectors", "rest of logical pages read from NAND");
  v.count("ftl.rmw_cache_sectors", stats_.cache_sectors, "sectors", "rest of logical pages copied from the cache");
}

}  // namespace ufs
