// File-system aging (fs_aging.h): extents of the measured mean size, scattered inside the
// app's dispersal window, one destination per block, shared blocks placed once; an aged
// app-switch scenario cuts requests at fragment boundaries and keeps their data.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>
#include "temp_trace_file.h"
#include "workload/app_switch_scenario.h"
#include "workload/fs_aging.h"
#include "workload/workload_error.h"

using namespace ufs;

namespace {

FsAgingParams params(double share = 1.0) {
  FsAgingParams p;
  p.device_bytes = 64ull << 30;
  p.fragmented_share = share;
  p.seed = 9;
  return p;
}

std::vector<uint64_t> contiguous(uint64_t first, uint64_t n) {
  std::vector<uint64_t> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = first + i;
  return v;
}

}  // namespace

TEST_CASE("aging: 7 KB extents scattered over the 1.5 GB window, one destination per block", "[workload][aging]") {
  AgedLayout layout(params());
  const uint64_t n = 100000, first = 1 << 20;  // 390 MiB recorded contiguously
  layout.place_app("app", contiguous(first, n));
  const auto& st = layout.stats("app");
  CHECK(st.blocks == n);
  CHECK(st.window_blocks == (1536ull << 20) / 4096);
  CHECK(st.scattered_extents == st.extents);
  // Mean extent over a contiguous recording = data / extents: the measured 7 KB.
  CHECK(double(n) * 4.0 / double(st.extents) == Approx(7.0).epsilon(0.02));
  std::set<uint64_t> to, map_pages;
  for (uint64_t b = first; b < first + n; ++b) {
    const uint64_t d = layout.map(b);
    CHECK(d >= st.window_start);
    CHECK(d < st.window_start + st.window_blocks);
    to.insert(d);
    map_pages.insert(d / 4096);  // one 16 MiB map page of 4-byte entries per 4096 blocks
  }
  CHECK(to.size() == n);
  // Recorded in 25 map pages; aged, spread over (nearly) every map page of the window.
  CHECK(map_pages.size() >= st.window_blocks / 4096 - 1);
  // A recorded run is cut where its extents end: ~ one run per 7 KB.
  const auto runs = layout.map_range(first, 8000);
  uint64_t blocks = 0;
  for (const auto& r : runs) blocks += r.second;
  CHECK(blocks == 8000);
  CHECK(double(runs.size()) == Approx(8000 * 4.0 / 7.0).epsilon(0.1));
}

TEST_CASE("aging: share 0 keeps the recorded layout, 0.5 scatters half the extents", "[workload][aging]") {
  AgedLayout fresh(params(0.0));
  fresh.place_app("app", contiguous(5000, 20000));
  for (uint64_t b = 5000; b < 25000; ++b) CHECK(fresh.map(b) == b);
  CHECK(fresh.map_range(5000, 20000).size() == 1);
  AgedLayout half(params(0.5));
  half.place_app("app", contiguous(5000, 20000));
  const auto& st = half.stats("app");
  CHECK(double(st.scattered_extents) / double(st.extents) == Approx(0.5).margin(0.03));
}

TEST_CASE("aging: kept blocks stay in place and scattered ones go around them", "[workload][aging]") {
  FsAgingParams p = params();
  p.dispersal_bytes = 64 * 4096;  // a window of 64 blocks, most of it taken by kept blocks
  p.device_bytes = 64 * 4096;
  AgedLayout layout(p);
  layout.keep(contiguous(0, 40));
  layout.place_app("app", contiguous(1000, 20));
  std::set<uint64_t> to;
  for (uint64_t b = 0; b < 40; ++b) CHECK(layout.map(b) == b);
  for (uint64_t b = 1000; b < 1020; ++b) {
    CHECK(layout.map(b) >= 40);
    CHECK(layout.map(b) < 64);
    to.insert(layout.map(b));
  }
  CHECK(to.size() == 20);
}

TEST_CASE("aging: a block two apps share is placed once, by the first, and a seed gives one layout", "[workload][aging]") {
  AgedLayout a(params()), b(params());
  for (AgedLayout* l : {&a, &b}) {
    l->place_app("one", contiguous(1000, 3000));
    l->place_app("two", contiguous(2000, 3000));  // blocks 2000..3999 are one's too
  }
  for (uint64_t blk = 1000; blk < 5000; ++blk) CHECK(a.map(blk) == b.map(blk));
  CHECK(a.stats("two").blocks == 1000);  // only 4000..4999 were new
  std::set<uint64_t> to;
  for (uint64_t blk = 1000; blk < 5000; ++blk) to.insert(a.map(blk));
  CHECK(to.size() == 4000);
  CHECK_THROWS_AS(a.place_app("one", {1}), WorkloadError);
}

TEST_CASE("aging: an aged scenario cuts requests at fragments and keeps their data", "[workload][aging][apps]") {
  std::ostringstream session;
  session << "proces,device,rw_flag,sector,size,timestamp\n";
  for (int i = 0; i < 200; ++i) session << "x-1,0," << (i % 5 ? 'R' : 'W') << "," << 8 * 64 * i << ",512," << 10 + i * 0.0001 << "\n";
  test::TempTraceFile a(session.str(), false, ".csv");
  AppSwitchScenario sc;
  sc.apps = {{"alpha", a.path()}};
  sc.order = {0, 0};
  sc.launch_requests = 200;
  auto sectors_of = [](const std::string& path) {
    std::ifstream in(path);
    std::string l;
    std::getline(in, l);
    uint64_t sectors = 0;
    while (std::getline(in, l)) {
      std::stringstream ss(l);
      std::string f[6];
      for (auto& x : f) std::getline(ss, x, ',');
      sectors += std::stoull(f[4]);
    }
    return sectors;
  };
  test::TempTraceFile fresh_out("", false, ".csv"), aged_out("", false, ".csv");
  const AppSwitchSummary fresh = write_app_switch_scenario(sc, fresh_out.path());
  sc.aged = true;
  sc.aging = params();
  // By default requests of 128 KiB or more read large, barely fragmented files: kept whole.
  test::TempTraceFile kept_out("", false, ".csv");
  const AppSwitchSummary kept = write_app_switch_scenario(sc, kept_out.path());
  CHECK(kept.emitted_requests == 400);
  CHECK(sectors_of(kept_out.path()) == sectors_of(fresh_out.path()));
  // Every file fragmented: the 256 KiB requests are cut.
  sc.aging_keep_request_bytes = 0;
  const AppSwitchSummary aged = write_app_switch_scenario(sc, aged_out.path());
  CHECK(fresh.emitted_requests == 400);
  CHECK(aged.recorded_requests == 400);
  // 256 KiB requests in ~7 KB fragments: ~37 pieces each.
  CHECK(double(aged.emitted_requests) / 400 == Approx(256.0 / 7.0).epsilon(0.15));
  CHECK(sectors_of(aged_out.path()) == sectors_of(fresh_out.path()));
  CHECK(aged.launch_reads + aged.launch_writes == aged.emitted_requests);
  CHECK(aged.max_launch_reads == aged.launch_reads / 2);  // both launches replay the same start
}
