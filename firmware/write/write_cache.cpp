#include "write/write_cache.h"
#include "command/buffer_layout.h"

namespace ufs {

WriteCache::WriteCache(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint32_t first_slot,
                       BlockManager& blocks, L2pMap& map, MapStore& store, FlashPort& flash, UnitPlacer& placer,
                       VictimMoveListener& victims, FreeSpaceListener& space)
    : hal_(hal),
      params_(params),
      spp_(geometry.sectors_per_page()),
      hybrid_(geometry.hybrid()),
      blocks_(blocks),
      map_(map),
      store_(store),
      flash_(flash),
      client_(flash.attach(*this)),
      placer_(placer),
      victims_(victims),
      space_(space),
      table_(params, geometry, first_slot) {}

// Data is in the cache: point the map at it (the old copy on NAND becomes invalid).
void WriteCache::host_data_arrived(uint32_t unit, uint32_t pos, uint32_t count) {
  Unit& u = table_.units_[unit];
  hal_.l2p_sram_access(4 * count, true);
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t lba = u.lbas[pos + i];
    hal_.charge_cycles(params_.cycles.map_update);
    const uint32_t e = map_.get(lba);
    uint32_t older = e;
    if (L2pMap::is_cached(e)) {  // overwritten in the cache: this copy takes over the NAND copy
      uint32_t& owned = table_.cached(e).old_ppa;
      older = owned;
      owned = L2pMap::kUnmapped;
    }
    u.old_ppa[pos + i] = older;
    u.data_seq[pos + i] = flash_.next_sequence();
    map_.set(lba, L2pMap::cached(u.first_slot + pos + i));
  }
  u.arrived += count;
  try_program(unit);
}

void WriteCache::arrived(uint32_t unit, uint32_t n, bool by_read) {
  Unit& u = table_.units_[unit];
  u.arrived += n;
  if (by_read) --u.pending_reads;
  try_program(unit);
}

uint32_t WriteCache::wait_for_host_units(uint8_t tag) {
  uint32_t n = 0;
  for (Unit& u : table_.units_) {
    if (u.stream != WriteStream::Host || (u.state != UnitState::Sealed && u.state != UnitState::Programming)) continue;
    u.sync_tags.push_back(tag);
    ++n;
  }
  return n;
}

void WriteCache::take_undurable(std::vector<std::pair<uint8_t, bool>>& waiting) {
  for (Unit& u : table_.units_) {
    if (u.state != UnitState::Sealed) continue;
    for (uint8_t tag : u.sync_tags) waiting.emplace_back(tag, true);
    u.sync_tags.clear();
    for (uint32_t s = 0; s < u.assigned; ++s) {
      if (u.fua_tag[s] == CacheUnits::kNoTag) continue;
      waiting.emplace_back(u.fua_tag[s], false);
      u.fua_tag[s] = CacheUnits::kNoTag;
    }
  }
}

void WriteCache::nand_entries(uint32_t page, uint32_t* out, uint32_t count, const uint32_t* nand) const {
  map_.page_entries(uint64_t(page) * count, out, count, nand);
  resolve_cached(page, out, count);
}

void WriteCache::resolve_cached(uint32_t page, uint32_t* out, uint32_t count) const {
  const uint64_t first = uint64_t(page) * count;
  // A cached entry names the slot holding its LBA: the cache's slots (fewer than a map page's
  // entries) find them, each LBA's write-cache entry equal to its slot's name. (Stale LBAs of
  // slots the map no longer names match nothing, or, hybrid, match an entry of another unit's
  // slot: that entry is cached all the same, and old_ppa_of finds its own slot.)
  for (const CacheUnits::Unit& u : table_.units_) {
    if (u.absorbed) continue;  // hybrid: a large unit's slot, visited with it
    for (uint32_t pos = 0; pos < u.lbas.size(); ++pos) {
      const uint64_t i = u.lbas[pos] - first;  // (kNoLba: far out of range)
      if (i >= count) continue;
      const uint32_t e = map_.cached_entry(u.lbas[pos]);
      if (e == L2pMap::cached(u.first_slot + pos)) out[i] = table_.old_ppa_of(e);
    }
  }
}

void WriteCache::copy_obsolete(uint32_t e) {
  if (e == L2pMap::kUnmapped || L2pMap::is_cached(e)) return;
  blocks_.mark_invalid(e);
  const uint32_t block = blocks_.layout().block_of(e);
  if (blocks_.info(block).state == BlockState::Victim) victims_.moves_may_be_done(blocks_.layout().die_of_block(block));
}

void WriteCache::seal(uint32_t unit) {
  Unit& u = table_.units_[unit];
  u.state = UnitState::Sealed;
  if (u.assigned < u.capacity) {
    hal_.zero_buffer(slot_address(u.first_slot + u.assigned), (u.capacity - u.assigned) * uint32_t(kSectorBytes));
    stats_.padding_sectors += u.capacity - u.assigned;
  }
  try_program(unit);
}

