// The L2P map alone (firmware/ftl/l2p_runs.h): compact chunks of runs and dense ones must
// answer exactly as a plain array of entries would.
#include <catch2/catch.hpp>
#include <random>
#include <vector>
#include "ftl/l2p_runs.h"

using namespace ufs;

namespace {
// Every entry by get, and by physical_range over windows of several sizes and starts
// (within a chunk, across chunk boundaries, the whole map): non-physical ones as `none`.
void check_all(const L2pRuns& map, const std::vector<uint32_t>& ref) {
  size_t wrong = 0;
  for (uint64_t lba = 0; lba < ref.size(); ++lba) wrong += map.get(lba) != ref[lba];
  CHECK(wrong == 0);
  constexpr uint32_t kNone = 0xFFFFFFFFu;
  size_t range_wrong = 0, ranges = 0;
  std::vector<uint32_t> out;
  for (uint32_t window : {1u, 7u, 512u, 1000u, 4096u, 5000u, uint32_t(ref.size())})
    for (uint64_t first = 0; first + window <= ref.size(); first += window + window / 3 + 1) {
      out.assign(window, 0x12345678u);
      map.physical_range(first, window, out.data(), kNone);
      ++ranges;
      for (uint32_t i = 0; i < window; ++i)
        range_wrong += out[i] != (L2pRuns::is_physical(ref[first + i]) ? ref[first + i] : kNone);
    }
  CHECK(ranges > 10);
  CHECK(range_wrong == 0);
}
}  // namespace

TEST_CASE("L2P runs: a sequential fill stays compact", "[firmware][l2p]") {
  const uint64_t n = 8 * L2pRuns::kEntriesPerChunk + 100;
  L2pRuns map(n);
  std::vector<uint32_t> ref(n, L2pRuns::kUnmapped);
  CHECK(map.get(5) == L2pRuns::kUnmapped);
  // Write units of 96 sectors, each to consecutive PPAs, units in blocks far apart.
  for (uint64_t lba = 0; lba < n; ++lba) {
    const uint32_t ppa = uint32_t((lba / 96) * 1000 + lba % 96);
    map.set(lba, ppa);
    ref[lba] = ppa;
  }
  check_all(map, ref);
  CHECK(map.chunks_allocated() == 9);
  CHECK(map.chunks_dense() == 0);
  // 43 runs a chunk at most, against 16 KiB a dense chunk.
  CHECK(map.bytes() < 9 * 64 * 8);
  // Unmapping one LBA splits its run; mapping it back joins them again.
  const uint32_t old = map.get(200);
  map.set(200, L2pRuns::kUnmapped);
  ref[200] = L2pRuns::kUnmapped;
  check_all(map, ref);
  map.set(200, old);
  ref[200] = old;
  check_all(map, ref);
}

TEST_CASE("L2P runs: unmapping an untouched chunk allocates nothing", "[firmware][l2p]") {
  L2pRuns map(3 * L2pRuns::kEntriesPerChunk);
  map.set(10, L2pRuns::kUnmapped);
  CHECK(map.chunks_allocated() == 0);
  map.set(L2pRuns::kEntriesPerChunk + 1, (0x80000000u | 7));
  CHECK(map.chunks_allocated() == 1);
  CHECK((map.get(L2pRuns::kEntriesPerChunk + 1) & 0x80000000u));
  CHECK(map.get(L2pRuns::kEntriesPerChunk) == L2pRuns::kUnmapped);
  CHECK(map.get(L2pRuns::kEntriesPerChunk + 2) == L2pRuns::kUnmapped);
}

TEST_CASE("L2P runs: random writes, unmaps and cache entries match a plain array", "[firmware][l2p]") {
  const uint64_t n = 4 * L2pRuns::kEntriesPerChunk;
  L2pRuns map(n);
  std::vector<uint32_t> ref(n, L2pRuns::kUnmapped);
  std::mt19937_64 rng(18);
  uint32_t next_ppa = 0;
  for (int step = 0; step < 40000; ++step) {
    const uint64_t lba = rng() % n;
    const uint32_t len = 1 + uint32_t(rng() % 64);
    const int kind = int(rng() % 8);
    for (uint64_t k = lba; k < std::min<uint64_t>(n, lba + len); ++k) {
      uint32_t v;
      if (kind == 0) v = L2pRuns::kUnmapped;
      else if (kind == 1) v = (0x80000000u | uint32_t(k % 1000));
      else if (kind == 2) v = ref[k] == L2pRuns::kUnmapped ? 5 : ref[k];  // rewrite the same value
      else if (kind == 3) v = uint32_t(rng() % 100000);                 // scattered
      else v = next_ppa++;                                              // a sequential write
      map.set(k, v);
      ref[k] = v;
    }
    if (step % 5000 == 0) check_all(map, ref);
  }
  check_all(map, ref);
  // Scattered writes turned chunks dense (more than kMaxRuns runs); they answer the same.
  CHECK(map.chunks_dense() > 0);
}

TEST_CASE("L2P runs: a chunk turns dense past its run limit and keeps every entry", "[firmware][l2p]") {
  L2pRuns map(L2pRuns::kEntriesPerChunk);
  std::vector<uint32_t> ref(L2pRuns::kEntriesPerChunk, L2pRuns::kUnmapped);
  // Every other LBA, values that never continue a run: a run per LBA.
  for (uint32_t k = 0; k < L2pRuns::kEntriesPerChunk; k += 2) {
    map.set(k, 10 * k);
    ref[k] = 10 * k;
    CHECK(map.chunks_dense() == (k / 2 + 1 > L2pRuns::kMaxRuns ? 1u : 0u));
  }
  check_all(map, ref);
  CHECK(map.bytes() == L2pRuns::kEntriesPerChunk * sizeof(uint32_t));
}
