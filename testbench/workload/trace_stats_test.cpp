#include <catch2/catch.hpp>

#include "temp_trace_file.h"
#include "workload/trace_stats.h"
#include "workload/workload_error.h"

using namespace ufs;
using ufs::test::TempTraceFile;

TEST_CASE("trace statistics of a small mobile trace", "[workload][trace][stats]") {
  TempTraceFile f(
      "proces,device,rw_flag,sector,size,timestamp\n"
      "a-1,8,W,0,16,10.0\n"        // blocks 0,1 written
      "a-1,8,W,16,16,10.001\n"     // blocks 2,3: sequential in stream a
      "b-2,8,R,0,8,10.002\n"       // block 0 read (written before)
      "a-1,8,R,32,64,10.003\n"     // blocks 4..11: sequential in stream a, not globally
      "b-2,8,R,0,8,12.003\n"       // 2 s idle, block 0 again
      "a-1,8,FWS,0,0,12.004\n"     // flush
      "b-2,8,D,800,8,12.005\n");   // unmap
  const TraceStats s = compute_trace_stats("trace:mobile:" + f.path());
  CHECK(s.requests == 7);
  CHECK(s.reads == 3);
  CHECK(s.writes == 2);
  CHECK(s.flushes == 1);
  CHECK(s.unmaps == 1);
  CHECK(s.read_bytes == (1 + 8 + 1) * 4096);
  CHECK(s.write_bytes == 4 * 4096);
  CHECK(s.unmap_bytes == 4096);
  CHECK(s.size_histogram[0].count == 2);  // 4K
  CHECK(s.size_histogram[1].count == 2);  // 8K
  CHECK(s.size_histogram[3].count == 1);  // 32K
  CHECK(s.footprint_blocks == 12);
  CHECK(s.read_footprint_blocks == 9);
  CHECK(s.write_footprint_blocks == 4);
  CHECK(s.data_blocks_accessed == 14);
  CHECK(s.reuse_ratio == Approx(1.0 - 12.0 / 14.0));
  CHECK(s.read_after_write_ratio == Approx(2.0 / 10.0));
  CHECK(s.sequential_per_stream == Approx(2.0 / 5.0));  // a's 2nd and 4th requests
  CHECK(s.sequential_global == Approx(1.0 / 5.0));
  CHECK(s.duration_ps == 2005000000000ULL);
  CHECK(s.idle_gaps == 1);
  CHECK(s.longest_gap_ps == 2000000000000ULL);
  REQUIRE(s.streams.size() == 2);
  CHECK(s.streams[0].name == "a-1");
  CHECK(s.streams[0].requests == 4);
  CHECK(s.counters.lines == 8);
  const std::string text = format_trace_stats(s);
  CHECK(text.find("7: 3 reads") != std::string::npos);
  CHECK(text.find("a-1:4") != std::string::npos);
  CHECK_THROWS_AS(compute_trace_stats("rw=read"), WorkloadError);
}
