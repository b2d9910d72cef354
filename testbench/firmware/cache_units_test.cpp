// The write cache's units alone: allocation and the host's reserve, a unit's slots as its
// fillers see them, map entries naming a cached slot, hybrid page size's large units.
#include <catch2/catch.hpp>
#include <algorithm>
#include <vector>
#include "part_fixture.h"
#include "write/cache_units.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace cache_units_test {

namespace {
// How many units the dies cleaning a victim would take now (the host's reserve grows by it).
struct Wanted : GcUnitEvents {
  uint32_t wanted = 0;
  void moved(uint64_t, uint32_t, uint32_t) override {}
  void unit_programmed(uint32_t, bool) override {}
  void units_freed() override {}
  uint32_t units_wanted() const override { return wanted; }
  uint32_t working_set = 0;  // the cleaning dies' full limits
  uint32_t units_working_set() const override { return working_set; }
};
// 32 KiB of write cache from slot 48: eight units of one 16 KiB page (4 sectors).
FirmwareParams small_cache() {
  FirmwareParams p;
  p.program_pages = 1;
  p.write_cache_kib = 128;
  return p;
}
}  // namespace

TEST_CASE("Cache units: host data leaves GC a reserve that grows with what GC wants", "[firmware][cache-units]") {
  const FirmwareParams p = small_cache();
  Wanted gc;
  CacheUnits units(p, part_geometry(), 48);  // eight units
  units.set_gc(&gc);
  CHECK(units.host_reserve() == 2);
  gc.wanted = 1;
  CHECK(units.host_reserve() == 3);
  gc.wanted = 9;
  CHECK(units.host_reserve() == 4);  // at most half the cache
  gc.wanted = 0;
  std::vector<uint32_t> host;
  for (uint32_t u; (u = units.allocate(WriteStream::Host, false)) != CacheUnits::kNone;) host.push_back(u);
  CHECK(host.size() == 6);
  std::sort(host.begin(), host.end());
  CHECK(std::unique(host.begin(), host.end()) == host.end());
  const uint32_t g1 = units.allocate(WriteStream::Gc, true), g2 = units.allocate(WriteStream::Gc, true);
  CHECK(g1 != CacheUnits::kNone);
  CHECK(g2 != CacheUnits::kNone);
  CHECK(units.allocate(WriteStream::Gc, true) == CacheUnits::kNone);
  uint32_t states[4];
  units.count_states(states);
  CHECK(states[uint32_t(CacheUnits::UnitState::Filling)] == 8);
  CHECK_FALSE(units.busy());  // filling is not busy: nothing sealed or programming
  units.free(host[0]);
  units.free(host[1]);
  units.free(host[2]);
  CHECK(units.allocate(WriteStream::Host, false) == host[2]);  // the last freed first
  CHECK(units.allocate(WriteStream::Host, false) == CacheUnits::kNone);  // two left: GC's
}

// Issue 14 item 2 (session 23): on ufs31 at GC steady state the cache's units filled with host
// units no die would take while GC wanted few; when its wants rose every unit freed went to GC
// and no write completed for up to 50 ms. While dies clean, host data holds at most the cache
// less GC's working set (at most a quarter of the cache) and two units.
TEST_CASE("Cache units: while dies clean victims host data holds at most the cache less GC's working set",
          "[firmware][cache-units]") {
  const FirmwareParams p = small_cache();
  Wanted gc;
  CacheUnits units(p, part_geometry(), 48);  // eight units
  units.set_gc(&gc);
  CHECK(units.host_share() == 6);  // no die cleaning: all but the two kept back
  gc.working_set = 1;
  CHECK(units.host_share() == 5);
  gc.working_set = 9;
  CHECK(units.host_share() == 4);  // GC's part at most a quarter of the cache
  std::vector<uint32_t> host;
  for (uint32_t u; (u = units.allocate(WriteStream::Host, false)) != CacheUnits::kNone;) host.push_back(u);
  CHECK(host.size() == 4);  // four free, more than the reserve of two, but the host's share is held
  CHECK(units.host_held() == 4);
  for (int i = 0; i < 2; ++i) CHECK(units.allocate(WriteStream::Gc, true) != CacheUnits::kNone);  // GC's
  units.free(host[0]);
  CHECK(units.host_held() == 3);
  CHECK(units.allocate(WriteStream::Host, false) == host[0]);  // one host unit gone: one may come
  CHECK(units.allocate(WriteStream::Host, false) == CacheUnits::kNone);  // two free, the share held
  gc.working_set = 0;  // no die cleaning: the reserve alone (two free: GC's)
  CHECK(units.allocate(WriteStream::Host, false) == CacheUnits::kNone);
  units.free(host[1]);
  CHECK(units.allocate(WriteStream::Host, false) == host[1]);
}

