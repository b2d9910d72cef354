// Power-loss recovery alone on the fake platform: NAND contents written through the backdoor
// as programs before a power cut would have left them, then the scan and the rebuild.
#include <catch2/catch.hpp>
#include "ftl/l2p_map.h"
#include "map/map_store.h"
#include "part_fixture.h"
#include "recovery/power_up_recovery.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace power_up_recovery_test {

namespace {
constexpr uint64_t kLogical = 10000;  // three map pages of 4096 entries

struct Heard : RecoveryListener {
  uint32_t started = 0, finished = 0;
  uint64_t flash_ops_at_start = ~0ull;
  std::vector<uint8_t> replayed;
  FakePlatform* hw = nullptr;
  void recovery_started() override {
    ++started;
    flash_ops_at_start = hw->flash_ops_;
  }
  void recovery_finished(const std::vector<uint8_t>& r) override {
    ++finished;
    replayed = r;
  }
};

// Two dies of 8 blocks (die 0: blocks 0-7, die 1: 8-15), 12 pages of 4 sectors; program
// units of 3 pages (program_pages 3, 4 KiB logical pages).
struct Rig : PartFixture {
  L2pMap map{kLogical};
  std::unique_ptr<MapStore> store;
  Heard heard;
  std::unique_ptr<PowerUpRecovery> recovery;
  Rig() {
    store = std::make_unique<MapStore>(hw, params, geo, kLogical, blocks.layout(), flash);
    heard.hw = &hw;
    recovery = std::make_unique<PowerUpRecovery>(hw, params, geo, kLogical, 16, blocks, map, *store, flash, nullptr,
                                                   heard);
  }
  // LBAs first.. of one program unit (3 pages) at `page` of `block`.
  void unit(uint32_t block, uint32_t page, uint64_t first, uint32_t n, uint64_t seq) {
    for (uint32_t p = 0; p < 3; ++p) {
      std::vector<uint64_t> lbas(4, kNoLba);
      for (uint32_t s = 0; s < 4; ++s)
        if (p * 4 + s < n) lbas[s] = first + p * 4 + s;
      user_page(block, page + p, lbas, seq);
    }
  }
};
}  // namespace

TEST_CASE("Power-loss recovery: the newest copy of each LBA and map page wins, cut blocks are written on "
          "from the next unit, one per stream and die",
          "[firmware][recovery]") {
  Rig r;
  // Die 0: block 1 holds LBAs 0..11 (seq 5), then 0..3 again (seq 9); block 2 LBAs 100..111
  // (seq 7) and a page torn by the cut.
  r.unit(1, 0, 0, 12, 5);
  r.unit(1, 3, 0, 4, 9);
  r.unit(2, 0, 100, 12, 7);
  r.hw.tear_page(r.blocks.layout().address_of(2, 3));
  // Die 1: block 9 holds map pages (0 at seq 4, then 0 again at seq 8, 2 at seq 3); block 10 a
  // GC copy of LBA 4's older data (host write 2) and LBA 8200 (host write 11), programmed at 12.
  r.map_page(9, 0, 0, 4);
  r.map_page(9, 1, 0, 8);
  r.map_page(9, 2, 2, 3);
  r.user_page(10, 0, {4, 8200, kNoLba, kNoLba}, 12, {2, 11});
  r.user_page(10, 1, {kNoLba}, 12);
  r.user_page(10, 2, {kNoLba}, 12);

  r.recovery->power_up();  // not armed: nothing happens
  CHECK_FALSE(r.recovery->active());
  CHECK(r.heard.started == 0);
  CHECK(r.hw.flash_ops_ == 0);

  r.recovery->arm();
  r.recovery->power_up();
  CHECK(r.recovery->active());
  CHECK(r.heard.started == 1);
  CHECK(r.heard.flash_ops_at_start == 0);  // told before the first read
  CHECK(r.hw.flash_ops_ == 2);             // one read per die at a time
  r.hw.run();
  CHECK_FALSE(r.recovery->active());
  REQUIRE(r.heard.finished == 1);

  // The map: the newest copy of each LBA (LBA 4's GC copy is older than block 1's).
  for (uint64_t lba = 0; lba < 4; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(1, 3, uint32_t(lba)));
  for (uint64_t lba = 4; lba < 12; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(1, uint32_t(lba / 4), lba % 4));
  for (uint64_t lba = 100; lba < 112; ++lba)
    CHECK(r.map.get(lba) == r.blocks.layout().ppa(2, uint32_t((lba - 100) / 4), (lba - 100) % 4));
  CHECK(r.map.get(8200) == r.blocks.layout().ppa(10, 0, 1));
  CHECK(r.map.get(12) == L2pMap::kUnmapped);
  CHECK(r.blocks.info(1).valid == 12);
  CHECK(r.blocks.info(2).valid == 12);
  CHECK(r.blocks.info(10).valid == 1);
  // The map directory: each map page's newest copy; pages 0 and 2 hold data newer than that
  // copy (replayed: to be written back), page 1 was never written.
  CHECK(r.store->location(0) == r.blocks.layout().ppa(9, 1, 0));
  CHECK(r.store->sequence(0) == 8);
  CHECK(r.store->location(2) == r.blocks.layout().ppa(9, 2, 0));
  CHECK(r.heard.replayed == std::vector<uint8_t>({1, 0, 1}));
  CHECK(r.blocks.info(9).valid == 8);
  CHECK(r.blocks.info(9).holds_map);
  // Blocks: each cut block is written on from its next program unit, one per stream and die:
  // GC's the one with the most room (die 0: blocks 1 and 2 have as much, the first wins), the
  // host's the next; the rest are free.
  CHECK(r.blocks.write_points().open_block(0, WriteStream::Gc, 0) == 1);
  CHECK(r.blocks.info(1).next_page == 6);
  CHECK(r.blocks.write_points().open_block(0, WriteStream::Host, 0) == 2);
  CHECK(r.blocks.info(2).next_page == 6);  // the torn unit is skipped
  CHECK(r.blocks.write_points().open_block(1, WriteStream::Map, 0) == 9);
  CHECK(r.blocks.info(9).next_page == 3);
  CHECK(r.blocks.write_points().open_block(1, WriteStream::Gc, 0) == 10);
  CHECK(r.blocks.write_points().open_block(1, WriteStream::Host, 0) == BlockManager::kNoBlock);
  CHECK(r.blocks.info(10).state == BlockState::Open);
  CHECK(r.blocks.pools().free_blocks(0) == 6);
  CHECK(r.blocks.pools().free_blocks(1) == 6);
  // Programs go on after the newest sequence found.
  CHECK(r.flash.next_sequence() == 13);

  const RecoveryStats& s = r.recovery->stats();
  CHECK(s.recoveries == 1);
  CHECK(s.recovered_lbas == 4 + 8 + 12 + 1);
  CHECK(s.torn_pages == 1);
  // Each block up to its first erased page: die 0 1 + 7 + 5 + 5, die 1 1 + 4 + 4 + 5.
  CHECK(s.page_reads == 18 + 14);
  CHECK(s.recovery_ps == r.hw.now_ps());
  CHECK(s.recovery_ps > 0);
  CHECK(r.hw.violations_ == 0);
}

