// The smartphone generator against the seed's tables (sim/workload/smartphone_profiles.cpp):
// each statistic of a large generated sample must land within a tolerance of the
// Table III / IV value it was built from.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "workload/smartphone_workload.h"
#include "workload/trace_stats.h"
#include "workload/workload_error.h"
#include "workload/workload_factory.h"

using namespace ufs;

namespace {

constexpr uint64_t kDevice64G = (64ULL << 30) / 4096;
const char* const kApps[] = {"booting", "movie", "music", "twitter", "facebook", "cameravideo", "installing"};

// What the paper measures, over a generated stream.
struct Measured {
  uint64_t requests = 0, writes = 0, single_page = 0, movie_band = 0;
  double read_kb = 0, write_kb = 0;  // totals
  uint64_t max_blocks = 0;
  double duration_s = 0;
  double spatial = 0, temporal = 0;
  double nowait_on_emmc = 0;  // FIFO server with the seed's mean service time
};

Measured measure(const std::string& spec, double service_ms) {
  SmartphoneWorkload w(parse_smartphone_spec(spec), kDevice64G);
  Measured m;
  std::unordered_set<uint64_t> starts;
  uint64_t prev_end = UINT64_MAX, sequential = 0, reaccess = 0, nowait = 0;
  double server_free_s = 0;
  BlockRequest r;
  while (w.next(r)) {
    ++m.requests;
    const double kb = 4.0 * r.blocks;
    if (r.op == BlockOp::Write) {
      ++m.writes;
      m.write_kb += kb;
    } else {
      REQUIRE(r.op == BlockOp::Read);
      m.read_kb += kb;
    }
    if (r.blocks == 1) ++m.single_page;
    if (r.blocks >= 4 && r.blocks <= 16) ++m.movie_band;
    m.max_blocks = std::max<uint64_t>(m.max_blocks, r.blocks);
    if (r.lba == prev_end) ++sequential;
    prev_end = r.lba + r.blocks;
    if (!starts.insert(r.lba).second) ++reaccess;
    const double t = double(r.arrival_ps) * 1e-12;
    if (t >= server_free_s) ++nowait;
    server_free_s = std::max(server_free_s, t) + service_ms * 1e-3;
    m.duration_s = t;
  }
  m.spatial = double(sequential) / double(m.requests);
  m.temporal = double(reaccess) / double(m.requests);
  m.nowait_on_emmc = double(nowait) / double(m.requests);
  return m;
}

double rel(double got, double want) { return std::fabs(got - want) / want; }

}  // namespace

TEST_CASE("smartphone: each app's generated statistics match Tables III and IV", "[workload][smartphone]") {
  for (const char* app : kApps) {
    const SmartphoneAppProfile& p = *find_smartphone_profile(app);
    // A 32 GiB span (the Nexus 5's eMMC): on 4 GiB, 100000 random starts alone re-hit
    // about 5% of the time, more than Movie's 1.72% temporal locality.
    const Measured m = measure(std::string("smartphone:") + app + ",count=100000,seed=3,span=32g", p.mean_service_ms);
    INFO(app);
    REQUIRE(m.requests == 100000);
    const double reads = double(m.requests - m.writes);
    // Table III: mix and sizes.
    CHECK(std::fabs(100.0 * m.writes / m.requests - p.write_req_pct) < 1.0);
    CHECK(rel(m.write_kb / m.writes, p.ave_write_kb) < 0.05);
    CHECK(rel(m.read_kb / reads, p.ave_read_kb) < (reads < 5000 ? 0.10 : 0.05));
    CHECK(rel((m.read_kb + m.write_kb) / m.requests, p.ave_kb) < 0.05);
    CHECK(std::fabs(100.0 * m.write_kb / (m.read_kb + m.write_kb) - p.write_size_pct) < 2.0);
    CHECK(m.max_blocks * 4 <= p.max_kb);
    CHECK(std::fabs(100.0 * m.single_page / m.requests - p.single_page_pct) < 1.5);
    // Table IV: arrival rate, locality.
    CHECK(rel(m.requests / m.duration_s, p.arrival_rate) < 0.05);
    CHECK(rel(100 * m.spatial, p.spatial_pct) < 0.05);
    CHECK(std::fabs(100 * m.temporal - p.temporal_pct) < std::max(1.0, 0.05 * p.temporal_pct));
  }
}

