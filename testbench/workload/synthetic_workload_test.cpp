#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "workload/synthetic_workload.h"
#include "workload/workload_error.h"
#include "workload/workload_factory.h"
#include "workload/workload_spec.h"

using namespace ufs;

namespace {

constexpr uint64_t kDevice512G = (512ULL << 30) / 4096;

std::vector<BlockRequest> drain(RequestSubmitter& s, size_t max = 1000000) {
  std::vector<BlockRequest> out;
  BlockRequest r;
  while (out.size() < max && s.next(r)) out.push_back(r);
  return out;
}

std::vector<std::vector<BlockRequest>> drain_all(const std::string& spec, uint64_t device = kDevice512G) {
  std::vector<std::vector<BlockRequest>> out;
  for (auto& job : make_workload(spec, device)) out.push_back(drain(*job));
  return out;
}

}  // namespace

TEST_CASE("workload spec parses fio's vocabulary", "[workload][spec]") {
  const WorkloadSpec s = parse_workload_spec(
      "rw=randrw,bs=16k,iodepth=32,numjobs=4,size=8g,offset=1g,count=500000,runtime=2s,rwmixread=70,seed=7,fua=1,"
      "align=4k,thinktime=5,rate_iops=1000,arrival=poisson,random_distribution=zipf:1.2,fsync=8");
  CHECK(s.rw == RwPattern::RandRw);
  CHECK(s.bs_min == 16384);
  CHECK(s.bs_max == 16384);
  CHECK(s.iodepth == 32);
  CHECK(s.numjobs == 4);
  CHECK(s.size_bytes == 8ULL << 30);
  CHECK(s.offset_bytes == 1ULL << 30);
  CHECK(s.count == 500000);
  CHECK(s.runtime_ps == 2000000000000ULL);
  CHECK(s.rwmixread == 70);
  CHECK(s.seed == 7);
  CHECK(s.fua);
  CHECK(s.align_bytes == 4096);
  CHECK(s.thinktime_ps == 5000000);
  CHECK(s.rate_iops == 1000);
  CHECK(s.arrival == ArrivalProcess::Poisson);
  CHECK(s.zipf_theta == Approx(1.2));
  CHECK(s.fsync_every == 8);
  CHECK(workload_runtime_ps("rw=read,runtime=2s") == 2000000000000ULL);

  const WorkloadSpec r = parse_workload_spec("bsrange=4k-512k,rwmixwrite=30");
  CHECK(r.bs_min == 4096);
  CHECK(r.bs_max == 512 * 1024);
  CHECK(r.rwmixread == 70);
  CHECK(r.align_bytes == 4096);
}

TEST_CASE("bad workload specs name the key", "[workload][spec]") {
  CHECK_THROWS_WITH(parse_workload_spec("rw=read,bsz=4k"), "workload spec: unknown key 'bsz'");
  CHECK_THROWS_WITH(parse_workload_spec("bs=4q"), "bs: '4q' is not a size");
  CHECK_THROWS_WITH(parse_workload_spec("bs=6k"), "bs: '6k' is not a multiple of 4 KiB");
  CHECK_THROWS_WITH(parse_workload_spec("rw=randwrote"),
                    "rw: 'randwrote' is not one of read, write, randread, randwrite, randrw, rw, trim, randtrim");
  CHECK_THROWS_WITH(parse_workload_spec("iodepth=0"), "iodepth: '0' is out of range [1, 65535]");
  CHECK_THROWS_WITH(parse_workload_spec("rwmixread=101"), "rwmixread: '101' is out of range [0, 100]");
  CHECK_THROWS_WITH(parse_workload_spec("count=lots"), "count: 'lots' is not a whole number");
  CHECK_THROWS_WITH(parse_workload_spec("bs=4k,bs=8k"), "workload spec: key 'bs' given twice");
  CHECK_THROWS_WITH(parse_workload_spec("rw"), "workload spec: expected key=value but found 'rw'");
  CHECK_THROWS_WITH(parse_workload_spec("random_distribution=pareto:0.5"),
                    "random_distribution: 'pareto:0.5' is not random or zipf:THETA");
  CHECK_THROWS_WITH(parse_workload_spec("bsrange=64k-4k"), "bsrange: '64k-4k' has its high end below its low end");
}

TEST_CASE("a range beyond the device is rejected", "[workload][synthetic]") {
  CHECK_THROWS_WITH(make_workload("rw=randread,size=600g", kDevice512G), "size: 600g exceeds the device's 512 GiB");
  CHECK_THROWS_WITH(make_workload("rw=randread,size=500g,offset=100g", kDevice512G),
                    "size: 500g at offset 100g exceeds the device's 512 GiB");
  CHECK_THROWS_WITH(make_workload("rw=read,offset=512g", kDevice512G), "offset: 512g exceeds the device's 512 GiB");
  CHECK_THROWS_WITH(make_workload("rw=read,size=8k,bs=16k", kDevice512G),
                    "size: 8k is smaller than the block size 16 KiB");
  CHECK_THROWS_WITH(make_workload("rw=read,size=8k,numjobs=4", kDevice512G),
                    "size: 8k is too small for numjobs=4 sequential slices of 4 KiB");
}

