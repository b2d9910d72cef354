// Zipf-distributed ranks over [0, n) in O(1) time and memory per sample, by
// rejection-inversion (Hörmann and Derflinger, 1996). fio precomputes a zeta sum,
// which is O(n) and too slow for the 2^27 blocks of a 512 GiB device.
// Ranks are scattered over the range by a fixed bijection (as fio does), so the
// hot blocks are not all at the start of the device.
#pragma once
#include <cstdint>

#include "random_generator.h"

namespace ufs {

class ZipfSampler {
 public:
  // theta > 0 (theta = 1 is the classic Zipf; larger is more skewed).
  ZipfSampler(uint64_t n, double theta);
  // A slot in [0, n): rank 0 is the most popular, scattered by the bijection.
  uint64_t sample(RandomGenerator& rng) const;
  // The unscattered rank in [0, n).
  uint64_t sample_rank(RandomGenerator& rng) const;

 private:
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  uint64_t n_;
  double exponent_;
  double h_integral_x1_;
  double h_integral_n_;
  double s_;
  uint64_t scatter_mult_;
};

}  // namespace ufs
