// Latency split (firmware/ftl/latency_split.h): each instant goes to one part, so the
// parts add up to the device time; on the fake platform a map miss shows as map-load time.
#include <catch2/catch.hpp>
#include "fake_platform.h"
#include "ftl/latency_split.h"

using namespace ufs;
using namespace ufs::test;

TEST_CASE("Latency split: overlapping parts go to the most advanced one and add up", "[firmware][latency]") {
  LatencySplit ls(4);
  ls.start(1, 0);
  ls.begin(1, LatencyPart::MapLoad, 10);    // 0..10 waiting
  ls.end(1, LatencyPart::MapLoad, 40);      // 10..40 map load
  ls.begin(1, LatencyPart::Nand, 40);
  ls.begin(1, LatencyPart::Transfer, 60);   // 40..60 NAND
  ls.end(1, LatencyPart::Nand, 70);         // 60..70 transfer (NAND too, transfer wins)
  ls.end(1, LatencyPart::Transfer, 90);     // 70..90 transfer
  ls.finish(1, false, 100);                 // 90..100 waiting
  const auto& r = ls.reads();
  CHECK(r.commands == 1);
  CHECK(r.device_ps == 100);
  CHECK(r.map_load_ps == 30);
  CHECK(r.nand_ps == 20);
  CHECK(r.transfer_ps == 30);
  CHECK(r.waiting_ps == 20);
  CHECK(ls.writes().commands == 0);
  ls.reset_sums();
  CHECK(ls.reads().commands == 0);
}

TEST_CASE("Latency split: a read that misses the map cache waits for the map load", "[firmware][latency]") {
  FlashGeometry geo;
  geo.channels = 2; geo.ways_per_channel = 1; geo.dies_per_way = 1; geo.planes_per_die = 1;
  geo.blocks_per_plane = 32; geo.pages_per_block = 24; geo.page_bytes = 16384;
  for (const bool map_cache : {true, false}) {
    FirmwareParams p;
    p.over_provisioning = 0.25;
    p.data_buffer_kib = 1024;
    p.write_cache_kib = 512;
    p.l2p_sram_kib = 16;  // one map page resident
    p.map_cache = map_cache;
    FakePlatform hw(geo, p.data_buffer_kib / 4);
    DeviceFirmware fw(hw, p, geo);
    hw.attach(&fw);
    const uint64_t cap = fw.logical_blocks();
    fw.precondition(0, cap, hw);
    // Alternate between the first and the last map page: with one page of SRAM each read misses.
    for (int i = 0; i < 10; ++i) {
      hw.command(make_rw(uint8_t(i % 4), false, i % 2 ? cap - 8 : 0, 8));
      hw.run();
    }
    const auto& r = fw.latency_split().reads();
    INFO("map_cache " << map_cache << ": map load " << r.map_load_ps << " ps, NAND " << r.nand_ps << ", transfer "
                      << r.transfer_ps << ", waiting " << r.waiting_ps << ", device " << r.device_ps);
    CHECK(r.commands == 10);
    CHECK(r.map_load_ps + r.nand_ps + r.transfer_ps + r.waiting_ps == r.device_ps);
    CHECK(r.nand_ps > 0);
    CHECK(r.transfer_ps > 0);
    if (map_cache) CHECK(r.map_load_ps > r.nand_ps / 2);  // a map load is a NAND page read too
    else CHECK(r.map_load_ps == 0);
  }
}
