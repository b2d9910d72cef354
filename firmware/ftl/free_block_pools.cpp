#include "ftl/free_block_pools.h"
#include "ftl/block_manager.h"

namespace ufs {

BlockPool FreeBlockPools::pool_of(const BlockInfo& b) {
  return b.slc ? BlockPool::Slc : b.large ? BlockPool::Large : BlockPool::Main;
}

FreeBlockPools::FreeBlockPools(const BlockLayout& layout) : layout_(layout) {
  for (auto& pool : lists_) pool.resize(layout.geometry().dies());
}

uint32_t FreeBlockPools::take(uint32_t die, BlockPool pool, uint32_t plane) {
  std::deque<uint32_t>& list = lists_[uint32_t(pool)][die];
  auto it = list.begin();
  if (plane != kAnyPlane)
    while (it != list.end() && layout_.plane_of_block(*it) != plane) ++it;
  if (it == list.end()) return kNoBlock;
  const uint32_t block = *it;
  list.erase(it);
  return block;
}

void FreeBlockPools::put_back(uint32_t block, BlockPool pool) {
  lists_[uint32_t(pool)][layout_.die_of_block(block)].push_back(block);
}

void FreeBlockPools::rebuild(const std::vector<BlockInfo>& blocks) {
  const FlashGeometry& geo = layout_.geometry();
  for (uint32_t die = 0; die < geo.dies(); ++die) {
    for (auto& pool : lists_) pool[die].clear();
    for (uint32_t b = 0; b < geo.blocks_per_plane; ++b)
      for (uint32_t p = 0; p < geo.planes_per_die; ++p) {
        const uint32_t block = (die * geo.planes_per_die + p) * geo.blocks_per_plane + b;
        if (blocks[block].state == BlockState::Free) lists_[uint32_t(pool_of(blocks[block]))][die].push_back(block);
      }
  }
}

}  // namespace ufs
