// Wear levelling on the fake platform: cold data written once (precondition), a hot
// region rewritten at random. Greedy cleaning wears only the hot blocks; cold-data
// migration moves cold data into worn blocks and evens the erase counts, without
// losing a block.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;

namespace {

struct WearResult {
  double mean = 0, stddev = 0;
  uint32_t max = 0;
  uint64_t expired = 0, migrations = 0, rate_limited = 0, wrong = 0;
};

WearResult hot_cold_run(const std::string& policy) {
  FlashGeometry geo;
  geo.channels = 2; geo.ways_per_channel = 1; geo.dies_per_way = 1; geo.planes_per_die = 1;
  geo.blocks_per_plane = 32; geo.pages_per_block = 24; geo.page_bytes = 16384;
  FirmwareParams p;
  p.over_provisioning = 0.15;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  p.gc.block_lifetime = 40;
  p.gc.wear_levelling = policy;
  FakePlatform hw(geo, p.data_buffer_kib / 4);
  DeviceFirmware fw(hw, p, geo);
  hw.attach(&fw);
  const uint64_t cap = fw.logical_blocks();
  fw.precondition(0, cap, hw);  // everything written once: cold
  const uint64_t hot = cap * 4 / 10;
  std::vector<uint64_t> version(cap, 0);
  std::mt19937_64 rng(5);
  uint64_t v = 0;
  for (int i = 0; i < 5000; ++i) {  // hot rewrites, one at a time
    const uint32_t n = 4;
    const uint64_t lba = rng() % (hot - n);
    ++v;
    std::vector<SectorStamp> data;
    for (uint32_t k = 0; k < n; ++k) { data.push_back(SectorStamp{lba + k, v}); version[lba + k] = v; }
    hw.command(make_rw(uint8_t(i % 8), true, lba, n), data);
    if (i % 8 == 7) hw.run();
  }
  hw.run();
  WearResult r;
  for (uint64_t lba = 0; lba < cap; lba += 8) {  // every block still reads back its last write
    const uint32_t n = uint32_t(std::min<uint64_t>(8, cap - lba));
    hw.command(make_rw(9, false, lba, n));
    hw.run();
    for (uint32_t k = 0; k < n; ++k) r.wrong += hw.host_in_[9][k] != SectorStamp{lba + k, version[lba + k]};
  }
  const BlockManager& bm = fw.ftl().blocks();
  double sum = 0, sum2 = 0;
  uint32_t count = 0;
  for (uint32_t b = 0; b < bm.layout().block_count(); ++b) {
    const uint32_t e = bm.info(b).erase_count;
    sum += e; sum2 += double(e) * e; ++count;
    r.max = std::max(r.max, e);
  }
  r.mean = sum / count;
  r.stddev = std::sqrt(sum2 / count - r.mean * r.mean);
  r.expired = fw.gc().stats().expired_blocks;
  r.migrations = fw.gc().stats().wl_migrations;
  r.rate_limited = fw.gc().stats().wl_rate_limited;
  CHECK(hw.violations_ == 0);
  return r;
}

}  // namespace

TEST_CASE("Cold-data migration evens erase counts without losing a block", "[firmware][wear]") {
  const WearResult greedy = hot_cold_run("off");
  const WearResult migration = hot_cold_run("migration");
  INFO("greedy: mean " << greedy.mean << " stddev " << greedy.stddev << " max " << greedy.max << " expired "
                       << greedy.expired << "; migration: mean " << migration.mean << " stddev " << migration.stddev
                       << " max " << migration.max << " expired " << migration.expired << " migrations "
                       << migration.migrations);
  CHECK(greedy.wrong == 0);
  CHECK(migration.wrong == 0);
  CHECK(greedy.migrations == 0);
  CHECK(migration.migrations > 0);
  CHECK(migration.stddev < 0.6 * greedy.stddev);
  CHECK(migration.max < greedy.max);
  CHECK(greedy.expired > 0);
  CHECK(migration.expired < greedy.expired);
}

TEST_CASE("Rate limiting passes worn blocks over but never stalls cleaning", "[firmware][wear]") {
  const WearResult rl = hot_cold_run("rate-limit");
  CHECK(rl.wrong == 0);
  CHECK(rl.rate_limited > 0);
  CHECK(rl.mean > 0);
}