TEST_CASE("smartphone: on a server with the seed's eMMC service time, the NoWait ratio is Table IV's",
          "[workload][smartphone]") {
  for (const char* app : kApps) {
    const SmartphoneAppProfile& p = *find_smartphone_profile(app);
    const Measured m = measure(std::string("smartphone:") + app + ",count=50000,seed=5", p.mean_service_ms);
    INFO(app << " NoWait " << 100 * m.nowait_on_emmc << "% vs " << p.nowait_pct << "%");
    CHECK(std::fabs(100 * m.nowait_on_emmc - p.nowait_pct) < 2.0);
  }
}

TEST_CASE("smartphone: sizes follow Section III-B", "[workload][smartphone]") {
  // "In 15 out of the 18 traces the majority of requests (44.9%-57.4%) are single-page (4KB)."
  for (const char* app : {"music", "twitter", "facebook", "cameravideo", "installing"}) {
    const Measured m = measure(std::string("smartphone:") + app + ",count=50000", 1);
    INFO(app);
    CHECK(100.0 * m.single_page / m.requests >= 44.9);
    CHECK(100.0 * m.single_page / m.requests <= 57.4);
  }
  // "Movie shows a high percentage (more than 65%) of requests between 16 KB and 64 KB."
  const Measured movie = measure("smartphone:movie,count=50000", 1);
  CHECK(100.0 * movie.movie_band / movie.requests > 65.0);
}

TEST_CASE("smartphone: the default length is Table III's and lasts about Table IV's duration", "[workload][smartphone]") {
  const SmartphoneAppProfile& p = *find_smartphone_profile("twitter");
  const Measured m = measure("smartphone:twitter", p.mean_service_ms);
  CHECK(m.requests == uint64_t(p.requests));
  CHECK(rel(m.duration_s, p.duration_s) < 0.05);
  const Measured fast = measure("smartphone:twitter,scale=0.5", p.mean_service_ms);
  CHECK(rel(fast.duration_s, p.duration_s / 2) < 0.05);
}

TEST_CASE("smartphone: the stream is determined by the seed", "[workload][smartphone]") {
  auto draw = [](const std::string& spec) {
    auto w = make_workload(spec, kDevice64G);
    REQUIRE(w.size() == 1);
    std::vector<BlockRequest> out;
    BlockRequest r;
    while (w[0]->next(r)) out.push_back(r);
    return out;
  };
  auto same = [](const std::vector<BlockRequest>& a, const std::vector<BlockRequest>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].op != b[i].op || a[i].lba != b[i].lba || a[i].blocks != b[i].blocks || a[i].arrival_ps != b[i].arrival_ps)
        return false;
    return true;
  };
  const auto a = draw("smartphone:facebook,count=5000,seed=9");
  CHECK(same(a, draw("smartphone:facebook,count=5000,seed=9")));
  CHECK_FALSE(same(a, draw("smartphone:facebook,count=5000,seed=10")));
  REQUIRE(a.size() == 5000);
  for (const auto& r : a) {
    CHECK(r.stream == 0);
    CHECK(r.lba + r.blocks <= (4ULL << 30) / 4096);  // default span 4 GiB
  }
  auto w = make_workload("smartphone:facebook,count=10,offset=8g,span=1g", kDevice64G);
  CHECK(w[0]->stream_name(0) == "facebook");
  CHECK(w[0]->timed());
  BlockRequest r;
  while (w[0]->next(r)) {
    CHECK(r.lba >= (8ULL << 30) / 4096);
    CHECK(r.lba + r.blocks <= (9ULL << 30) / 4096);
  }
  CHECK(make_workload_plan("smartphone:music", kDevice64G).expected_requests == 6913);
}

