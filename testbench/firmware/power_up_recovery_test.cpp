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
  // l2p_sram_kib: the L2P SRAM, which bounds a replay batch (16: one map page a batch).
  explicit Rig(uint32_t l2p_sram_kib = 1024) {
    params.l2p_sram_kib = l2p_sram_kib;
    store = std::make_unique<MapStore>(hw, params, geo, map, blocks.layout(), flash);
    heard.hw = &hw;
    recovery = std::make_unique<PowerUpRecovery>(hw, params, geo, kLogical, 16, blocks, map, *store, flash, nullptr,
                                                   heard);
  }
  // A map page's entries (4096): LBA first + i of the page at entry ppa_of(i), unmapped elsewhere.
  static std::vector<uint32_t> unmapped_entries() { return std::vector<uint32_t>(4096, L2pMap::kUnmapped); }
  // Entries [from, from + n) of a map page's words name the unit at `page` of `block` in order.
  void name_unit(std::vector<uint32_t>& words, uint32_t from, uint32_t n, uint32_t block, uint32_t page) {
    for (uint32_t i = 0; i < n; ++i) words[from + i] = blocks.layout().ppa(block, page + i / 4, i % 4);
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
  // GC moved LBAs 200..207 of the unit at block 5 (host write 3) to block 2 at program 10.
  void gc_moves_first_two_pages() {
    for (uint32_t p = 0; p < 2; ++p)
      user_page(2, p, {200 + 4 * p, 201 + 4 * p, 202 + 4 * p, 203 + 4 * p}, 10, {3, 3, 3, 3});
    user_page(2, 2, {kNoLba}, 10);
  }
  // After recovery: 200..207 at GC's copy in block 2, 208..211 still in the victim (block 5).
  void check_moved_copies_won() {
    for (uint64_t lba = 200; lba < 208; ++lba) CHECK(map.get(lba) == blocks.layout().ppa(2, uint32_t((lba - 200) / 4), lba % 4));
    for (uint64_t lba = 208; lba < 212; ++lba) CHECK(map.get(lba) == blocks.layout().ppa(5, 2, lba % 4));
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
  // Die 1: block 9 holds map pages (0 at seq 4, then 0 again at seq 8: LBAs 0..11 and
  // 100..111 in their first units; 2 at seq 3, nothing mapped); block 10 a GC copy of LBA 4's
  // older data (host write 2) and LBA 8200 (host write 11), programmed at 12.
  std::vector<uint32_t> page0 = Rig::unmapped_entries();
  r.name_unit(page0, 0, 12, 1, 0);
  r.name_unit(page0, 100, 12, 2, 0);
  r.map_page(9, 0, 0, 4, Rig::unmapped_entries());
  r.map_page(9, 1, 0, 8, page0);
  r.map_page(9, 2, 2, 3, Rig::unmapped_entries());
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

  // The map: the newest copy of each LBA (LBA 4's GC copy is older than block 1's: the
  // replay found it after map page 0's copy, which names block 1; a check read of that page
  // says its data is newer).
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
  // The scan: each block up to its first erased page: die 0 1 + 7 + 5 + 5, die 1 1 + 4 + 4 + 5.
  CHECK(s.scan_reads == 18 + 14);
  // The replay: the data blocks with a program at or after the oldest copy (seq 3) again, up
  // to their last written page: blocks 1 (6 pages), 2 (4, the torn one too) and 10 (3).
  CHECK(s.replay_reads == 6 + 4 + 3);
  CHECK(s.replayed_pages == 2);
  CHECK(s.map_loads == 2);     // pages 0 and 2 (page 1 has no copy)
  CHECK(s.check_reads == 1);   // LBA 4: GC's copy of older data than the copy's entry
  CHECK(s.gone_entries == 0);
  CHECK(s.no_entries == 0);
  CHECK(s.page_reads == s.scan_reads + s.replay_reads + s.map_loads + s.check_reads);
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
  r.gc_moves_first_two_pages();
  r.recovery->arm();
  r.recovery->power_up();
  r.hw.run();
  REQUIRE(r.heard.finished == 1);
  r.check_moved_copies_won();
  CHECK(r.blocks.info(2).valid == 8);
  CHECK(r.blocks.info(5).valid == 4);  // what GC had left to move
  CHECK(r.recovery->stats().recovered_lbas == 12);
}

// An UNMAP is durable once its map page's copy is on NAND: the trimmed LBAs' old data, still
// in its block, must not come back (the scan of every page's OOB that recovery was found it
// and mapped it again). Data whose block was erased and written again since the copy is gone.
TEST_CASE("Power-loss recovery: an UNMAP written back to its map page stays unmapped", "[firmware][recovery]") {
  Rig r;
  r.unit(3, 0, 300, 12, 5);  // LBAs 300..311, host write 5
  r.unit(4, 0, 500, 4, 20);  // block 4 erased since and written again: LBAs 500..503 at 20
  std::vector<uint32_t> written = Rig::unmapped_entries();
  r.name_unit(written, 300, 12, 3, 0);
  written[400] = r.blocks.layout().ppa(4, 0, 0);  // LBA 400 in block 4's old life
  r.map_page(9, 0, 0, 6, written);
  std::vector<uint32_t> trimmed = written;  // 300..303 unmapped, written back at 9
  for (uint32_t i = 300; i < 304; ++i) trimmed[i] = L2pMap::kUnmapped;
  r.map_page(9, 1, 0, 9, trimmed);
  r.recovery->arm();
  r.recovery->power_up();
  r.hw.run();
  REQUIRE(r.heard.finished == 1);
  for (uint64_t lba = 300; lba < 304; ++lba) CHECK(r.map.get(lba) == L2pMap::kUnmapped);
  for (uint64_t lba = 304; lba < 312; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(3, uint32_t((lba - 300) / 4), lba % 4));
  CHECK(r.map.get(400) == L2pMap::kUnmapped);  // its block holds other data now
  for (uint64_t lba = 500; lba < 504; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(4, 0, lba % 4));
  CHECK(r.blocks.info(3).valid == 8);
  CHECK(r.blocks.info(4).valid == 4);
  CHECK(r.recovery->stats().gone_entries == 1);
  CHECK(r.heard.replayed == std::vector<uint8_t>({1, 0, 0}));  // block 4's data is newer than the copy
}

// GC moved part of a victim after the map page's copy was taken: the moves (programmed after
// the copy) are replayed and win over the copy's entries for the same data (a check read of
// the victim's page: same host write, programmed earlier); the rest stays where the copy says.
// The replay works a batch of map pages at a time: with one page a batch (16 KiB of L2P SRAM)
// the same map comes back.
TEST_CASE("Power-loss recovery: GC moves after the map page's copy win, one batch or one page a batch",
          "[firmware][recovery]") {
  for (const uint32_t sram_kib : {1024u, 16u}) {
    Rig r(sram_kib);
    r.unit(5, 0, 200, 12, 3);     // the victim: LBAs 200..211, host write 3
    r.unit(6, 0, 4296, 12, 4);    // map page 1's LBAs 4296..4307, host write 4
    r.unit(7, 0, 8392, 4, 11);    // map page 2's LBAs 8392..8395, host write 11 (no copy of page 2)
    std::vector<uint32_t> page0 = Rig::unmapped_entries(), page1 = Rig::unmapped_entries();
    r.name_unit(page0, 200, 12, 5, 0);
    r.name_unit(page1, 200, 12, 6, 0);
    r.map_page(9, 0, 0, 6, page0, 5);  // a program from 5 on was in flight when it was taken
    r.map_page(9, 1, 1, 7, page1);
    r.gc_moves_first_two_pages();
    r.recovery->arm();
    r.recovery->power_up();
    r.hw.run();
    REQUIRE(r.heard.finished == 1);
    INFO("L2P SRAM " << sram_kib << " KiB");
    r.check_moved_copies_won();
    for (uint64_t lba = 4296; lba < 4308; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(6, uint32_t((lba - 4296) / 4), lba % 4));
    for (uint64_t lba = 8392; lba < 8396; ++lba) CHECK(r.map.get(lba) == r.blocks.layout().ppa(7, 0, lba % 4));
    CHECK(r.blocks.info(2).valid == 8);
    CHECK(r.blocks.info(5).valid == 4);  // what GC had left to move
    CHECK(r.blocks.info(6).valid == 12);
    const RecoveryStats& s = r.recovery->stats();
    CHECK(s.recovered_lbas == 12 + 12 + 4);
    CHECK(s.check_reads == 8);  // the moved LBAs: same host write as the victim's, programmed later
    CHECK(s.replayed_pages == 2);  // page 0 (the moves) and page 2 (no copy); page 1 is current
    CHECK(r.heard.replayed == std::vector<uint8_t>({1, 0, 1}));
    // One batch: page 2 has no copy, so every data block is read again (5, 6, 7, 2: 3 pages
    // each); one page a batch: page 0's batch reads the blocks with a program from 5 on (7, 2),
    // page 2's all four.
    CHECK(s.replay_reads == (sram_kib == 1024 ? 4u * 3 : 2u * 3 + 4u * 3));
  }
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
