#include "gc/host_pacing.h"

namespace ufs {

HostPacing::HostPacing(const BlockManager& blocks, uint32_t unit_sectors, bool copy_back)
    : blocks_(blocks), unit_(unit_sectors), copy_back_(copy_back), dies_(blocks.layout().geometry().dies()) {}

void HostPacing::victim_taken(uint32_t die, uint32_t victim, bool paced, bool to_large) {
  Die& d = dies_[die];
  d.paced = paced;
  d.to_large = to_large;
  d.victim = victim;
  d.valid = blocks_.info(victim).valid;
}

void HostPacing::stop(uint32_t die) { dies_[die] = Die{}; }

uint32_t HostPacing::block_sectors(bool large) const {
  const FlashGeometry& g = blocks_.layout().geometry();
  return g.pages_per_block * (large ? g.large_sectors_per_page() : g.sectors_per_page());
}

uint32_t HostPacing::unit(bool large) const {
  return large ? blocks_.layout().geometry().large_sectors_per_page() : unit_;
}

uint32_t HostPacing::open_room(uint32_t die, WriteStream s, uint32_t slot, bool large) const {
  const uint32_t b = blocks_.write_points().open_block(die, s, slot, large);
  if (b == BlockManager::kNoBlock || blocks_.info(b).slc) return 0;
  return (blocks_.pages_in_block(b) - blocks_.info(b).next_page) * blocks_.layout().spp_of(b);
}

uint64_t HostPacing::room(uint32_t die, bool large) const {
  uint64_t r = uint64_t(blocks_.pools().free_blocks(die, large)) * block_sectors(large);
  for (const WriteStream s : {WriteStream::Host, WriteStream::Gc, WriteStream::Map, WriteStream::Cold})
    for (uint32_t slot = 0; slot < blocks_.layout().geometry().planes_per_die; ++slot) r += open_room(die, s, slot, large);
  return r;
}

uint64_t HostPacing::need(uint32_t die, bool large) const {
  const Die& d = dies_[die];
  if (d.victim == BlockManager::kNoBlock || !d.valid) return 0;
  const BlockInfo& v = blocks_.info(d.victim);
  if (v.large == large) return uint64_t(blocks_.sectors_in_block(d.victim)) * v.valid / d.valid;
  return d.to_large == large ? v.valid : 0;  // hybrid: the other pool's victim moved into this one
}

int64_t HostPacing::allowance(uint32_t die, bool large) const { return int64_t(room(die, large)) - int64_t(need(die, large)); }

bool HostPacing::may_place(uint32_t die, bool large) const {
  return !dies_[die].paced || allowance(die, large) >= int64_t(unit(large));
}

// GC's room in the pool: its free blocks and the write points the victim's data goes to (a
// map block's pages move through the map stream's; with copy-back GC has a block per plane,
// and moved data through the buffer fills any of them: unit_placement.cpp).
int64_t HostPacing::gc_spare(uint32_t die, bool large) const {
  const Die& d = dies_[die];
  const bool map = d.victim != BlockManager::kNoBlock && blocks_.info(d.victim).holds_map;
  const uint32_t slots = copy_back_ && !map ? blocks_.layout().geometry().planes_per_die : 1;
  int64_t room = int64_t(blocks_.pools().free_blocks(die, large)) * block_sectors(large);
  for (uint32_t slot = 0; slot < slots; ++slot) room += open_room(die, map ? WriteStream::Map : WriteStream::Gc, slot, large);
  if (d.victim == BlockManager::kNoBlock || d.to_large != large) return room - block_sectors(large);  // the next victim's block
  // Hybrid, a victim of the other pool moved into this one: its erase gives the block back
  // to the other pool, so this one still keeps a block for its own next victim.
  const BlockInfo& v = blocks_.info(d.victim);
  const int64_t next = v.large != large ? block_sectors(large) : 0;
  return room - int64_t(v.valid + unit(large)) - next;
}

bool HostPacing::may_open_block(uint32_t die, bool large) const {
  const uint32_t free = blocks_.pools().free_blocks(die, large);
  if (free >= 2) return true;  // one is left for GC whatever it does
  return free == 1 && gc_spare(die, large) >= int64_t(block_sectors(large));
}

bool HostPacing::may_share_gc_block(uint32_t die, bool large) const {
  const Die& d = dies_[die];
  if (d.victim != BlockManager::kNoBlock && blocks_.info(d.victim).holds_map) return false;
  return open_room(die, WriteStream::Gc, 0, large) >= unit(large) && gc_spare(die, large) >= int64_t(unit(large));
}

}  // namespace ufs