// A cut while GC moves a victim: the sectors it moved already are in GC's block and still in
// the victim, with the same host write's sequence. The victim (block 5) is scanned after GC's
// block (2); if its copies won the tie, GC's moved sectors would count as valid in the victim
// again while GC's write point has room only for what it had left to move: with pacing, host
// data may have taken the pool's last free block on that room (gc/host_pacing.h), and the
// device turned read-only (issue 14, session 20: hybrid page size power-loss runs).
TEST_CASE("Power-loss recovery: of two copies of the same data the one programmed last wins", "[firmware][recovery]") {
  Rig r;
  r.unit(5, 0, 200, 12, 3);  // the victim: LBAs 200..211, host write 3
  for (uint32_t p = 0; p < 2; ++p)  // GC moved 200..207 (two pages) at program 10
    r.user_page(2, p, {200 + 4 * p, 201 + 4 * p, 202 + 4 * p, 203 + 4 * p}, 10, {3, 3, 3, 3});
  r.user_page(2, 2, {kNoLba}, 10);
  r.recovery->arm();
  r.recovery->power_up();
  r.hw.run();
  REQUIRE(r.heard.finished == 1);
  for (uint64_t lba = 200; lba < 208; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(2, uint32_t((lba - 200) / 4), lba % 4));
  for (uint64_t lba = 208; lba < 212; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(5, 2, lba % 4));
  CHECK(r.blocks.info(2).valid == 8);
  CHECK(r.blocks.info(5).valid == 4);  // what GC had left to move
  CHECK(r.recovery->stats().recovered_lbas == 12);
}

TEST_CASE("Power-loss recovery: a device that was never written comes up empty and is armed once",
          "[firmware][recovery]") {
  Rig r;
  r.recovery->arm();
  r.recovery->power_up();
  r.hw.run();
  REQUIRE(r.heard.finished == 1);
  CHECK(r.recovery->stats().recovered_lbas == 0);
  CHECK(r.recovery->stats().page_reads == 16);  // the first page of every block
  CHECK(r.heard.replayed == std::vector<uint8_t>({0, 0, 0}));
  CHECK(r.blocks.pools().free_blocks(0) == 8);
  CHECK(r.blocks.pools().free_blocks(1) == 8);
  r.recovery->power_up();  // the next power-up after a clean one: no scan
  CHECK(r.heard.started == 1);
  CHECK(r.recovery->stats().recoveries == 1);
}

}  // namespace power_up_recovery_test