TEST_CASE("synthetic workloads are deterministic by seed", "[workload][synthetic]") {
  const std::string spec = "rw=randrw,size=1g,count=2000,seed=7,numjobs=2,bsrange=4k-64k";
  const auto a = drain_all(spec);
  const auto b = drain_all(spec);
  const auto c = drain_all("rw=randrw,size=1g,count=2000,seed=8,numjobs=2,bsrange=4k-64k");
  REQUIRE(a.size() == 2);
  bool same = true, differs_from_c = false;
  for (size_t j = 0; j < 2; ++j) {
    REQUIRE(a[j].size() == b[j].size());
    for (size_t i = 0; i < a[j].size(); ++i) {
      same = same && a[j][i].lba == b[j][i].lba && a[j][i].op == b[j][i].op && a[j][i].blocks == b[j][i].blocks;
      differs_from_c = differs_from_c || a[j][i].lba != c[j][i].lba;
    }
  }
  CHECK(same);
  CHECK(differs_from_c);
  // Jobs get different streams from the one seed.
  CHECK(a[0][0].lba != a[1][0].lba);
}

TEST_CASE("random offsets stay in range and aligned", "[workload][synthetic]") {
  SECTION("fixed block size") {
    const auto jobs = drain_all("rw=randread,bs=16k,offset=1g,size=64m,count=20000,seed=3");
    const uint64_t lo = (1ULL << 30) / 4096, hi = lo + (64ULL << 20) / 4096;
    std::set<uint64_t> distinct;
    for (const BlockRequest& r : jobs[0]) {
      REQUIRE(r.op == BlockOp::Read);
      REQUIRE(r.blocks == 4);
      REQUIRE(r.lba >= lo);
      REQUIRE(r.lba + r.blocks <= hi);
      REQUIRE((r.lba - lo) % 4 == 0);
      distinct.insert(r.lba);
    }
    CHECK(jobs[0].size() == 20000);
    CHECK(distinct.size() > 3000);  // 4096 slots, uniformly hit
  }
  SECTION("bsrange with a separate alignment") {
    const auto jobs = drain_all("rw=randwrite,bsrange=8k-64k,align=4k,size=16m,count=5000,seed=3");
    std::set<uint32_t> sizes;
    for (const BlockRequest& r : jobs[0]) {
      REQUIRE(r.op == BlockOp::Write);
      REQUIRE(r.blocks % 2 == 0);
      REQUIRE(r.blocks >= 2);
      REQUIRE(r.blocks <= 16);
      REQUIRE(r.lba + r.blocks <= (16ULL << 20) / 4096);
      sizes.insert(r.blocks);
    }
    CHECK(sizes.size() == 8);  // 8k, 16k, ..., 64k
  }
  SECTION("zipf concentrates on few blocks") {
    const auto zipf = drain_all("rw=randread,bs=4k,size=1g,count=20000,random_distribution=zipf:1.2");
    const auto uniform = drain_all("rw=randread,bs=4k,size=1g,count=20000");
    std::map<uint64_t, int> hits;
    for (const BlockRequest& r : zipf[0]) {
      REQUIRE(r.lba < (1ULL << 30) / 4096);
      ++hits[r.lba];
    }
    int top = 0;
    for (auto& kv : hits) top = std::max(top, kv.second);
    std::set<uint64_t> uniform_distinct;
    for (const BlockRequest& r : uniform[0]) uniform_distinct.insert(r.lba);
    CHECK(top > 1000);  // rank 1 of zipf(1.2) over 262144 slots gets ~17%
    CHECK(hits.size() < uniform_distinct.size() / 2);
  }
}

TEST_CASE("rwmixread sets the read proportion", "[workload][synthetic]") {
  for (uint32_t mix : {0u, 30u, 70u, 100u}) {
    const auto jobs = drain_all("rw=randrw,size=1g,count=20000,rwmixread=" + std::to_string(mix));
    size_t reads = 0;
    for (const BlockRequest& r : jobs[0]) reads += r.op == BlockOp::Read;
    CHECK(static_cast<double>(reads) / 20000.0 == Approx(mix / 100.0).margin(0.015));
  }
}

