// Hybrid page size (IISWC'15 sec. VI) on the fake platform: each plane's last blocks have
// 8 KiB pages, the rest 4 KiB pages; the FTL splits every write into whole aligned 8 KiB
// chunks (large pages) and 4 KiB pieces (small pages), keeps the two kinds of blocks as
// pools with their own GC, and pads nothing.
#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include "fake_platform.h"
#include "gc/host_pacing.h"
#include "gc/victim_selector.h"
#include "gc/wear_migration.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace hybrid_page_test {

namespace {

FlashGeometry hybrid_geometry() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
  g.blocks_per_plane = 24; g.pages_per_block = 64; g.page_bytes = 4096;
  g.small_blocks_per_plane = 16; g.large_page_bytes = 8192;
  return g;  // per plane 16 x 64 x 4 KiB + 8 x 64 x 8 KiB = 8 MiB; 64 MiB in all
}

FirmwareParams hybrid_params() {
  FirmwareParams p;
  p.over_provisioning = 0.25;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  p.program_pages = 1;
  p.logical_page_kib = 4;
  return p;
}

// Takes one of the die's free blocks of the pool, full and closed, its first `valid` sectors valid.
uint32_t closed_block(BlockManager& bm, uint32_t die, bool large, uint32_t valid) {
  const uint32_t b = bm.take_free_block(die, BlockManager::kAnyPlane, large);
  REQUIRE(b != BlockManager::kNoBlock);
  bm.info(b).state = BlockState::Closed;
  bm.info(b).next_page = bm.layout().geometry().pages_per_block;
  for (uint32_t s = 0; s < valid; ++s) bm.mark_valid(bm.layout().ppa(b, s / bm.layout().spp_of(b), s % bm.layout().spp_of(b)));
  return b;
}

struct Rig {
  FlashGeometry geo = hybrid_geometry();
  FirmwareParams params;
  FakePlatform hw;
  DeviceFirmware fw;
  explicit Rig(FirmwareParams p = hybrid_params()) : params(p), hw(geo, params.data_buffer_kib / 4), fw(hw, params, geo) {
    hw.attach(&fw);
  }
  void write(uint8_t tag, uint64_t lba, uint32_t n, uint64_t version) {
    std::vector<SectorStamp> data(n);
    for (uint32_t i = 0; i < n; ++i) data[i] = SectorStamp{lba + i, version};
    hw.command(make_rw(tag, true, lba, n), data);
    hw.run();
    REQUIRE(hw.responses_.back().status == scsi_status::kGood);
  }
  // Reads [0, span) back: block i must hold version[i] (0: never written, reads erased).
  void check_reads(uint64_t span, const std::function<uint64_t(uint64_t)>& version) {
    for (uint64_t lba = 0; lba < span; lba += 8) {
      const uint32_t n = uint32_t(std::min<uint64_t>(8, span - lba));
      hw.command(make_rw(0, false, lba, n));
      hw.run();
      for (uint32_t i = 0; i < n; ++i) {
        const uint64_t v = version(lba + i);
        if (hw.host_in_[0][i] != (v ? SectorStamp{lba + i, v} : SectorStamp{})) FAIL("LBA " << lba + i << " reads back wrong");
      }
    }
  }
  bool in_large_block(uint64_t lba) const {
    const uint32_t e = fw.ftl().map().get(lba);
    REQUIRE(L2pMap::is_physical(e));
    return fw.ftl().blocks().info(fw.ftl().blocks().layout().block_of(e)).large;
  }
};

}  // namespace

TEST_CASE("Hybrid geometry: capacity of both kinds of blocks, PPA stride of the large one", "[firmware][hybrid]") {
  const FlashGeometry g = hybrid_geometry();
  CHECK(g.hybrid());
  CHECK(g.total_sectors() == 8ull * (16 * 64 + 8 * 64 * 2));
  CHECK(g.sectors_per_block() == 128);
  CHECK_FALSE(g.large_block(15));
  CHECK(g.large_block(16));
  BlockManager bm(g);
  CHECK(bm.pools().free_blocks(0) == 32);
  CHECK(bm.pools().free_blocks(0, true) == 16);
  const uint32_t small = bm.take_free_block(0), large = bm.take_free_block(0, BlockManager::kAnyPlane, true);
  CHECK(bm.layout().spp_of(small) == 1);
  CHECK(bm.layout().spp_of(large) == 2);
  CHECK(bm.sectors_in_block(large) == 128);
  CHECK(bm.sectors_in_block(small) == 64);
  const uint32_t ppa = bm.layout().ppa(large, 5, 1);
  CHECK(bm.layout().page_of(ppa) == 5);
  CHECK(bm.layout().sector_of(ppa) == 1);
  CHECK(bm.layout().page_of(bm.layout().ppa(small, 5, 0)) == 5);
}

