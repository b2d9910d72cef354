// The FTL's core (core/ftl_core) alone on the fake platform: the map is sized to the LBAs the
// device exports (the WriteBooster reserve and the over-provisioning left out), and its map
// store is the flash port's client 0, the first to attach: its loads carry client id 0 in
// their cookies and come back to it, and the next part to attach gets id 1.
#include <catch2/catch.hpp>
#include <set>
#include "core/ftl_core.h"
#include "part_fixture.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace ftl_core_test {

namespace {
// The fake platform's events into the core's flash port, noting each completion's client.
struct ClientLog : PartEvents {
  std::set<uint64_t> clients;
  void on_flash_complete(const FlashCompletion& c) override {
    clients.insert(c.cookie >> 56);
    PartEvents::on_flash_complete(c);
  }
};
struct Waiter : MapWaiter {
  std::vector<uint32_t> told;
  void map_page_loaded(uint32_t token) override { told.push_back(token); }
};
struct NextClient : FlashClient {
  uint32_t done = 0;
  void on_flash_done(uint64_t, const FlashCompletion&) override { ++done; }
};
}  // namespace

TEST_CASE("FTL core: the map holds the LBAs the device exports, without the WriteBooster reserve and the spare",
          "[firmware][ftl-core]") {
  const FlashGeometry geo = part_geometry(2, 16, 12);
  FakePlatform hw(geo, 64);
  FirmwareParams params;
  params.over_provisioning = 0.25;
  const uint64_t all = geo.total_sectors();  // 2 dies x 16 blocks x 12 pages x 4 sectors
  REQUIRE(all == 1536);
  {
    FtlCore core(hw, params, geo);
    CHECK(core.map().logical_blocks() == 1152);  // 1536 x 0.75
    CHECK(FtlCore::exported_blocks(params, geo) == 1152);
    CHECK(core.dies() == 2);
    CHECK(core.blocks().pools().free_blocks(0) == 16);
  }
  params.writebooster.enabled = true;
  params.writebooster.buffer_mib = 1;  // dedicated: whole SLC blocks per die taken off the top
  const uint64_t reserve = params.writebooster.reserved_sectors(geo);
  REQUIRE(reserve > 0);
  FtlCore core(hw, params, geo);
  CHECK(core.map().logical_blocks() == uint64_t(double(all - reserve) * 0.75));
  CHECK(core.map().logical_blocks() < 1152);
}

TEST_CASE("FTL core: the map store is flash client 0, its loads come back to it, the next part is client 1",
          "[firmware][ftl-core]") {
  const FlashGeometry geo = part_geometry(2, 8, 12);
  FakePlatform hw(geo, 64);
  FirmwareParams params;
  params.l2p_sram_kib = 16;  // one map page of SRAM; map pages are demand-loaded (map_cache)
  FtlCore core(hw, params, geo);
  ClientLog log;
  hw.attach(&log);
  log.port = &core.flash();
  NextClient next;
  CHECK(core.flash().attach(next) == 1);

  // Map page 0 on NAND (block 3, page 0), not in SRAM: a lookup waits for its load.
  REQUIRE(core.map_store().enabled());
  const uint32_t ppa = core.blocks().layout().ppa(3, 0, 0);
  core.map_store().set_location(0, ppa, 5);
  std::vector<SectorStamp> stamps(4);
  PageOob oob;
  oob.kind = PageKind::MapData;
  hw.preload_pages(core.blocks().layout().address_of(3, 0), 1, stamps.data(), &oob);
  Waiter w;
  CHECK(core.map_store().wait_for_lookups(8, 1, w, 42) == 1);
  CHECK(core.flash().in_flight() == 1);
  hw.run();
  CHECK(log.clients == std::set<uint64_t>{0});
  CHECK(w.told == std::vector<uint32_t>{42});
  CHECK(core.map_store().stats().loads == 1);
  CHECK(core.map_store().in_sram(0));
  CHECK(core.flash().in_flight() == 0);
  CHECK(next.done == 0);
}

}  // namespace ftl_core_test
