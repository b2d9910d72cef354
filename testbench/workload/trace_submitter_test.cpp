#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "temp_trace_file.h"
#include "workload/workload_error.h"
#include "workload/workload_factory.h"

using namespace ufs;
using ufs::test::TempTraceFile;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace trace_submitter_test {

namespace {

constexpr uint64_t kUs = 1000000ULL;
constexpr uint64_t kMs = 1000000000ULL;

std::vector<BlockRequest> replay(const std::string& spec, uint64_t device_blocks = 0,
                                 std::unique_ptr<TraceSubmitter>* keep = nullptr) {
  auto sub = make_trace_submitter(spec, device_blocks);
  std::vector<BlockRequest> out;
  BlockRequest r;
  while (sub->next(r)) out.push_back(r);
  if (keep) *keep = std::move(sub);
  return out;
}

// MQSim lines: times in ns, sectors of 512 B; request i at block 8*i... (times below).
std::string mqsim_trace() {
  // t(ns)      dev sector size type
  return "0 0 0 8 1\n"             // block 0
         "1000 0 8 8 1\n"          // +1 us, block 1
         "3000 0 16 8 0\n"         // +2 us, block 2
         "50003000 0 24 8 0\n"     // +50 ms idle, block 3
         "50004000 0 32 8 1\n"     // +1 us, block 4
         "50005000 0 40 8 1\n";    // +1 us, block 5
}

}  // namespace

TEST_CASE("skip and limit", "[workload][trace][options]") {
  TempTraceFile f(mqsim_trace());
  const auto r = replay("trace:mqsim:" + f.path() + ",skip=2,limit=3");
  REQUIRE(r.size() == 3);
  CHECK(r[0].lba == 2);
  CHECK(r[0].arrival_ps == 0);  // relative to the first request after skip
  CHECK(r[1].lba == 3);
  CHECK(r[1].arrival_ps == 50 * kMs);
  CHECK(r[2].lba == 4);
}

TEST_CASE("scale multiplies inter-arrival times", "[workload][trace][options]") {
  TempTraceFile f(mqsim_trace());
  const auto half = replay("trace:mqsim:" + f.path() + ",scale=0.5");
  CHECK(half[1].arrival_ps == kUs / 2);
  CHECK(half[2].arrival_ps == 3 * kUs / 2);
  CHECK(half[5].arrival_ps == 25 * kMs + 5 * kUs / 2);
  const auto slow = replay("trace:mqsim:" + f.path() + ",scale=3");
  CHECK(slow[5].arrival_ps == 3 * (50 * kMs + 5 * kUs));
}

TEST_CASE("idle_compress caps long gaps, before scale", "[workload][trace][options]") {
  TempTraceFile f(mqsim_trace());
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:mqsim:" + f.path() + ",idle_compress=1ms", 0, &sub);
  CHECK(r[2].arrival_ps == 3 * kUs);
  CHECK(r[3].arrival_ps == 3 * kUs + kMs);
  CHECK(r[5].arrival_ps == 5 * kUs + kMs);
  CHECK(sub->counters().idle_compressed == 1);
  const auto both = replay("trace:mqsim:" + f.path() + ",idle_compress=1ms,scale=2");
  CHECK(both[5].arrival_ps == 2 * (5 * kUs + kMs));
}

TEST_CASE("start and duration select a time window", "[workload][trace][options]") {
  TempTraceFile f(mqsim_trace());
  const auto r = replay("trace:mqsim:" + f.path() + ",start=2us,duration=50002us");
  REQUIRE(r.size() == 2);  // t = 3 us and 50.003 ms; 50.004 ms is at start+duration
  CHECK(r[0].lba == 2);
  CHECK(r[0].arrival_ps == 0);
  CHECK(r[1].lba == 3);
}

TEST_CASE("open vs closed replay", "[workload][trace][options]") {
  TempTraceFile f(mqsim_trace());
  auto open = make_trace_submitter("trace:mqsim:" + f.path(), 0);
  CHECK(open->timed());
  CHECK(open->max_outstanding() == 32);
  auto closed = make_trace_submitter("trace:mqsim:" + f.path() + ",mode=closed,qd=4", 0);
  CHECK_FALSE(closed->timed());
  CHECK(closed->max_outstanding() == 4);
  BlockRequest r;
  int n = 0;
  while (closed->next(r)) {
    CHECK(r.arrival_ps == 0);
    ++n;
  }
  CHECK(n == 6);
}

TEST_CASE("addresses beyond the device: error, modulo, remap", "[workload][trace][options]") {
  // Blocks 1000..1001, 5..6, 1000..1001 again, 2001 (4 KiB blocks = 8 sectors).
  TempTraceFile f(
      "0 0 8000 16 0\n"
      "1 0 40 16 1\n"
      "2 0 8000 16 1\n"
      "3 0 16008 8 0\n");
  CHECK_THROWS_WITH(replay("trace:mqsim:" + f.path(), 100),
                    f.path() + ":1: request at 4 KiB block 1000 (+2) lies beyond the device's 400 KiB; "
                               "use fold=modulo or fold=remap");

  std::unique_ptr<TraceSubmitter> sub;
  const auto m = replay("trace:mqsim:" + f.path() + ",fold=modulo", 100, &sub);
  REQUIRE(m.size() == 4);
  CHECK(m[0].lba == 0);
  CHECK(m[1].lba == 5);
  CHECK(m[2].lba == 0);
  CHECK(m[3].lba == 1);
  CHECK(sub->counters().folded == 3);
  // A request crossing the end is moved back to end there.
  const auto edge = replay("trace:mqsim:" + f.path() + ",fold=modulo", 1001);
  CHECK(edge[0].lba == 999);
  CHECK(edge[0].blocks == 2);

  const auto r = replay("trace:mqsim:" + f.path() + ",fold=remap", 100, &sub);
  REQUIRE(r.size() == 4);
  CHECK(r[0].lba == 0);  // first touch: 1000, 1001 -> 0, 1
  CHECK(r[0].blocks == 2);
  CHECK(r[1].lba == 2);  // 5, 6 -> 2, 3
  CHECK(r[2].lba == 0);  // reuse keeps its address
  CHECK(r[3].lba == 4);
  CHECK(sub->counters().remapped_chunks == 5);

  CHECK_THROWS_WITH(replay("trace:mqsim:" + f.path() + ",fold=remap", 3),
                    f.path() + ":2: fold=remap: the trace touches more distinct chunks than the device's "
                               "12 KiB holds");
}

TEST_CASE("fold=remap splits a request whose blocks are no longer contiguous", "[workload][trace][options]") {
  // Touch block 11, then 10..12: 11 -> 0, 10 -> 1, 12 -> 2, so the second request becomes [1], [0], [2].
  TempTraceFile f("0 0 88 8 1\n1 0 80 24 1\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:mqsim:" + f.path() + ",fold=remap", 1000, &sub);
  REQUIRE(r.size() == 4);
  CHECK(r[0].lba == 0);
  CHECK(r[1].lba == 1);  // block 10
  CHECK(r[1].blocks == 1);
  CHECK(r[2].lba == 0);  // block 11
  CHECK(r[2].blocks == 1);
  CHECK(r[3].lba == 2);  // block 12
  CHECK(r[3].arrival_ps == r[1].arrival_ps);
  CHECK(sub->counters().split_pieces == 2);
  CHECK(sub->counters().requests == 4);
}

TEST_CASE("fold=remap with larger chunks keeps requests whole", "[workload][trace][options]") {
  // Same trace as above with 16 KiB chunks: blocks 8..11 -> 0..3, 12..15 -> 4..7.
  TempTraceFile f("0 0 88 8 1\n1 0 80 24 1\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:mqsim:" + f.path() + ",fold=remap,remap_chunk=16k", 1000, &sub);
  REQUIRE(r.size() == 2);
  CHECK(r[0].lba == 3);
  CHECK(r[1].lba == 2);
  CHECK(r[1].blocks == 3);
  CHECK(sub->counters().split_pieces == 0);
  CHECK(sub->counters().remapped_chunks == 2);
  CHECK_THROWS_WITH(make_trace_submitter("trace:mqsim:" + f.path() + ",remap_chunk=16k", 1000),
                    "remap_chunk: only with fold=remap");
}

TEST_CASE("skip_bad counts and skips malformed lines", "[workload][trace][options]") {
  TempTraceFile f("0 0 0 8 1\nnot a line\n1000 0 8 8 1\n2000 0 8 8 9\n");
  CHECK_THROWS_WITH(replay("trace:mqsim:" + f.path()), Catch::StartsWith(f.path() + ":2: expected"));
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:mqsim:" + f.path() + ",skip_bad=1", 0, &sub);
  CHECK(r.size() == 2);
  CHECK(sub->counters().bad_lines == 2);
}

TEST_CASE("timestamps going backwards are clamped and counted", "[workload][trace][options]") {
  TempTraceFile f("1000 0 0 8 1\n3000 0 8 8 1\n2000 0 16 8 1\n4000 0 24 8 1\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:mqsim:" + f.path(), 0, &sub);
  REQUIRE(r.size() == 4);
  CHECK(r[1].arrival_ps == 2 * kUs);
  CHECK(r[2].arrival_ps == 2 * kUs);
  CHECK(r[3].arrival_ps == 3 * kUs);
  CHECK(sub->counters().time_reversals == 1);
  // Said once the trace is out: merged per-CPU buffers reorder by microseconds, so a warning.
  CHECK(sub->warning() == f.path() + ": 1 timestamps went backwards (the first at line 3, by 1.000 us); "
                          "each request was replayed at its predecessor's time");
}

}  // namespace trace_submitter_test
