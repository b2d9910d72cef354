// Where a block, page and sector sit: the physical sector address (PPA) arithmetic,
// fixed by the flash geometry alone (no state). Layout:
//   block id  = (die * planes + plane) * blocks_per_plane + block
//   PPA       = block id * sectors_per_block + page * sectors_per_page + sector
// Hybrid page size (FlashGeometry::hybrid): sectors_per_block is the large-page block's;
// each block's own page size sets its pages' stride (a small-page block uses the first
// pages_per_block x sectors_per_page sectors of its range).
#pragma once
#include <cstdint>
#include "hal/flash_types.h"

namespace ufs {

class BlockLayout {
 public:
  explicit BlockLayout(const FlashGeometry& geometry);

  const FlashGeometry& geometry() const { return geo_; }
  uint32_t block_count() const { return block_count_; }
  uint32_t sectors_per_block() const { return sectors_per_block_; }
  bool hybrid() const { return hybrid_; }
  // Hybrid page size: the block has the large page.
  bool large(uint32_t block) const { return hybrid_ && geo_.large_block(block % geo_.blocks_per_plane); }
  // Sectors per page of a block (hybrid: its own page size).
  uint32_t spp_of(uint32_t block) const { return large(block) ? spp_large_ : spp_; }

  uint32_t block_id(const FlashAddress& a) const {
    return (a.die * geo_.planes_per_die + a.plane) * geo_.blocks_per_plane + a.block;
  }
  uint32_t block_of(uint32_t ppa) const { return ppa / sectors_per_block_; }
  uint32_t die_of_block(uint32_t block) const { return block / blocks_per_die_; }
  uint32_t plane_of_block(uint32_t block) const { return (block / geo_.blocks_per_plane) % geo_.planes_per_die; }
  FlashAddress address_of(uint32_t block, uint32_t page) const;
  uint32_t ppa(uint32_t block, uint32_t page, uint32_t sector) const {
    return block * sectors_per_block_ + page * spp_of(block) + sector;
  }
  uint32_t page_of(uint32_t ppa) const {
    return hybrid_ ? (ppa % sectors_per_block_) / spp_of(block_of(ppa)) : (ppa % sectors_per_block_) / spp_;
  }
  // Sector within its page (a large page's stride divides the block's: ppa % its size).
  uint32_t sector_of(uint32_t ppa) const { return hybrid_ ? ppa % spp_of(block_of(ppa)) : ppa % spp_; }

 private:
  FlashGeometry geo_;
  uint32_t spp_;
  uint32_t spp_large_;
  bool hybrid_;
  uint32_t sectors_per_block_;
  uint32_t blocks_per_die_;
  uint32_t block_count_;
};

}  // namespace ufs
