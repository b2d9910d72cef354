// Hybrid page size (Zhou et al., IISWC'15 sec. VI; nand.hybrid_*): what the FTL keeps
// besides its two block pools (BlockManager's small- and large-page free lists):
//  - each pool's share of the data: a pool takes no more valid data than its share of the
//    exported capacity, so neither fills up with data GC cannot free;
//  - the write-cache slots of one-page units: a small-page unit takes one 4 KiB slot, a
//    large-page unit an aligned run of them.
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/block_manager.h"
#include "hal/flash_types.h"

namespace ufs {

class HybridPoolShares {
 public:
  HybridPoolShares(const FlashGeometry& geometry, double over_provisioning);

  // The pool a piece that belongs in `large` goes to: that one, or the other when it holds
  // its share already (a large chunk then goes as small pages, a small piece into a large
  // page with padding). The shares add up to the exported capacity: one always has room.
  bool pool_for(bool large, const BlockManager& blocks) const {
    return blocks.pool_valid(large) < limit_[large] ? large : !large;
  }
  // GC of a pool over its share (blocks retired) moves its victims' data into the other
  // pool while that one has room; never both ways, or data would bounce.
  bool gc_to_other(bool large, const BlockManager& blocks) const {
    return pool_for(large, blocks) != large && pool_for(!large, blocks) == !large;
  }
  // A retired block takes its raw space out of its pool's share.
  void block_retired(bool large, uint32_t block_sectors);
  uint64_t limit(bool large) const { return limit_[large]; }

 private:
  double keep_;  // 1 - over-provisioning
  uint64_t limit_[2] = {0, 0};
};

class HybridSlotRuns {
 public:
  static constexpr uint32_t kNone = ~0u;
  // `slots` write-cache slots; a large-page unit takes `run` aligned ones.
  HybridSlotRuns(uint32_t slots, uint32_t run);

  // First slot of a free unit, or kNone when fewer than reserve_slots would stay free. A
  // small unit goes first where a run is broken up already, so whole runs stay for large
  // ones; with a reserve (host data) a whole run must also stay free for GC's large units.
  uint32_t allocate(bool large, uint32_t reserve_slots);
  void release(uint32_t first, bool large);
  uint32_t free_slots() const { return free_; }
  uint32_t run() const { return run_; }

 private:
  bool whole_run(uint32_t first) const;
  std::vector<uint8_t> used_;
  uint32_t run_;
  uint32_t free_;
};

}  // namespace ufs
