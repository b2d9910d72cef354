// Bursty arrivals from the b-model of Wang, Madhyastha, Chan, Papadimitriou and Faloutsos,
// "Data Mining Meets Performance Evaluation: Fast Algorithms for Modeling Bursty Traffic"
// (ICDE 2002; CMU-CS-01-101): disk and network traffic is bursty and self-similar, which
// Poisson arrivals miss. The b-model has one parameter, the bias b (0.5 <= b < 1): the
// requests of an interval are split between its two halves b : (1 - b), the heavier half
// chosen at random, and each half is split again the same way, down to the finest time
// unit (the paper's disk traces: milliseconds). b = 0.5 spreads the requests evenly; the
// larger b, the burstier at every time scale.
//
// Here: `count` requests over `duration_ps`, split recursively down to `slot_ps`; inside a
// slot the requests arrive uniformly at random. Counts split with stochastic rounding
// (floor(b n) or its ceiling, so the expected share is exactly b). Sorted arrival times.
#pragma once
#include <cstdint>
#include <vector>

#include "random_generator.h"

namespace ufs {

std::vector<uint64_t> bmodel_arrivals(uint64_t count, uint64_t duration_ps, double b, uint64_t slot_ps,
                                      RandomGenerator& rng);

// The b-model's bias estimated back from arrival times (for tests and reports): over the
// dyadic intervals of [0, duration_ps) at `levels` levels from the top, the mean share of
// the heavier half among intervals holding at least `min_count` requests.
double bmodel_estimate_bias(const std::vector<uint64_t>& arrivals, uint64_t duration_ps, int levels,
                            uint64_t min_count);

}  // namespace ufs
