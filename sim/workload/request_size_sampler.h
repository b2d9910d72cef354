// Request sizes in 4 KiB blocks with a given mean: a point mass at one block plus a
// discretised log-normal over [2, max_blocks] whose location is solved (bisection)
// so the whole distribution has exactly the requested mean. The log-normal keeps
// "most requests small, a few large" (seed 002, Fig. 4) and reaches any mean
// between the single-block share's floor and max_blocks.
#pragma once
#include <cstdint>
#include <vector>

#include "random_generator.h"

namespace ufs {

class RequestSizeSampler {
 public:
  // Throws WorkloadError when the mean cannot be reached: below
  // p_single + 2 (1 - p_single), or above max_blocks.
  RequestSizeSampler(double mean_blocks, double p_single, double sigma, uint32_t max_blocks);
  RequestSizeSampler() = default;  // every request one block

  uint32_t sample(RandomGenerator& rng) const;
  double mean_blocks() const { return mean_; }
  // P(lo <= size <= hi), sizes in blocks.
  double probability(uint32_t lo, uint32_t hi) const;
  uint32_t max_blocks() const { return static_cast<uint32_t>(cdf_.size()); }

 private:
  std::vector<double> cdf_{1.0};  // cdf_[k - 1] = P(size <= k blocks)
  double mean_ = 1;
};

}  // namespace ufs
