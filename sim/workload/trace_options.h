// A trace workload spec: trace:FORMAT:PATH[,option=value...]
// FORMAT: mobile, blkparse, fio, msr, disksim, mqsim. PATH may be gzip'd; it
// cannot contain a comma. Options:
//   mode=open|closed   open (default) honours timestamps; closed issues as fast as qd allows
//   qd=N               outstanding requests (default 32)
//   scale=X            multiply inter-arrival times by X (0.5 = twice as fast)
//   idle_compress=T    shorten gaps longer than T (e.g. 10ms) to T; applied before scale
//   fold=none|modulo|remap   map addresses onto the device: none (default) rejects a
//                      request beyond it; modulo wraps (a request crossing the end is
//                      moved back to end there); remap packs distinct 4 KiB blocks
//                      densely in first-touch order (splitting requests whose blocks
//                      are no longer contiguous)
//   remap_chunk=SIZE   fold=remap granularity (default 4k); larger chunks split fewer
//                      requests at the cost of a larger remapped footprint
//   skip=N, limit=N    drop the first N requests / stop after N requests
//   start=T, duration=T   trace-time window, from the first request after skip
//   skip_bad=1         count and skip malformed lines instead of failing
//   event=Q|D          blkparse: queue (default) or dispatch events
//   time_unit=us|ms|ns fio v3 timestamps (default us, what fio writes)
//   fua=1              every write carries FUA (completes only once on NAND: replays a
//                      trace against a device without a write cache, e.g. DiskSim's SSD)
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace ufs {

enum class TraceMode : uint8_t { Open, Closed };
enum class FoldMode : uint8_t { None, Modulo, Remap };

struct TraceOptions {
  TraceMode mode = TraceMode::Open;
  uint32_t qd = 32;
  double scale = 1.0;
  uint64_t idle_compress_ps = 0;  // 0 = off
  FoldMode fold = FoldMode::None;
  uint64_t remap_chunk_blocks = 1;
  uint64_t skip = 0;
  uint64_t limit = 0;             // 0 = all
  uint64_t start_ps = 0;
  uint64_t duration_ps = 0;       // 0 = to the end
  bool skip_bad = false;
  char blkparse_event = 'Q';
  uint64_t fio_time_unit_ps = 1000000;  // 1 us
  bool fua = false;               // force FUA on every write
};

struct TraceSpec {
  std::string format;
  std::string path;
  TraceOptions options;
};

bool is_trace_spec(const std::string& spec);
// Throws WorkloadError: "trace spec: unknown format 'x' (mobile, blkparse, fio, msr,
// disksim, mqsim)", "trace options: unknown key 'x'", "scale: 'abc' is not a number".
TraceSpec parse_trace_spec(const std::string& spec);

}  // namespace ufs
