#include "trace_stats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "block_bitmap.h"
#include "smartphone_workload.h"
#include "spec_values.h"
#include "workload_error.h"
#include "workload_factory.h"

namespace ufs {

namespace {

constexpr int kSizeBuckets = 12;  // 4 KiB .. 8 MiB, then "larger"

double ratio(uint64_t a, uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

}  // namespace

TraceStats compute_trace_stats(const std::string& spec, uint64_t device_blocks, uint64_t idle_threshold_ps) {
  const bool trace = is_trace_spec(spec);
  if (!trace && !is_smartphone_spec(spec))
    throw WorkloadError("trace statistics: expected a trace: or smartphone: spec but found '" + spec + "'");
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<TraceSubmitter> trace_submitter;
  std::unique_ptr<SmartphoneWorkload> generated;
  RequestSubmitter* submitter = nullptr;
  TraceStats s;
  s.spec = spec;
  if (trace) {
    trace_submitter = make_trace_submitter(spec, device_blocks);
    submitter = trace_submitter.get();
    s.format = trace_submitter->reader().format();
  } else {
    generated = std::make_unique<SmartphoneWorkload>(parse_smartphone_spec(spec), device_blocks);
    submitter = generated.get();
    s.format = "generated";
  }
  s.idle_threshold_ps = idle_threshold_ps;
  for (int i = 0; i < kSizeBuckets; ++i) s.size_histogram.push_back(SizeBucket{kLogicalBlockBytes << i, 0});
  s.size_histogram.push_back(SizeBucket{UINT64_MAX, 0});

  BlockBitmap read_map, write_map, any_map, start_map;
  uint64_t reaccessed_starts = 0;
  std::vector<uint64_t> stream_end;  // per stream: block after its last data request
  std::vector<StreamStats> streams;
  uint64_t global_end = UINT64_MAX;
  uint64_t seq_stream = 0, seq_global = 0, data_requests = 0;
  uint64_t read_blocks = 0, read_after_write = 0;
  uint64_t first_arrival = 0, last_arrival = 0;
  uint64_t min_lba = UINT64_MAX, max_end = 0;

  BlockRequest r;
  while (submitter->next(r)) {
    if (s.requests == 0) {
      first_arrival = last_arrival = r.arrival_ps;
    } else {
      const uint64_t gap = r.arrival_ps - last_arrival;
      if (gap > idle_threshold_ps) {
        ++s.idle_gaps;
        s.idle_time_ps += gap;
      }
      s.longest_gap_ps = std::max(s.longest_gap_ps, gap);
      last_arrival = r.arrival_ps;
    }
    ++s.requests;
    if (r.stream >= streams.size()) {
      streams.resize(r.stream + 1);
      stream_end.resize(r.stream + 1, UINT64_MAX);
    }
    StreamStats& st = streams[r.stream];
    ++st.requests;
    const uint64_t bytes = uint64_t{r.blocks} * kLogicalBlockBytes;
    st.bytes += bytes;
    switch (r.op) {
      case BlockOp::Flush: ++s.flushes; continue;
      case BlockOp::Unmap:
        ++s.unmaps;
        s.unmap_bytes += bytes;
        continue;
      case BlockOp::Read:
        ++s.reads;
        s.read_bytes += bytes;
        break;
      case BlockOp::Write:
        ++s.writes;
        s.write_bytes += bytes;
        if (r.fua) ++s.fua_writes;
        break;
    }
    ++data_requests;
    int bucket = 0;
    while (bucket < kSizeBuckets && bytes > s.size_histogram[bucket].max_bytes) ++bucket;
    ++s.size_histogram[bucket].count;
    if (stream_end[r.stream] == r.lba) ++seq_stream;
    if (global_end == r.lba) ++seq_global;
    if (!start_map.set(r.lba)) ++reaccessed_starts;
    stream_end[r.stream] = global_end = r.lba + r.blocks;
    min_lba = std::min(min_lba, r.lba);
    max_end = std::max(max_end, r.lba + r.blocks);
    s.data_blocks_accessed += r.blocks;
    any_map.set_range(r.lba, r.blocks);
    if (r.op == BlockOp::Read) {
      read_map.set_range(r.lba, r.blocks);
      read_blocks += r.blocks;
      read_after_write += write_map.count_range(r.lba, r.blocks);
    } else {
      write_map.set_range(r.lba, r.blocks);
    }
  }

  s.footprint_blocks = any_map.count();
  s.read_footprint_blocks = read_map.count();
  s.write_footprint_blocks = write_map.count();
  s.reuse_ratio = s.data_blocks_accessed == 0 ? 0 : 1.0 - ratio(s.footprint_blocks, s.data_blocks_accessed);
  s.read_after_write_ratio = ratio(read_after_write, read_blocks);
  s.min_lba = min_lba == UINT64_MAX ? 0 : min_lba;
  s.max_lba_end = max_end;
  s.sequential_per_stream = ratio(seq_stream, data_requests);
  s.sequential_global = ratio(seq_global, data_requests);
  s.start_reaccess = ratio(reaccessed_starts, data_requests);
  s.duration_ps = last_arrival - first_arrival;
  s.mean_interarrival_ps = s.requests > 1 ? static_cast<double>(s.duration_ps) / static_cast<double>(s.requests - 1) : 0;
  for (uint32_t id = 0; id < streams.size(); ++id) {
    streams[id].name = submitter->stream_name(id);
    if (streams[id].requests > 0) s.streams.push_back(streams[id]);
  }
  std::stable_sort(s.streams.begin(), s.streams.end(),
                   [](const StreamStats& a, const StreamStats& b) { return a.requests > b.requests; });
  if (trace_submitter) s.counters = trace_submitter->counters();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  s.lines_per_second = s.seconds > 0 ? static_cast<double>(s.counters.lines) / s.seconds : 0;
  return s;
}

std::string format_trace_stats(const TraceStats& s) {
  std::string out;
  char line[512];
  auto add = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out += line;
  };
  auto pct = [](uint64_t a, uint64_t b) { return 100.0 * ratio(a, b); };
  const uint64_t data = s.reads + s.writes;
  add("trace       %s (%s)\n", s.spec.c_str(), s.format.c_str());
  add("requests    %llu: %llu reads (%.1f%%, %s), %llu writes (%.1f%%, %s), %llu flushes, %llu unmaps (%s)\n",
      (unsigned long long)s.requests, (unsigned long long)s.reads, pct(s.reads, s.requests),
      format_bytes(s.read_bytes).c_str(), (unsigned long long)s.writes, pct(s.writes, s.requests),
      format_bytes(s.write_bytes).c_str(), (unsigned long long)s.flushes, (unsigned long long)s.unmaps,
      format_bytes(s.unmap_bytes).c_str());
  if (s.fua_writes) add("            %llu FUA writes\n", (unsigned long long)s.fua_writes);
  out += "sizes      ";
  for (const SizeBucket& b : s.size_histogram) {
    if (b.count == 0) continue;
    if (b.max_bytes == UINT64_MAX) add(" >8M:%.1f%%", pct(b.count, data));
    else add(" %lluK:%.1f%%", (unsigned long long)(b.max_bytes / 1024), pct(b.count, data));
  }
  add("\nfootprint   %s (read %s, written %s), span blocks %llu..%llu (%s)\n",
      format_bytes(s.footprint_blocks * kLogicalBlockBytes).c_str(),
      format_bytes(s.read_footprint_blocks * kLogicalBlockBytes).c_str(),
      format_bytes(s.write_footprint_blocks * kLogicalBlockBytes).c_str(), (unsigned long long)s.min_lba,
      (unsigned long long)s.max_lba_end, format_bytes(s.max_lba_end * kLogicalBlockBytes).c_str());
  add("reuse       %.1f%% of accessed blocks were touched before; %.1f%% of read blocks were written earlier\n",
      100 * s.reuse_ratio, 100 * s.read_after_write_ratio);
  add("locality    %.1f%% sequential within a stream, %.1f%% globally; %.1f%% start where an earlier request started\n",
      100 * s.sequential_per_stream, 100 * s.sequential_global, 100 * s.start_reaccess);
  add("time        %s, mean inter-arrival %s, %llu idle gaps > %s totalling %s (longest %s)\n",
      format_duration_ps(s.duration_ps).c_str(), format_duration_ps((uint64_t)s.mean_interarrival_ps).c_str(),
      (unsigned long long)s.idle_gaps, format_duration_ps(s.idle_threshold_ps).c_str(),
      format_duration_ps(s.idle_time_ps).c_str(), format_duration_ps(s.longest_gap_ps).c_str());
  const TraceCounters& c = s.counters;
  if (s.format != "generated") add("records     %llu lines, %llu records, %llu replayed, %llu widened, %llu time reversals, %llu bad lines, "
      "%llu ignored, %llu remap splits, %llu folded\n",
      (unsigned long long)c.lines, (unsigned long long)c.records, (unsigned long long)c.replayed,
      (unsigned long long)c.widened, (unsigned long long)c.time_reversals, (unsigned long long)c.bad_lines,
      (unsigned long long)c.ignored, (unsigned long long)c.split_pieces, (unsigned long long)c.folded);
  add("streams     %zu", s.streams.size());
  const size_t shown = std::min<size_t>(s.streams.size(), 8);
  for (size_t i = 0; i < shown; ++i)
    add("%s %s:%llu", i == 0 ? ";" : ",", s.streams[i].name.c_str(), (unsigned long long)s.streams[i].requests);
  if (s.streams.size() > shown) add(", ...");
  if (s.format == "generated") add("\ngenerated   in %.2f s\n", s.seconds);
  else add("\nread speed  %.2f s, %.2f M lines/s\n", s.seconds, s.lines_per_second / 1e6);
  return out;
}

}  // namespace ufs
