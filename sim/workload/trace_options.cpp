#include "trace_options.h"

#include "option_list.h"
#include "spec_values.h"
#include "workload_error.h"

namespace ufs {

namespace {
const char* const kFormats[] = {"mobile", "blkparse", "fio", "msr", "disksim", "mqsim"};
}

bool is_trace_spec(const std::string& spec) { return spec.rfind("trace:", 0) == 0; }

TraceSpec parse_trace_spec(const std::string& spec) {
  if (!is_trace_spec(spec)) throw WorkloadError("trace spec: expected 'trace:FORMAT:PATH[,options]' but found '" + spec + "'");
  const std::string body = spec.substr(6);
  const size_t colon = body.find(':');
  if (colon == std::string::npos)
    throw WorkloadError("trace spec: expected 'trace:FORMAT:PATH[,options]' but found '" + spec + "'");
  TraceSpec out;
  out.format = body.substr(0, colon);
  bool known = false;
  for (const char* f : kFormats) known = known || out.format == f;
  if (!known)
    throw WorkloadError("trace spec: unknown format '" + out.format + "' (mobile, blkparse, fio, msr, disksim, mqsim)");
  const std::string rest = body.substr(colon + 1);
  const size_t comma = rest.find(',');
  out.path = rest.substr(0, comma);
  if (out.path.empty()) throw WorkloadError("trace spec: no file in '" + spec + "'");
  OptionList opts(comma == std::string::npos ? std::string() : rest.substr(comma + 1), "trace options");
  TraceOptions& o = out.options;
  if (auto v = opts.take("mode")) {
    if (*v == "open") o.mode = TraceMode::Open;
    else if (*v == "closed") o.mode = TraceMode::Closed;
    else throw WorkloadError("mode: '" + *v + "' is not open or closed");
  }
  if (auto v = opts.take("qd", "iodepth")) {
    const uint64_t qd = parse_count("qd", *v);
    if (qd == 0 || qd > 65535) throw WorkloadError("qd: '" + *v + "' is out of range [1, 65535]");
    o.qd = static_cast<uint32_t>(qd);
  }
  if (auto v = opts.take("scale")) {
    o.scale = parse_number("scale", *v);
    // 0 replays every request at once; a million times slower is far beyond any use.
    if (!(o.scale >= 0 && o.scale <= 1e6)) throw WorkloadError("scale: '" + *v + "' is out of range [0, 1e6]");
  }
  if (auto v = opts.take("idle_compress")) o.idle_compress_ps = parse_duration_ps("idle_compress", *v, kPsPerSecond);
  if (auto v = opts.take("fold")) {
    if (*v == "none") o.fold = FoldMode::None;
    else if (*v == "modulo") o.fold = FoldMode::Modulo;
    else if (*v == "remap") o.fold = FoldMode::Remap;
    else throw WorkloadError("fold: '" + *v + "' is not none, modulo or remap");
  }
  if (auto v = opts.take("remap_chunk")) {
    const uint64_t bytes = parse_size("remap_chunk", *v);
    if (bytes == 0 || bytes % kLogicalBlockBytes != 0)
      throw WorkloadError("remap_chunk: '" + *v + "' is not a multiple of 4 KiB");
    if (o.fold != FoldMode::Remap) throw WorkloadError("remap_chunk: only with fold=remap");
    o.remap_chunk_blocks = bytes / kLogicalBlockBytes;
  }
  if (auto v = opts.take("skip")) o.skip = parse_count("skip", *v);
  // 0 stands for "no limit" inside; given explicitly it would replay the whole trace quietly.
  if (auto v = opts.take("limit")) {
    o.limit = parse_count("limit", *v);
    if (o.limit == 0) throw WorkloadError("limit: must be at least 1 (leave it out to replay the whole trace)");
  }
  if (auto v = opts.take("start")) o.start_ps = parse_duration_ps("start", *v, kPsPerSecond);
  if (auto v = opts.take("duration")) {
    o.duration_ps = parse_duration_ps("duration", *v, kPsPerSecond);
    if (o.duration_ps == 0)
      throw WorkloadError("duration: must be above 0 (leave it out to replay to the end of the trace)");
  }
  if (auto v = opts.take("skip_bad")) o.skip_bad = parse_flag("skip_bad", *v);
  if (auto v = opts.take("fua")) o.fua = parse_flag("fua", *v);
  if (auto v = opts.take("event")) {
    if (out.format != "blkparse") throw WorkloadError("event: only for the blkparse format");
    if (*v != "Q" && *v != "D") throw WorkloadError("event: '" + *v + "' is not Q or D");
    o.blkparse_event = (*v)[0];
  }
  if (auto v = opts.take("time_unit")) {
    if (out.format != "fio") throw WorkloadError("time_unit: only for the fio format");
    if (*v == "us") o.fio_time_unit_ps = kPsPerUs;
    else if (*v == "ms") o.fio_time_unit_ps = kPsPerMs;
    else if (*v == "ns") o.fio_time_unit_ps = 1000;
    else throw WorkloadError("time_unit: '" + *v + "' is not us, ms or ns");
  }
  opts.finish();
  return out;
}

}  // namespace ufs
