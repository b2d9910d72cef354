// Entry points: one spec string for either kind of workload.
//   synthetic: "rw=randread,bs=4k,iodepth=32,..."   (see workload_spec.h)
//   trace:     "trace:FORMAT:PATH[,option=value...]" (see trace_options.h)
//   smartphone: "smartphone:APP[,option=value...]"  (see smartphone_workload.h)
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/block_request.h"
#include "trace_options.h"
#include "trace_reader.h"
#include "trace_submitter.h"

namespace ufs {

// device_blocks: the device's capacity in 4 KiB blocks. Throws WorkloadError.
std::vector<std::unique_ptr<RequestSubmitter>> make_workload(const std::string& spec, uint64_t device_blocks);

// The submitters plus what the program needs to drive them.
struct WorkloadPlan {
  std::vector<std::unique_ptr<RequestSubmitter>> submitters;
  uint64_t runtime_ps = 0;         // synthetic runtime= (the host stops issuing after it); 0 = none
  uint64_t expected_requests = 0;  // for progress: data requests the workload will issue; 0 = unknown
};
WorkloadPlan make_workload_plan(const std::string& spec, uint64_t device_blocks);

// The simulated-time limit of a spec (synthetic runtime=), 0 if none. Trace specs
// bound themselves (duration=) and return 0.
uint64_t workload_runtime_ps(const std::string& spec);

// A reader for one format ("mobile", "blkparse", "fio", "msr", "disksim", "mqsim").
std::unique_ptr<TraceReader> make_trace_reader(const std::string& format, const std::string& path,
                                               const TraceOptions& options);
// The trace submitter itself (for its counters); device_blocks = 0 means no capacity.
std::unique_ptr<TraceSubmitter> make_trace_submitter(const std::string& spec, uint64_t device_blocks);

}  // namespace ufs
