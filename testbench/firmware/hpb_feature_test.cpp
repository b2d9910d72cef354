// The HPB feature (hpb/hpb_feature) alone on the fake platform with the FTL parts it is wired
// into: building it registers HPB's QUERY flags and attribute, and an HPB READ whose entry
// does not verify is served through the port by the read engine (the normal lookup).
#include <catch2/catch.hpp>
#include "hpb/hpb_feature.h"
#include "part_fixture.h"
#include "protocol/ufs_protocol.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace hpb_feature_test {

namespace {
bool configure(FirmwareParams& p) {
  p.map_cache = false;  // the whole map in SRAM
  p.hpb.enabled = true;
  p.hpb.subregion_size_exp = 13;
  p.hpb.region_size_exp = 14;
  return true;
}
struct NoMisses : MapLookups {
  uint32_t wait_for_lookups(uint64_t, uint32_t, MapWaiter&, uint32_t) override { return 0; }
};
// The platform's events: commands (all HPB here), HPB's transfers and crypto results to the
// device, reads' transfers to the engine.
struct Events : PartEvents {
  HpbFeature* hpb = nullptr;
  ReadEngine* reads = nullptr;
  void on_data_in_done(uint8_t tag, uint64_t token) override {
    if (token & hpb_cookie::kToken) hpb->device().on_data_in_done(tag);
    else reads->data_in_done(tag, token);
  }
  void on_crypto_done(const HpbCryptoResult& r) override { hpb->device().on_crypto_done(r); }
};
struct Rig : PartFixture {
  bool configured = configure(params);
  Events ev;
  LatencySplit latency{256};
  CommandTable table{hw, 600, 500, latency};
  L2pMap map{4096};
  MapStore store{hw, params, geo, map, blocks.layout(), flash};
  NoMisses lookups;
  ReadEngine reads{hw, params, 48, table, latency, map, blocks.layout(), flash, lookups};
  QueryServer query;
  HpbFeature hpb{hw, params.hpb, 4096, HpbFeatureLinks{map, table, reads, store, latency, query}};
  Rig() {
    ev.port = &flash;
    ev.hpb = &hpb;
    ev.reads = &reads;
    ev.command = [this](const HostCommand& c) { hpb.device().on_command(c); };
    hw.attach(&ev);
    hw.crypto_on = true;
  }
};
}  // namespace

TEST_CASE("HPB feature: building it registers HPB's flags and attribute with the QUERY server",
          "[firmware][hpb-feature]") {
  using namespace ufs_query;
  QueryServer bare;  // no feature registered
  CHECK(bare.query({kReadFlag, kFlagHpbEnable}).status == kInvalidIdn);
  Rig r;
  const QueryResponse en = r.query.query({kReadFlag, kFlagHpbEnable});
  CHECK(en.status == kSuccess);
  CHECK(en.value == 1);
  CHECK(r.query.query({kReadFlag, kFlagHpbReset}).status == kSuccess);
  CHECK(r.query.query({kReadAttribute, kAttrMaxHpbSingleCmd}).status == kSuccess);
  CHECK(r.hpb.device().stats().queries == 3);
}

TEST_CASE("HPB feature: an HPB READ whose entry does not verify is read through the port by the read engine",
          "[firmware][hpb-feature]") {
  Rig r;
  const uint32_t block = r.blocks.take_free_block(0);
  r.user_page(block, 0, {8, 9, 10, 11}, 3);
  for (uint32_t s = 0; s < 4; ++s) r.map.set(8 + s, r.blocks.layout().ppa(block, 0, s));
  std::vector<CommandResponse> answered;
  r.hw.on_response = [&](const CommandResponse& c) { answered.push_back(c); };
  r.hw.command(make_hpb_read(5, 10, 0x0123456789abcdefull, 1));
  r.hw.run();
  REQUIRE(answered.size() == 1);
  CHECK(answered[0].tag == 5);
  CHECK(answered[0].status == scsi_status::kGood);
  CHECK(r.hw.host_in_[5][0] == (SectorStamp{10, 3}));
  const HpbStats s = r.hpb.device().stats();
  CHECK(s.hpb_reads == 1);
  CHECK(s.verified == 0);
  CHECK(s.fallbacks == 1);
  CHECK(r.reads.stats().flash_reads == 1);  // the normal lookup's NAND read
}

}  // namespace hpb_feature_test
