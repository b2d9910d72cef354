// LatencyHistogram against a sorted-vector oracle: percentiles within the
// documented relative error, exact min/max/count/mean, merge, CDF shape.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "output/latency_histogram.h"

using ufs::LatencyHistogram;

namespace {

uint64_t oracle_percentile(const std::vector<uint64_t>& sorted, double p) {
  const auto n = sorted.size();
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(n) - 1e-9));
  rank = std::clamp<size_t>(rank, 1, n);
  return sorted[rank - 1];
}

void check_against_oracle(const LatencyHistogram& h, std::vector<uint64_t> samples) {
  std::sort(samples.begin(), samples.end());
  REQUIRE(h.count() == samples.size());
  CHECK(h.min() == samples.front());
  CHECK(h.max() == samples.back());
  const long double sum = std::accumulate(samples.begin(), samples.end(), 0.0L);
  CHECK(h.mean() == Approx(static_cast<double>(sum / samples.size())).epsilon(1e-12));
  for (double p : {0.0, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
    const double expected = static_cast<double>(oracle_percentile(samples, p));
    const double got = static_cast<double>(h.percentile(p));
    INFO("p" << p << " expected " << expected << " got " << got);
    CHECK(std::abs(got - expected) <= expected * (1.0 / 256) + 0.5);  // half a bucket
  }
}

}  // namespace

TEST_CASE("histogram: bucket boundaries are contiguous and tight", "[histogram]") {
  CHECK(LatencyHistogram::bucket_index(0) == 0);
  CHECK(LatencyHistogram::bucket_index(255) == 255);
  CHECK(LatencyHistogram::bucket_index(~uint64_t{0}) == LatencyHistogram::kBucketCount - 1);
  for (size_t i = 0; i + 1 < LatencyHistogram::kBucketCount; ++i) {
    const uint64_t lo = LatencyHistogram::bucket_lowest(i);
    const uint64_t hi = LatencyHistogram::bucket_highest(i);
    REQUIRE(LatencyHistogram::bucket_index(lo) == i);
    REQUIRE(LatencyHistogram::bucket_index(hi) == i);
    REQUIRE(LatencyHistogram::bucket_lowest(i + 1) == hi + 1);
    REQUIRE(static_cast<double>(hi - lo) <= static_cast<double>(lo) / 128.0);
  }
  CHECK(LatencyHistogram::bucket_highest(LatencyHistogram::kBucketCount - 1) == ~uint64_t{0});
}

TEST_CASE("histogram: empty and single value", "[histogram]") {
  LatencyHistogram h;
  CHECK(h.empty());
  CHECK(h.percentile(50) == 0);
  CHECK(h.mean() == 0.0);
  CHECK(h.cdf().empty());
  h.record(123456789);
  CHECK(h.min() == 123456789);
  CHECK(h.max() == 123456789);
  CHECK(h.percentile(50) == 123456789);  // clamped to the observed range: exact
  CHECK(h.percentile(99.99) == 123456789);
  const auto cdf = h.cdf();
  REQUIRE(cdf.size() == 1);
  CHECK(cdf[0].second == 1.0);
}

TEST_CASE("histogram: percentiles match a sorted-vector oracle on random data", "[histogram]") {
  std::mt19937_64 rng(42);
  SECTION("log-normal latencies in picoseconds (tens of us, long tail)") {
    std::lognormal_distribution<double> dist(std::log(80e6), 0.8);
    LatencyHistogram h;
    std::vector<uint64_t> samples;
    for (int i = 0; i < 200000; ++i) {
      const auto v = static_cast<uint64_t>(dist(rng));
      samples.push_back(v);
      h.record(v);
    }
    check_against_oracle(h, samples);
  }
  SECTION("uniform over a wide range including the exact region") {
    std::uniform_int_distribution<uint64_t> dist(0, 1'000'000);
    LatencyHistogram h;
    std::vector<uint64_t> samples;
    for (int i = 0; i < 50000; ++i) {
      const uint64_t v = dist(rng) >> (i % 20);
      samples.push_back(v);
      h.record(v);
    }
    check_against_oracle(h, samples);
  }
  SECTION("bimodal: cache hits and map misses") {
    std::normal_distribution<double> hit(60e3, 5e3), miss(400e3, 40e3);
    LatencyHistogram h;
    std::vector<uint64_t> samples;
    for (int i = 0; i < 100000; ++i) {
      const double v = (i % 10 == 0) ? miss(rng) : hit(rng);
      samples.push_back(static_cast<uint64_t>(std::max(0.0, v)));
      h.record(samples.back());
    }
    check_against_oracle(h, samples);
    // p90 sits on the hit mode, p99 in the miss mode: the percentile walk must see the split.
    CHECK(h.percentile(85) < 100e3);
    CHECK(h.percentile(95) > 300e3);
  }
}

TEST_CASE("histogram: record with a count and merge equal recording everything", "[histogram]") {
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> dist(1.0 / 50000.0);
  LatencyHistogram a, b, all;
  std::vector<uint64_t> samples;
  for (int i = 0; i < 30000; ++i) {
    const auto v = static_cast<uint64_t>(dist(rng)) + 1000;
    samples.push_back(v);
    (i % 3 == 0 ? a : b).record(v);
    all.record(v);
  }
  b.record(5, 10);  // ten equal values at once
  all.record(5, 10);
  for (int i = 0; i < 10; ++i) samples.push_back(5);
  LatencyHistogram merged;
  merged.merge(a);
  merged.merge(b);
  merged.merge(LatencyHistogram{});  // merging an empty histogram changes nothing
  CHECK(merged.count() == all.count());
  CHECK(merged.min() == 5);
  CHECK(merged.max() == all.max());
  for (double p : {50.0, 90.0, 99.0, 99.9}) CHECK(merged.percentile(p) == all.percentile(p));
  CHECK(merged.cdf() == all.cdf());
  check_against_oracle(merged, samples);

  merged.reset();
  CHECK(merged.empty());
  merged.record(77);
  CHECK(merged.min() == 77);
  CHECK(merged.percentile(50) == 77);
}

TEST_CASE("histogram: CDF is monotonic, ends at 1, and summary scales units", "[histogram]") {
  LatencyHistogram h;
  for (uint64_t v = 1'000'000; v <= 100'000'000; v += 1'000'000) h.record(v);  // 1..100 us in ps
  const auto cdf = h.cdf(1e-6);
  REQUIRE(!cdf.empty());
  for (size_t i = 1; i < cdf.size(); ++i) {
    CHECK(cdf[i].first > cdf[i - 1].first);
    CHECK(cdf[i].second > cdf[i - 1].second);
  }
  CHECK(cdf.back().second == 1.0);
  CHECK(cdf.back().first == Approx(100.0));
  const auto s = h.summary_json(1e-6);
  CHECK(s["count"] == 100);
  CHECK(s["min"].get<double>() == Approx(1.0));
  CHECK(s["max"].get<double>() == Approx(100.0));
  CHECK(s["mean"].get<double>() == Approx(50.5));
  CHECK(s["p50"].get<double>() == Approx(50.0).epsilon(0.005));
  CHECK(s["p99"].get<double>() == Approx(99.0).epsilon(0.005));
  for (const char* k : {"p90", "p99_9", "p99_99"}) CHECK(s.contains(k));
}