TEST_CASE("smartphone: trace-stats describes the generated stream", "[workload][smartphone]") {
  const TraceStats s = compute_trace_stats("smartphone:twitter,count=50000");
  CHECK(s.format == "generated");
  CHECK(s.requests == 50000);
  CHECK(std::fabs(100.0 * s.writes / s.requests - 88.48) < 1.0);
  CHECK(rel(100 * s.sequential_global, 26.57) < 0.05);
  CHECK(std::fabs(100 * s.start_reaccess - 52.90) < 2.65);
  REQUIRE(s.streams.size() == 1);
  CHECK(s.streams[0].name == "twitter");
  CHECK(format_trace_stats(s).find("start where an earlier request started") != std::string::npos);
}

TEST_CASE("smartphone: bad specs name the problem", "[workload][smartphone]") {
  CHECK_THROWS_WITH(make_workload("smartphone:tiktok", kDevice64G),
                    Catch::StartsWith("smartphone: unknown app 'tiktok' (idle, callin, callout, booting"));
  CHECK_THROWS_WITH(make_workload("smartphone:", kDevice64G), Catch::StartsWith("smartphone: no app in"));
  CHECK_THROWS_WITH(make_workload("smartphone:music,cout=5", kDevice64G), "smartphone options: unknown key 'cout'");
  CHECK_THROWS_WITH(make_workload("smartphone:music,scale=fast", kDevice64G), Catch::StartsWith("scale: 'fast'"));
  CHECK_THROWS_WITH(make_workload("smartphone:music,count=0", kDevice64G), "count: '0' must be at least 1");
  CHECK_THROWS_WITH(make_workload("smartphone:music,span=6k", kDevice64G),
                    "span: '6k' is not a positive multiple of 4 KiB");
  CHECK_THROWS_WITH(make_workload("smartphone:booting,span=8m", kDevice64G),
                    Catch::StartsWith("span: 8 MiB is smaller than booting's largest request"));
  CHECK_THROWS_WITH(make_workload("smartphone:music,span=8g,offset=60g", kDevice64G),
                    Catch::StartsWith("span: 8 GiB at offset 60 GiB exceeds the device's 64 GiB"));
  CHECK_THROWS_AS(compute_trace_stats("smartphone:nope"), WorkloadError);
  CHECK_THROWS_WITH(make_workload("smartphone:music+", kDevice64G), "smartphone: empty app name in 'music+'");
  CHECK_THROWS_WITH(make_workload("smartphone:music+tiktok", kDevice64G), Catch::StartsWith("smartphone: unknown app 'tiktok'"));
  CHECK_THROWS_WITH(make_workload("smartphone:music+twitter,span=40g", kDevice64G),
                    Catch::StartsWith("span: 2 apps x 40 GiB at offset 0 B exceeds the device's 64 GiB"));
}

TEST_CASE("request sizes: the sampler reaches the asked mean and rejects unreachable ones", "[workload][smartphone]") {
  const RequestSizeSampler s(10.0, 0.5, 1.0, 100);
  CHECK(s.mean_blocks() == Approx(10.0).epsilon(1e-6));
  CHECK(s.probability(1, 1) == Approx(0.5));
  CHECK(s.probability(1, 100) == Approx(1.0));
  RandomGenerator rng(1);
  double sum = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint32_t b = s.sample(rng);
    REQUIRE(b >= 1);
    REQUIRE(b <= 100);
    sum += b;
  }
  CHECK(sum / 200000 == Approx(10.0).epsilon(0.02));
  CHECK_THROWS_AS(RequestSizeSampler(1.2, 0.5, 1.0, 100), WorkloadError);   // below 1 x 0.5 + 2 x 0.5
  CHECK_THROWS_AS(RequestSizeSampler(120, 0.5, 1.0, 100), WorkloadError);   // above the maximum
  CHECK_THROWS_AS(RequestSizeSampler(10, 1.5, 1.0, 100), WorkloadError);
}

