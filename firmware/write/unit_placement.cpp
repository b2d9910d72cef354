#include "write/unit_placement.h"

namespace ufs {

UnitPlacement::UnitPlacement(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry,
                             BlockManager& blocks, const AllocationPolicy& alloc, FreeSpaceListener& space)
    : hal_(hal),
      dies_(geometry.dies()),
      spp_(geometry.sectors_per_page()),
      program_pages_(params.program_pages),
      planes_(geometry.planes_per_die),
      unit_pages_(geometry.hybrid() ? 1 : params.write_unit_sectors(geometry) / geometry.sectors_per_page()),
      hybrid_(geometry.hybrid()),
      blocks_(blocks),
      alloc_(alloc),
      space_(space) {}

bool UnitPlacement::place(UnitPlace& u) {
  const bool map = u.stream == WriteStream::Map, host = u.stream == WriteStream::Host;
  const uint32_t dies = dies_;
  const bool fixed = u.stream == WriteStream::Gc || u.stream == WriteStream::Cold || u.gc_privilege;
  const bool pooled = host && !fixed;          // host data placed by the allocation policy
  const bool pinned = pooled && u.pool != kNone;  // static mapping: its pool only
  const uint32_t candidates = pooled ? alloc_.pools() : dies;
  const uint32_t unit_pages = map ? program_pages_ : unit_pages_;
  const bool large = hybrid_ && !map && u.capacity > spp_;  // hybrid: the large-page pool's blocks
  for (uint32_t k = 0; k < candidates; ++k) {
    if (pinned && k > 0) return false;
    const uint32_t pool = pinned ? u.pool : (next_pool_ + k) % candidates;
    // GC work goes to its own die (u.die stays that die); only when a failed program or
    // erase left that die without a block does it spill onto another die's spare.
    const uint32_t die = fixed ? (u.die + k) % dies : pooled ? alloc_.die(pool) : (next_map_die_ + k) % dies;
    const uint32_t plane = pooled && alloc_.per_plane() ? alloc_.plane(pool) : BlockManager::kAnyPlane;
    const uint32_t slot = plane == BlockManager::kAnyPlane ? 0 : plane;
    // WriteBooster: host data goes to the die's SLC buffer while it has room (plane-first:
    // an open SLC block per plane, so SLC programs pair into multi-plane ones as TLC's do).
    const bool to_slc = pooled && wb_ && wb_->writes_to_buffer() && !preconditioning_ &&
                        (blocks_.write_points().open_block(die, WriteStream::Slc, slot) != BlockManager::kNoBlock ||
                         blocks_.pools().free_slc_blocks(die) > 0);
    // Host data into TLC blocks on a die doing foreground GC: as its GC earns it.
    const bool gated = pooled && !to_slc && gate_;
    if (gated && !gate_->host_may_place(die, large)) continue;
    WriteStream point = to_slc ? WriteStream::Slc : u.stream;  // whose write point the unit takes
    uint32_t* open = &blocks_.write_points().open_block(die, point, slot, large);
    if (*open == BlockManager::kNoBlock && to_slc) {
      *open = blocks_.take_free_slc_block(die, plane);
      if (*open == BlockManager::kNoBlock) *open = blocks_.take_free_slc_block(die);  // another plane's
    }
    uint32_t open_slot = slot;
    // GC copy-back keeps a GC block per plane (ftl/gc_copy_back.h): moved data through the
    // buffer fills any of them before another block is opened (their room is all GC's).
    for (uint32_t s = 1; *open == BlockManager::kNoBlock && u.stream == WriteStream::Gc && !large && s < planes_; ++s) {
      uint32_t& other = blocks_.write_points().open_block(die, WriteStream::Gc, s);
      if (other == BlockManager::kNoBlock) continue;
      open = &other;
      open_slot = s;
    }
    if (*open == BlockManager::kNoBlock) {
      // Host data and map pages leave each die's GC the blocks it needs to move its victim's
      // data (the gate's hard limit; without one: a whole free block).
      const bool may_open = fixed ? blocks_.pools().free_blocks(die, large) > (k == 0 ? 0u : 1u)
                                  : gate_ ? gate_->may_open_block(die, large) : blocks_.pools().free_blocks(die, large) > 1;
      if (may_open) {
        *open = blocks_.take_free_block(die, plane, large);
        // A plane out of free blocks borrows from the die's other planes rather than wait
        // for GC, which the die's free count may not start.
        if (*open == BlockManager::kNoBlock && plane != BlockManager::kAnyPlane) *open = blocks_.take_free_block(die);
        if (*open == BlockManager::kNoBlock) continue;
        blocks_.info(*open).holds_map = u.stream == WriteStream::Map;
        space_.free_space_changed(die);
      } else if (pooled && !to_slc && gate_ && gate_->may_share_gc_block(die, large)) {
        // GC's open block has room beyond what its victim needs: the unit takes it, rather
        // than wait for the die's next erase (space shared unit by unit, not block by block).
        point = WriteStream::Gc;
        open = &blocks_.write_points().open_block(die, point, 0, large);
      } else {
        if (!fixed) space_.free_space_changed(die);
        continue;
      }
    }
    BlockInfo& b = blocks_.info(*open);
    u.block = *open;
    u.page = b.next_page;
    if (!fixed) u.die = die;
    u.open_slot = point == u.stream || point == WriteStream::Slc ? open_slot : 0;
    u.open_stream = point;
    u.slc = to_slc;
    if (to_slc) wb_->add_used(int64_t(unit_pages) * spp_);
    b.next_page += unit_pages;
    ++b.programs_in_flight;
    b.last_write_ps = hal_.now_ps();
    if (b.next_page >= blocks_.pages_in_block(u.block)) { b.state = BlockState::Closed; *open = BlockManager::kNoBlock; }
    if (pooled && !pinned) next_pool_ = (pool + 1) % candidates;
    if (map) next_map_die_ = (die + 1) % dies;
    return true;
  }
  return false;
}

}  // namespace ufs
