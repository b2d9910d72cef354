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
  p.bg_gc_idle_us = bg_gc_idle_us;
  p.bg_gc_free_blocks = 10;
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
  r.gc = fw.stats().gc_victims;
  r.bg_gc = fw.stats().bg_gc_victims;
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
