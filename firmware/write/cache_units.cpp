#include "write/cache_units.h"
#include "core/firmware_ram.h"
#include <algorithm>

namespace ufs {

CacheUnits::CacheUnits(const FirmwareParams& params, const FlashGeometry& geometry, uint32_t first_slot)
    : shape_{params.write_unit_sectors(geometry), geometry.large_sectors_per_page(), first_slot,
             geometry.hybrid() ? 1 : params.write_unit_sectors(geometry), geometry.hybrid()} {
  // Hybrid page size: one unit descriptor per write-cache slot; a small-page unit takes one
  // slot, a large-page unit an aligned run of `large` slots (the others absorbed).
  const uint32_t unit_count = params.write_cache_kib / 4 / shape_.stride;
  const uint32_t unit_slots = shape_.hybrid ? shape_.large : shape_.unit_sectors;
  units_.resize(unit_count);
  for (uint32_t i = 0; i < unit_count; ++i) {
    Unit& u = units_[i];
    u.first_slot = first_slot + i * shape_.stride;
    u.capacity = shape_.unit_sectors;
    u.lbas.assign(unit_slots, kNoLba);
    u.old_ppa.assign(unit_slots, L2pMap::kUnmapped);
    u.data_seq.assign(unit_slots, 0);
    u.fua_tag.assign(unit_slots, kNoTag);
  }
  if (!shape_.hybrid) for (uint32_t i = unit_count; i-- > 0;) free_units_.push_back(i);
  if (shape_.hybrid) slot_runs_ = std::make_unique<HybridSlotRuns>(unit_count, shape_.large);
}

uint64_t CacheUnits::ram_bytes() const {
  uint64_t b = vector_bytes(units_) + vector_bytes(free_units_);
  for (const Unit& u : units_)
    b += vector_bytes(u.lbas) + vector_bytes(u.old_ppa) + vector_bytes(u.data_seq) + vector_bytes(u.fua_tag) +
         vector_bytes(u.sync_tags);
  return b;
}

uint32_t CacheUnits::allocate(WriteStream stream, bool may_use_reserve, bool large, bool flush) {
  // Host data may not take the last units: GC must always find one to make progress.
  uint32_t i;
  if (shape_.hybrid) {
    // A small-page unit takes one slot, a large-page unit an aligned run (the run's other
    // descriptors are absorbed into it); host data leaves a reserve for GC.
    if (stream == WriteStream::Host && !may_use_reserve && host_held_ + (large ? shape_.large : 1) > host_share())
      return kNone;
    i = slot_runs_->allocate(large, may_use_reserve ? 0 : uint32_t(host_reserve()));
    if (i == HybridSlotRuns::kNone) return kNone;
    for (uint32_t k = 1; large && k < shape_.large; ++k) units_[i + k].absorbed = uint8_t(k);
  } else {
    if (free_units_.size() <= (may_use_reserve ? 0 : host_reserve())) return kNone;
    if (stream == WriteStream::Host && !may_use_reserve && host_held_ + 1 > host_share()) return kNone;
    i = free_units_.back();
    free_units_.pop_back();
  }
  Unit& u = units_[i];
  u.capacity = !shape_.hybrid ? shape_.unit_sectors : large ? shape_.large : 1;
  if (stream == WriteStream::Host) host_held_ += shape_.hybrid ? u.capacity : 1;
  u.state = UnitState::Filling;
  u.stream = stream;
  u.assigned = 0;
  u.arrived = 0;
  u.pending_reads = 0;
  u.block = BlockManager::kNoBlock;
  u.pool = kNone;
  u.open_slot = 0;
  u.open_stream = stream;
  u.slc = false;
  u.flush = flush;
  std::fill(u.lbas.begin(), u.lbas.end(), kNoLba);
  std::fill(u.fua_tag.begin(), u.fua_tag.end(), kNoTag);
  std::fill(u.old_ppa.begin(), u.old_ppa.end(), L2pMap::kUnmapped);
  u.sync_tags.clear();
  return i;
}

// Units (hybrid: slots) host data leaves free: two (hybrid: two large units' slots), and
// those the dies cleaning a victim would take now (issue 14 item 2), at most half the cache.
size_t CacheUnits::host_reserve() const {
  const size_t n = units_.size(), unit = shape_.hybrid ? shape_.large : 1;
  const size_t base = std::min<size_t>(2 * unit, n / 4), wanted = size_t(gc_ ? gc_->units_wanted() : 0) * unit;
  return std::min<size_t>(base + wanted, std::max<size_t>(n / 2, base));
}

// Host units no die takes yet (sealed, waiting for GC's pace) hold the cache without progress:
// the reserve above only keeps free what GC wants now, and when its wants rise (a die falls
// behind, victims start on several dies) the units are already the host's. So while dies clean,
// host data holds at most the cache less GC's whole working set.
size_t CacheUnits::host_share() const {
  const size_t n = units_.size(), unit = shape_.hybrid ? shape_.large : 1;
  const size_t base = std::min<size_t>(2 * unit, n / 4);
  const size_t gc = std::min<size_t>(size_t(gc_ ? gc_->units_working_set() : 0) * unit, n / 4);
  return n - base - gc;
}

void CacheUnits::free(uint32_t unit) {
  Unit& u = units_[unit];
  if (u.stream == WriteStream::Host) host_held_ -= shape_.hybrid ? u.capacity : 1;
  u.state = UnitState::Free;
  if (shape_.hybrid) {
    for (uint32_t k = 1; k < u.capacity; ++k) units_[unit + k].absorbed = 0;
    slot_runs_->release(unit, u.capacity > 1);
  } else {
    free_units_.push_back(unit);
  }
}

bool CacheUnits::holds_fua(uint32_t unit, uint8_t tag) const {
  const Unit& u = units_[unit];
  return std::find(u.fua_tag.begin(), u.fua_tag.begin() + u.assigned, tag) != u.fua_tag.begin() + u.assigned;
}

bool CacheUnits::busy() const {
  for (const auto& u : units_) if (u.state == UnitState::Programming || u.state == UnitState::Sealed) return true;
  return false;
}

void CacheUnits::count_states(uint32_t (&states)[4]) const {
  for (uint32_t& n : states) n = 0;
  for (const auto& u : units_) ++states[uint32_t(u.state)];
}

}  // namespace ufs
