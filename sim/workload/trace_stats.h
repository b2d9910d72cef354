// What a trace looks like after the replay options are applied: the numbers used
// to pick a device size, a replay mode and a preconditioning trace. Plain fields
// so the caller can emit JSON.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace_submitter.h"

namespace ufs {

struct SizeBucket {
  uint64_t max_bytes = 0;  // requests of size <= max_bytes (and > the previous bucket); UINT64_MAX = the rest
  uint64_t count = 0;
};

struct StreamStats {
  std::string name;
  uint64_t requests = 0;
  uint64_t bytes = 0;
};

struct TraceStats {
  std::string spec;
  std::string format;
  // Mix (requests as handed to the host, after widening and folding).
  uint64_t requests = 0;
  uint64_t reads = 0, writes = 0, flushes = 0, unmaps = 0;
  uint64_t read_bytes = 0, write_bytes = 0, unmap_bytes = 0;
  uint64_t fua_writes = 0;
  std::vector<SizeBucket> size_histogram;  // 4K, 8K, ..., 8M, larger (data requests)
  // Footprint in distinct 4 KiB blocks.
  uint64_t footprint_blocks = 0;           // read or written
  uint64_t read_footprint_blocks = 0;
  uint64_t write_footprint_blocks = 0;
  uint64_t data_blocks_accessed = 0;       // sum of read+write request lengths
  double reuse_ratio = 0;                  // 1 - footprint / blocks accessed
  double read_after_write_ratio = 0;       // read blocks that the trace wrote earlier
  uint64_t min_lba = 0, max_lba_end = 0;   // address span touched
  // Locality: a request starting where the previous one (of the same stream / of any stream) ended.
  double sequential_per_stream = 0;
  double sequential_global = 0;
  // Seed 002's temporal locality: data requests starting at an address an earlier one started at.
  double start_reaccess = 0;
  // Time (open-loop arrivals, after scale and idle_compress).
  uint64_t duration_ps = 0;
  double mean_interarrival_ps = 0;
  uint64_t idle_threshold_ps = 0;          // gaps longer than this count as idle
  uint64_t idle_gaps = 0;
  uint64_t idle_time_ps = 0;
  uint64_t longest_gap_ps = 0;
  std::vector<StreamStats> streams;        // by requests, descending
  TraceCounters counters;                  // widened, time reversals, bad lines, ...
  // Reading cost.
  double seconds = 0;
  double lines_per_second = 0;
};

// Reads the whole trace through a TraceSubmitter (`spec` is a trace: spec;
// device_blocks = 0 means no capacity, so no folding or range check), or draws the
// whole stream of a smartphone: spec (format "generated").
TraceStats compute_trace_stats(const std::string& spec, uint64_t device_blocks = 0,
                               uint64_t idle_threshold_ps = 100000000000ULL /* 100 ms */);
std::string format_trace_stats(const TraceStats& stats);

}  // namespace ufs
