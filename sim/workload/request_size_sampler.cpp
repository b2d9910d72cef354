#include "request_size_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "workload_error.h"

namespace ufs {

namespace {

// Log-normal weights over k = 2..max (density at k, so a block count is a bin of width 1).
void tail_weights(double mu, double sigma, uint32_t max_blocks, std::vector<double>& w) {
  w.assign(max_blocks + 1, 0.0);
  for (uint32_t k = 2; k <= max_blocks; ++k) {
    const double z = (std::log(double(k)) - mu) / sigma;
    w[k] = std::exp(-0.5 * z * z) / double(k);
  }
}

double tail_mean(double mu, double sigma, uint32_t max_blocks, std::vector<double>& w) {
  tail_weights(mu, sigma, max_blocks, w);
  double sum = 0, moment = 0;
  for (uint32_t k = 2; k <= max_blocks; ++k) {
    sum += w[k];
    moment += w[k] * k;
  }
  return sum > 0 ? moment / sum : 2.0;
}

std::string number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

}  // namespace

RequestSizeSampler::RequestSizeSampler(double mean_blocks, double p_single, double sigma, uint32_t max_blocks) {
  if (!(p_single >= 0 && p_single <= 1)) throw WorkloadError("request sizes: single-block share " + number(p_single) + " is not in [0, 1]");
  if (!(sigma > 0)) throw WorkloadError("request sizes: log-normal shape " + number(sigma) + " is not positive");
  if (max_blocks == 0) throw WorkloadError("request sizes: maximum of 0 blocks");
  std::vector<double> w;
  if (max_blocks == 1 || p_single >= 1) {
    if (std::fabs(mean_blocks - 1) > 1e-9)
      throw WorkloadError("request sizes: mean " + number(mean_blocks) + " blocks with every request one block");
    cdf_.assign(max_blocks, 1.0);
    mean_ = 1;
    return;
  }
  const double tail = (mean_blocks - p_single) / (1 - p_single);  // mean of the sizes above one block
  if (!(tail > 2.0 + 1e-6 && tail < double(max_blocks) - 1e-6))
    throw WorkloadError("request sizes: mean " + number(mean_blocks) + " blocks is out of reach with " +
                        number(100 * p_single) + "% single-block requests and at most " +
                        std::to_string(max_blocks) + " blocks");
  // tail_mean is increasing in mu (the family has a monotone likelihood ratio in ln k).
  double lo = -40, hi = std::log(double(max_blocks)) + 40 * sigma * sigma;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (tail_mean(mid, sigma, max_blocks, w) < tail ? lo : hi) = mid;
  }
  tail_weights(0.5 * (lo + hi), sigma, max_blocks, w);
  double sum = 0;
  for (uint32_t k = 2; k <= max_blocks; ++k) sum += w[k];
  cdf_.resize(max_blocks);
  double acc = p_single;
  mean_ = p_single;
  cdf_[0] = acc;
  for (uint32_t k = 2; k <= max_blocks; ++k) {
    const double p = (1 - p_single) * w[k] / sum;
    acc += p;
    mean_ += p * k;
    cdf_[k - 1] = acc;
  }
  cdf_.back() = 1.0;
}

uint32_t RequestSizeSampler::sample(RandomGenerator& rng) const {
  const double u = rng.next_double();
  return static_cast<uint32_t>(std::upper_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin()) + 1;
}

double RequestSizeSampler::probability(uint32_t lo, uint32_t hi) const {
  if (lo < 1) lo = 1;
  hi = std::min<uint32_t>(hi, max_blocks());
  if (hi < lo) return 0;
  return cdf_[hi - 1] - (lo >= 2 ? cdf_[lo - 2] : 0.0);
}

}  // namespace ufs
