// The write path's parts alone on the fake platform: placement, the write cache and its
// unit programmer, the GC's view of the cache, the read-modify-write fill, and the
// page-run merge the fill shares with the read engine.
#include <catch2/catch.hpp>
#include <string>
#include <vector>
#include "command/buffer_layout.h"
#include "part_fixture.h"
#include "flash/page_run.h"
#include "gc/gc_host_gate.h"
#include "write/gc_units.h"
#include "write/page_fill.h"
#include "write/unit_placement.h"
#include "write/write_cache.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace write_cache_test {

namespace {
// Two dies of one plane, 8 blocks of 4 pages of 4 sectors (part_geometry(2, 8, 4)); program
// units of one page.
bool configure(FirmwareParams& p, const std::string& mapping) {
  p.program_pages = 1;
  p.map_cache = false;        // the whole map in SRAM: no map pages to write back
  p.data_buffer_kib = 256;    // 64 slots
  p.write_cache_kib = 64;     // 16 slots from slot 48: four units of 4 sectors
  p.lba_mapping = mapping;
  return true;
}

// The collector's side and the other listeners, recording what they are told in order.
struct Listeners : GcUnitEvents, VictimMoveListener, FreeSpaceListener, DurabilityListener, UnitsFreedListener {
  std::vector<std::string> log;
  std::vector<uint32_t> space;               // dies told their free space changed
  std::vector<uint8_t> fua, sync;            // tags told
  std::vector<std::vector<uint32_t>> moves;  // {lba, from, to}
  void moved(uint64_t lba, uint32_t from, uint32_t to) override { moves.push_back({uint32_t(lba), from, to}); }
  void unit_programmed(uint32_t die, bool) override { log.push_back("gc unit programmed on die " + std::to_string(die)); }
  void units_freed() override { log.push_back("freed"); }
  void moves_may_be_done(uint32_t die) override { log.push_back("victim " + std::to_string(die)); }
  void free_space_changed(uint32_t die) override { space.push_back(die); }
  void fua_sector_programmed(uint8_t tag) override { fua.push_back(tag); }
  void sync_unit_programmed(uint8_t tag) override { sync.push_back(tag); }
};
struct Writers : UnitsFreedListener {
  std::vector<std::string>& log;
  explicit Writers(std::vector<std::string>& l) : log(l) {}
  void units_freed() override { log.push_back("writers retry"); }
};

struct Rig : PartFixture {
  bool configured;  // the parameters, before the parts below read them
  L2pMap map{256};
  MapStore store;
  AllocationPolicy alloc;
  Listeners l;
  Writers writers{l.log};
  UnitPlacement placement;
  WriteCache cache;
  CacheGcUnits gc_units{cache, map, store, blocks};
  PageFill fill;

  explicit Rig(const std::string& mapping = "dynamic")
      : PartFixture(part_geometry(2, 8, 4)),
        configured(configure(params, mapping)),
        store(hw, params, geo, map, blocks.layout(), flash),
        alloc(geo, "die-first", mapping == "static"),
        placement(hw, params, geo, blocks, alloc, l),
        cache(hw, params, geo, 48, blocks, map, store, flash, placement, l, l),
        fill(hw, params, blocks.layout(), map, flash, cache) {
    cache.set_durability_listener(&l);
    cache.set_freed_listener(&writers);
    cache.set_gc_units(&l);
  }
  // A closed block on `die` holding LBAs [first, first + 16), all mapped to it.
  uint32_t data_block(uint32_t die, uint64_t first) {
    const uint32_t b = blocks.take_free_block(die);
    BlockInfo& info = blocks.info(b);
    info.state = BlockState::Closed;
    info.next_page = blocks.pages_in_block(b);
    std::vector<SectorStamp> stamps(16);
    std::vector<PageOob> oobs(4);
    for (uint32_t i = 0; i < 16; ++i) {
      oobs[i / 4].kind = PageKind::UserData;
      oobs[i / 4].lba[i % 4] = uint32_t(first + i);
      oobs[i / 4].data_seq[i % 4] = 7;
      stamps[i] = SectorStamp{first + i, 1};
      const uint32_t ppa = blocks.layout().ppa(b, i / 4, i % 4);
      blocks.mark_valid(ppa);
      map.set(first + i, ppa);
    }
    hw.preload_pages(blocks.layout().address_of(b, 0), 4, stamps.data(), oobs.data());
    return b;
  }
  // A host unit given `lbas` whose data arrived (FUA tag or none).
  uint32_t host_unit(const std::vector<uint64_t>& lbas, uint8_t fua_tag = CacheUnits::kNoTag) {
    const uint32_t unit = cache.units().allocate(WriteStream::Host, false);
    REQUIRE(unit != CacheUnits::kNone);
    const uint32_t pos = cache.units().stage(unit, uint32_t(lbas.size()));
    for (uint32_t i = 0; i < lbas.size(); ++i) {
      cache.units().slot(unit, pos + i).lba = lbas[i];
      cache.units().slot(unit, pos + i).fua_tag = fua_tag;
    }
    cache.host_data_arrived(unit, pos, uint32_t(lbas.size()));
    return unit;
  }
};
}  // namespace

