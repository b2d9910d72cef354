// The FTL as HPB sees it (HpbFtlPort) alone on the fake platform: mappings, tags and their
// endings through the command table, map pages from the map store, HPB verify time.
#include <catch2/catch.hpp>
#include "hpb/hpb_ftl_port.h"
#include "part_fixture.h"
#include "protocol/ufs_protocol.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace hpb_ftl_port_test {

namespace {
struct NoMisses : MapLookups {
  uint32_t wait_for_lookups(uint64_t, uint32_t, MapWaiter&, uint32_t) override { return 0; }
};
struct Rig : PartFixture {
  bool configured = [this] { params.map_cache = false; return true; }();  // the whole map in SRAM
  LatencySplit latency{256};
  CommandTable table{hw, 600, 500, latency};
  L2pMap map{4096};
  MapStore store{hw, params, geo, map, blocks.layout(), flash};
  NoMisses lookups;
  ReadEngine reads{hw, params, 48, table, latency, map, blocks.layout(), flash, lookups};
  HpbFtlPort port{hw, 4096, map, table, reads, store, latency};
};
}  // namespace

TEST_CASE("HPB FTL port: a mapping is a NAND address or none, never a write-cache slot", "[firmware][hpb-ftl-port]") {
  Rig r;
  CHECK(r.port.hpb_logical_blocks() == 4096);
  CHECK(r.port.hpb_mapping(7) == hpb_op::kNoPpn);  // unmapped
  r.map.set(7, r.blocks.layout().ppa(3, 1, 2));
  CHECK(r.port.hpb_mapping(7) == r.blocks.layout().ppa(3, 1, 2));
  r.map.set(8, L2pMap::cached(50));
  CHECK(r.port.hpb_mapping(8) == hpb_op::kNoPpn);  // in the write cache: no NAND copy yet
  CHECK(r.port.hpb_map_page_entries() == r.store.entries_per_page());
  CHECK(r.port.hpb_map_page_ready(4000));  // the whole map in SRAM
}

TEST_CASE("HPB FTL port: a claimed tag ends GOOD or in CHECK CONDITION through the command table",
          "[firmware][hpb-ftl-port]") {
  Rig r;
  r.port.hpb_claim_tag(5, 1);
  CHECK(r.table.kind(5) == CommandKind::Control);
  CHECK(r.table.lun(5) == 1);
  r.port.hpb_respond(5, 1);
  REQUIRE(r.hw.responses_.size() == 1);
  CHECK(r.hw.responses_[0].tag == 5);
  CHECK(r.hw.responses_[0].status == 0x00);  // GOOD
  CHECK(r.table.kind(5) == CommandKind::Idle);
  HostCommand c;
  c.tag = 6;
  r.port.hpb_claim_tag(6, 0);
  r.port.hpb_fail(c, 0x05, 0x24);
  REQUIRE(r.hw.responses_.size() == 2);
  CHECK(r.hw.responses_[1].tag == 6);
  CHECK(r.hw.responses_[1].status == 0x02);  // CHECK CONDITION
  CHECK(r.hw.responses_[1].sense_key == 0x05);
  CHECK(r.hw.responses_[1].asc == 0x24);
  CHECK(r.table.kind(6) == CommandKind::Idle);
}

}  // namespace hpb_ftl_port_test
