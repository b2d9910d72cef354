#include "ftl/block_layout.h"

namespace ufs {

BlockLayout::BlockLayout(const FlashGeometry& geometry)
    : geo_(geometry),
      spp_(geometry.sectors_per_page()),
      spp_large_(geometry.large_sectors_per_page()),
      hybrid_(geometry.hybrid()),
      sectors_per_block_(static_cast<uint32_t>(geometry.sectors_per_block())),
      blocks_per_die_(geometry.planes_per_die * geometry.blocks_per_plane),
      block_count_(static_cast<uint32_t>(geometry.total_blocks())) {}

FlashAddress BlockLayout::address_of(uint32_t block, uint32_t page) const {
  FlashAddress a;
  a.block = block % geo_.blocks_per_plane;
  const uint32_t plane_index = block / geo_.blocks_per_plane;
  a.plane = plane_index % geo_.planes_per_die;
  a.die = plane_index / geo_.planes_per_die;
  a.page = page;
  return a;
}

}  // namespace ufs