TEST_CASE("Placement: host units stripe over the dies, map pages go round robin, GC units stay on their die",
          "[firmware][write]") {
  Rig r;
  std::vector<uint32_t> dies;
  for (int i = 0; i < 4; ++i) {
    UnitPlace u;
    REQUIRE(r.placement.place(u));
    dies.push_back(u.die);
  }
  CHECK(dies == std::vector<uint32_t>{0, 1, 0, 1});
  UnitPlace a, b;
  a.stream = b.stream = WriteStream::Map;
  REQUIRE(r.placement.place(a));
  REQUIRE(r.placement.place(b));
  CHECK(a.die != b.die);
  CHECK(r.blocks.info(a.block).holds_map);
  for (int i = 0; i < 3; ++i) {
    UnitPlace g;
    g.stream = WriteStream::Gc;
    g.die = 1;
    REQUIRE(r.placement.place(g));
    CHECK(g.die == 1);
  }
  // Consecutive units of a stream fill one block page by page; a full block is closed.
  UnitPlace first, second;
  REQUIRE(r.placement.place(first));   // die 0 again
  REQUIRE(r.placement.place(second));  // die 1
  UnitPlace third;
  REQUIRE(r.placement.place(third));   // die 0: the same open block, next page
  CHECK(third.block == first.block);
  CHECK(third.page == first.page + 1);
}

TEST_CASE("Placement: host data leaves each die its last free block for GC, which may take it", "[firmware][write]") {
  Rig r;
  while (r.blocks.pools().free_blocks(0) > 1) r.blocks.take_free_block(0);
  UnitPlace u;
  REQUIRE(r.placement.place(u));
  CHECK(u.die == 1);  // die 0 has only its reserve
  CHECK(std::find(r.l.space.begin(), r.l.space.end(), 0u) != r.l.space.end());  // its GC was asked to look
  UnitPlace g;
  g.stream = WriteStream::Gc;
  g.die = 0;
  REQUIRE(r.placement.place(g));
  CHECK(g.die == 0);
  CHECK(r.blocks.pools().free_blocks(0) == 0);
}

// Issue 14 item 2: with GC pacing, host data may open a die's last free block, or take a
// unit of GC's open block, while GC can still move the rest of its victim without them.
TEST_CASE("Placement: with GC pacing host units take the room GC's victim does not need", "[firmware][write]") {
  Rig r;
  struct Quiet : GcEraseListener {
    void space_returned(uint32_t) override {}
  } quiet;
  r.params.gc.host_pacing = true;
  GcHostGate gate(r.blocks, true, 4, quiet);
  r.placement.set_host_gate(&gate);
  while (r.blocks.pools().free_blocks(1) > 0) r.blocks.take_free_block(1);  // die 1 is out of space
  const uint32_t victim = r.data_block(0, 0);
  uint32_t& gc_open = r.blocks.write_points().open_block(0, WriteStream::Gc);
  gc_open = r.blocks.take_free_block(0);
  while (r.blocks.pools().free_blocks(0) > 1) r.blocks.take_free_block(0);
  gate.pacing().victim_taken(0, victim, false);  // 16 valid and a unit of padding: GC needs 20
  // 16 free and 16 in GC's block: three of GC's units go to the host, the fourth would leave GC short.
  for (int k = 0; k < 3; ++k) {
    UnitPlace shared;
    REQUIRE(r.placement.place(shared));
    CHECK(shared.die == 0);
    CHECK(shared.block == gc_open);
    CHECK(shared.open_stream == WriteStream::Gc);
  }
  UnitPlace u;
  CHECK_FALSE(r.placement.place(u));
  for (uint32_t s = 0; s < 16; ++s) r.blocks.mark_invalid(r.blocks.layout().ppa(victim, s / 4, s % 4));
  REQUIRE(r.placement.place(u));  // GC needs a unit of padding, in its block: the host opens the last free block
  CHECK(u.die == 0);
  CHECK(u.block != gc_open);
  CHECK(u.open_stream == WriteStream::Host);
  CHECK(r.blocks.pools().free_blocks(0) == 0);
  r.blocks.info(u.block).next_page = 4;  // the host's block filled
  r.blocks.write_points().open_block(0, WriteStream::Host) = BlockManager::kNoBlock;
  UnitPlace more;
  CHECK_FALSE(r.placement.place(more));  // GC's last 4 are its padding's
}

