#include "workload_factory.h"

#include "smartphone_workload.h"
#include "synthetic_workload.h"
#include "trace_blkparse_reader.h"
#include "trace_disksim_reader.h"
#include "trace_fio_reader.h"
#include "trace_mobile_reader.h"
#include "trace_mqsim_reader.h"
#include "trace_msr_reader.h"
#include "workload_error.h"
#include "workload_spec.h"

namespace ufs {

std::unique_ptr<TraceReader> make_trace_reader(const std::string& format, const std::string& path,
                                               const TraceOptions& options) {
  if (format == "mobile") return std::make_unique<TraceMobileReader>(path, options.skip_bad);
  if (format == "blkparse") return std::make_unique<TraceBlkparseReader>(path, options.skip_bad, options.blkparse_event);
  if (format == "fio") return std::make_unique<TraceFioReader>(path, options.skip_bad, options.fio_time_unit_ps);
  if (format == "msr") return std::make_unique<TraceMsrReader>(path, options.skip_bad);
  if (format == "disksim") return std::make_unique<TraceDisksimReader>(path, options.skip_bad);
  if (format == "mqsim") return std::make_unique<TraceMqsimReader>(path, options.skip_bad);
  throw WorkloadError("trace spec: unknown format '" + format + "' (mobile, blkparse, fio, msr, disksim, mqsim)");
}

std::unique_ptr<TraceSubmitter> make_trace_submitter(const std::string& spec, uint64_t device_blocks) {
  const TraceSpec parsed = parse_trace_spec(spec);
  return std::make_unique<TraceSubmitter>(make_trace_reader(parsed.format, parsed.path, parsed.options),
                                          parsed.options, device_blocks);
}

std::vector<std::unique_ptr<RequestSubmitter>> make_workload(const std::string& spec, uint64_t device_blocks) {
  std::vector<std::unique_ptr<RequestSubmitter>> out;
  if (is_trace_spec(spec)) {
    out.push_back(make_trace_submitter(spec, device_blocks));
    return out;
  }
  if (is_smartphone_spec(spec)) {
    out.push_back(std::make_unique<SmartphoneWorkload>(parse_smartphone_spec(spec), device_blocks));
    return out;
  }
  return make_synthetic_workload(parse_workload_spec(spec), device_blocks);
}

WorkloadPlan make_workload_plan(const std::string& spec, uint64_t device_blocks) {
  WorkloadPlan plan;
  if (is_trace_spec(spec)) {
    auto trace = make_trace_submitter(spec, device_blocks);
    plan.expected_requests = trace->options().limit;  // unknown without reading the whole file
    plan.submitters.push_back(std::move(trace));
    return plan;
  }
  if (is_smartphone_spec(spec)) {
    auto generated = std::make_unique<SmartphoneWorkload>(parse_smartphone_spec(spec), device_blocks);
    plan.expected_requests = generated->request_limit();
    plan.submitters.push_back(std::move(generated));
    return plan;
  }
  const WorkloadSpec parsed = parse_workload_spec(spec);
  plan.runtime_ps = parsed.runtime_ps;
  const double mean_blocks = (parsed.bs_min + parsed.bs_max) / 2.0 / 4096.0;
  bool known = true;
  for (const SyntheticJobPlan& job : plan_synthetic_workload(parsed, device_blocks)) {
    // Requests this job will issue: its count, one pass over its blocks, or runtime x rate.
    if (job.request_limit != UINT64_MAX) {
      plan.expected_requests += job.request_limit;
    } else if (job.block_limit != UINT64_MAX) {
      plan.expected_requests += static_cast<uint64_t>(static_cast<double>(job.block_limit) / mean_blocks + 0.5);
    } else if (job.runtime_ps > 0 && (job.mean_interval_ps > 0 || job.thinktime_ps > 0)) {
      const double interval = job.mean_interval_ps + static_cast<double>(job.thinktime_ps);
      plan.expected_requests += static_cast<uint64_t>(static_cast<double>(job.runtime_ps) / interval);
    } else {
      known = false;  // closed loop bounded only by runtime
    }
    plan.submitters.push_back(std::make_unique<SyntheticJob>(job));
  }
  if (!known) plan.expected_requests = 0;
  return plan;
}

uint64_t workload_runtime_ps(const std::string& spec) {
  if (is_trace_spec(spec) || is_smartphone_spec(spec)) return 0;
  return parse_workload_spec(spec).runtime_ps;
}

}  // namespace ufs