void WriteCache::try_program(uint32_t unit) {
  Unit& u = table_.units_[unit];
  if (u.state != UnitState::Sealed || u.arrived < u.assigned || u.pending_reads) return;
  if (!placer_.place(u)) { program_waiters_.push_back(unit); return; }
  u.state = UnitState::Programming;
  // A unit larger than a program unit (a big logical page) goes as consecutive programs
  // into consecutive pages of one block.
  const uint64_t seq = flash_.next_sequence();
  const uint32_t page_spp = hybrid_ ? u.capacity : spp_;  // hybrid: a unit is one page of its pool's size
  const uint32_t prog = params_.program_pages * page_spp;
  u.programs_pending = u.capacity / prog;
  u.program_failed = false;
  for (uint32_t k = 0; k < u.programs_pending; ++k) {
    std::vector<PageOob>& oob = flash_.program_oob(params_.program_pages);
    for (uint32_t p = 0; p < params_.program_pages; ++p) {
      PageOob& o = oob[p];
      o.kind = PageKind::UserData;
      o.sequence = seq;
      for (uint32_t s = 0; s < page_spp; ++s) {
        const uint64_t lba = u.lbas[k * prog + p * page_spp + s];
        o.lba[s] = lba == kNoLba ? kNoOobLba : uint32_t(lba);
        o.data_seq[s] = lba == kNoLba ? 0 : u.data_seq[k * prog + p * page_spp + s];
      }
    }
    flash_.program(client_, unit, blocks_.layout().address_of(u.block, u.page + k * params_.program_pages),
                   params_.program_pages, slot_address(u.first_slot + k * prog));
  }
}

void WriteCache::programmed(uint32_t unit, FlashStatus status) {
  Unit& u = table_.units_[unit];
  if (status != FlashStatus::Ok) u.program_failed = true;
  if (--u.programs_pending) return;  // the unit's other programs are still going
  BlockInfo& b = blocks_.info(u.block);
  --b.programs_in_flight;
  if (u.program_failed) {
    // Grown bad block: the data is still in the buffer; retire the block and program elsewhere.
    flash_.count_program_failure();
    const uint32_t failed_die = blocks_.layout().die_of_block(u.block);
    uint32_t& open = blocks_.write_points().open_block(failed_die, u.open_stream, u.open_slot, b.large);
    if (open == u.block) open = BlockManager::kNoBlock;
    b.state = BlockState::Closed;  // its valid data (if any) is moved out by GC, then it is retired
    b.retire_after_gc = true;
    u.state = UnitState::Sealed;
    u.block = BlockManager::kNoBlock;
    try_program(unit);
    space_.free_space_changed(failed_die);
    return;
  }
  hal_.l2p_sram_access(4 * u.capacity, true);
  const uint32_t page_spp = blocks_.layout().spp_of(u.block);
  for (uint32_t s = 0; s < u.capacity; ++s) {
    const uint64_t lba = u.lbas[s];
    if (lba == kNoLba) continue;
    const uint32_t ppa = blocks_.layout().ppa(u.block, u.page + s / page_spp, s % page_spp);
    const uint32_t e = map_.get(lba);
    if (u.stream == WriteStream::Host) {
      ++stats_.host_program_sectors;
      if (e == L2pMap::cached(u.first_slot + s)) {
        hal_.charge_cycles(params_.cycles.map_update);
        store_.updated(lba);
        map_.set(lba, ppa);
        blocks_.mark_valid(ppa);
        copy_obsolete(u.old_ppa[s]);  // the new copy is on NAND: the one it supersedes may go
        u.old_ppa[s] = L2pMap::kUnmapped;
      }
      if (u.fua_tag[s] != CacheUnits::kNoTag) durable_->fua_sector_programmed(u.fua_tag[s]);
    } else {
      gc_->moved(lba, u.old_ppa[s], ppa);
    }
  }
  if (u.stream == WriteStream::Host) stats_.host_page_sectors += u.capacity;
  if (wb_ && u.stream == WriteStream::Host)
    (u.slc ? wb_->stats().slc_write_sectors : wb_->stats().tlc_write_sectors) += u.assigned;
  for (uint8_t tag : u.sync_tags) durable_->sync_unit_programmed(tag);
  const uint32_t die = u.die;
  const bool gc_unit = u.stream == WriteStream::Gc || u.stream == WriteStream::Cold;
  const bool flush_unit = u.flush;
  release(unit);
  if (gc_unit) gc_->unit_programmed(die, flush_unit);
}

void WriteCache::release(uint32_t unit) {
  table_.free(unit);
  gc_->units_freed();  // a freed unit may unblock GC first (it frees blocks), then host writes
  if (freed_) freed_->units_freed();
}

void WriteCache::retry_programs() {
  // Host units any pool may take are placed alike: once one of a size finds no die, the
  // others of that size wait on without asking (a saturated device retries often).
  uint32_t refused = 0;  // capacity of a host unit no die took (0: none yet)
  for (size_t n = program_waiters_.size(); n > 0; --n) {
    const uint32_t unit = program_waiters_.front();
    program_waiters_.pop_front();
    const Unit& u = table_.units_[unit];
    const bool pooled = u.stream == WriteStream::Host && u.pool == CacheUnits::kNone && !u.gc_privilege;
    if (pooled && u.capacity == refused) { program_waiters_.push_back(unit); continue; }
    try_program(unit);
    if (pooled && !program_waiters_.empty() && program_waiters_.back() == unit) refused = u.capacity;
  }
}

void WriteCache::visit_stats(StatsVisitor& v) const {
  v.count("ftl.host_program_sectors", stats_.host_program_sectors, "sectors", "sectors programmed for host data");
  v.count("ftl.padding_sectors", stats_.padding_sectors, "sectors", "sectors padded to close a partial unit");
  v.count("ftl.host_page_sectors", stats_.host_page_sectors, "sectors", "page space programmed for host data");
}

}  // namespace ufs
