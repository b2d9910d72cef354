#include "ftl/block_manager.h"

namespace ufs {

BlockManager::BlockManager(const FlashGeometry& geometry)
    : layout_(geometry), blocks_(layout_.block_count()), pools_(layout_), points_(geometry) {
  if (layout_.hybrid())
    for (uint32_t block = 0; block < blocks_.size(); ++block) blocks_[block].large = layout_.large(block);
  rebuild_free_lists();
}

void BlockManager::mark_valid(uint32_t ppa) {
  BlockInfo& b = blocks_[layout_.block_of(ppa)];
  const uint32_t spb = layout_.sectors_per_block();
  if (!b.valid_bits) b.valid_bits.reset(new uint64_t[(spb + 63) / 64]());
  const uint32_t off = ppa % spb;
  uint64_t& w = b.valid_bits[off / 64];
  const uint64_t bit = 1ull << (off % 64);
  if (!(w & bit)) {
    w |= bit;
    ++b.valid;
    if (layout_.hybrid()) ++pool_valid_[b.large];
  }
}

void BlockManager::mark_invalid(uint32_t ppa) {
  BlockInfo& b = blocks_[layout_.block_of(ppa)];
  if (!b.valid_bits) return;
  const uint32_t off = ppa % layout_.sectors_per_block();
  uint64_t& w = b.valid_bits[off / 64];
  const uint64_t bit = 1ull << (off % 64);
  if (w & bit) {
    w &= ~bit;
    --b.valid;
    if (layout_.hybrid()) --pool_valid_[b.large];
  }
}

uint64_t BlockManager::table_bytes() const {
  return uint64_t(blocks_.size()) * (sizeof(BlockInfo) + sizeof(uint32_t)) + points_.ram_bytes();
}

uint64_t BlockManager::bitmap_bytes() const {
  return uint64_t(blocks_.size()) * ((layout_.sectors_per_block() + 63) / 64) * sizeof(uint64_t);
}

bool BlockManager::is_valid(uint32_t ppa) const {
  const BlockInfo& b = blocks_[layout_.block_of(ppa)];
  if (!b.valid_bits) return false;
  const uint32_t off = ppa % layout_.sectors_per_block();
  return (b.valid_bits[off / 64] >> (off % 64)) & 1;
}

uint32_t BlockManager::opened(uint32_t block) {
  if (block == kNoBlock) return kNoBlock;
  BlockInfo& b = blocks_[block];
  b.state = BlockState::Open;
  b.next_page = 0;
  if (layout_.hybrid()) pool_valid_[b.large] -= b.valid;
  b.valid = 0;
  if (b.valid_bits)
    for (uint32_t i = 0; i < (layout_.sectors_per_block() + 63) / 64; ++i) b.valid_bits[i] = 0;
  return block;
}

void BlockManager::return_erased_block(uint32_t block, bool to_pool) {
  BlockInfo& b = blocks_[block];
  b.state = to_pool ? BlockState::Free : BlockState::Open;
  if (layout_.hybrid()) pool_valid_[b.large] -= b.valid;
  b.valid = 0;
  b.next_page = 0;
  b.valid_bits.reset();  // an erased block costs no bitmap memory
  b.programs_in_flight = 0;
  b.holds_map = false;
  ++b.erase_count;
  ++total_erases_;
  if (to_pool) pools_.put_back(block, FreeBlockPools::pool_of(b));
}

void BlockManager::reserve_slc(uint32_t per_die) {
  const FlashGeometry& geo = layout_.geometry();
  for (uint32_t die = 0; die < geo.dies(); ++die)
    for (uint32_t i = 0; i < per_die; ++i) {
      const uint32_t plane = i % geo.planes_per_die, b = geo.blocks_per_plane - 1 - i / geo.planes_per_die;
      blocks_[(die * geo.planes_per_die + plane) * geo.blocks_per_plane + b].slc = true;
    }
  rebuild_free_lists();
}

void BlockManager::retire_block(uint32_t block) {
  blocks_[block].state = BlockState::Bad;
  ++bad_blocks_;
}

}  // namespace ufs
