// The free (erased) blocks of each die, in three pools kept apart: the main pool (TLC;
// hybrid page size: its small-page blocks), the large-page pool (hybrid page size) and the
// WriteBooster's SLC buffer. A pool hands out its first block (plane-first allocation: its
// first block of a given plane) and takes erased blocks back at its end; rebuilt from the
// blocks' states its blocks alternate planes, so consecutive allocations alternate planes.
// Which pool a block belongs to and what taking it does to the block are the block
// manager's (ftl/block_manager.h).
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include "ftl/block_layout.h"

namespace ufs {

struct BlockInfo;
enum class BlockPool : uint8_t { Main = 0, Large = 1, Slc = 2 };

class FreeBlockPools {
 public:
  static constexpr uint32_t kNoBlock = ~0u;
  static constexpr uint32_t kAnyPlane = ~0u;
  static BlockPool pool_of(const BlockInfo& b);

  explicit FreeBlockPools(const BlockLayout& layout);

  // Free blocks per die (hybrid: of the small-page pool, or of the large-page one).
  uint32_t free_blocks(uint32_t die, bool large = false) const {
    return count(die, large ? BlockPool::Large : BlockPool::Main);
  }
  uint32_t free_slc_blocks(uint32_t die) const { return count(die, BlockPool::Slc); }
  uint32_t count(uint32_t die, BlockPool pool) const {
    return static_cast<uint32_t>(lists_[uint32_t(pool)][die].size());
  }
  // The pool's first block (`plane`: its first of that plane), out of the pool; kNoBlock when none.
  uint32_t take(uint32_t die, BlockPool pool, uint32_t plane = kAnyPlane);
  void put_back(uint32_t block, BlockPool pool);  // an erased block, at the pool's end
  // Exactly the blocks in state Free, each in its pool, planes interleaved.
  void rebuild(const std::vector<BlockInfo>& blocks);

 private:
  const BlockLayout& layout_;
  std::vector<std::deque<uint32_t>> lists_[3];  // [pool][die]
};

}  // namespace ufs