TEST_CASE("Placement: static mapping keeps a unit in its logical pages' pool", "[firmware][write]") {
  Rig r("static");
  UnitPlace u;
  u.pool = 1;
  REQUIRE(r.placement.place(u));
  CHECK(u.die == 1);
  while (r.blocks.pools().free_blocks(1) > 1) r.blocks.take_free_block(1);
  // Die 1's open block still has pages; once they are used up, a pinned unit waits.
  for (int i = 0; i < 3; ++i) {
    UnitPlace v;
    v.pool = 1;
    REQUIRE(r.placement.place(v));
  }
  UnitPlace w;
  w.pool = 1;
  CHECK_FALSE(r.placement.place(w));  // not spilled onto die 0
}

TEST_CASE("Write cache: host data goes to NAND, the map follows it and the superseded copies go", "[firmware][write]") {
  Rig r;
  const uint32_t old_block = r.data_block(0, 0);
  const uint32_t old_ppa = r.map.get(1);
  const uint32_t unit = r.host_unit({1, 2, 3}, 9);
  CHECK(r.map.get(1) == L2pMap::cached(r.cache.units().buffer_slot(unit, 0)));
  CHECK(r.blocks.info(old_block).valid == 16);  // the NAND copies stay valid while the data is cached
  r.cache.seal(unit);
  CHECK(r.cache.wait_for_host_units(4) == 1);  // a SYNCHRONIZE CACHE waits for the sealed unit
  CHECK(r.cache.stats().padding_sectors == 1);
  CHECK(r.cache.units().busy());
  r.hw.run();
  CHECK_FALSE(r.cache.units().busy());
  REQUIRE(L2pMap::is_physical(r.map.get(1)));
  CHECK(r.blocks.layout().block_of(r.map.get(1)) != old_block);
  CHECK(r.map.get(2) == r.map.get(1) + 1);
  CHECK(r.blocks.info(old_block).valid == 13);
  CHECK(r.map.get(0) == old_ppa - 1);  // not written: still its old copy
  CHECK(r.cache.stats().host_program_sectors == 3);
  CHECK(r.cache.stats().host_page_sectors == 4);
  CHECK(r.l.fua == std::vector<uint8_t>{9, 9, 9});
  CHECK(r.l.sync == std::vector<uint8_t>{4});
  // Freed: the collector hears first, then the writers.
  CHECK(r.l.log == std::vector<std::string>{"freed", "writers retry"});
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("Write cache: data overwritten in the cache takes over the NAND copy it supersedes", "[firmware][write]") {
  Rig r;
  const uint32_t old_block = r.data_block(0, 0);
  const uint32_t nand = r.map.get(5);
  const uint32_t first = r.host_unit({5});
  const uint32_t second = r.host_unit({5});
  CHECK(r.cache.units().slot(first, 0).old_ppa == L2pMap::kUnmapped);
  CHECK(r.cache.units().slot(second, 0).old_ppa == nand);
  CHECK(r.cache.units().cached(r.map.get(5)).old_ppa == nand);
  // A map page holds the NAND copy of a cached LBA (the older cached slot no longer counts).
  std::vector<uint32_t> entries(300, 7);
  r.cache.nand_entries(0, entries.data(), 300);
  CHECK(entries[5] == nand);
  CHECK(entries[4] == r.map.get(4));
  CHECK(entries[16] == L2pMap::kUnmapped);
  CHECK(entries[299] == L2pMap::kUnmapped);  // past the device's 256 LBAs
  r.cache.seal(first);
  r.hw.run();
  // The older cached copy reached NAND, but the map stays on the newer one; the NAND copy
  // it supersedes stays valid until that one is programmed.
  CHECK(r.map.get(5) == L2pMap::cached(r.cache.units().buffer_slot(second, 0)));
  CHECK(r.blocks.info(old_block).valid == 16);
  r.cache.seal(second);
  r.hw.run();
  REQUIRE(L2pMap::is_physical(r.map.get(5)));
  CHECK(r.blocks.info(old_block).valid == 15);
}

TEST_CASE("Write cache: host data leaves GC the last unit, and a failed program retires the block and goes again",
          "[firmware][write]") {
  Rig r;
  std::vector<uint32_t> units;
  for (uint32_t i = 0; i < 3; ++i) units.push_back(r.cache.units().allocate(WriteStream::Host, false));
  CHECK(std::find(units.begin(), units.end(), CacheUnits::kNone) == units.end());
  CHECK(r.cache.units().allocate(WriteStream::Host, false) == CacheUnits::kNone);
  const uint32_t gc = r.cache.units().allocate(WriteStream::Gc, true);
  REQUIRE(gc != CacheUnits::kNone);
  r.cache.release(gc);

  r.cache.units().slot(units[0], r.cache.units().stage(units[0], 1)).lba = 40;
  r.cache.host_data_arrived(units[0], 0, 1);
  r.hw.fail_next_program_ = true;
  r.cache.seal(units[0]);
  const uint32_t failed = r.cache.units().place(units[0]).block;
  r.hw.run();
  CHECK(r.flash.stats_program_failures() == 1);
  CHECK(r.blocks.info(failed).retire_after_gc);
  CHECK(r.blocks.info(failed).state == BlockState::Closed);
  REQUIRE(L2pMap::is_physical(r.map.get(40)));
  CHECK(r.blocks.layout().block_of(r.map.get(40)) != failed);
  CHECK(std::find(r.l.space.begin(), r.l.space.end(), r.blocks.layout().die_of_block(failed)) != r.l.space.end());
}

TEST_CASE("Write cache: a unit with no die to go to waits until space returns", "[firmware][write]") {
  Rig r;
  for (uint32_t d = 0; d < 2; ++d)
    while (r.blocks.pools().free_blocks(d) > 1) r.blocks.take_free_block(d);
  const uint32_t unit = r.host_unit({7});
  r.cache.seal(unit);
  CHECK(r.cache.waiting_for_die() == 1);
  r.hw.run();
  CHECK(L2pMap::is_cached(r.map.get(7)));
  // An erase gave die 1 a block back.
  uint32_t taken = BlockManager::kNoBlock;
  for (uint32_t b = 0; b < r.blocks.layout().block_count(); ++b)
    if (r.blocks.layout().die_of_block(b) == 1 && r.blocks.info(b).state != BlockState::Free) { taken = b; break; }
  REQUIRE(taken != BlockManager::kNoBlock);
  r.blocks.return_erased_block(taken);
  r.cache.retry_programs();
  CHECK(r.cache.waiting_for_die() == 0);
  r.hw.run();
  CHECK(L2pMap::is_physical(r.map.get(7)));
}

TEST_CASE("GC units: moved data keeps its LBA and age, and the map follows a live copy or the copy cached data backs",
          "[firmware][write]") {
  Rig r;
  const uint32_t victim = r.data_block(0, 100);
  const uint32_t unit = r.gc_units.gc_unit(WriteStream::Gc, false, 0, false);
  REQUIRE(unit != GcUnits::kNoUnit);
  CHECK(r.gc_units.gc_unit_room(unit) == 4);
  uint32_t pos = 0;
  const uint32_t from = r.blocks.layout().ppa(victim, 1, 0);
  const uint64_t at = r.gc_units.gc_stage(unit, from, 2, pos);
  CHECK(pos == 0);
  CHECK(at == slot_address(r.cache.units().buffer_slot(unit, 0)));
  CHECK(r.gc_units.gc_unit_room(unit) == 2);
  PageOob oob;
  oob.lba[0] = 104;
  oob.lba[1] = 105;
  oob.data_seq[0] = oob.data_seq[1] = 7;
  r.gc_units.gc_data_arrived(unit, pos, 2, oob);
  CHECK(r.cache.units().slot(unit, 1).lba == 105);
  CHECK(r.cache.units().slot(unit, 1).data_seq == 7);
  r.gc_units.gc_seal(unit);
  r.hw.run();
  REQUIRE(r.l.moves.size() == 2);
  CHECK(r.l.moves[0][0] == 104);
  CHECK(r.l.moves[0][1] == from);
  CHECK(r.blocks.layout().die_of_block(r.blocks.layout().block_of(r.l.moves[0][2])) == 0);
  CHECK(r.l.log.front() == "freed");
  CHECK(r.l.log.back() == "gc unit programmed on die 0");

  // gc_follow_move: the live copy moves the map; a copy cached data supersedes moves with it.
  const uint32_t to = r.l.moves[0][2];
  CHECK(r.gc_units.gc_follow_move(104, from, to));
  CHECK(r.map.get(104) == to);
  CHECK(r.blocks.info(victim).valid == 15);
  const uint32_t nand105 = r.map.get(105);
  r.host_unit({105});
  CHECK(r.gc_units.gc_follow_move(105, nand105, r.l.moves[1][2]));
  CHECK(r.cache.units().cached(r.map.get(105)).old_ppa == r.l.moves[1][2]);
  CHECK_FALSE(r.gc_units.gc_follow_move(106, from, to));  // 106 never lived at `from`
}

TEST_CASE("Read-modify-write fill: the rest of a logical page from NAND (one read per run), the cache, or zeros",
          "[firmware][write]") {
  Rig r;
  r.data_block(0, 0);
  r.host_unit({1});                     // LBA 1 newer in the cache
  r.map.set(2, L2pMap::kUnmapped);      // LBA 2 never written (as if unmapped)
  const uint32_t unit = r.cache.units().allocate(WriteStream::Host, false);
  r.fill.fill(unit, 0, 4);           // LBAs 0..3: NAND, cache, zeros, NAND
  CHECK(r.cache.units().room(unit) == 0);
  CHECK(r.hw.data_reads_ == 2);         // the unmapped and cached sectors split the NAND run
  CHECK(r.fill.stats().flash_sectors == 2);
  CHECK(r.fill.stats().cache_sectors == 1);
  CHECK(r.map.get(1) == L2pMap::cached(r.cache.units().buffer_slot(unit, 1)));  // copied: the cache's copy moves along
  CHECK(r.cache.units().slot(unit, 2).lba == kNoLba);
  CHECK(L2pMap::is_physical(r.map.get(0)));  // NAND data: the map moves once it is read
  // LBA 3 is rewritten while its fill read is in flight: the newer copy stands.
  const uint32_t newer = r.host_unit({3});
  r.hw.run();
  CHECK(r.map.get(0) == L2pMap::cached(r.cache.units().buffer_slot(unit, 0)));
  CHECK(r.cache.units().slot(unit, 3).lba == kNoLba);
  CHECK(r.map.get(3) == L2pMap::cached(r.cache.units().buffer_slot(newer, 0)));
  r.cache.seal(unit);  // all its data is in: sealed, it is programmed
  r.hw.run();
  CHECK(L2pMap::is_physical(r.map.get(0)));
}

TEST_CASE("Read-modify-write fill: larger runs become single reads of consecutive sectors", "[firmware][write]") {
  Rig r;
  r.data_block(0, 0);
  const uint32_t unit = r.cache.units().allocate(WriteStream::Host, false);
  r.fill.fill(unit, 2, 4);  // LBAs 2..5: sectors 2-3 of page 0, 0-1 of page 1
  CHECK(r.hw.data_reads_ == 2);
  r.cache.seal(unit);
  r.hw.run();
  CHECK(L2pMap::is_physical(r.map.get(2)));
  CHECK(r.blocks.layout().page_of(r.map.get(2)) == r.blocks.layout().page_of(r.map.get(5)));  // programmed together
  CHECK(r.cache.stats().host_program_sectors == 4);
}

TEST_CASE("Page run: consecutive sectors of a page into consecutive slots are one read", "[firmware][write]") {
  const FlashGeometry geo = part_geometry(2, 8, 4);
  BlockManager blocks(geo);
  std::vector<PageRun> reads;
  auto submit = [&](const PageRun& run) { reads.push_back(run); };
  PageRun run;
  const uint32_t b = 3;
  run.add(blocks.layout(), blocks.layout().ppa(b, 0, 1), slot_address(10), submit);
  run.add(blocks.layout(), blocks.layout().ppa(b, 0, 2), slot_address(11), submit);
  run.add(blocks.layout(), blocks.layout().ppa(b, 0, 3), slot_address(12), submit);
  run.add(blocks.layout(), blocks.layout().ppa(b, 1, 0), slot_address(13), submit);  // the next page: a new read
  run.add(blocks.layout(), blocks.layout().ppa(b, 1, 1), slot_address(20), submit);  // not the next slot: a new read
  run.close(submit);
  run.close(submit);  // nothing open: nothing more
  REQUIRE(reads.size() == 3);
  CHECK(reads[0].first_sector == 1);
  CHECK(reads[0].count == 3);
  CHECK(reads[0].buffer == slot_address(10));
  CHECK(reads[0].at.page == 0);
  CHECK(reads[1].count == 1);
  CHECK(reads[1].at.page == 1);
  CHECK(reads[2].first_sector == 1);
  CHECK(reads[2].buffer == slot_address(20));
}

}  // namespace write_cache_test
