// The read engine alone on the fake platform, with a map store stand-in and preloaded NAND.
#include <catch2/catch.hpp>
#include "command/buffer_layout.h"
#include "command/read_engine.h"
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace read_engine_test {

namespace {
FlashGeometry geometry() {
  FlashGeometry g;
  g.channels = 1; g.ways_per_channel = 2; g.planes_per_die = 1; g.blocks_per_plane = 8;
  g.pages_per_block = 12; g.page_bytes = 16384; g.bits_per_cell = 3;
  return g;
}

// The map store's side: pages listed in `missing` are loads to wait for.
struct Lookups : MapLookups {
  std::vector<std::pair<MapWaiter*, uint32_t>> waiting;
  uint32_t missing = 0;
  uint32_t wait_for_lookups(uint64_t, uint32_t, MapWaiter& w, uint32_t token) override {
    for (uint32_t i = 0; i < missing; ++i) waiting.emplace_back(&w, token);
    return missing;
  }
  void load_all() {
    auto w = std::move(waiting);
    waiting.clear();
    for (auto& [waiter, token] : w) waiter->map_page_loaded(token);
  }
};

struct Entries : VerifiedEntries {
  bool fresh = true;
  uint32_t base = 0;
  bool still_fresh(uint8_t) const override { return fresh; }
  uint32_t resolved_ppa(uint8_t, uint32_t block) const override { return base + block; }
};

struct Later : BufferWaiters {
  uint32_t retries = 0;
  void retry_waiting() override { ++retries; }
};

struct Rig {
  FlashGeometry geo = geometry();
  FakePlatform hw{geo, 64};
  PartEvents events;
  FirmwareParams params;
  LatencySplit latency{256};
  CommandTable table{hw, 600, 500, latency};
  BlockManager blocks{geo};
  L2pMap map{1024};
  FlashPort flash{hw, blocks, 600, false};
  Lookups lookups;
  Entries entries;
  Later later;
  std::unique_ptr<ReadEngine> reads;
  explicit Rig(uint32_t read_slots, uint32_t segment_blocks = 8) {
    params.read_segment_blocks = segment_blocks;
    reads = std::make_unique<ReadEngine>(hw, params, read_slots, table, latency, map, blocks.layout(), flash, lookups);
    reads->set_verified_entries(&entries);
    reads->set_next_waiters(&later);
    hw.attach(&events);
    events.port = &flash;
    events.command = [this](const HostCommand& c) { reads->start(c, lba_of(c), c.expected_length / 4096, verified); };
    events.data_in = [this](uint8_t tag, uint64_t token) { reads->data_in_done(tag, token); };
  }
  bool verified = false;
  static uint64_t lba_of(const HostCommand& c) { return get_be64(c.cdb.data() + 2); }
  // LBA i of [first, first + n) on NAND at block `block` from sector 0 (a whole page per 4 sectors).
  void put_on_nand(uint64_t first, uint32_t n, uint32_t block) {
    std::vector<SectorStamp> stamps;
    for (uint32_t i = 0; i < n; ++i) {
      stamps.push_back(SectorStamp{first + i, 1});
      map.set(first + i, blocks.layout().ppa(block, i / 4, i % 4));
    }
    std::vector<PageOob> oob((n + 3) / 4);
    hw.preload_pages(blocks.layout().address_of(block, 0), uint32_t(oob.size()), stamps.data(), oob.data());
  }
};
}  // namespace

TEST_CASE("Read engine: NAND sectors of a page go as one read, cached blocks are copied, unwritten ones zero",
          "[firmware][read-engine]") {
  Rig r(32);
  r.put_on_nand(0, 8, 2);               // LBAs 0..7: two pages of block 2
  r.map.set(8, L2pMap::cached(20));     // LBA 8: in the write cache, slot 20
  // (LBA 9: never written)
  r.hw.command(make_rw(4, false, 0, 10));
  r.hw.run();
  REQUIRE(r.hw.responses_.size() == 1);
  CHECK(r.hw.responses_[0].status == scsi_status::kGood);
  CHECK(r.reads->stats().flash_reads == 2);  // 0..3 and 4..7: one read per page
  CHECK(r.reads->stats().read_cache_hits == 1);
  CHECK(r.reads->stats().read_unmapped == 1);
  for (uint32_t i = 0; i < 8; ++i) CHECK(r.hw.host_in_[4][i] == SectorStamp{i, 1});
  CHECK(r.hw.host_in_[4][9].lba == kNoLba);
  CHECK(r.latency.reads().commands == 1);
  CHECK(r.hw.protocol_violations_ == 0);
}

TEST_CASE("Read engine: a segment waits for its map pages before any NAND read", "[firmware][read-engine]") {
  Rig r(32);
  r.put_on_nand(0, 4, 1);
  r.lookups.missing = 1;
  r.hw.command(make_rw(7, false, 0, 4));
  r.hw.run();
  CHECK(r.hw.flash_ops_ == 0);
  CHECK(r.hw.responses_.empty());
  REQUIRE(r.lookups.waiting.size() == 1);
  r.lookups.load_all();
  r.hw.run();
  CHECK(r.hw.flash_ops_ == 1);
  REQUIRE(r.hw.responses_.size() == 1);
  CHECK(r.hw.host_in_[7][3] == SectorStamp{3, 1});
}

TEST_CASE("Read engine: reads wait in FIFO order for read-area room, freed room retries the next waiters too",
          "[firmware][read-engine]") {
  Rig r(8, 8);  // room for one segment of 8 blocks
  r.put_on_nand(0, 16, 3);
  r.hw.command(make_rw(1, false, 0, 16));  // two segments: the second waits for the first's DATA IN
  r.hw.command(make_rw(2, false, 8, 8));   // waits behind it
  r.hw.run();
  REQUIRE(r.hw.responses_.size() == 2);
  CHECK(r.hw.responses_[0].tag == 1);
  CHECK(r.hw.responses_[1].tag == 2);
  CHECK(r.hw.host_in_[1][15] == SectorStamp{15, 1});
  CHECK(r.hw.host_in_[2][0] == SectorStamp{8, 1});
  CHECK(r.reads->waiting() == 0);
  CHECK(r.later.retries == 3);  // after each segment's DATA IN
  CHECK(r.hw.protocol_violations_ == 0);
}

TEST_CASE("Read engine: verified HPB entries replace the lookups while fresh", "[firmware][read-engine]") {
  Rig r(32);
  r.put_on_nand(0, 4, 1);
  r.put_on_nand(100, 4, 5);
  r.verified = true;
  r.lookups.missing = 1;  // would wait if it looked the map up
  r.entries.base = r.blocks.layout().ppa(5, 0, 0);
  r.hw.command(make_rw(3, false, 0, 4));  // the entries point at LBA 100's copy: proof they were used
  r.hw.run();
  REQUIRE(r.hw.responses_.size() == 1);
  CHECK(r.lookups.waiting.empty());
  CHECK(r.hw.host_in_[3][0] == SectorStamp{100, 1});
  r.entries.fresh = false;  // the map changed: the read looks up after all
  r.lookups.missing = 0;
  r.hw.command(make_rw(3, false, 0, 4));
  r.hw.run();
  CHECK(r.hw.host_in_[3][0] == SectorStamp{0, 1});
}

}  // namespace read_engine_test
