// HPBvalve's host policy (seed 000) on the real host HPB cache, without the kernel:
// foreground misses fetched at once, eviction BG -> IFG -> never AFG, AFG demoted to IFG
// on a foreground switch, the launch profile bounded and prefetched on return.
#include <catch2/catch.hpp>
#include "host/hpb_host_cache.h"
#include "host/hpb_valve_policy.h"
#include "hpb_cache_test_util.h"

using namespace ufs;

namespace {
struct Rig {
  HpbValvePolicy* valve = nullptr;
  std::unique_ptr<HpbHostCache> cache;
  uint64_t now = 0;
  // 64 one-sub-region regions of 1024 blocks; room for `capacity` of them.
  explicit Rig(uint32_t capacity, uint64_t profile_entries = 131072, uint32_t launch_reads = 2048) {
    HpbHostParams p;
    p.budget_mib = 1;
    const HpbDeviceInfo d = test::one_subregion_regions(64, capacity);
    auto policy = std::make_unique<HpbValvePolicy>(profile_entries, launch_reads);
    valve = policy.get();
    cache = std::make_unique<HpbHostCache>(p, d, std::move(policy));
  }
  // A read of sub-region s by app; then every queued READ BUFFER completes.
  void read(uint32_t app, uint32_t s, bool foreground = true) {
    HostCommand cmd;
    uint64_t host_ns = 0;
    now += 1000000;
    cache->prepare_read(uint64_t(s) * 1024, 1, cmd, now, host_ns, app, foreground);
    drain();
  }
  void drain() { test::complete_read_buffers(*cache, now); }
  bool cached(uint32_t s) const { return cache->state(s) != HpbHostCache::SubState::Inactive; }
};
}  // namespace

TEST_CASE("HPBvalve: a foreground miss is fetched at once, with no read threshold", "[host][hpbvalve]") {
  Rig rig(8);
  rig.read(1, 5);
  CHECK(rig.cached(5));
  CHECK(rig.valve->list_of(5) == HpbValvePolicy::List::ActiveFg);
  CHECK(rig.cache->stats().read_buffers == 1);
}

TEST_CASE("HPBvalve: a foreground switch demotes the active foreground to inactive foreground", "[host][hpbvalve]") {
  Rig rig(8);
  for (uint32_t s : {1u, 2u, 3u}) rig.read(1, s);
  CHECK(rig.valve->list_size(HpbValvePolicy::List::ActiveFg) == 3);
  rig.read(2, 10);
  CHECK(rig.valve->foreground() == 2);
  CHECK(rig.valve->list_size(HpbValvePolicy::List::InactiveFg) == 3);
  CHECK(rig.valve->list_of(10) == HpbValvePolicy::List::ActiveFg);
  CHECK(rig.valve->list_of(1) == HpbValvePolicy::List::InactiveFg);
}

TEST_CASE("HPBvalve: eviction takes inactive foreground (LRU first) and never the active foreground",
          "[host][hpbvalve]") {
  Rig rig(4);
  for (uint32_t s : {1u, 2u}) rig.read(1, s);   // app 1: 1, 2
  for (uint32_t s : {3u, 4u}) rig.read(2, s);   // app 2 in front: 1, 2 inactive; full
  rig.read(2, 5);                                // room from IFG: 1 (least recently used) goes
  CHECK(!rig.cached(1));
  CHECK(rig.cached(2));
  rig.read(2, 6);                                // then 2
  CHECK(!rig.cached(2));
  rig.read(2, 7);                                // only AFG left: 7 is not cached, AFG kept
  CHECK(!rig.cached(7));
  for (uint32_t s : {3u, 4u, 5u, 6u}) CHECK(rig.cached(s));
}

TEST_CASE("HPBvalve: the launch profile is bounded and prefetched when the app returns", "[host][hpbvalve]") {
  // Profile bound: 3 sub-regions' worth of entries (3 x 1024).
  Rig rig(16, 3 * 1024, 100);
  for (uint32_t s : {1u, 2u, 3u, 4u, 5u}) rig.read(1, s);
  CHECK(rig.valve->profile_size(1) == 3);
  rig.read(2, 20);
  // Make app 1's sub-regions go: drop them as the device would.
  for (uint32_t r : {1u, 2u, 3u, 4u, 5u}) rig.cache->drop_region(r, false);
  CHECK(!rig.cached(1));
  rig.read(1, 9);                               // app 1 launches again: its profile comes back
  CHECK(rig.cached(1));
  CHECK(rig.cached(2));
  CHECK(rig.cached(3));
  CHECK(!rig.cached(4));                        // beyond the bound
  CHECK(rig.valve->prefetched_subregions() == 3);
}

TEST_CASE("HPBvalve: a background app's reads fetch nothing and leave the foreground alone", "[host][hpbvalve]") {
  Rig rig(8);
  rig.read(1, 5);
  rig.read(2, 9, false);  // app 2 in the background: no fetch, no switch
  CHECK_FALSE(rig.cached(9));
  CHECK(rig.valve->foreground() == 1);
  CHECK(rig.valve->switches() == 1);
  CHECK(rig.valve->list_of(5) == HpbValvePolicy::List::ActiveFg);
  rig.read(2, 5, false);  // a background read of a cached region keeps it where it is
  CHECK(rig.valve->list_of(5) == HpbValvePolicy::List::ActiveFg);
}

TEST_CASE("HPBvalve: shrinking gives back background, then inactive foreground, never active foreground",
          "[host][hpbvalve]") {
  Rig rig(8);
  for (uint32_t s : {1u, 2u}) rig.read(1, s);  // app 1: will be inactive foreground
  for (uint32_t s : {3u, 4u}) rig.read(2, s);  // app 2: active foreground
  const uint64_t per_region = rig.cache->stats().memory_bytes / 4;
  REQUIRE(per_region > 0);
  CHECK(rig.cache->shrink(per_region) == per_region);  // one region is enough
  CHECK_FALSE(rig.cached(1));                          // the least recently used inactive foreground
  CHECK(rig.cached(2));
  CHECK(rig.cache->shrink(100 * per_region) == per_region);  // the rest of IFG; AFG stays
  CHECK(rig.cached(3));
  CHECK(rig.cached(4));
  CHECK(rig.cache->stats().regulator_drops == 2);
}
