// fio-like synthetic jobs: each job is one RequestSubmitter with its own iodepth,
// generating requests on the fly (O(1) time, no allocation per request).
//
// Address range: [offset, offset+size) of the device, in 4 KiB blocks.
//  * Random jobs share the whole range (each with its own PRNG stream derived from
//    the seed); offsets are uniform (or zipf) multiples of `align`, and a request
//    never crosses the end of the range. Like fio with norandommap: blocks may repeat.
//  * Sequential jobs each own a contiguous slice, range/numjobs (rounded down to
//    bs), as fio's offset_increment=size/numjobs does; a job wraps to its slice start.
// count is the total across jobs (job j gets count/numjobs, the first count%numjobs
// jobs one more). Flushes from fsync=N are extra and not counted.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "host/block_request.h"
#include "random_generator.h"
#include "workload_spec.h"
#include "zipf_sampler.h"

namespace ufs {

// One job's resolved parameters, all in 4 KiB blocks.
struct SyntheticJobPlan {
  uint32_t job_index = 0;
  RwPattern rw = RwPattern::Read;
  uint64_t range_start = 0;      // first block of the job's range (slice for sequential)
  uint64_t range_blocks = 0;
  uint32_t bs_min_blocks = 1;
  uint32_t bs_max_blocks = 1;
  uint32_t align_blocks = 1;
  uint32_t iodepth = 1;
  uint64_t request_limit = UINT64_MAX;  // data requests
  uint64_t block_limit = UINT64_MAX;    // data blocks moved ("one pass" mode)
  uint64_t runtime_ps = 0;              // open loop: no arrivals after it
  uint32_t rwmixread = 50;
  uint64_t seed = 1;
  bool fua = false;
  uint64_t thinktime_ps = 0;
  double mean_interval_ps = 0;          // from rate_iops; 0 = none
  bool poisson = false;
  double bmodel_bias = 0;               // > 0: b-model arrivals (bmodel_arrivals.h) over request_limit x mean interval
  double zipf_theta = 0;
  uint32_t fsync_every = 0;
};

class SyntheticJob : public RequestSubmitter {
 public:
  explicit SyntheticJob(const SyntheticJobPlan& plan);

  bool next(BlockRequest& out) override;
  uint32_t max_outstanding() const override { return plan_.iodepth; }
  bool timed() const override { return open_loop_; }

  const SyntheticJobPlan& plan() const { return plan_; }

 private:
  BlockOp choose_op();
  uint32_t choose_blocks();
  uint64_t choose_lba(uint32_t blocks);
  uint64_t next_arrival();

  SyntheticJobPlan plan_;
  RandomGenerator rng_;
  std::unique_ptr<ZipfSampler> zipf_;  // built once, only for zipf
  bool random_;
  bool open_loop_;
  uint64_t random_slots_ = 1;  // aligned start positions that fit bs_max
  uint64_t seq_pos_ = 0;       // next sequential block (relative to range_start)
  uint64_t requests_done_ = 0;
  uint64_t blocks_done_ = 0;
  uint64_t writes_since_flush_ = 0;
  bool flush_pending_ = false;
  uint64_t arrival_ps_ = 0;
  double arrival_frac_ps_ = 0;  // fractional picoseconds carried between arrivals
  uint64_t last_arrival_ps_ = 0;
  std::vector<uint64_t> bmodel_ps_;  // b-model: every arrival, drawn up front
};

// Resolves the spec against the device (4 KiB blocks) and builds numjobs jobs.
// Throws WorkloadError, e.g. "size: 600g exceeds the device's 512 GiB".
std::vector<std::unique_ptr<RequestSubmitter>> make_synthetic_workload(const WorkloadSpec& spec,
                                                                       uint64_t device_blocks);
// The resolved per-job plans (what make_synthetic_workload builds), for reports and tests.
std::vector<SyntheticJobPlan> plan_synthetic_workload(const WorkloadSpec& spec, uint64_t device_blocks);

}  // namespace ufs
