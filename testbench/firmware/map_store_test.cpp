// The map store and the map writer alone on the fake platform.
#include <catch2/catch.hpp>
#include "fake_platform.h"
#include "map/map_store.h"
#include "map/map_writer.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace map_store_test {

namespace {
FlashGeometry geometry() {
  FlashGeometry g;
  g.channels = 1; g.ways_per_channel = 2; g.planes_per_die = 1; g.blocks_per_plane = 8;
  g.pages_per_block = 12; g.page_bytes = 16384; g.bits_per_cell = 3;
  return g;
}

struct Waiter : MapWaiter {
  std::vector<uint32_t> told;
  void map_page_loaded(uint32_t token) override { told.push_back(token); }
};
struct Listener : MapLoadListener, MapMissListener, DirtyPageSink {
  uint32_t loads = 0;
  std::vector<uint64_t> misses;
  std::vector<uint32_t> dirty;
  void on_map_page_loaded() override { ++loads; }
  void on_map_miss(uint64_t lba) override { misses.push_back(lba); }
  void write_back(uint32_t page) override { dirty.push_back(page); }
};
// Places map units in an open map block of the die asked (GC work) or of die 0, and can refuse.
struct Placer : UnitPlacer {
  BlockManager& blocks;
  bool refuse = false;
  std::vector<UnitPlace> asked;
  explicit Placer(BlockManager& b) : blocks(b) {}
  bool place(UnitPlace& u) override {
    asked.push_back(u);
    if (refuse) return false;
    const uint32_t die = u.gc_privilege ? u.die : 0;
    uint32_t& open = blocks.write_points().open_block(die, WriteStream::Map);
    if (open == BlockManager::kNoBlock) { open = blocks.take_free_block(die); blocks.info(open).holds_map = true; }
    BlockInfo& b = blocks.info(open);
    u.block = open;
    u.page = b.next_page;
    u.die = die;
    b.next_page += 3;
    ++b.programs_in_flight;
    if (b.next_page >= blocks.pages_in_block(open)) { b.state = BlockState::Closed; open = BlockManager::kNoBlock; }
    return true;
  }
};
struct Gc : ObsoleteCopyListener, FreeSpaceListener {
  BlockManager& blocks;
  std::vector<uint32_t> obsolete, low;
  explicit Gc(BlockManager& b) : blocks(b) {}
  void copy_obsolete(uint32_t e) override { obsolete.push_back(e); blocks.mark_invalid(e); }
  void free_space_changed(uint32_t die) override { low.push_back(die); }
};

// Map page p's entries: p * 10000 + i (unmapped past the device's 40000 LBAs).
struct Source : MapPageSource {
  void nand_entries(uint32_t page, uint32_t* out, uint32_t count, const uint32_t* = nullptr) const override {
    for (uint32_t i = 0; i < count; ++i)
      out[i] = uint64_t(page) * count + i < 40000 ? page * 10000 + i : L2pMap::kUnmapped;
  }
  void resolve_cached(uint32_t, uint32_t*, uint32_t) const override {}
};

// The map's own entries (no write cache in this rig): what L2pMap holds for the page.
struct MapSource : MapPageSource {
  const L2pMap& map;
  explicit MapSource(const L2pMap& m) : map(m) {}
  void nand_entries(uint32_t page, uint32_t* out, uint32_t count, const uint32_t* nand) const override {
    map.page_entries(uint64_t(page) * count, out, count, nand);
  }
  void resolve_cached(uint32_t, uint32_t*, uint32_t) const override {}
};

struct Rig {
  FlashGeometry geo = geometry();
  FakePlatform hw{geo, 64};
  PartEvents events;
  FirmwareParams params;
  BlockManager blocks{geo};
  FlashPort flash{hw, blocks, 600, false};
  Listener listener;
  Placer placer{blocks};
  Gc gc{blocks};
  Source source;
  L2pMap map{40000};  // (firmware.map_verify's watch)
  std::unique_ptr<MapStore> store;
  std::unique_ptr<MapWriter> writer;
  // 40000 LBAs: 10 map pages of 4096 entries; `sram_pages` of them fit the L2P SRAM.
  explicit Rig(uint32_t sram_pages, bool map_cache = true) {
    params.map_cache = map_cache;
    params.l2p_sram_kib = sram_pages * 16;
    store = std::make_unique<MapStore>(hw, params, geo, map, blocks.layout(), flash);
    store->set_source(source);
    writer = std::make_unique<MapWriter>(hw, params, geo, blocks, flash, *store, placer, gc, gc, map);
    store->set_dirty_sink(sink_to_writer ? static_cast<DirtyPageSink&>(*writer) : listener);
    store->set_load_listener(&listener);
    store->set_miss_listener(&listener);
    hw.attach(&events);
    events.port = &flash;
  }
  bool sink_to_writer = false;
  // Map page `page` on NAND in block `block` (its directory entry), as a program would leave it.
  void on_nand(uint32_t page, uint32_t block, uint32_t at_page, uint64_t seq, const uint32_t* words = nullptr) {
    const uint32_t ppa = blocks.layout().ppa(block, at_page, 0);
    store->set_location(page, ppa, seq);
    for (uint32_t s = 0; s < 4; ++s) blocks.mark_valid(ppa + s);
    blocks.info(block).state = BlockState::Closed;
    blocks.info(block).holds_map = true;
    std::vector<SectorStamp> stamps(4);
    PageOob oob;
    oob.kind = PageKind::MapData;
    hw.preload_pages(blocks.layout().address_of(block, at_page), 1, stamps.data(), &oob, words, words ? 4096 : 0);
  }
};
}  // namespace

