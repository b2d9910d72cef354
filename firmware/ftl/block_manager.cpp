#include "ftl/block_manager.h"

namespace ufs {

BlockManager::BlockManager(const FlashGeometry& geometry)
    : geo_(geometry),
      spp_(geometry.sectors_per_page()),
      spp_large_(geometry.large_sectors_per_page()),
      hybrid_(geometry.hybrid()),
      sectors_per_block_(static_cast<uint32_t>(geometry.sectors_per_block())),
      blocks_per_die_(geometry.planes_per_die * geometry.blocks_per_plane),
      blocks_(geometry.total_blocks()),
      free_(geometry.dies()),
      slc_free_(geometry.dies()),
      large_free_(geometry.dies()),
      open_(geometry.dies() * kWriteStreams * 2 * geometry.planes_per_die, kNoBlock) {
  if (hybrid_)
    for (uint32_t block = 0; block < blocks_.size(); ++block)
      blocks_[block].large = geo_.large_block(block % geo_.blocks_per_plane);
  rebuild_free_lists();
}

void BlockManager::rebuild_free_lists() {
  // Interleave planes in each die's free list so consecutive allocations alternate planes.
  for (uint32_t die = 0; die < geo_.dies(); ++die) {
    free_[die].clear();
    slc_free_[die].clear();
    large_free_[die].clear();
    for (uint32_t b = 0; b < geo_.blocks_per_plane; ++b)
      for (uint32_t p = 0; p < geo_.planes_per_die; ++p) {
        const uint32_t block = (die * geo_.planes_per_die + p) * geo_.blocks_per_plane + b;
        if (blocks_[block].state == BlockState::Free) free_list(block)[die].push_back(block);
      }
  }
}

FlashAddress BlockManager::address_of(uint32_t block, uint32_t page) const {
  FlashAddress a;
  a.block = block % geo_.blocks_per_plane;
  const uint32_t plane_index = block / geo_.blocks_per_plane;
  a.plane = plane_index % geo_.planes_per_die;
  a.die = plane_index / geo_.planes_per_die;
  a.page = page;
  return a;
}

void BlockManager::mark_valid(uint32_t ppa) {
  BlockInfo& b = blocks_[block_of(ppa)];
  if (!b.valid_bits) b.valid_bits.reset(new uint64_t[(sectors_per_block_ + 63) / 64]());
  const uint32_t off = ppa % sectors_per_block_;
  uint64_t& w = b.valid_bits[off / 64];
  const uint64_t bit = 1ull << (off % 64);
  if (!(w & bit)) {
    w |= bit;
    ++b.valid;
    if (hybrid_) ++pool_valid_[b.large];
  }
}

void BlockManager::mark_invalid(uint32_t ppa) {
  BlockInfo& b = blocks_[block_of(ppa)];
  if (!b.valid_bits) return;
  const uint32_t off = ppa % sectors_per_block_;
  uint64_t& w = b.valid_bits[off / 64];
  const uint64_t bit = 1ull << (off % 64);
  if (w & bit) {
    w &= ~bit;
    --b.valid;
    if (hybrid_) --pool_valid_[b.large];
  }
}

bool BlockManager::is_valid(uint32_t ppa) const {
  const BlockInfo& b = blocks_[block_of(ppa)];
  if (!b.valid_bits) return false;
  const uint32_t off = ppa % sectors_per_block_;
  return (b.valid_bits[off / 64] >> (off % 64)) & 1;
}

uint32_t BlockManager::take_free_block(uint32_t die, uint32_t plane, bool large) {
  return take_from((large ? large_free_ : free_)[die], plane);
}

// The first block of a free list (plane-first allocation: the first one of that plane).
uint32_t BlockManager::take_from(std::deque<uint32_t>& list, uint32_t plane) {
  auto it = list.begin();
  if (plane != kAnyPlane)
    while (it != list.end() && plane_of_block(*it) != plane) ++it;
  if (it == list.end()) return kNoBlock;
  const uint32_t block = *it;
  list.erase(it);
  return opened(block);
}

uint32_t BlockManager::opened(uint32_t block) {
  BlockInfo& b = blocks_[block];
  b.state = BlockState::Open;
  b.next_page = 0;
  if (hybrid_) pool_valid_[b.large] -= b.valid;
  b.valid = 0;
  if (b.valid_bits)
    for (uint32_t i = 0; i < (sectors_per_block_ + 63) / 64; ++i) b.valid_bits[i] = 0;
  return block;
}

void BlockManager::return_erased_block(uint32_t block, bool to_pool) {
  BlockInfo& b = blocks_[block];
  b.state = to_pool ? BlockState::Free : BlockState::Open;
  if (hybrid_) pool_valid_[b.large] -= b.valid;
  b.valid = 0;
  b.next_page = 0;
  b.valid_bits.reset();  // an erased block costs no bitmap memory
  b.programs_in_flight = 0;
  b.holds_map = false;
  ++b.erase_count;
  ++total_erases_;
  if (to_pool) free_list(block)[die_of_block(block)].push_back(block);
}

void BlockManager::reserve_slc(uint32_t per_die) {
  for (uint32_t die = 0; die < geo_.dies(); ++die)
    for (uint32_t i = 0; i < per_die; ++i) {
      const uint32_t plane = i % geo_.planes_per_die, b = geo_.blocks_per_plane - 1 - i / geo_.planes_per_die;
      blocks_[(die * geo_.planes_per_die + plane) * geo_.blocks_per_plane + b].slc = true;
    }
  rebuild_free_lists();
}

uint32_t BlockManager::take_free_slc_block(uint32_t die, uint32_t plane) { return take_from(slc_free_[die], plane); }

uint32_t BlockManager::pick_slc_victim(uint32_t die) const {
  uint32_t best = kNoBlock;
  const uint32_t first = die * blocks_per_die_;
  for (uint32_t block = first; block < first + blocks_per_die_; ++block) {
    const BlockInfo& b = blocks_[block];
    if (!b.slc || b.state != BlockState::Closed || b.programs_in_flight) continue;
    if (best == kNoBlock || b.valid < blocks_[best].valid) best = block;
  }
  return best;
}

void BlockManager::retire_block(uint32_t block) {
  blocks_[block].state = BlockState::Bad;
  ++bad_blocks_;
}

}  // namespace ufs
