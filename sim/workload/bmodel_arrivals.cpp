#include "bmodel_arrivals.h"

#include <algorithm>
#include <cmath>

namespace ufs {

namespace {

struct Splitter {
  double b;
  uint64_t slot_ps;
  RandomGenerator& rng;
  std::vector<uint64_t>& out;

  void split(uint64_t n, uint64_t start, uint64_t length) {
    if (n == 0) return;
    if (length <= slot_ps || length < 2) {
      // The finest time unit: uniform inside it.
      const size_t first = out.size();
      for (uint64_t i = 0; i < n; ++i) out.push_back(start + rng.below(std::max<uint64_t>(1, length)));
      std::sort(out.begin() + long(first), out.end());
      return;
    }
    const double heavy_exact = b * double(n);
    uint64_t heavy = uint64_t(std::floor(heavy_exact));
    if (rng.next_double() < heavy_exact - double(heavy)) ++heavy;  // stochastic rounding: E[heavy] = b n
    const bool heavy_first = rng.below(2) == 0;
    const uint64_t half = length / 2;
    split(heavy_first ? heavy : n - heavy, start, half);
    split(heavy_first ? n - heavy : heavy, start + half, length - half);
  }
};

}  // namespace

std::vector<uint64_t> bmodel_arrivals(uint64_t count, uint64_t duration_ps, double b, uint64_t slot_ps,
                                      RandomGenerator& rng) {
  std::vector<uint64_t> out;
  out.reserve(count);
  Splitter{b, std::max<uint64_t>(1, slot_ps), rng, out}.split(count, 0, duration_ps);
  return out;
}

double bmodel_estimate_bias(const std::vector<uint64_t>& arrivals, uint64_t duration_ps, int levels,
                            uint64_t min_count) {
  double share_sum = 0;
  uint64_t intervals = 0;
  for (int level = 0; level < levels; ++level) {
    const uint64_t parts = uint64_t(1) << level;
    const double width = double(duration_ps) / double(parts);
    std::vector<uint64_t> halves(2 * parts, 0);
    for (uint64_t t : arrivals) {
      const uint64_t i = std::min<uint64_t>(2 * parts - 1, uint64_t(double(t) / (width / 2)));
      ++halves[i];
    }
    for (uint64_t p = 0; p < parts; ++p) {
      const uint64_t l = halves[2 * p], r = halves[2 * p + 1];
      if (l + r < min_count) continue;
      share_sum += double(std::max(l, r)) / double(l + r);
      ++intervals;
    }
  }
  return intervals ? share_sum / double(intervals) : 0.0;
}

}  // namespace ufs