TEST_CASE("Hybrid: a 12 KiB write fills one 8 KiB page and one 4 KiB page, a 4 KiB write one 4 KiB page",
          "[firmware][hybrid]") {
  Rig r;
  r.write(1, 100, 3, 1);  // aligned: 100-101 large, 102 small
  CHECK(r.in_large_block(100));
  CHECK(r.in_large_block(101));
  CHECK_FALSE(r.in_large_block(102));
  const BlockManager& bm = r.fw.ftl().blocks();
  const uint32_t a = r.fw.ftl().map().get(100), b = r.fw.ftl().map().get(101);
  CHECK(bm.layout().block_of(a) == bm.layout().block_of(b));  // the chunk shares one page
  CHECK(bm.layout().page_of(a) == bm.layout().page_of(b));
  CHECK(bm.layout().sector_of(a) == 0);
  CHECK(bm.layout().sector_of(b) == 1);
  CHECK(r.hw.large_page_ops_ == 1);  // one 8 KiB program
  CHECK(r.hw.small_page_ops_ == 1);  // one 4 KiB program
  r.write(2, 201, 3, 1);  // unaligned: 201 small, 202-203 large
  CHECK_FALSE(r.in_large_block(201));
  CHECK(r.in_large_block(202));
  CHECK(r.in_large_block(203));
  r.write(3, 7, 1, 1);
  CHECK_FALSE(r.in_large_block(7));
  CHECK(r.hw.large_page_ops_ == 2);
  CHECK(r.hw.small_page_ops_ == 3);
  // Space utilisation: 7 sectors written, 7 sectors of page space programmed, no padding.
  CHECK(fw_count(r.fw, "ftl.host_write_blocks") == 7);
  CHECK(fw_count(r.fw, "ftl.host_program_sectors") == 7);
  CHECK(fw_count(r.fw, "ftl.host_page_sectors") == 7);
  CHECK(fw_count(r.fw, "ftl.padding_sectors") == 0);
  CHECK(r.hw.violations_ == 0);

  // Reads go wherever the data is; the two sectors of an 8 KiB page come in one read.
  const uint64_t reads_before = r.hw.data_reads_;
  r.hw.command(make_rw(4, false, 99, 5));
  r.hw.run();
  REQUIRE(r.hw.responses_.back().status == scsi_status::kGood);
  const auto& got = r.hw.host_in_[4];
  CHECK(got[0].lba == kNoLba);
  for (uint32_t i = 1; i < 4; ++i) CHECK(got[i] == (SectorStamp{99 + i, 1}));
  CHECK(got[4].lba == kNoLba);
  CHECK(r.hw.data_reads_ - reads_before == 2);  // one 8 KiB page, one 4 KiB page
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("Hybrid: random writes overwrite the device, GC cleans both pools, no padding, data intact",
          "[firmware][hybrid][gc]") {
  Rig r;
  const uint64_t cap = r.fw.logical_blocks();
  const uint64_t span = cap * 3 / 4;
  std::mt19937_64 rng(3);
  std::vector<uint64_t> version(span, 0);
  uint64_t v = 0, written = 0;
  while (written < 4 * span) {
    const uint32_t n = 1 + uint32_t(rng() % 8);
    const uint64_t lba = rng() % (span - n);
    ++v;
    r.write(uint8_t(v % 32), lba, n, v);
    for (uint32_t i = 0; i < n; ++i) version[lba + i] = v;
    written += n;
  }
  CHECK(r.fw.gc().stats().victims > 0);
  CHECK(r.hw.large_erases_ > 0);              // GC of the large-page pool
  CHECK(r.hw.erases_ > r.hw.large_erases_);   // and of the small-page pool
  CHECK(fw_count(r.fw, "ftl.host_page_sectors") == fw_count(r.fw, "ftl.host_program_sectors"));  // every host piece fits its page exactly
  r.check_reads(span, [&](uint64_t lba) { return version[lba]; });
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("Hybrid: sequential writes past the large pool's share spill into small pages and the device goes on",
          "[firmware][hybrid]") {
  Rig r;
  const uint64_t cap = r.fw.logical_blocks();
  // The whole exported capacity in 32 KiB sequential writes: all whole 8 KiB chunks.
  for (uint64_t lba = 0, v = 1; lba < cap; lba += 8, ++v) r.write(uint8_t(v % 32), lba, uint32_t(std::min<uint64_t>(8, cap - lba)), 1);
  // ...and again, so GC must free blocks in both pools.
  for (uint64_t lba = 0, v = 1; lba < cap; lba += 8, ++v) r.write(uint8_t(v % 32), lba, uint32_t(std::min<uint64_t>(8, cap - lba)), 2);
  const BlockManager& bm = r.fw.ftl().blocks();
  // The large pool (half the raw space) took what it has room for; the rest went to small pages.
  CHECK(bm.pool_valid(true) > cap / 3);
  CHECK(bm.pool_valid(false) > cap / 4);
  CHECK(bm.pool_valid(true) + bm.pool_valid(false) >= cap);
  INFO("GC victims " << r.fw.gc().stats().victims << ", of them moved to the other pool " << r.fw.gc().stats().cross_pool_victims);
  r.check_reads(cap, [](uint64_t) { return uint64_t(2); });
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("Hybrid: a precondition fill puts whole 8 KiB chunks in large pages and reads back", "[firmware][hybrid]") {
  Rig r;
  r.fw.precondition(11, 9, r.hw);  // 11 alone, 12-13 .. 18-19 chunks
  CHECK_FALSE(r.in_large_block(11));
  for (uint64_t lba = 12; lba < 20; ++lba) CHECK(r.in_large_block(lba));
  r.hw.command(make_rw(1, false, 10, 11));
  r.hw.run();
  const auto& got = r.hw.host_in_[1];
  CHECK(got[0].lba == kNoLba);
  for (uint32_t i = 1; i < 10; ++i) CHECK(got[i] == (SectorStamp{10 + i, 0}));
  CHECK(got[10].lba == kNoLba);
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("Hybrid: settings the split does not support are refused naming the key", "[firmware][hybrid]") {
  const FlashGeometry g = hybrid_geometry();
  FirmwareParams p = hybrid_params();
  CHECK(p.validate_for(g).empty());
  auto refused = [&](FirmwareParams q, const std::string& key) {
    const std::string e = q.validate_for(g);
    INFO(e);
    CHECK(e.rfind(key + ":", 0) == 0);
  };
  FirmwareParams q = p;
  q.program_pages = 2;
  refused(q, "program_pages");
  q = p;
  q.logical_page_kib = 8;
  refused(q, "logical_page_kib");
  q = p;
  q.gc.copy_back = true;
  refused(q, "gc_copy_back");
  q = p;
  q.lba_mapping = "static";
  refused(q, "lba_mapping");
  q = p;
  q.stripe_order = "plane-first";
  refused(q, "stripe_order");
  q = p;
  q.writebooster.enabled = true;
  CHECK(q.writebooster.validate_for(g, 1).rfind("enabled:", 0) == 0);
}

TEST_CASE("Hybrid: a write cache of 8 slots under concurrent writes and GC of both pools never stalls",
          "[firmware][hybrid][gc]") {
  FirmwareParams p = hybrid_params();
  p.write_cache_kib = 32;  // 8 slots: 4 whole runs for 8 KiB units at most
  Rig r(p);
  const uint64_t span = r.fw.logical_blocks() * 3 / 4;
  std::mt19937_64 rng(5);
  std::vector<uint64_t> version(span, 0);
  uint64_t v = 0;
  for (int round = 0; round < 1200; ++round) {
    std::vector<bool> taken(span, false);
    for (uint8_t tag = 0; tag < 16; ++tag) {  // 16 writes in flight, disjoint ranges
      const uint32_t n = 1 + uint32_t(rng() % 9);
      const uint64_t lba = rng() % (span - n);
      bool free = true;
      for (uint32_t i = 0; i < n; ++i) free = free && !taken[lba + i];
      if (!free) continue;
      std::vector<SectorStamp> data(n);
      ++v;
      for (uint32_t i = 0; i < n; ++i) {
        taken[lba + i] = true;
        version[lba + i] = v;
        data[i] = SectorStamp{lba + i, v};
      }
      r.hw.command(make_rw(tag, true, lba, n), data);
    }
    r.hw.run();
  }
  CHECK(r.hw.large_erases_ > 0);
  CHECK(r.hw.erases_ > r.hw.large_erases_);
  for (const auto& resp : r.hw.responses_) REQUIRE(resp.status == scsi_status::kGood);
  CHECK(r.fw.idle());
  r.check_reads(span, [&](uint64_t lba) { return version[lba]; });
}

TEST_CASE("Hybrid: blocks retired by program failures shrink their pool, GC moves the surplus to the other pool",
          "[firmware][hybrid][gc]") {
  Rig r;
  const uint64_t cap = r.fw.logical_blocks();
  std::vector<uint64_t> version(cap, 0);
  uint64_t v = 0;
  auto write = [&](uint64_t lba, uint32_t n) {
    ++v;
    r.write(uint8_t(v % 32), lba, n, v);
    for (uint32_t i = 0; i < n; ++i) version[lba + i] = v;
  };
  for (uint64_t lba = 0; lba + 8 <= cap; lba += 8) write(lba, 8);  // both pools at their share
  std::mt19937_64 rng(9);
  for (int i = 0; i < 6000; ++i) {
    if (i % 400 == 0) r.hw.fail_next_program_ = true;  // a grown bad block now and then
    const uint32_t n = 1 + uint32_t(rng() % 8);
    write(rng() % (cap * 3 / 4 - n), n);
  }
  INFO("program failures " << fw_count(r.fw, "ftl.program_failures") << ", GC victims " << r.fw.gc().stats().victims << ", into the other pool "
                           << r.fw.gc().stats().cross_pool_victims);
  CHECK(fw_count(r.fw, "ftl.program_failures") >= 10);
  CHECK(r.fw.gc().stats().cross_pool_victims > 0);
  r.check_reads(cap, [&](uint64_t lba) { return version[lba]; });
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("Hybrid: write-cache slots: large units take aligned runs, small ones fill broken runs first",
          "[firmware][hybrid]") {
  HybridSlotRuns s(9, 2);  // runs [0,1] [2,3] [4,5] [6,7]; slot 8 only for small units
  CHECK(s.allocate(true, 0) == 0);
  CHECK(s.allocate(false, 0) == 8);   // the slot outside any run goes first
  CHECK(s.allocate(false, 0) == 2);   // then one breaks run [2,3]
  CHECK(s.allocate(false, 0) == 3);   // and the next fills it before breaking another
  CHECK(s.allocate(true, 0) == 4);
  CHECK(s.free_slots() == 2);
  // With a reserve (host data) the last whole run stays free for GC.
  CHECK(s.allocate(true, 1) == HybridSlotRuns::kNone);
  CHECK(s.allocate(false, 1) == HybridSlotRuns::kNone);
  CHECK(s.allocate(true, 0) == 6);    // GC (no reserve) takes it
  CHECK(s.allocate(false, 0) == HybridSlotRuns::kNone);
  s.release(2, false);
  s.release(0, true);
  CHECK(s.free_slots() == 3);
  CHECK(s.allocate(false, 0) == 2);   // the broken run first
  CHECK(s.allocate(true, 0) == 0);
}

TEST_CASE("Hybrid: pool shares add up to the exported capacity and shrink with retired blocks", "[firmware][hybrid]") {
  const FlashGeometry g = hybrid_geometry();
  HybridPoolShares shares(g, 0.25);
  CHECK(shares.limit(false) == 8 * 16 * 64 * 3 / 4);
  CHECK(shares.limit(true) == 8 * 8 * 128 * 3 / 4);
  CHECK(shares.limit(false) + shares.limit(true) == g.total_sectors() * 3 / 4);
  BlockManager bm(g);
  CHECK(shares.pool_for(true, bm));  // empty pools: each piece where it belongs
  CHECK_FALSE(shares.pool_for(false, bm));
  CHECK_FALSE(shares.gc_to_other(true, bm));
  shares.block_retired(true, 128);
  CHECK(shares.limit(true) == 8 * 8 * 128 * 3 / 4 - 96);
}

// Issue 14 (session 21): GC of a pool over its share moved its victims' data into the other
// pool's last free block; the erase gives the block back to the victim's pool, so the other
// pool ended with no free block and no room for its own victims: every die stuck, the device
// read-only (integrity sweep point 15 once host pacing applied with hybrid page size). Data
// goes into the other pool only into room beyond a block for that pool's own next victim,
// and the host gate keeps that block too while such a victim is moved.
TEST_CASE("Hybrid GC: a pool over its share moves data into the other pool only beyond that pool's next victim's block",
          "[firmware][hybrid][gc]") {
  const FlashGeometry g = hybrid_geometry();
  FirmwareParams params = hybrid_params();
  FakePlatform hw(g, 256);
  BlockManager bm(g);
  HybridPoolShares shares(g, 0.25);
  WearMigration wear(hw, params, bm);
  VictimSelector selector(hw, params, bm, &shares, wear);
  auto closed = [&](uint32_t die, bool large, uint32_t valid) { return closed_block(bm, die, large, valid); };
  // Dies 1-3's small blocks full: the small pool holds its share (6,144 sectors) and more
  // with die 0's 20-sector block; the large pool holds nothing.
  for (uint32_t die = 1; die < 4; ++die)
    for (uint32_t k = 0; k < 32; ++k) closed(die, false, 64);
  const uint32_t victim = closed(0, false, 20);
  REQUIRE(shares.gc_to_other(false, bm));
  HostPacing pacing(bm, 1);
  // Die 0's large pool: GC's large block 64 sectors from full, 2 free blocks (the rest closed
  // and full).
  uint32_t& gc_large = bm.write_points().open_block(0, WriteStream::Gc, 0, true);
  gc_large = bm.take_free_block(0, BlockManager::kAnyPlane, true);
  bm.info(gc_large).next_page = 32;
  while (bm.pools().free_blocks(0, true) > 2) closed(0, true, 128);
  bool to_other = false;
  CHECK(pacing.gc_spare(0, true) == 2 * 128 + 64 - 128);  // beyond its own next victim's block
  CHECK(selector.pick(0, false, to_other, pacing.gc_spare(0, true)) == victim);
  CHECK(to_other);  // the victim's 20 and a page fit
  // While it moves, the large pool keeps the victim's need and its own next victim's block.
  pacing.victim_taken(0, victim, true, true);
  CHECK(pacing.gc_spare(0, true) == 2 * 128 + 64 - (20 + 2) - 128);
  CHECK(pacing.may_open_block(0, true));  // 2 free: one stays
  closed(0, true, 128);
  // 1 free: GC's 64 cover the victim, but then the large pool would have no block for its own
  // victims (the erase gives the small pool its block back): the host may not take it.
  CHECK(pacing.gc_spare(0, true) == 128 + 64 - 22 - 128);
  CHECK_FALSE(pacing.may_open_block(0, true));
  CHECK(pacing.may_share_gc_block(0, true));  // GC's block beyond the victim's need
  pacing.stop(0);
  // GC's large block 8 from full, 1 free block: nothing beyond the large pool's own next
  // victim's block takes the 20 sectors: the victim's data stays in its own pool.
  bm.info(gc_large).next_page = 60;
  CHECK(pacing.gc_spare(0, true) == 128 + 8 - 128);
  CHECK(selector.pick(0, false, to_other, pacing.gc_spare(0, true)) == victim);
  CHECK_FALSE(to_other);
}

// Issue 14 (session 22): with hybrid page size GC host pacing measured a die's room over both
// pools against its victim's need, so the free blocks of the pool GC was not cleaning covered
// the victim and nothing was ever paced (the iiswc15 hybrid GC case: large-page victims, most
// small-page blocks free, 0 pacing waits, write p99 1.46 s). Each pool's allowance is its own
// room less what the victim needs of it.
TEST_CASE("Hybrid GC pacing: a pool's host units wait for its own victim's pace, the other pool's free blocks do not cover it",
          "[firmware][hybrid][gc]") {
  const FlashGeometry g = hybrid_geometry();
  BlockManager bm(g);
  auto closed = [&](uint32_t die, bool large, uint32_t valid) { return closed_block(bm, die, large, valid); };
  // Die 0: a small-page victim with 32 of 64 sectors valid, one small block free; the large
  // pool's 16 blocks (2,048 sectors) all free.
  const uint32_t victim = closed(0, false, 32);
  while (bm.pools().free_blocks(0, false) > 1) closed(0, false, 64);
  REQUIRE(bm.pools().free_blocks(0, true) == 16);
  HostPacing pacing(bm, 1);
  pacing.victim_taken(0, victim, true);
  // The small pool: room 64, GC needs 64 * 32 / 32: nothing for the host (die-wide, the large
  // pool's 2,048 covered it).
  CHECK_FALSE(pacing.may_place(0, false));
  CHECK(pacing.may_place(0, true));  // the large pool owes this victim nothing
  // GC moves 16 sectors into its block (the free one) and they leave the victim: GC needs
  // 64 * 16 / 32 = 32 of the 48 left.
  uint32_t& gc_open = bm.write_points().open_block(0, WriteStream::Gc);
  gc_open = bm.take_free_block(0);
  bm.info(gc_open).next_page = 16;
  for (uint32_t s = 0; s < 16; ++s) bm.mark_invalid(bm.layout().ppa(victim, s, 0));
  CHECK(pacing.may_place(0, false));
  // GC's share of the write cache follows the die's room over both pools (gc/host_pacing.h):
  // 16 + 2,048 cover a block, so GC is ahead of what the host waits for.
  CHECK(pacing.gc_ahead(0));
}

TEST_CASE("Hybrid GC pacing: each pool's allowance and what the victim needs of it, moved into the other pool too",
          "[firmware][hybrid][gc]") {
  const FlashGeometry g = hybrid_geometry();
  BlockManager bm(g);
  auto closed = [&](uint32_t die, bool large, uint32_t valid) { return closed_block(bm, die, large, valid); };
  const uint32_t victim = closed(0, false, 40);  // 40 of 64 valid
  while (bm.pools().free_blocks(0, false) > 2) closed(0, false, 64);
  while (bm.pools().free_blocks(0, true) > 3) closed(0, true, 128);
  uint32_t& host_large = bm.write_points().open_block(0, WriteStream::Host, 0, true);
  host_large = bm.take_free_block(0, BlockManager::kAnyPlane, true);
  bm.info(host_large).next_page = 54;  // 10 pages of 2 sectors left
  HostPacing pacing(bm, 1);
  CHECK(pacing.room(0, false) == 2 * 64);
  CHECK(pacing.room(0, true) == 2 * 128 + 20);
  CHECK(pacing.allowance(0, false) == 128);  // no victim: nothing needed
  // Kept in its pool: the small pool needs the whole block back (64 * 40 / 40), the large
  // pool nothing.
  pacing.victim_taken(0, victim, true, false);
  CHECK(pacing.need(0, false) == 64);
  CHECK(pacing.need(0, true) == 0);
  CHECK(pacing.allowance(0, false) == 128 - 64);
  CHECK(pacing.allowance(0, true) == 276);
  for (uint32_t s = 0; s < 10; ++s) bm.mark_invalid(bm.layout().ppa(victim, s, 0));
  CHECK(pacing.need(0, false) == 64 * 30 / 40);
  // Moved into the large pool (its own pool over its share): the small pool still earns its
  // block back at the victim's pace, the large pool owes the 30 sectors still to move.
  pacing.victim_taken(0, victim, true, true);  // V = 30 now
  CHECK(pacing.need(0, false) == 64);
  CHECK(pacing.need(0, true) == 30);
  CHECK(pacing.allowance(0, true) == 276 - 30);
  for (uint32_t s = 10; s < 25; ++s) bm.mark_invalid(bm.layout().ppa(victim, s, 0));
  CHECK(pacing.need(0, false) == 64 * 15 / 30);
  CHECK(pacing.need(0, true) == 15);
  pacing.stop(0);
  CHECK(pacing.need(0, false) == 0);
  CHECK(pacing.need(0, true) == 0);
}

}  // namespace hybrid_page_test
