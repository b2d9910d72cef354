// Background GC on the fake platform: bursts of random writes separated by idle gaps.
// With bg_gc_idle_us set, GC cleans in the gaps, so the bursts meet fewer foreground GCs
// and finish sooner; no block is lost either way.
#include <catch2/catch.hpp>
#include <random>
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;

namespace {

struct BurstResult {
  uint64_t gc = 0, bg_gc = 0, wrong = 0;
  uint64_t burst_time_ps = 0;  // summed time from each burst's first command to its last response
};

BurstResult bursts(uint32_t bg_gc_idle_us) {
  FlashGeometry geo;
  geo.channels = 2; geo.ways_per_channel = 1; geo.dies_per_way = 1; geo.planes_per_die = 1;
  geo.blocks_per_plane = 32; geo.pages_per_block = 24; geo.page_bytes = 16384;
  FirmwareParams p;
  p.over_provisioning = 0.25;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  p.gc.bg_idle_us = bg_gc_idle_us;
  p.gc.bg_free_blocks = 10;
  FakePlatform hw(geo, p.data_buffer_kib / 4);
  DeviceFirmware fw(hw, p, geo);
  hw.attach(&fw);
  const uint64_t cap = fw.logical_blocks();
  fw.precondition(0, cap, hw);
  std::vector<uint64_t> version(cap, 0);
  std::mt19937_64 rng(3);
  uint64_t v = 0;
  BurstResult r;
  for (int burst = 0; burst < 40; ++burst) {
    const uint64_t start = hw.now_ps();
    for (int i = 0; i < 48; ++i) {
      const uint64_t lba = rng() % (cap - 4);
      ++v;
      std::vector<SectorStamp> data;
      for (uint32_t k = 0; k < 4; ++k) { data.push_back(SectorStamp{lba + k, v}); version[lba + k] = v; }
      hw.command(make_rw(uint8_t(i % 8), true, lba, 4), data);
      if (i % 8 == 7) {
        const size_t want = hw.responses_.size() + 8;
        hw.run([&] { return hw.responses_.size() >= want; });
      }
    }
    r.burst_time_ps += hw.now_ps() - start;
    hw.run_until(hw.now_ps() + 200'000'000'000ull);  // 200 ms idle: background GC has time
  }
  hw.run();
  for (uint64_t lba = 0; lba < cap; lba += 8) {
    const uint32_t n = uint32_t(std::min<uint64_t>(8, cap - lba));
    hw.command(make_rw(9, false, lba, n));
    hw.run();
    for (uint32_t k = 0; k < n; ++k)
      r.wrong += hw.host_in_[9][k] != SectorStamp{lba + k, version[lba + k]};
  }
  r.gc = fw.gc().stats().victims;
  r.bg_gc = fw.gc().stats().bg_victims;
  return r;
}

}  // namespace

TEST_CASE("Background GC cleans in idle gaps so write bursts meet less foreground GC", "[firmware][gc]") {
  const BurstResult off = bursts(0);
  const BurstResult on = bursts(1000);
  INFO("off: GC " << off.gc << ", bursts " << off.burst_time_ps / 1e9 << " ms; on: GC " << on.gc << " (background "
                  << on.bg_gc << "), bursts " << on.burst_time_ps / 1e9 << " ms");
  CHECK(off.wrong == 0);
  CHECK(on.wrong == 0);
  CHECK(off.bg_gc == 0);
  CHECK(on.bg_gc > 0);
  CHECK(on.gc - on.bg_gc < off.gc);                // fewer victims cleaned while the host waits
  CHECK(on.burst_time_ps < off.burst_time_ps);     // and the bursts finish sooner
}

// bg_map_writeback: the idle threshold also writes dirty map pages back, so the next burst's
// map misses evict clean pages (no write-back on their path). 32 KiB of SRAM holds 2 of the
// device's 3 map pages: writes dirty pages 0 and 1, reads of page 2 then evict one of them.
TEST_CASE("Idle-time map write-back leaves the next burst's evictions clean", "[firmware][gc][map]") {
  for (const bool writeback : {false, true}) {
    FlashGeometry geo;
    geo.channels = 2; geo.ways_per_channel = 1; geo.dies_per_way = 2; geo.planes_per_die = 2;
    geo.blocks_per_plane = 16; geo.pages_per_block = 24; geo.page_bytes = 16384;
    FirmwareParams p;
    p.over_provisioning = 0.25;
    p.data_buffer_kib = 1024;
    p.write_cache_kib = 512;
    p.l2p_sram_kib = 32;
    p.gc.bg_idle_us = 1000;
    p.gc.bg_free_blocks = 10;
    p.gc.bg_map_writeback = writeback;
    p.program_pages = 1;  // a single evicted page is written back at once
    REQUIRE(p.validate().empty());
    FakePlatform hw(geo, p.data_buffer_kib / 4);
    DeviceFirmware fw(hw, p, geo);
    hw.attach(&fw);
    const uint64_t cap = fw.logical_blocks();
    REQUIRE(cap > 2 * 4096);
    fw.precondition(0, cap, hw);
    for (const uint64_t lba : {uint64_t(10), uint64_t(4096 + 10)}) {  // FUA: programmed, so the map is updated
      hw.command(make_rw(1, true, lba, 4, true), {SectorStamp{lba, 7}, SectorStamp{lba + 1, 7}, SectorStamp{lba + 2, 7},
                                            SectorStamp{lba + 3, 7}});
      hw.run();
    }
    hw.run_until(hw.now_ps() + 50'000'000'000ull);  // 50 ms idle
    const uint64_t before = fw_count(fw, "ftl.map_cache.page_writes");
    hw.command(make_rw(2, false, 2 * 4096 + 5, 8));  // page 2: a miss that evicts page 0 or 1
    hw.run();
    hw.command(make_rw(3, false, 10, 4));            // and back: the written data reads back
    hw.run();
    for (uint32_t i = 0; i < 4; ++i) CHECK(hw.host_in_[3][i] == (SectorStamp{10 + i, 7}));
    INFO("bg_map_writeback " << writeback << ": idle write-backs " << fw_count(fw, "ftl.map_cache.idle_writebacks")
                             << ", map page writes in the burst " << fw_count(fw, "ftl.map_cache.page_writes") - before);
    if (writeback) {
      CHECK(fw_count(fw, "ftl.map_cache.idle_writebacks") == 2);
      CHECK(fw_count(fw, "ftl.map_cache.page_writes") == before);  // evictions were clean
    } else {
      CHECK(fw_count(fw, "ftl.map_cache.idle_writebacks") == 0);
      CHECK(fw_count(fw, "ftl.map_cache.page_writes") > before);   // the evicted dirty page went back in the burst
    }
  }
  FirmwareParams bad;
  bad.gc.bg_map_writeback = true;
  CHECK(bad.validate().rfind("bg_map_writeback:", 0) == 0);
}
