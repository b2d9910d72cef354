// Latency distribution with bounded relative error, HDR-histogram style: values
// below 256 are counted exactly; above, each power of two is split into 128 equal
// buckets, so a bucket is at most 1/128 of its values wide and a reported
// percentile (the bucket's midpoint, clamped to the observed min/max) is within
// 0.4% of the true sample. The whole uint64 range fits in 7424 counters (58 KiB),
// allocated once: record() is O(1) and never allocates, so it can sit on the
// completion path of every request. Values are unit-agnostic (the simulator
// records picoseconds); summary_json()/cdf() take a scale to the unit you report.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ufs {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = 7;                 // 128 buckets per power of two
  static constexpr uint64_t kSubBuckets = uint64_t{1} << kSubBucketBits;
  static constexpr size_t kBucketCount = (64 - kSubBucketBits + 1) * kSubBuckets;

  LatencyHistogram();

  void record(uint64_t value) { record(value, 1); }
  void record(uint64_t value, uint64_t times);
  // Adds another histogram's samples (e.g. per-stream histograms into a total).
  void merge(const LatencyHistogram& other);
  void reset();

  uint64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ == 0 ? 0.0 : static_cast<double>(sum_ / static_cast<long double>(count_)); }
  // Smallest recorded value v such that at least p% of samples are <= v (p in [0, 100]),
  // within the histogram's resolution; 0 when empty.
  uint64_t percentile(double p) const;

  // (value * scale, fraction of samples <= value) per non-empty bucket, ascending;
  // the value is the bucket's upper end (clamped to max), so the last fraction is 1.
  std::vector<std::pair<double, double>> cdf(double scale = 1.0) const;

  // {"count", "min", "mean", "max", "p50", "p90", "p99", "p99_9", "p99_99"}, values times `scale`
  // (1e-6 turns picoseconds into microseconds). Count is an integer.
  nlohmann::json summary_json(double scale = 1.0) const;

  // Bucket arithmetic, public for tests and for anyone exporting raw buckets.
  static size_t bucket_index(uint64_t value);
  static uint64_t bucket_lowest(size_t index);
  static uint64_t bucket_highest(size_t index);

 private:
  uint64_t representative(size_t index) const;

  std::vector<uint64_t> counts_;
  uint64_t count_ = 0;
  uint64_t min_ = 0;
  uint64_t max_ = 0;
  long double sum_ = 0;  // 64 bits of mantissa: exact for any realistic run
  size_t highest_index_ = 0;  // bounds the percentile/CDF scan
};

}  // namespace ufs
