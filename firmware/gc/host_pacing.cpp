#include "gc/host_pacing.h"

namespace ufs {

HostPacing::HostPacing(const BlockManager& blocks, uint32_t unit_sectors)
    : blocks_(blocks), unit_(unit_sectors), dies_(blocks.layout().geometry().dies()) {}

void HostPacing::victim_taken(uint32_t die, uint32_t victim, bool paced) {
  Die& d = dies_[die];
  d.paced = paced;
  d.victim = victim;
  d.valid = blocks_.info(victim).valid;
}

void HostPacing::stop(uint32_t die) { dies_[die] = Die{}; }

uint32_t HostPacing::open_room(uint32_t die, WriteStream s, uint32_t slot) const {
  const uint32_t b = blocks_.write_points().open_block(die, s, slot);
  if (b == BlockManager::kNoBlock || blocks_.info(b).slc) return 0;
  return (blocks_.pages_in_block(b) - blocks_.info(b).next_page) * blocks_.layout().spp_of(b);
}

uint64_t HostPacing::room(uint32_t die) const {
  uint64_t r = uint64_t(blocks_.pools().free_blocks(die)) * blocks_.layout().sectors_per_block();
  for (const WriteStream s : {WriteStream::Host, WriteStream::Gc, WriteStream::Map, WriteStream::Cold})
    for (uint32_t slot = 0; slot < blocks_.layout().geometry().planes_per_die; ++slot) r += open_room(die, s, slot);
  return r;
}

int64_t HostPacing::allowance(uint32_t die) const {
  const Die& d = dies_[die];
  const uint64_t left = d.valid ? uint64_t(blocks_.layout().sectors_per_block()) * blocks_.info(d.victim).valid / d.valid : 0;
  return int64_t(room(die)) - int64_t(left);
}

bool HostPacing::may_place(uint32_t die) const { return !dies_[die].paced || allowance(die) >= int64_t(unit_); }

// GC's room (its write point and the die's free blocks) beyond what it needs: the valid
// sectors left in its victim and a unit of padding, or a whole block for the next victim
// when none is being cleaned. A map block's pages move through the map stream's write point.
int64_t HostPacing::gc_spare(uint32_t die) const {
  const Die& d = dies_[die];
  const int64_t free = int64_t(blocks_.pools().free_blocks(die)) * blocks_.layout().sectors_per_block();
  if (d.victim == BlockManager::kNoBlock) return free + open_room(die, WriteStream::Gc, 0) - blocks_.layout().sectors_per_block();
  const WriteStream gc = blocks_.info(d.victim).holds_map ? WriteStream::Map : WriteStream::Gc;
  return free + open_room(die, gc, 0) - int64_t(blocks_.info(d.victim).valid + unit_);
}

bool HostPacing::may_open_block(uint32_t die) const {
  const uint32_t free = blocks_.pools().free_blocks(die);
  if (free >= 2) return true;  // one is left for GC whatever it does
  return free == 1 && gc_spare(die) >= int64_t(blocks_.layout().sectors_per_block());
}

bool HostPacing::may_share_gc_block(uint32_t die) const {
  const Die& d = dies_[die];
  if (d.victim != BlockManager::kNoBlock && blocks_.info(d.victim).holds_map) return false;
  return open_room(die, WriteStream::Gc, 0) >= unit_ && gc_spare(die) >= int64_t(unit_);
}

}  // namespace ufs