TEST_CASE("sequential jobs each own a slice of the range", "[workload][synthetic]") {
  const auto jobs = drain_all("rw=write,bs=8k,size=1m,numjobs=4");  // one pass: 1 MiB in total
  REQUIRE(jobs.size() == 4);
  for (uint32_t j = 0; j < 4; ++j) {
    REQUIRE(jobs[j].size() == 32);  // 256 KiB slice / 8 KiB
    for (size_t i = 0; i < jobs[j].size(); ++i) {
      CHECK(jobs[j][i].lba == j * 64 + i * 2);
      CHECK(jobs[j][i].stream == j);
      CHECK(jobs[j][i].op == BlockOp::Write);
    }
  }
  // With a count larger than a slice, a job wraps back to its slice start.
  const auto wrap = drain_all("rw=read,bs=4k,size=64k,numjobs=2,count=20");
  REQUIRE(wrap[0].size() == 10);
  CHECK(wrap[0][8].lba == 0);
  CHECK(wrap[1][0].lba == 8);
  CHECK(wrap[1][8].lba == 8);
}

TEST_CASE("count is a total split across jobs", "[workload][synthetic]") {
  const auto jobs = drain_all("rw=randread,size=1g,count=10,numjobs=3");
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].size() == 4);
  CHECK(jobs[1].size() == 3);
  CHECK(jobs[2].size() == 3);
  auto w = make_workload("rw=randread,size=1g,count=10,numjobs=3,iodepth=32", kDevice512G);
  CHECK(w[0]->max_outstanding() == 32);
  CHECK_FALSE(w[0]->timed());
}

TEST_CASE("open-loop arrivals from rate_iops, thinktime and runtime", "[workload][synthetic]") {
  SECTION("fixed rate") {
    auto w = make_workload("rw=randread,size=1g,rate_iops=1000,runtime=1s", kDevice512G);
    REQUIRE(w[0]->timed());
    const auto reqs = drain(*w[0]);
    REQUIRE(reqs.size() == 1000);  // arrivals 0, 1 ms, ..., 999 ms
    CHECK(reqs[1].arrival_ps == 1000000000ULL);
    CHECK(reqs.back().arrival_ps == 999000000000ULL);
  }
  SECTION("poisson has the requested mean") {
    auto w = make_workload("rw=randread,size=1g,rate_iops=10000,arrival=poisson,count=20000", kDevice512G);
    const auto reqs = drain(*w[0]);
    const double mean = static_cast<double>(reqs.back().arrival_ps) / (reqs.size() - 1);
    CHECK(mean == Approx(1e8).epsilon(0.03));
    bool varies = reqs[2].arrival_ps - reqs[1].arrival_ps != reqs[3].arrival_ps - reqs[2].arrival_ps;
    CHECK(varies);
  }
  SECTION("thinktime in microseconds") {
    auto w = make_workload("rw=read,size=1g,thinktime=50,count=3", kDevice512G);
    const auto reqs = drain(*w[0]);
    REQUIRE(reqs.size() == 3);
    CHECK(reqs[2].arrival_ps == 100000000ULL);
  }
}

TEST_CASE("fsync, fua and trim", "[workload][synthetic]") {
  auto reqs = drain_all("rw=write,size=1g,count=6,fsync=3,fua=1")[0];
  REQUIRE(reqs.size() == 8);
  CHECK(reqs[3].op == BlockOp::Flush);
  CHECK(reqs[3].blocks == 0);
  CHECK(reqs[7].op == BlockOp::Flush);
  CHECK(reqs[0].fua);
  auto trims = drain_all("rw=randtrim,bs=64k,size=1g,count=5")[0];
  for (const BlockRequest& r : trims) {
    CHECK(r.op == BlockOp::Unmap);
    CHECK(r.blocks == 16);
  }
}

TEST_CASE("size as a percentage of the device", "[workload][synthetic]") {
  const auto plans = plan_synthetic_workload(parse_workload_spec("rw=randread,size=50%,offset=25%"), kDevice512G);
  REQUIRE(plans.size() == 1);
  CHECK(plans[0].range_start == kDevice512G / 4);
  CHECK(plans[0].range_blocks == kDevice512G / 2);
  // Neither count nor runtime: one pass over `size`.
  CHECK(plans[0].block_limit == kDevice512G / 2);
}

TEST_CASE("workload plan carries runtime and the expected request count", "[workload][synthetic]") {
  WorkloadPlan counted = make_workload_plan("rw=randread,size=1g,count=1000,numjobs=4,runtime=1s", kDevice512G);
  CHECK(counted.submitters.size() == 4);
  CHECK(counted.runtime_ps == 1000000000000ULL);
  CHECK(counted.expected_requests == 1000);
  WorkloadPlan pass = make_workload_plan("rw=write,bs=64k,size=1g", kDevice512G);
  CHECK(pass.expected_requests == 16384);
  WorkloadPlan timed = make_workload_plan("rw=randread,size=1g,rate_iops=1000,runtime=2s,numjobs=2", kDevice512G);
  CHECK(timed.expected_requests == 4000);
  WorkloadPlan unknown = make_workload_plan("rw=randread,size=1g,runtime=2s", kDevice512G);
  CHECK(unknown.expected_requests == 0);
  CHECK(unknown.submitters.size() == 1);
}
