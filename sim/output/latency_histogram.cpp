#include "output/latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ufs {

LatencyHistogram::LatencyHistogram() : counts_(kBucketCount, 0) {}

size_t LatencyHistogram::bucket_index(uint64_t value) {
  if (value < 2 * kSubBuckets) return static_cast<size_t>(value);  // exact region: [0, 256)
  const unsigned msb = 63u - static_cast<unsigned>(__builtin_clzll(value));
  const unsigned shift = msb - kSubBucketBits;  // >= 1 here
  const uint64_t sub = value >> shift;          // in [128, 256)
  return static_cast<size_t>((shift + 1) * kSubBuckets + (sub - kSubBuckets));
}

uint64_t LatencyHistogram::bucket_lowest(size_t index) {
  if (index < 2 * kSubBuckets) return index;
  const unsigned shift = static_cast<unsigned>(index / kSubBuckets) - 1;
  const uint64_t sub = kSubBuckets + index % kSubBuckets;
  return sub << shift;
}

uint64_t LatencyHistogram::bucket_highest(size_t index) {
  if (index < 2 * kSubBuckets) return index;
  const unsigned shift = static_cast<unsigned>(index / kSubBuckets) - 1;
  return bucket_lowest(index) + ((uint64_t{1} << shift) - 1);
}

void LatencyHistogram::record(uint64_t value, uint64_t times) {
  if (times == 0) return;
  const size_t index = bucket_index(value);
  counts_[index] += times;
  if (count_ == 0 || value < min_) min_ = value;
  if (value > max_) max_ = value;
  count_ += times;
  sum_ += static_cast<long double>(value) * static_cast<long double>(times);
  highest_index_ = std::max(highest_index_, index);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (size_t i = 0; i <= other.highest_index_; ++i) counts_[i] += other.counts_[i];
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
  highest_index_ = std::max(highest_index_, other.highest_index_);
}

void LatencyHistogram::reset() {
  std::fill(counts_.begin(), counts_.begin() + static_cast<long>(highest_index_) + 1, 0);
  count_ = min_ = max_ = 0;
  sum_ = 0;
  highest_index_ = 0;
}

uint64_t LatencyHistogram::representative(size_t index) const {
  // Midpoint halves the worst-case error; clamping keeps p0/p100 exact.
  const uint64_t lo = bucket_lowest(index);
  const uint64_t mid = lo + (bucket_highest(index) - lo) / 2;
  return std::clamp(mid, min_, max_);
}

uint64_t LatencyHistogram::percentile(double p) const {
  if (count_ == 0) return 0;
  p = std::clamp(p, 0.0, 100.0);
  if (p <= 0.0) return min_;
  if (p >= 100.0) return max_;
  // Rank of the sample that is the p-th percentile (nearest-rank definition).
  const long double exact = static_cast<long double>(p) / 100.0L * static_cast<long double>(count_);
  uint64_t rank = static_cast<uint64_t>(std::ceil(exact - 1e-9L));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (size_t i = 0; i <= highest_index_; ++i) {
    seen += counts_[i];
    if (seen >= rank) return representative(i);
  }
  return max_;
}

std::vector<std::pair<double, double>> LatencyHistogram::cdf(double scale) const {
  std::vector<std::pair<double, double>> points;
  if (count_ == 0) return points;
  uint64_t seen = 0;
  for (size_t i = 0; i <= highest_index_; ++i) {
    if (counts_[i] == 0) continue;
    seen += counts_[i];
    const uint64_t upper = std::min(bucket_highest(i), max_);
    points.emplace_back(static_cast<double>(upper) * scale, static_cast<double>(seen) / static_cast<double>(count_));
  }
  return points;
}

nlohmann::json LatencyHistogram::summary_json(double scale) const {
  auto scaled = [scale](uint64_t v) { return static_cast<double>(v) * scale; };
  return nlohmann::json{
      {"count", count_},
      {"min", scaled(min())},
      {"mean", mean() * scale},
      {"max", scaled(max_)},
      {"p50", scaled(percentile(50))},
      {"p90", scaled(percentile(90))},
      {"p99", scaled(percentile(99))},
      {"p99_9", scaled(percentile(99.9))},
      {"p99_99", scaled(percentile(99.99))},
  };
}

}  // namespace ufs
