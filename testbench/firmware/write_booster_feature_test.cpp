// The WriteBooster feature (wb/write_booster_feature) alone on the fake platform with a
// garbage collector: building it reserves each die's SLC blocks and registers WriteBooster's
// QUERY flags and attributes; its flush empties a sealed SLC block through the collector.
#include <catch2/catch.hpp>
#include "part_fixture.h"
#include "protocol/ufs_protocol.h"
#include "wb/write_booster_feature.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace write_booster_feature_test {

namespace {
bool configure(FirmwareParams& p) {
  p.program_pages = 1;
  p.writebooster.enabled = true;
  p.writebooster.buffer_mib = 1;       // whole SLC blocks per die, at least one
  p.writebooster.idle_flush_us = 5;
  return true;
}
// The collector's other side: the flushed block holds no valid data, so the one unit the
// mover takes goes back unused; map blocks and erases only noted.
struct EmptyUnits : GcUnits {
  uint32_t taken = 0, staged = 0, released = 0;
  uint32_t gc_unit(WriteStream, bool, uint32_t, bool) override { return taken++; }
  uint32_t gc_unit_room(uint32_t) const override { return 4; }
  uint64_t gc_stage(uint32_t, uint32_t, uint32_t, uint32_t& pos) override { ++staged; pos = 0; return 0; }
  void gc_data_arrived(uint32_t, uint32_t, uint32_t, const PageOob&) override {}
  void gc_seal(uint32_t) override {}
  void gc_release(uint32_t) override { ++released; }
  bool gc_follow_move(uint64_t, uint32_t, uint32_t) override { return false; }
};
struct Listeners : MapBlockCleaner, GcEraseListener {
  std::vector<uint32_t> returned;
  void relocate_block(uint32_t, uint32_t) override {}
  void space_returned(uint32_t die) override { returned.push_back(die); }
};
struct Rig : PartFixture {
  bool configured = configure(params);
  EmptyUnits units;
  Listeners l;
  GarbageCollector gc{hw, params, blocks, flash, units, l, l, nullptr};
  QueryServer query;
  WriteBoosterFeature wb{params, geo, blocks, gc, query};
  Rig() : PartFixture(part_geometry(2, 16, 12), 64, true) {
    gc.set_helpers(nullptr, &wb.flush(), &wb.flush());
  }
};
}  // namespace

TEST_CASE("WriteBooster feature: building it reserves each die's SLC blocks and registers its QUERY flags",
          "[firmware][writebooster-feature]") {
  using namespace ufs_query;
  Rig r;
  const uint32_t per_die = r.wb.buffer().slc_blocks_per_die();
  REQUIRE(per_die >= 1);
  for (uint32_t d = 0; d < r.geo.dies(); ++d) CHECK(r.blocks.pools().free_slc_blocks(d) == per_die);
  const QueryResponse en = r.query.query({kReadFlag, kFlagWbEn});
  CHECK(en.status == kSuccess);
  CHECK(en.value == 1);
  CHECK(r.query.query({kReadAttribute, kAttrWbCurrentSize}).status == kSuccess);
  CHECK(QueryServer().query({kReadFlag, kFlagWbEn}).status == kInvalidIdn);  // nothing registered
}

TEST_CASE("WriteBooster feature: in idle time its flush empties a sealed SLC block through the collector",
          "[firmware][writebooster-feature]") {
  Rig r;
  // A sealed SLC block on die 0 whose data was all superseded.
  const uint32_t b = r.blocks.take_free_slc_block(0);
  BlockInfo& info = r.blocks.info(b);
  info.state = BlockState::Closed;
  info.next_page = r.blocks.pages_in_block(b);
  r.wb.buffer().add_used(int64_t(info.next_page) * r.geo.sectors_per_page());
  const uint32_t erases = info.erase_count;
  r.wb.flush().idle_began();
  r.hw.run();
  CHECK(r.blocks.info(b).erase_count == erases + 1);
  CHECK(r.blocks.info(b).state == BlockState::Free);
  CHECK(r.wb.buffer().stats().flushes_started == 1);
  CHECK(r.wb.buffer().stats().flushed_blocks == 1);
  CHECK(r.wb.buffer().used_sectors() == 0);
  CHECK(r.units.staged == 0);
  CHECK(r.units.released == r.units.taken);
}

}  // namespace write_booster_feature_test
