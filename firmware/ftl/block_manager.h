// Physical block bookkeeping: each block's state, valid sectors (count + bitmap) and erase
// count, and the transitions between states (a free block taken, an erased block given
// back, a grown bad block retired). Its parts: the address arithmetic (ftl/block_layout.h),
// the free blocks of each die's pools (ftl/free_block_pools.h) and the write points
// (ftl/write_points.h). Hybrid page size: small- and large-page blocks are two pools.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include "ftl/block_layout.h"
#include "ftl/free_block_pools.h"
#include "ftl/write_points.h"
#include "hal/flash_types.h"

namespace ufs {

enum class BlockState : uint8_t { Free, Open, Closed, Victim, Bad };

struct BlockInfo {
  BlockState state = BlockState::Free;
  uint32_t valid = 0;            // valid sectors
  uint32_t erase_count = 0;
  uint32_t next_page = 0;        // write point while open
  uint64_t last_write_ps = 0;    // age, for cost-benefit victim choice
  uint32_t programs_in_flight = 0;  // a block is no victim while data is still going in
  bool retire_after_gc = false;  // a program failed here: clean it, then retire it
  bool holds_map = false;        // a map-stream block: its valid sectors are map pages
  bool slc = false;              // a WriteBooster buffer block: always programmed as SLC
  bool large = false;            // hybrid page size: a large-page block
  std::unique_ptr<uint64_t[]> valid_bits;  // allocated on first program
};

class BlockManager {
 public:
  static constexpr uint32_t kNoBlock = ~0u;
  static constexpr uint32_t kAnyPlane = FreeBlockPools::kAnyPlane;

  explicit BlockManager(const FlashGeometry& geometry);

  const BlockLayout& layout() const { return layout_; }
  const FreeBlockPools& pools() const { return pools_; }
  WritePoints& write_points() { return points_; }
  const WritePoints& write_points() const { return points_; }

  // Pages of a block as the firmware operates it (WriteBooster blocks: SLC, fewer pages).
  uint32_t pages_in_block(uint32_t block) const {
    return blocks_[block].slc ? layout_.geometry().slc_pages_per_block() : layout_.geometry().pages_per_block;
  }
  uint32_t sectors_in_block(uint32_t block) const { return pages_in_block(block) * layout_.spp_of(block); }
  BlockInfo& info(uint32_t block) { return blocks_[block]; }
  const BlockInfo& info(uint32_t block) const { return blocks_[block]; }

  // Valid-sector accounting
  void mark_valid(uint32_t ppa);
  void mark_invalid(uint32_t ppa);
  bool is_valid(uint32_t ppa) const;
  // Hybrid page size: valid sectors in the small- or large-page pool (not counted otherwise).
  uint64_t pool_valid(bool large) const { return pool_valid_[large]; }

  // A free block out of its die's pool, Open and empty; kNoBlock when none. `plane`
  // (plane-first allocation): the pool's first block of that plane.
  uint32_t take_free_block(uint32_t die, uint32_t plane = kAnyPlane, bool large = false) {
    return opened(pools_.take(die, large ? BlockPool::Large : BlockPool::Main, plane));
  }
  uint32_t take_free_slc_block(uint32_t die, uint32_t plane = kAnyPlane) {
    return opened(pools_.take(die, BlockPool::Slc, plane));
  }
  // An erased block goes back to its die's pool, or (to_pool false) stays out of it
  // and becomes the caller's open block.
  void return_erased_block(uint32_t block, bool to_pool = true);
  void retire_block(uint32_t block);           // grown bad block
  // After a power-loss recovery set the blocks' states: the pools hold exactly the blocks
  // in state Free again.
  void rebuild_free_lists() { pools_.rebuild(blocks_); }
  // WriteBooster: the last `per_die` blocks of each die (planes in turn) become SLC blocks,
  // kept in their own pool and never taken by GC or host TLC writes.
  void reserve_slc(uint32_t per_die);

  // The controller's RAM these tables take (core/firmware_ram.h), for every block as a
  // firmware in SRAM allocates them: each block's record and free-list entry, the write
  // points; and each block's validity bitmap (allocated here on first program).
  uint64_t table_bytes() const;
  uint64_t bitmap_bytes() const;

  uint64_t total_erases() const { return total_erases_; }
  uint32_t bad_blocks() const { return bad_blocks_; }

 private:
  uint32_t opened(uint32_t block);  // a block leaves its pool: Open, empty
  BlockLayout layout_;
  std::vector<BlockInfo> blocks_;
  FreeBlockPools pools_;
  WritePoints points_;
  uint64_t pool_valid_[2] = {0, 0};
  uint64_t total_erases_ = 0;
  uint32_t bad_blocks_ = 0;
};

}  // namespace ufs
