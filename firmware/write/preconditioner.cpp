#include "write/preconditioner.h"
#include <algorithm>

namespace ufs {

Preconditioner::Preconditioner(const FirmwareParams& params, const FlashGeometry& geometry, uint64_t logical_blocks,
                               BlockManager& blocks, L2pMap& map, MapStore& store, FlashPort& flash,
                               UnitPlacement& placement, ObsoleteCopyListener& obsolete, const MapPageSource& source,
                               const AllocationPolicy& alloc, HybridPoolShares* shares)
    : params_(params),
      logical_blocks_(logical_blocks),
      spp_(geometry.sectors_per_page()),
      unit_sectors_(params.write_unit_sectors(geometry)),
      lp_sectors_(params.logical_page_kib / 4),
      large_(geometry.large_sectors_per_page()),
      hybrid_(geometry.hybrid()),
      blocks_(blocks),
      map_(map),
      store_(store),
      flash_(flash),
      placement_(placement),
      obsolete_(obsolete),
      source_(source),
      alloc_(alloc),
      shares_(shares) {}

void Preconditioner::fill(uint64_t first_lba, uint64_t count, FlashBackdoor& backdoor) {
  stamps_.assign(std::max(unit_sectors_, large_), SectorStamp{});
  oobs_.assign(std::max(unit_sectors_ / spp_, params_.program_pages), PageOob{});
  placement_.set_preconditioning(true);
  const uint64_t end = std::min(first_lba + count, logical_blocks_);
  map_.begin_fill();  // the fill's entries wait in a transient map until their map pages are written
  if (hybrid_) fill_hybrid(first_lba, end, backdoor);
  else if (end > first_lba) fill_units(first_lba, end, backdoor);
  if (store_.enabled() && end > first_lba) fill_map_pages(first_lba, end, backdoor);
  map_.end_fill();
  placement_.set_preconditioning(false);
}

void Preconditioner::written(const UnitPlace& u) {
  BlockInfo& b = blocks_.info(u.block);
  --b.programs_in_flight;
  b.last_write_ps = 0;
}

// Hybrid page size: the range as one sequential write, split as the write path splits it.
void Preconditioner::fill_hybrid(uint64_t first_lba, uint64_t end, FlashBackdoor& backdoor) {
  for (uint64_t lba = first_lba; lba < end;) {
    const bool chunk = lba % large_ == 0 && lba + large_ <= end;
    UnitPlace scratch;
    scratch.stream = WriteStream::Host;
    scratch.capacity = shares_->pool_for(chunk, blocks_) ? large_ : 1;
    if (!placement_.place(scratch)) break;  // device full
    written(scratch);
    oobs_[0] = PageOob{};
    oobs_[0].kind = PageKind::UserData;
    oobs_[0].sequence = flash_.next_sequence();
    const uint32_t fill = chunk ? scratch.capacity : 1;  // a single piece in a large page: padding
    for (uint32_t s = 0; s < scratch.capacity; ++s) {
      stamps_[s] = SectorStamp{};
      if (s >= fill) continue;
      const uint64_t at = lba + s;
      const uint32_t old = map_.get(at);
      if (L2pMap::is_physical(old)) obsolete_.copy_obsolete(old);
      const uint32_t ppa = blocks_.layout().ppa(scratch.block, scratch.page, s);
      map_.set(at, ppa);
      blocks_.mark_valid(ppa);
      stamps_[s] = SectorStamp{at, 0};
      oobs_[0].lba[s] = uint32_t(at);
    }
    lba += fill;
    backdoor.preload_pages(blocks_.layout().address_of(scratch.block, scratch.page), 1, stamps_.data(), oobs_.data());
  }
}

// Whole logical pages, one write unit at a time, placed exactly as the write path would:
// in LBA order, or pool by pool under static mapping (sectors outside the range are padding).
void Preconditioner::fill_units(uint64_t first_lba, uint64_t end, FlashBackdoor& backdoor) {
  // (Locals: this fills whole devices before a run, a sector at a time.)
  const uint32_t spp = spp_, lp_sectors = lp_sectors_, unit_sectors = unit_sectors_, unit_pages = unit_sectors / spp;
  BlockManager& blocks = blocks_;
  L2pMap& map = map_;
  SectorStamp* const stamps = stamps_.data();
  PageOob* const oobs = oobs_.data();
  const uint64_t first_lp = first_lba / lp_sectors, end_lp = (end + lp_sectors - 1) / lp_sectors;
  const uint32_t groups = alloc_.static_mapping() ? alloc_.pools() : 1;
  for (uint32_t group = 0; group < groups; ++group) {
    uint64_t lp = first_lp;
    if (alloc_.static_mapping()) lp += (group + groups - first_lp % groups) % groups;
    while (lp < end_lp) {
      UnitPlace scratch;
      scratch.stream = WriteStream::Host;
      if (alloc_.static_mapping()) scratch.pool = group;
      if (!placement_.place(scratch)) return;  // device full
      written(scratch);
      const uint64_t seq = flash_.next_sequence();
      for (uint32_t p = 0; p < unit_pages; ++p) { oobs[p] = PageOob{}; oobs[p].kind = PageKind::UserData; oobs[p].sequence = seq; }
      for (uint32_t slot = 0; slot < unit_sectors; slot += lp_sectors, lp += groups) {
        for (uint32_t s = 0; s < lp_sectors; ++s) {
          const uint64_t lba = lp * lp_sectors + s;
          SectorStamp& st = stamps[slot + s];
          st = SectorStamp{};
          if (lp >= end_lp || lba < first_lba || lba >= end) continue;
          const uint32_t old = map.get(lba);
          if (L2pMap::is_physical(old)) obsolete_.copy_obsolete(old);  // (unmapped or cached: nothing to drop)
          const uint32_t ppa = blocks.layout().ppa(scratch.block, scratch.page + (slot + s) / spp, (slot + s) % spp);
          map.set(lba, ppa);
          blocks.mark_valid(ppa);
          st = SectorStamp{lba, 0};
          oobs[(slot + s) / spp].lba[(slot + s) % spp] = uint32_t(lba);
        }
      }
      backdoor.preload_pages(blocks.layout().address_of(scratch.block, scratch.page), unit_pages, stamps, oobs);
    }
  }
}

// The map pages of the filled range, on NAND in map blocks (none of them in SRAM yet), each
// with its entries (the whole page's, also those outside the range).
void Preconditioner::fill_map_pages(uint64_t first_lba, uint64_t end, FlashBackdoor& backdoor) {
  const uint32_t first_page = store_.page_of(first_lba), last_page = store_.page_of(end - 1);
  const uint32_t per_page = uint32_t(store_.entries_per_page());
  // One program unit's entries (freed at the end: a firmware would build them in its SRAM map frames).
  std::vector<uint32_t> words(size_t(params_.program_pages) * per_page);
  for (uint32_t page = first_page; page <= last_page;) {
    UnitPlace where;
    where.stream = WriteStream::Map;
    if (!placement_.place(where)) return;
    --blocks_.info(where.block).programs_in_flight;
    const uint64_t seq = flash_.next_sequence();
    for (uint32_t p = 0; p < params_.program_pages; ++p, ++page) {
      PageOob& oob = oobs_[p];
      oob = PageOob{};
      oob.kind = page <= last_page ? PageKind::MapData : PageKind::Padding;
      oob.sequence = seq;
      for (uint32_t s = 0; s < spp_; ++s) {
        stamps_[p * spp_ + s] = SectorStamp{};
        oob.lba[s] = page <= last_page ? page : kNoOobLba;
      }
      uint32_t* const w = words.data() + size_t(p) * per_page;
      if (page > last_page) {
        std::fill_n(w, per_page, L2pMap::kUnmapped);
        continue;
      }
      source_.nand_entries(page, w, per_page);
      store_.snapshot(page, seq, w);  // firmware.map_verify: what this copy holds
      const uint32_t ppa = blocks_.layout().ppa(where.block, where.page + p, 0);
      obsolete_.copy_obsolete(store_.location(page));
      store_.set_location(page, ppa, seq);
      for (uint32_t s = 0; s < spp_; ++s) blocks_.mark_valid(ppa + s);
    }
    backdoor.preload_pages(blocks_.layout().address_of(where.block, where.page), params_.program_pages, stamps_.data(),
                           oobs_.data(), words.data(), per_page);
  }
}

}  // namespace ufs