TEST_CASE("Map store: lookups wait for one load per page, hits do not, a page never written needs none",
          "[firmware][map-store]") {
  Rig r(4);
  r.on_nand(1, 3, 0, 5);
  Waiter w;
  CHECK(r.store->wait_for_lookups(4096, 8, w, 7) == 1);     // page 1: on NAND, not in SRAM
  CHECK(r.store->wait_for_lookups(4100, 8, w, 8) == 1);     // joins the same load
  CHECK(r.store->wait_for_lookups(2 * 4096, 4, w, 9) == 0); // page 2: never written, installed at once
  CHECK(r.listener.misses == std::vector<uint64_t>({4096, 4096, 2 * 4096}));
  CHECK(r.store->stats().loads == 1);
  r.hw.run();
  CHECK(w.told == std::vector<uint32_t>({7, 8}));
  CHECK(r.store->wait_for_lookups(4096 + 10, 1, w, 10) == 0);  // resident now
  CHECK(r.store->stats().read_hits == 1);
  CHECK(r.store->stats().read_misses == 3);
  CHECK(r.hw.map_reads_ == 1);
}

TEST_CASE("Map store: READ BUFFER's listener is told after the page's lookups, and shares their load",
          "[firmware][map-store]") {
  Rig r(4);
  r.on_nand(3, 4, 0, 5);
  Waiter w;
  CHECK(!r.store->ready_for(3 * 4096));
  CHECK(r.store->wait_for_lookups(3 * 4096, 1, w, 1) == 1);
  CHECK(r.store->stats().loads == 1);
  r.hw.run();
  CHECK(w.told.size() == 1);
  CHECK(r.listener.loads == 1);
  CHECK(r.store->ready_for(3 * 4096));
  CHECK(r.store->stats().read_misses == 1);  // READ BUFFER's checks are not lookups
}

TEST_CASE("Map store: an update makes its page resident and dirty without a load, a dirty page evicted goes back",
          "[firmware][map-store]") {
  Rig r(2);
  r.on_nand(0, 3, 0, 5);
  r.store->updated(10);  // page 0
  CHECK(r.store->stats().update_misses == 1);
  CHECK(r.store->resident_dirty(0));
  CHECK(!r.store->in_sram(0));  // not loaded: its NAND copy must be merged at write-back
  CHECK(r.hw.map_reads_ == 0);
  r.store->updated(4096);       // page 1
  r.store->updated(2 * 4096);   // page 2: SRAM holds two pages, page 0 (least recently used) leaves
  CHECK(r.listener.dirty == std::vector<uint32_t>({0}));
  Rig off(2, false);            // the whole map resident: nothing to wait for or write back
  Waiter w;
  CHECK(off.store->wait_for_lookups(0, 100, w, 1) == 0);
  off.store->updated(5);
  CHECK(off.store->pages() == 0);
}

