// xoshiro256** seeded through splitmix64: small, fast and identical on every
// platform, so a workload is reproducible from its seed (std::mt19937 is portable
// too, but std::uniform_int_distribution is not).
#pragma once
#include <cstdint>

namespace ufs {

class RandomGenerator {
 public:
  explicit RandomGenerator(uint64_t seed);

  uint64_t next_u64();
  // Uniform in [0, bound); bound > 0. Lemire's multiply-shift, unbiased.
  uint64_t below(uint64_t bound);
  // Uniform in [0, 1).
  double next_double() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // One step of splitmix64; also used to derive per-job seeds.
  static uint64_t splitmix64(uint64_t& state);

 private:
  uint64_t s_[4];
};

}  // namespace ufs
