#include "zipf_sampler.h"

#include <cmath>

namespace ufs {

namespace {

// log1p(x)/x and expm1(x)/x, with series near 0 where the quotients lose precision.
double helper1(double x) {
  return std::fabs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}
double helper2(double x) {
  return std::fabs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
}

// A prime above any device's block count: coprime with n, so r -> r*P mod n is a bijection.
constexpr uint64_t kScatterPrime = 2305843009213693951ULL;  // 2^61 - 1

}  // namespace

ZipfSampler::ZipfSampler(uint64_t n, double theta) : n_(n == 0 ? 1 : n), exponent_(theta) {
  h_integral_x1_ = h_integral(1.5) - 1.0;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  s_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
  scatter_mult_ = kScatterPrime % n_;
  if (scatter_mult_ == 0) scatter_mult_ = 1;
}

double ZipfSampler::h(double x) const { return std::exp(-exponent_ * std::log(x)); }

double ZipfSampler::h_integral(double x) const {
  const double log_x = std::log(x);
  return helper2((1.0 - exponent_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const {
  double t = x * (1.0 - exponent_);
  if (t < -1.0) t = -1.0;
  return std::exp(helper1(t) * x);
}

uint64_t ZipfSampler::sample_rank(RandomGenerator& rng) const {
  const double nd = static_cast<double>(n_);
  for (;;) {
    const double u = h_integral_n_ + rng.next_double() * (h_integral_x1_ - h_integral_n_);
    const double x = h_integral_inverse(u);
    double kd = std::floor(x + 0.5);
    if (kd < 1.0) kd = 1.0;
    else if (kd > nd) kd = nd;
    if (kd - x <= s_ || u >= h_integral(kd + 0.5) - h(kd)) return static_cast<uint64_t>(kd) - 1;
  }
}

uint64_t ZipfSampler::sample(RandomGenerator& rng) const {
  const uint64_t rank = sample_rank(rng);
  return static_cast<uint64_t>((static_cast<__uint128_t>(rank) * scatter_mult_) % n_);
}

}  // namespace ufs