TEST_CASE("smartphone: an app-switch scenario runs the apps in sequence as separate streams", "[workload][smartphone]") {
  auto w = make_workload("smartphone:facebook+messaging+facebook+music,count=3000,span=1g,seed=4", kDevice64G);
  REQUIRE(w.size() == 1);
  const uint64_t span = (1ULL << 30) / 4096;
  std::vector<BlockRequest> all;
  BlockRequest r;
  while (w[0]->next(r)) all.push_back(r);
  REQUIRE(all.size() == 12000);
  // Visits in order, each count requests, arrivals never going back.
  const uint32_t expected_stream[] = {0, 1, 0, 2};
  for (size_t i = 0; i < all.size(); ++i) {
    INFO(i);
    REQUIRE(all[i].stream == expected_stream[i / 3000]);
    if (i > 0) REQUIRE(all[i].arrival_ps >= all[i - 1].arrival_ps);
    // Each distinct app in its own span.
    REQUIRE(all[i].lba >= all[i].stream * span);
    REQUIRE(all[i].lba + all[i].blocks <= (all[i].stream + 1) * span);
  }
  CHECK(w[0]->stream_name(0) == "facebook");
  CHECK(w[0]->stream_name(1) == "messaging");
  CHECK(w[0]->stream_name(2) == "music");
  // Coming back, facebook continues its own stream: it re-accesses addresses of its first visit.
  std::unordered_set<uint64_t> first_visit;
  for (size_t i = 0; i < 3000; ++i) first_visit.insert(all[i].lba);
  size_t again = 0;
  for (size_t i = 6000; i < 9000; ++i) again += first_visit.count(all[i].lba);
  CHECK(again > 150);  // chance alone: about 3000 x 3000 / 262144 = 34
  // Each visit keeps its app's statistics: messaging writes 97.3% of its requests.
  size_t writes = 0;
  for (size_t i = 3000; i < 6000; ++i) writes += all[i].op == BlockOp::Write;
  CHECK(std::fabs(100.0 * writes / 3000 - 97.30) < 1.5);
  // The first app's stream is the one-app stream with the same seed.
  auto alone = make_workload("smartphone:facebook,count=3000,span=1g,seed=4", kDevice64G);
  for (size_t i = 0; i < 3000; ++i) {
    REQUIRE(alone[0]->next(r));
    REQUIRE(r.lba == all[i].lba);
    REQUIRE(r.arrival_ps == all[i].arrival_ps);
  }
  CHECK(make_workload_plan("smartphone:music+twitter", kDevice64G).expected_requests == 6913 + 13807);
}

TEST_CASE("smartphone: prefill=1 writes exactly the extents the stream reads, at once", "[workload][smartphone]") {
  auto draw = [](const std::string& spec) {
    auto w = make_workload(spec, kDevice64G);
    std::vector<BlockRequest> out;
    BlockRequest r;
    while (w[0]->next(r)) out.push_back(r);
    return out;
  };
  const auto run = draw("smartphone:music,count=3000,seed=4");
  const auto fill = draw("smartphone:music,count=3000,seed=4,prefill=1");
  std::vector<BlockRequest> reads;
  for (const auto& r : run)
    if (r.op == BlockOp::Read) reads.push_back(r);
  REQUIRE(reads.size() > 100);
  REQUIRE(reads.size() < run.size());  // music writes too: those are left out
  REQUIRE(fill.size() == reads.size());
  for (size_t i = 0; i < fill.size(); ++i) {
    CHECK(fill[i].op == BlockOp::Write);
    CHECK(fill[i].lba == reads[i].lba);
    CHECK(fill[i].blocks == reads[i].blocks);
    CHECK(fill[i].arrival_ps == 0);
  }
  CHECK_THROWS_WITH(make_workload("smartphone:music,prefill=yes", kDevice64G), "prefill: 'yes' must be 0 or 1");
}