TEST_CASE("Map writer: dirty pages go back in program units, merged with their NAND copy, the old copy is obsolete",
          "[firmware][map-store]") {
  Rig r(8);
  r.sink_to_writer = true;
  r.store->set_dirty_sink(*r.writer);
  r.on_nand(0, 3, 0, 5);  // page 0's older copy
  r.flash.restart_sequence(10);  // programs from now on are newer
  r.store->updated(1);
  r.store->updated(4096);
  r.writer->write_back(0);
  r.writer->write_back(1);
  r.writer->write_back(0);  // a page waits once
  CHECK(r.hw.flash_ops_ == 0);
  r.writer->write_back(2);  // the third page fills a program unit (program_pages 3)
  r.hw.run();
  CHECK(r.writer->stats().merge_reads == 1);  // page 0 was on NAND and not loaded
  CHECK(r.writer->stats().page_writes == 3);
  REQUIRE(!r.placer.asked.empty());
  CHECK(r.store->location(0) != r.blocks.layout().ppa(3, 0, 0));
  CHECK(r.store->sequence(0) == 11);
  CHECK(r.gc.obsolete.size() == 4);  // the old copy's four sectors
  CHECK(r.blocks.info(3).valid == 0);
  // Each page carries its entries on NAND (issue 20).
  for (uint32_t page : {0u, 1u, 2u}) {
    const uint32_t at = r.store->location(page);
    const std::vector<uint32_t> words =
        r.hw.page_words(r.blocks.layout().address_of(r.blocks.layout().block_of(at), r.blocks.layout().page_of(at)));
    REQUIRE(words.size() == 4096);
    CHECK(words[0] == page * 10000);
    CHECK(words[4095] == page * 10000 + 4095);
  }
}

// Power-loss recovery replays the data programmed from a copy's `covers` on (ftl/recovery.h):
// a data program still in flight when the entries are taken is not in them.
TEST_CASE("Map writer: a map page's spare area names the oldest program in flight when its entries were taken",
          "[firmware][map-store][recovery]") {
  Rig r(8);
  r.sink_to_writer = true;
  r.store->set_dirty_sink(*r.writer);
  struct Data : FlashClient {
    void on_flash_done(uint64_t, const FlashCompletion&) override {}
  } data;
  const uint32_t client = r.flash.attach(data);
  r.flash.restart_sequence(10);
  PageOob& o = r.flash.program_oob(1)[0];
  o.kind = PageKind::UserData;
  o.sequence = r.flash.next_sequence();  // 11, in flight while the map pages are programmed
  r.flash.program(client, 0, r.blocks.layout().address_of(6, 0), 1, 0);
  for (uint32_t page : {0u, 1u, 2u}) r.writer->write_back(page);
  r.hw.run();
  for (uint32_t page : {3u, 4u, 5u}) r.writer->write_back(page);  // nothing else in flight
  r.hw.run();
  for (uint32_t page : {0u, 3u}) {
    const uint32_t at = r.store->location(page);
    const PageOob copy = r.hw.page_oob(r.blocks.layout().address_of(r.blocks.layout().block_of(at), r.blocks.layout().page_of(at)));
    CHECK(copy.kind == PageKind::MapData);
    CHECK(copy.sequence == (page == 0 ? 12u : 13u));
    CHECK(copy.data_sequence(0) == (page == 0 ? 11u : 13u));
  }
}

