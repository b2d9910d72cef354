// The b-model's bursty arrivals (bmodel_arrivals.h, Wang et al., ICDE 2002): the count and
// span are kept, the bias comes back out of the arrivals, and a larger bias is burstier.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include "workload/bmodel_arrivals.h"
#include "workload/synthetic_workload.h"
#include "workload/workload_error.h"
#include "workload/workload_spec.h"

using namespace ufs;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace bmodel_arrivals_test {

namespace {

constexpr uint64_t kMs = 1'000'000'000ull;

// Variance-to-mean ratio of the counts in bins of `bin_ps` (1 for Poisson arrivals).
double dispersion(const std::vector<uint64_t>& t, uint64_t duration_ps, uint64_t bin_ps) {
  std::vector<double> bins(duration_ps / bin_ps, 0);
  for (uint64_t a : t)
    if (a / bin_ps < bins.size()) ++bins[a / bin_ps];
  double mean = 0, var = 0;
  for (double c : bins) mean += c;
  mean /= double(bins.size());
  for (double c : bins) var += (c - mean) * (c - mean);
  var /= double(bins.size());
  return var / mean;
}

}  // namespace

TEST_CASE("b-model: every request, sorted, inside the span", "[workload][bmodel]") {
  RandomGenerator rng(3);
  const uint64_t span = 20000 * kMs;
  const auto t = bmodel_arrivals(6000, span, 0.7, kMs, rng);
  REQUIRE(t.size() == 6000);
  CHECK(std::is_sorted(t.begin(), t.end()));
  CHECK(t.back() < span);
}

TEST_CASE("b-model: the bias comes back out of the arrivals", "[workload][bmodel]") {
  for (const double b : {0.6, 0.7, 0.8}) {
    RandomGenerator rng(11);
    const uint64_t span = 100000 * kMs;
    const auto t = bmodel_arrivals(100000, span, b, kMs, rng);
    // The top 8 levels hold hundreds of requests per interval: rounding noise is small there.
    CHECK(bmodel_estimate_bias(t, span, 8, 200) == Approx(b).margin(0.01));
  }
}

TEST_CASE("b-model: burstier than Poisson, more so with a larger bias, and 0.5 is smooth", "[workload][bmodel]") {
  const uint64_t span = 100000 * kMs;
  double d[3];
  int i = 0;
  for (const double b : {0.5, 0.65, 0.8}) {
    RandomGenerator rng(5);
    d[i++] = dispersion(bmodel_arrivals(30000, span, b, kMs, rng), span, 10 * kMs);
  }
  CHECK(d[0] < 1.2);   // even halving: no more variable than Poisson at 10 ms
  CHECK(d[1] > 2.0);
  CHECK(d[2] > 3 * d[1]);
}

TEST_CASE("arrival=bmodel:B in a workload spec", "[workload][bmodel][spec]") {
  const WorkloadSpec s = parse_workload_spec("rw=randrw,bs=8k,count=6000,rate_iops=300,arrival=bmodel:0.7");
  CHECK(s.arrival == ArrivalProcess::BModel);
  CHECK(s.bmodel_bias == Approx(0.7));
  CHECK_THROWS_WITH(parse_workload_spec("count=10,rate_iops=300,arrival=bmodel:1"),
                    "arrival: 'bmodel:1' needs a b-model bias in [0.5, 1)");
  CHECK_THROWS_WITH(parse_workload_spec("rate_iops=300,arrival=bmodel:0.7"),
                    "arrival: bmodel needs count (the b-model spreads a known number of requests)");
  CHECK_THROWS_WITH(parse_workload_spec("count=1000000000,rate_iops=300,arrival=bmodel:0.7"),
                    "arrival: bmodel draws every arrival up front: count at most 100000000");
  CHECK_THROWS_WITH(parse_workload_spec("count=1000,rate_iops=0.0001,arrival=bmodel:0.7"),
                    "arrival: bmodel spreads count / rate_iops seconds: at most 100 days");
  // A job's requests arrive at the b-model's times over count / rate seconds, with the ops and
  // addresses of the same spec at a steady rate (the b-model draws from its own stream).
  auto jobs = make_synthetic_workload(s, 1 << 20);
  auto steady = make_synthetic_workload(parse_workload_spec("rw=randrw,bs=8k,count=6000,rate_iops=300"), 1 << 20);
  BlockRequest r, p;
  uint64_t last = 0, n = 0, same = 0;
  while (jobs[0]->next(r)) {
    REQUIRE(steady[0]->next(p));
    CHECK(r.arrival_ps >= last);
    last = r.arrival_ps;
    same += r.lba == p.lba && r.op == p.op;
    ++n;
  }
  CHECK(n == 6000);
  CHECK(same == 6000);
  CHECK(last < 20000 * kMs);
}

}  // namespace bmodel_arrivals_test
