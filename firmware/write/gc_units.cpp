#include "write/gc_units.h"
#include "command/buffer_layout.h"

namespace ufs {

uint32_t CacheGcUnits::gc_unit(WriteStream stream, bool large, uint32_t die, bool flush) {
  const uint32_t unit = cache_.units().allocate(stream, true, large, flush);
  if (unit == CacheUnits::kNone) return kNoUnit;
  cache_.units().place(unit).die = die;
  return unit;
}

uint64_t CacheGcUnits::gc_stage(uint32_t unit, uint32_t from, uint32_t n, uint32_t& pos) {
  pos = cache_.units().stage(unit, n);
  for (uint32_t i = 0; i < n; ++i) cache_.units().slot(unit, pos + i).old_ppa = from + i;
  cache_.units().reads_started(unit);
  return slot_address(cache_.units().buffer_slot(unit, pos));
}

void CacheGcUnits::gc_data_arrived(uint32_t unit, uint32_t pos, uint32_t n, const PageOob& oob) {
  // The OOB names each sector's LBA: that is what GC programs with the moved data.
  for (uint32_t i = 0; i < n; ++i) {
    const CacheUnits::Slot s = cache_.units().slot(unit, pos + i);
    const uint32_t sector = blocks_.layout().sector_of(s.old_ppa);
    const uint32_t lba = oob.lba[sector];
    s.lba = lba == kNoOobLba ? kNoLba : lba;
    s.data_seq = oob.data_sequence(sector);  // a copy keeps its age
  }
  cache_.arrived(unit, n, true);
}

bool CacheGcUnits::gc_follow_move(uint64_t lba, uint32_t from, uint32_t to) {
  const uint32_t e = map_.get(lba);
  if (e == from) {
    store_.updated(lba);
    map_.set(lba, to);
  } else if (L2pMap::is_cached(e) && cache_.units().cached(e).old_ppa == from) {
    // The map page names that NAND copy for the cached entry (WriteCache::nand_entries): it
    // goes back with the copy's new place (a copy programmed before names the old one, soon
    // erased), and the entry counts as changed for the map's watchers (map_verify: a load in
    // flight reads the old name) though the cached entry itself stays.
    cache_.units().cached(e).old_ppa = to;
    store_.updated(lba);
    map_.set(lba, e);
  } else {
    return false;
  }
  blocks_.mark_valid(to);
  blocks_.mark_invalid(from);
  return true;
}

}  // namespace ufs
