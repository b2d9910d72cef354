// The block manager's parts alone: the address arithmetic (BlockLayout), the free blocks
// of each die's pools (FreeBlockPools), the write points (WritePoints), and the state
// transitions the manager makes over them.
#include <catch2/catch.hpp>
#include "ftl/block_manager.h"
#include "part_fixture.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace block_parts_test {

namespace {
// 2 dies x 2 planes x 6 blocks; hybrid: the last 2 blocks of each plane have 32 KiB pages.
FlashGeometry two_plane(bool hybrid = false) {
  FlashGeometry g = part_geometry(2, 6, 4, 2);
  if (hybrid) { g.small_blocks_per_plane = 4; g.large_page_bytes = 32768; }
  return g;
}
}  // namespace

TEST_CASE("Block layout: block ids, addresses and sector addresses round-trip", "[firmware][block-parts]") {
  const BlockLayout layout(two_plane());
  REQUIRE(layout.block_count() == 24);
  REQUIRE(layout.sectors_per_block() == 16);  // 4 pages of 4 sectors
  for (uint32_t block = 0; block < layout.block_count(); ++block) {
    const FlashAddress a = layout.address_of(block, 3);
    CHECK(a.page == 3);
    CHECK(layout.block_id(a) == block);
    CHECK(a.die == layout.die_of_block(block));
    CHECK(a.plane == layout.plane_of_block(block));
    for (uint32_t page = 0; page < 4; ++page)
      for (uint32_t s = 0; s < 4; ++s) {
        const uint32_t ppa = layout.ppa(block, page, s);
        CHECK(layout.block_of(ppa) == block);
        CHECK(layout.page_of(ppa) == page);
        CHECK(layout.sector_of(ppa) == s);
      }
  }
  // Block 7: die 0, plane 1, the second block of that plane.
  CHECK(layout.address_of(7, 0).die == 0);
  CHECK(layout.address_of(7, 0).plane == 1);
  CHECK(layout.address_of(7, 0).block == 1);
  CHECK(layout.die_of_block(12) == 1);
}

TEST_CASE("Block layout, hybrid page size: a block's own page sets its pages' stride", "[firmware][block-parts]") {
  const BlockLayout layout(two_plane(true));
  REQUIRE(layout.hybrid());
  REQUIRE(layout.sectors_per_block() == 32);  // the large-page block's: 4 pages of 8 sectors
  CHECK_FALSE(layout.large(3));
  CHECK(layout.large(4));   // block 4 of plane 0
  CHECK(layout.large(11));  // block 5 of plane 1
  CHECK_FALSE(layout.large(12));  // die 1's first block
  CHECK(layout.spp_of(3) == 4);
  CHECK(layout.spp_of(4) == 8);
  for (uint32_t block : {3u, 4u})
    for (uint32_t page = 0; page < 4; ++page)
      for (uint32_t s = 0; s < layout.spp_of(block); ++s) {
        const uint32_t ppa = layout.ppa(block, page, s);
        CHECK(ppa - block * 32 < (page + 1) * layout.spp_of(block));  // inside the block's range
        CHECK(layout.block_of(ppa) == block);
        CHECK(layout.page_of(ppa) == page);
        CHECK(layout.sector_of(ppa) == s);
      }
}

TEST_CASE("Free block pools: planes alternate, a plane's first block on demand, erased blocks at the end",
          "[firmware][block-parts]") {
  const BlockLayout layout(two_plane());
  std::vector<BlockInfo> blocks(layout.block_count());
  blocks[0].state = BlockState::Closed;  // die 0 plane 0's first block is in use
  FreeBlockPools pools(layout);
  pools.rebuild(blocks);
  CHECK(pools.free_blocks(0) == 11);
  CHECK(pools.free_blocks(1) == 12);
  CHECK(pools.free_slc_blocks(0) == 0);
  // Die 0: plane 1's first block, then plane 0's second, plane 1's second...
  CHECK(pools.take(0, BlockPool::Main) == 6);
  CHECK(pools.take(0, BlockPool::Main) == 1);
  CHECK(pools.take(0, BlockPool::Main) == 7);
  CHECK(pools.take(0, BlockPool::Main, 1) == 8);  // plane 1's next, past plane 0's
  CHECK(pools.take(0, BlockPool::Main) == 2);
  pools.put_back(0, BlockPool::Main);
  CHECK(pools.free_blocks(0) == 7);
  uint32_t last = FreeBlockPools::kNoBlock;
  for (uint32_t b; (b = pools.take(0, BlockPool::Main)) != FreeBlockPools::kNoBlock;) last = b;
  CHECK(last == 0);  // erased blocks go to the end
  CHECK(pools.take(0, BlockPool::Main) == FreeBlockPools::kNoBlock);
  CHECK(pools.free_blocks(1) == 12);  // the other die's pool untouched
}

