// Map cache replacement policies (firmware/ftl/map_cache.h): which page each one evicts.
#include <catch2/catch.hpp>
#include <random>
#include "ftl/map_cache.h"
#include "firmware_params.h"

using namespace ufs;

namespace {

// Fills a 3-page cache with 0, 1, 2, uses page 0, then installs page 3: returns the victim.
uint32_t victim_after_hit_on_oldest(const std::string& policy) {
  MapCache c(3, 8, policy);
  for (uint32_t p = 0; p < 3; ++p) CHECK(c.insert(p, true) == MapCache::kNone);
  c.touch(0);
  return c.insert(3, true);
}

// Hit ratio of a loop over `loop` pages interleaved with uses of a few hot pages.
double hit_ratio(const std::string& policy, uint32_t capacity, uint32_t loop) {
  MapCache c(capacity, 1000, policy);
  std::mt19937 rng(7);
  uint64_t hits = 0, uses = 0;
  for (uint32_t i = 0; i < 20000; ++i) {
    const uint32_t page = i % 2 ? 900 + rng() % 4 : (i / 2) % loop;  // hot set of 4 beside the loop
    ++uses;
    if (c.resident(page)) { ++hits; c.touch(page); }
    else {
      const uint32_t v = c.insert(page, true);
      if (v != MapCache::kNone) c.forget(v);
    }
  }
  return double(hits) / double(uses);
}

}  // namespace

TEST_CASE("Map cache: LRU evicts the least recently used page", "[firmware][map]") {
  CHECK(victim_after_hit_on_oldest("lru") == 1);
}

TEST_CASE("Map cache: FIFO evicts the page installed first, even after a hit", "[firmware][map]") {
  CHECK(victim_after_hit_on_oldest("fifo") == 0);
}

TEST_CASE("Map cache: CLOCK gives a referenced page a second chance", "[firmware][map]") {
  CHECK(victim_after_hit_on_oldest("clock") == 1);
  // Every page referenced: the hand clears all bits and evicts where it started.
  MapCache c(3, 8, "clock");
  for (uint32_t p = 0; p < 3; ++p) c.insert(p, true);
  for (uint32_t p = 0; p < 3; ++p) c.touch(p);
  CHECK(c.insert(3, true) == 0);
  // The bits are now clear: next comes page 1 without another pass.
  CHECK(c.insert(4, true) == 1);
  CHECK(c.size() == 3);
}

TEST_CASE("Map cache: an evicted page keeps its dirty bit until forgotten", "[firmware][map]") {
  for (const std::string policy : {"lru", "fifo", "clock"}) {
    MapCache c(1, 4, policy);
    c.insert(2, false);
    c.mark_dirty(2);
    CHECK(c.insert(3, true) == 2);
    CHECK_FALSE(c.resident(2));
    CHECK(c.dirty(2));
    CHECK_FALSE(c.loaded(2));
    c.forget(2);
    CHECK_FALSE(c.dirty(2));
    CHECK(c.loaded(3));
  }
}

TEST_CASE("Map cache: a hot set survives a loop larger than the cache with LRU and CLOCK, not FIFO", "[firmware][map]") {
  const double lru = hit_ratio("lru", 16, 40);
  const double clock = hit_ratio("clock", 16, 40);
  const double fifo = hit_ratio("fifo", 16, 40);
  INFO("LRU " << lru << ", CLOCK " << clock << ", FIFO " << fifo);
  CHECK(lru > 0.45);    // the hot half of the uses hits
  CHECK(clock > 0.45);
  CHECK(fifo < lru);    // FIFO pushes hot pages out behind the loop
}

TEST_CASE("Map cache: the registry lists the policies, other names are refused naming the key", "[firmware][map]") {
  CHECK(map_cache_policy_names() == "lru | fifo | clock");
  CHECK(is_map_cache_policy("clock"));
  CHECK_FALSE(is_map_cache_policy("lfu"));
  CHECK(make_map_cache_policy("lfu", 4) == nullptr);
  MapCache fallback(2, 4, "lfu");  // past validate() only by a caller's mistake: the default, LRU
  MapCache lru(2, 4, "lru");
  for (uint32_t p : {0u, 1u, 0u, 2u}) CHECK(fallback.insert(p, true) == lru.insert(p, true));
  FirmwareParams params;
  params.map_cache_policy = "lfu";
  CHECK(params.validate().find("map_cache_policy: must be one of lru | fifo | clock") == 0);
}

TEST_CASE("Map cache: each policy alone, as the cache drives it", "[firmware][map]") {
  // LRU: the page used last goes last.
  auto lru = make_map_cache_policy("lru", 8);
  for (uint32_t p : {4u, 5u, 6u}) lru->installed(p);
  lru->used(4);
  CHECK(lru->evict() == 5);
  CHECK(lru->evict() == 6);
  CHECK(lru->evict() == 4);
  CHECK(lru->evict() == MapCacheReplacement::kNone);
  // FIFO: uses change nothing.
  auto fifo = make_map_cache_policy("fifo", 8);
  for (uint32_t p : {4u, 5u, 6u}) fifo->installed(p);
  fifo->used(4);
  CHECK(fifo->evict() == 4);
  CHECK(fifo->evict() == 5);
  // CLOCK: a used page is passed over once; an evicted and re-installed page starts unreferenced.
  auto clock = make_map_cache_policy("clock", 8);
  for (uint32_t p : {4u, 5u, 6u}) clock->installed(p);
  clock->used(4);
  clock->used(5);
  CHECK(clock->evict() == 6);
  CHECK(clock->evict() == 4);  // 4 and 5 lost their bits on the pass
  clock->installed(6);
  CHECK(clock->evict() == 5);
  CHECK(clock->evict() == 6);
  CHECK(clock->evict() == MapCacheReplacement::kNone);
}