TEST_CASE("Map writer: GC of a map block rewrites its live pages on the victim's die with GC's privilege",
          "[firmware][map-store]") {
  Rig r(8);
  r.store->set_dirty_sink(*r.writer);
  const uint32_t victim = r.blocks.layout().block_count() / 2;  // a block of die 1
  r.on_nand(4, victim, 0, 5);
  r.on_nand(6, victim, 1, 6);
  r.on_nand(7, 3, 0, 7);
  r.writer->relocate_block(1, victim);
  r.hw.run();
  CHECK(r.writer->stats().relocations == 2);
  REQUIRE(r.placer.asked.size() == 1);
  CHECK(r.placer.asked[0].gc_privilege);
  CHECK(r.placer.asked[0].die == 1);
  CHECK(r.blocks.info(victim).valid == 0);
  CHECK(r.store->location(7) == r.blocks.layout().ppa(3, 0, 0));  // not in the victim: untouched
}

TEST_CASE("Map writer: a failed program retires the block and goes elsewhere, no room waits for space",
          "[firmware][map-store]") {
  Rig r(8);
  r.store->set_dirty_sink(*r.writer);
  r.placer.refuse = true;
  for (uint32_t p = 0; p < 3; ++p) r.writer->write_back(p);
  CHECK(r.writer->programs_waiting());
  r.placer.refuse = false;
  r.hw.fail_next_program_ = true;
  r.writer->retry_programs();
  r.hw.run();
  CHECK(!r.writer->programs_waiting());
  CHECK(r.flash.stats_program_failures() == 1);
  CHECK(r.gc.low == std::vector<uint32_t>({0}));
  CHECK(r.placer.asked.size() == 3);  // refused, failed, placed again
  CHECK(r.writer->stats().page_writes == 6);
  CHECK(r.store->location(0) != L2pMap::kUnmapped);
}

TEST_CASE("Map writer: a page evicted dirty goes to NAND from its frame merged with its copy's entries, a load fills a frame",
          "[firmware][map-store]") {
  Rig r(2);
  MapSource source(r.map);
  r.store->set_source(source);
  r.store->set_dirty_sink(*r.writer);
  std::vector<uint32_t> copy(4096);
  for (uint32_t i = 0; i < 4096; ++i) copy[i] = 50000 + i;
  r.on_nand(0, 3, 0, 5, copy.data());
  r.flash.restart_sequence(10);
  r.store->updated(10);  // an update miss: page 0 resident, not loaded, its entries unknown
  r.map.set(10, 999);
  r.store->updated(4096);
  r.map.set(4096, 1);
  r.store->updated(2 * 4096);  // page 0 leaves dirty: its one known entry waits for the write-back
  r.map.set(2 * 4096, 2);
  CHECK(r.map.frames()->in_use() == 2);
  CHECK(!MapFrames::dense(r.map.frames()->frame_of(0)));
  CHECK(r.map.get(10) == 999);
  r.writer->write_back_dirty();  // idle: pages 1 and 2 join page 0's unit
  r.hw.run();
  CHECK(r.writer->stats().merge_reads == 1);
  CHECK(r.hw.map_peeks() == 0);  // the merge read brought the entries the frame did not know
  const uint32_t at = r.store->location(0);
  const std::vector<uint32_t> words =
      r.hw.page_words(r.blocks.layout().address_of(r.blocks.layout().block_of(at), r.blocks.layout().page_of(at)));
  REQUIRE(words.size() == 4096);
  CHECK(words[10] == 999);
  CHECK(words[11] == 50011);
  CHECK(words[4095] == 54095);
  CHECK(r.map.frames()->in_use() == 2);
  CHECK(r.map.frames()->frame_of(0) == MapFrames::kNoFrame);  // page 0's buffer went when its program landed
  CHECK(r.map.frames()->peak() == 2);
  CHECK(r.map.get(11) == 50011);  // not resident: the new copy, peeked
  CHECK(r.hw.map_peeks() == 1);
  // A lookup's load fills the frame: no peek.
  Waiter w;
  CHECK(r.store->wait_for_lookups(12, 1, w, 1) == 1);
  r.hw.run();
  CHECK(w.told == std::vector<uint32_t>({1}));
  CHECK(r.map.get(10) == 999);
  CHECK(r.map.get(4000) == 54000);
  CHECK(r.hw.map_peeks() == 1);
  CHECK(r.map.frames()->unknown(r.map.frames()->frame_of(0)) == 0);
}

}  // namespace map_store_test