TEST_CASE("Free block pools: SLC and large-page blocks are pools apart", "[firmware][block-parts]") {
  const BlockLayout layout(two_plane(true));
  std::vector<BlockInfo> blocks(layout.block_count());
  for (uint32_t b = 0; b < blocks.size(); ++b) blocks[b].large = layout.large(b);
  blocks[3].slc = true;
  blocks[9].slc = true;
  FreeBlockPools pools(layout);
  pools.rebuild(blocks);
  CHECK(pools.free_blocks(0) == 6);        // blocks 0-2 and 6-8
  CHECK(pools.free_blocks(0, true) == 4);  // blocks 4, 5, 10, 11
  CHECK(pools.free_slc_blocks(0) == 2);
  CHECK(pools.take(0, BlockPool::Slc, 1) == 9);
  CHECK(pools.take(0, BlockPool::Slc, 1) == FreeBlockPools::kNoBlock);
  CHECK(pools.take(0, BlockPool::Large) == 4);
  CHECK(pools.take(0, BlockPool::Large) == 10);
  CHECK(FreeBlockPools::pool_of(blocks[3]) == BlockPool::Slc);
  CHECK(FreeBlockPools::pool_of(blocks[5]) == BlockPool::Large);
  CHECK(FreeBlockPools::pool_of(blocks[0]) == BlockPool::Main);
}

TEST_CASE("Write points: one per die, stream, plane slot and page size, none at first", "[firmware][block-parts]") {
  const FlashGeometry g = two_plane();
  WritePoints points(g);
  for (uint32_t die = 0; die < g.dies(); ++die)
    for (uint32_t s = 0; s < kWriteStreams; ++s)
      for (uint32_t slot = 0; slot < g.planes_per_die; ++slot)
        for (bool large : {false, true})
          CHECK(points.open_block(die, WriteStream(s), slot, large) == WritePoints::kNoBlock);
  points.open_block(1, WriteStream::Gc, 1, true) = 20;
  points.open_block(1, WriteStream::Gc) = 13;
  points.open_block(0, WriteStream::Map) = 2;
  const WritePoints& view = points;
  CHECK(view.open_block(1, WriteStream::Gc, 1, true) == 20);
  CHECK(view.open_block(1, WriteStream::Gc) == 13);
  CHECK(view.open_block(1, WriteStream::Gc, 1) == WritePoints::kNoBlock);
  CHECK(view.open_block(1, WriteStream::Gc, 0, true) == WritePoints::kNoBlock);
  CHECK(view.open_block(1, WriteStream::Host) == WritePoints::kNoBlock);
  CHECK(view.open_block(0, WriteStream::Map) == 2);
}

TEST_CASE("Block manager: a taken block opens empty, an erased one returns to its pool counted",
          "[firmware][block-parts]") {
  BlockManager bm(two_plane());
  bm.reserve_slc(2);  // the last block of each plane of each die
  CHECK(bm.pools().free_slc_blocks(0) == 2);
  CHECK(bm.pools().free_blocks(0) == 10);
  const uint32_t block = bm.take_free_block(0);
  REQUIRE(block == 0);
  bm.mark_valid(bm.layout().ppa(block, 0, 1));
  bm.mark_valid(bm.layout().ppa(block, 0, 1));  // once only
  bm.mark_valid(bm.layout().ppa(block, 2, 3));
  CHECK(bm.info(block).state == BlockState::Open);
  CHECK(bm.info(block).valid == 2);
  CHECK(bm.is_valid(bm.layout().ppa(block, 2, 3)));
  bm.mark_invalid(bm.layout().ppa(block, 0, 1));
  CHECK(bm.info(block).valid == 1);
  CHECK_FALSE(bm.is_valid(bm.layout().ppa(block, 0, 1)));
  bm.return_erased_block(block);
  CHECK(bm.info(block).state == BlockState::Free);
  CHECK(bm.info(block).valid == 0);
  CHECK(bm.info(block).erase_count == 1);
  CHECK(bm.total_erases() == 1);
  CHECK(bm.pools().free_blocks(0) == 10);
  const uint32_t slc = bm.take_free_slc_block(0, 1);
  CHECK(slc == 11);  // plane 1's last block
  CHECK(bm.pages_in_block(slc) == 1);  // 4 TLC pages as SLC
  CHECK(bm.info(slc).state == BlockState::Open);
  bm.retire_block(slc);
  CHECK(bm.bad_blocks() == 1);
  bm.rebuild_free_lists();
  CHECK(bm.pools().free_slc_blocks(0) == 1);
}

}  // namespace block_parts_test
