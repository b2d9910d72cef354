// NodePool (firmware/core/node_pool.h): a std::map on it answers as a plain std::map, and
// an erased node is what the next insert gets back (no heap call once the pool holds it).
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include "core/node_pool.h"

using namespace ufs;

TEST_CASE("Node pool: a map on it matches a plain map, erased nodes are reused", "[firmware][node_pool]") {
  using Alloc = NodePoolAllocator<std::pair<const uint64_t, uint32_t>>;
  NodePool pool(16);
  std::map<uint64_t, uint32_t, std::less<uint64_t>, Alloc> pooled{Alloc(&pool)};
  std::map<uint64_t, uint32_t> plain;
  std::mt19937_64 rng(5);
  for (int step = 0; step < 20000; ++step) {
    const uint64_t k = rng() % 500;
    if (rng() % 3 == 0) {
      CHECK(pooled.erase(k) == plain.erase(k));
    } else {
      pooled[k] = uint32_t(step);
      plain[k] = uint32_t(step);
    }
  }
  REQUIRE(pooled.size() == plain.size());
  CHECK(std::equal(pooled.begin(), pooled.end(), plain.begin(), plain.end()));
  // Every node the map gave back waits in the pool; inserting takes them again.
  const size_t live = pooled.size();
  pooled.clear();
  CHECK(pool.free_nodes() >= live);
  const size_t free_before = pool.free_nodes();
  const auto a = &*pooled.emplace(7, 1).first;
  CHECK(pool.free_nodes() == free_before - 1);
  pooled.erase(7);
  CHECK(pool.free_nodes() == free_before);
  CHECK(&*pooled.emplace(8, 2).first == a);  // the same node back
}
