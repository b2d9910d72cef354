#include <catch2/catch.hpp>

#include <set>

#include "workload/block_bitmap.h"
#include "workload/block_remapper.h"
#include "workload/random_generator.h"
#include "workload/stream_table.h"

using namespace ufs;

TEST_CASE("block bitmap ranges match single-bit operations", "[workload][bitmap]") {
  BlockBitmap ranges, bits;
  std::set<uint64_t> reference;
  RandomGenerator rng(5);
  for (int i = 0; i < 2000; ++i) {
    // Some ranges straddle words and the 2^21-block page boundary.
    const uint64_t first = (i % 2 ? (uint64_t{1} << 21) - 100 : 0) + rng.below(300);
    const uint64_t count = 1 + rng.below(200);
    uint64_t expected_new = 0, expected_old = 0;
    for (uint64_t b = first; b < first + count; ++b) (reference.count(b) ? expected_old : expected_new)++;
    CHECK(ranges.count_range(first, count) == expected_old);
    CHECK(ranges.set_range(first, count) == expected_new);
    for (uint64_t b = first; b < first + count; ++b) {
      bits.set(b);
      reference.insert(b);
    }
  }
  CHECK(ranges.count() == reference.size());
  CHECK(bits.count() == reference.size());
  CHECK(ranges.test(*reference.begin()));
  CHECK_FALSE(ranges.test(uint64_t{1} << 40));
}

TEST_CASE("block remapper assigns dense addresses in first-touch order", "[workload][remap]") {
  BlockRemapper m;
  for (uint64_t i = 0; i < 300000; ++i) CHECK(m.map(i * 977 + 123456789) == i);  // forces several grows
  CHECK(m.map(123456789) == 0);
  CHECK(m.size() == 300000);
}

TEST_CASE("stream table interns names in first-seen order", "[workload][streams]") {
  StreamTable t;
  CHECK(t.intern("kworker/u17:3-3643") == 0);
  CHECK(t.intern("AsyncTask") == 1);
  CHECK(t.intern("kworker/u17:3-3643") == 0);
  for (int i = 0; i < 1000; ++i) CHECK(t.intern("p" + std::to_string(i)) == uint32_t(i + 2));
  CHECK(t.intern("AsyncTask") == 1);
  CHECK(t.name(2) == "p0");
  CHECK(t.size() == 1002);
}

TEST_CASE("random generator is uniform and reproducible", "[workload][random]") {
  RandomGenerator a(42), b(42);
  for (int i = 0; i < 100; ++i) CHECK(a.next_u64() == b.next_u64());
  int buckets[10] = {};
  for (int i = 0; i < 100000; ++i) ++buckets[a.below(10)];
  for (int n : buckets) CHECK(n == Approx(10000).epsilon(0.05));
  for (int i = 0; i < 1000; ++i) {
    const double d = a.next_double();
    CHECK((d >= 0 && d < 1));
  }
}
