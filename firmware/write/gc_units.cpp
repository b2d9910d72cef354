#include "write/gc_units.h"
#include "command/buffer_layout.h"

namespace ufs {

uint32_t CacheGcUnits::gc_unit(WriteStream stream, bool large, uint32_t die, bool flush) {
  const uint32_t unit = cache_.allocate(stream, true, large);
  if (unit == WriteCache::kNone) return kNoUnit;
  cache_.unit(unit).die = die;
  cache_.unit(unit).flush = flush;
  return unit;
}

uint64_t CacheGcUnits::gc_stage(uint32_t unit, uint32_t from, uint32_t n, uint32_t& pos) {
  WriteCache::Unit& u = cache_.unit(unit);
  pos = u.assigned;
  for (uint32_t i = 0; i < n; ++i) u.old_ppa[pos + i] = from + i;
  u.assigned += n;
  ++u.pending_reads;
  return slot_address(u.first_slot + pos);
}

void CacheGcUnits::gc_data_arrived(uint32_t unit, uint32_t pos, uint32_t n, const PageOob& oob) {
  WriteCache::Unit& u = cache_.unit(unit);
  // The OOB names each sector's LBA: that is what GC programs with the moved data.
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t sector = blocks_.sector_of(u.old_ppa[pos + i]);
    const uint32_t lba = oob.lba[sector];
    u.lbas[pos + i] = lba == kNoOobLba ? kNoLba : lba;
    u.data_seq[pos + i] = oob.data_sequence(sector);  // a copy keeps its age
  }
  u.arrived += n;
  --u.pending_reads;
  cache_.try_program(unit);
}

// GC wrote a copy of `from` at `to`: the map follows it when `from` is still the live
// copy (the host did not overwrite it meanwhile), or the copy that newer data waiting in
// the cache supersedes (it stays that data's fallback).
bool CacheGcUnits::gc_follow_move(uint64_t lba, uint32_t from, uint32_t to) {
  const uint32_t e = map_.get(lba);
  if (e == from) {
    store_.updated(lba);
    map_.set(lba, to);
  } else if (L2pMap::is_cached(e) && cache_.superseded_copy(e) == from) {
    cache_.superseded_copy(e) = to;
  } else {
    return false;
  }
  blocks_.mark_valid(to);
  blocks_.mark_invalid(from);
  return true;
}

}  // namespace ufs