TEST_CASE("Cache units: fillers stage slots, fill them and find them again by map entry", "[firmware][cache-units]") {
  const FirmwareParams p = small_cache();
  CacheUnits units(p, part_geometry(), 48);
  const uint32_t u = units.allocate(WriteStream::Host, false);
  REQUIRE(u != CacheUnits::kNone);
  CHECK(units.room(u) == 4);
  CHECK(units.place(u).stream == WriteStream::Host);
  CHECK(units.place(u).capacity == 4);
  CHECK(units.place(u).block == BlockManager::kNoBlock);
  CHECK(units.stage(u, 3) == 0);
  CHECK(units.stage(u, 1) == 3);
  CHECK(units.room(u) == 0);
  for (uint32_t pos = 0; pos < 4; ++pos) {
    const CacheUnits::Slot s = units.slot(u, pos);
    CHECK(s.lba == kNoLba);  // a fresh unit: padding until filled
    CHECK(s.old_ppa == L2pMap::kUnmapped);
    CHECK(s.fua_tag == CacheUnits::kNoTag);
    s.lba = 100 + pos;
    s.old_ppa = 7 + pos;
    s.fua_tag = pos == 2 ? 5 : CacheUnits::kNoTag;
  }
  CHECK(units.buffer_slot(u, 2) == 48 + u * 4 + 2);
  const CacheUnits::Slot again = units.cached(L2pMap::cached(units.buffer_slot(u, 2)));
  CHECK(again.lba == 102);
  CHECK(again.old_ppa == 9);
  CHECK(units.holds_fua(u, 5));
  CHECK_FALSE(units.holds_fua(u, 6));
  units.reads_started(u);  // counted for the programmer; the slots stay as they are
  CHECK(units.slot(u, 0).lba == 100);
  // Allocated again, the unit starts empty.
  units.free(u);
  const uint32_t v = units.allocate(WriteStream::Gc, true);
  REQUIRE(v == u);
  CHECK(units.slot(v, 0).lba == kNoLba);
  CHECK_FALSE(units.holds_fua(v, 5));
  CHECK(units.room(v) == 4);
}

TEST_CASE("Cache units, hybrid page size: a large unit takes an aligned run of slots", "[firmware][cache-units]") {
  FlashGeometry g = part_geometry(2, 8, 4);
  g.page_bytes = 4096;  // small pages of one sector
  g.small_blocks_per_plane = 4;
  g.large_page_bytes = 16384;  // large pages of four
  FirmwareParams p;
  p.program_pages = 1;
  p.write_cache_kib = 64;  // 16 slots: one descriptor each
  CacheUnits units(p, g, 48);
  const uint32_t small = units.allocate(WriteStream::Host, true);
  const uint32_t large = units.allocate(WriteStream::Host, true, true);
  REQUIRE(small != CacheUnits::kNone);
  REQUIRE(large != CacheUnits::kNone);
  CHECK(large % 4 == 0);  // aligned
  CHECK(units.room(small) == 1);
  CHECK(units.room(large) == 4);
  units.stage(large, 4);
  for (uint32_t pos = 0; pos < 4; ++pos) units.slot(large, pos).lba = 200 + pos;
  // A map entry naming the run's third slot finds it inside the large unit.
  CHECK(units.cached(L2pMap::cached(48 + large + 2)).lba == 202);
  units.free(large);
  const uint32_t small2 = units.allocate(WriteStream::Host, true);
  REQUIRE(small2 != CacheUnits::kNone);
  units.slot(small2, 0).lba = 300;
  CHECK(units.cached(L2pMap::cached(units.buffer_slot(small2, 0))).lba == 300);
}

}  // namespace cache_units_test
