// Physical block bookkeeping: state, valid sectors (count + bitmap), erase counts,
// free lists and write points per die. Physical sector address (PPA) layout:
//   block id  = (die * planes + plane) * blocks_per_plane + block
//   PPA       = block id * sectors_per_block + page * sectors_per_page + sector
// Hybrid page size (FlashGeometry::hybrid): sectors_per_block is the large-page block's;
// each block's own page size sets its pages' stride (a small-page block uses the first
// pages_per_block x sectors_per_page sectors of its range). Small- and large-page blocks
// are two pools with their own free lists and write points.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>
#include "hal/flash_types.h"

namespace ufs {

enum class BlockState : uint8_t { Free, Open, Closed, Victim, Bad };
// Open blocks per stream: host data, GC-moved (cold) data, and map pages kept apart;
// Cold: data a wear-levelling migration moves into a worn block.
// Slc: host data into the WriteBooster buffer (ftl/write_booster.h).
enum class WriteStream : uint8_t { Host = 0, Gc = 1, Map = 2, Cold = 3, Slc = 4 };
constexpr uint32_t kWriteStreams = 5;

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
  static constexpr uint32_t kAnyPlane = ~0u;

  explicit BlockManager(const FlashGeometry& geometry);

  const FlashGeometry& geometry() const { return geo_; }
  uint32_t block_count() const { return static_cast<uint32_t>(blocks_.size()); }
  uint32_t sectors_per_block() const { return sectors_per_block_; }
  // Pages of a block as the firmware operates it (WriteBooster blocks: SLC, fewer pages).
  uint32_t pages_in_block(uint32_t block) const {
    return blocks_[block].slc ? geo_.slc_pages_per_block() : geo_.pages_per_block;
  }
  bool hybrid() const { return hybrid_; }
  // Sectors per page of a block (hybrid: its own page size) and the sectors it holds.
  uint32_t spp_of(uint32_t block) const { return hybrid_ && blocks_[block].large ? spp_large_ : spp_; }
  uint32_t sectors_in_block(uint32_t block) const { return pages_in_block(block) * spp_of(block); }
  uint32_t block_id(const FlashAddress& a) const {
    return (a.die * geo_.planes_per_die + a.plane) * geo_.blocks_per_plane + a.block;
  }
  // WriteBooster: the last `per_die` blocks of each die (planes in turn) become SLC blocks,
  // kept on their own free lists and never taken by GC or host TLC writes.
  void reserve_slc(uint32_t per_die);
  uint32_t free_slc_blocks(uint32_t die) const { return static_cast<uint32_t>(slc_free_[die].size()); }
  // kNoBlock when none; `plane` (plane-first allocation): the first free SLC block of that plane.
  uint32_t take_free_slc_block(uint32_t die, uint32_t plane = kAnyPlane);
  // A closed SLC block to flush (fewest valid sectors first); kNoBlock when none.
  uint32_t pick_slc_victim(uint32_t die) const;

  // Address arithmetic
  uint32_t block_of(uint32_t ppa) const { return ppa / sectors_per_block_; }
  uint32_t die_of_block(uint32_t block) const { return block / blocks_per_die_; }
  FlashAddress address_of(uint32_t block, uint32_t page) const;
  uint32_t ppa(uint32_t block, uint32_t page, uint32_t sector) const {
    return block * sectors_per_block_ + page * spp_of(block) + sector;
  }
  uint32_t page_of(uint32_t ppa) const {
    return hybrid_ ? (ppa % sectors_per_block_) / spp_of(block_of(ppa)) : (ppa % sectors_per_block_) / spp_;
  }
  // Sector within its page (a large page's stride divides the block's: ppa % its size).
  uint32_t sector_of(uint32_t ppa) const { return hybrid_ ? ppa % spp_of(block_of(ppa)) : ppa % spp_; }

  BlockInfo& info(uint32_t block) { return blocks_[block]; }
  const BlockInfo& info(uint32_t block) const { return blocks_[block]; }

  // Valid-sector accounting
  void mark_valid(uint32_t ppa);
  void mark_invalid(uint32_t ppa);
  bool is_valid(uint32_t ppa) const;
  // Hybrid page size: valid sectors in the small- or large-page pool (not counted otherwise).
  uint64_t pool_valid(bool large) const { return pool_valid_[large]; }

  // Free blocks per die (hybrid: of the small-page pool, or of the large-page one)
  uint32_t free_blocks(uint32_t die, bool large = false) const {
    return static_cast<uint32_t>((large ? large_free_ : free_)[die].size());
  }
  uint32_t take_free_block(uint32_t die, uint32_t plane = kAnyPlane, bool large = false);  // kNoBlock when none
  // An erased block goes back to its die's free list, or (to_pool false) stays out of it
  // and becomes the caller's open block.
  void return_erased_block(uint32_t block, bool to_pool = true);
  void retire_block(uint32_t block);           // grown bad block
  // After a power-loss recovery set the blocks' states: free lists again hold exactly
  // the blocks in state Free, in the usual plane-interleaved order.
  void rebuild_free_lists();

  // Write points: the open block of a stream on a die (kNoBlock when none); `slot` > 0
  // only with plane-first allocation, which keeps one open block per plane.
  // Hybrid page size: `large` names the stream's write point in large-page blocks.
  uint32_t& open_block(uint32_t die, WriteStream s, uint32_t slot = 0, bool large = false) {
    return open_[((die * kWriteStreams + uint32_t(s)) * 2 + large) * geo_.planes_per_die + slot];
  }
  uint32_t open_block(uint32_t die, WriteStream s, uint32_t slot = 0, bool large = false) const {
    return open_[((die * kWriteStreams + uint32_t(s)) * 2 + large) * geo_.planes_per_die + slot];
  }
  uint32_t plane_of_block(uint32_t block) const { return (block / geo_.blocks_per_plane) % geo_.planes_per_die; }

  // Victim choice: the garbage collector's policies (gc/victim_policy.h).

  uint64_t total_erases() const { return total_erases_; }
  uint32_t bad_blocks() const { return bad_blocks_; }

 private:
  uint32_t opened(uint32_t block);  // a block leaves a free list: Open, empty
  std::vector<std::deque<uint32_t>>& free_list(uint32_t block) {
    return blocks_[block].slc ? slc_free_ : blocks_[block].large ? large_free_ : free_;
  }
  uint32_t take_from(std::deque<uint32_t>& list, uint32_t plane);
  FlashGeometry geo_;
  uint32_t spp_;
  uint32_t spp_large_;
  bool hybrid_;
  uint32_t sectors_per_block_;
  uint32_t blocks_per_die_;
  std::vector<BlockInfo> blocks_;
  std::vector<std::deque<uint32_t>> free_;
  std::vector<std::deque<uint32_t>> slc_free_;
  std::vector<std::deque<uint32_t>> large_free_;  // hybrid page size: large-page blocks
  std::vector<uint32_t> open_;
  uint64_t pool_valid_[2] = {0, 0};
  uint64_t total_erases_ = 0;
  uint32_t bad_blocks_ = 0;
};

}  // namespace ufs
