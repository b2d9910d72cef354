#include "synthetic_workload.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "bmodel_arrivals.h"
#include "spec_values.h"
#include "workload_error.h"

namespace ufs {

namespace {


std::string as_written(const std::string& text, uint64_t bytes) { return text.empty() ? format_bytes(bytes) : text; }

}  // namespace

SyntheticJob::SyntheticJob(const SyntheticJobPlan& plan)
    : plan_(plan),
      rng_(plan.seed),
      random_(plan.rw == RwPattern::RandRead || plan.rw == RwPattern::RandWrite || plan.rw == RwPattern::RandRw ||
              plan.rw == RwPattern::RandTrim),
      open_loop_(plan.thinktime_ps > 0 || plan.mean_interval_ps > 0) {
  if (plan_.range_blocks >= plan_.bs_max_blocks)
    random_slots_ = (plan_.range_blocks - plan_.bs_max_blocks) / plan_.align_blocks + 1;
  if (random_ && plan_.zipf_theta > 0) zipf_ = std::make_unique<ZipfSampler>(random_slots_, plan_.zipf_theta);
  if (plan_.bmodel_bias > 0 && plan_.request_limit != UINT64_MAX) {
    // The run's requests over the time the rate gives them, split down to 1 ms slots (the
    // time unit of the b-model paper's disk traces). Its own PRNG stream: the ops, sizes and
    // addresses stay those of the same spec with other arrivals.
    RandomGenerator arrivals_rng(plan_.seed ^ 0xb0de1u);
    bmodel_ps_ = bmodel_arrivals(plan_.request_limit, uint64_t(double(plan_.request_limit) * plan_.mean_interval_ps),
                                 plan_.bmodel_bias, 1'000'000'000ull, arrivals_rng);
  }
}

BlockOp SyntheticJob::choose_op() {
  switch (plan_.rw) {
    case RwPattern::Read:
    case RwPattern::RandRead: return BlockOp::Read;
    case RwPattern::Write:
    case RwPattern::RandWrite: return BlockOp::Write;
    case RwPattern::Trim:
    case RwPattern::RandTrim: return BlockOp::Unmap;
    case RwPattern::RandRw:
    case RwPattern::SeqRw: return rng_.below(100) < plan_.rwmixread ? BlockOp::Read : BlockOp::Write;
  }
  return BlockOp::Read;
}

uint32_t SyntheticJob::choose_blocks() {
  if (plan_.bs_min_blocks == plan_.bs_max_blocks) return plan_.bs_min_blocks;
  // A random multiple of the smallest size, as fio's bsrange does.
  const uint64_t multiples = plan_.bs_max_blocks / plan_.bs_min_blocks;
  return static_cast<uint32_t>(plan_.bs_min_blocks * (1 + rng_.below(multiples)));
}

uint64_t SyntheticJob::choose_lba(uint32_t blocks) {
  if (random_) {
    const uint64_t slot = zipf_ ? zipf_->sample(rng_) : rng_.below(random_slots_);
    return plan_.range_start + slot * plan_.align_blocks;
  }
  if (seq_pos_ + blocks > plan_.range_blocks) seq_pos_ = 0;  // wrap within the slice
  const uint64_t lba = plan_.range_start + seq_pos_;
  seq_pos_ += blocks;
  return lba;
}

uint64_t SyntheticJob::next_arrival() {
  if (!bmodel_ps_.empty()) return bmodel_ps_[std::min<uint64_t>(requests_done_, bmodel_ps_.size() - 1)];
  const uint64_t now = arrival_ps_;
  double gap = static_cast<double>(plan_.thinktime_ps);
  if (plan_.mean_interval_ps > 0) {
    // Exponential gaps make a Poisson process; otherwise a fixed rate.
    gap += plan_.poisson ? -std::log1p(-rng_.next_double()) * plan_.mean_interval_ps : plan_.mean_interval_ps;
  }
  gap += arrival_frac_ps_;
  const double whole = std::floor(gap);
  arrival_frac_ps_ = gap - whole;
  arrival_ps_ += static_cast<uint64_t>(whole);
  return now;
}

bool SyntheticJob::next(BlockRequest& out) {
  if (flush_pending_) {
    flush_pending_ = false;
    out = BlockRequest{};
    out.op = BlockOp::Flush;
    out.blocks = 0;
    out.arrival_ps = last_arrival_ps_;
    out.stream = plan_.job_index;
    return true;
  }
  if (requests_done_ >= plan_.request_limit || blocks_done_ >= plan_.block_limit) return false;
  uint64_t arrival = 0;
  if (open_loop_) {
    arrival = next_arrival();
    if (plan_.runtime_ps > 0 && arrival >= plan_.runtime_ps) return false;
  }
  out.op = choose_op();
  out.blocks = choose_blocks();
  out.lba = choose_lba(out.blocks);
  out.arrival_ps = arrival;
  out.stream = plan_.job_index;
  out.fua = plan_.fua && out.op == BlockOp::Write;
  ++requests_done_;
  blocks_done_ += out.blocks;
  last_arrival_ps_ = arrival;
  if (out.op == BlockOp::Write && plan_.fsync_every > 0 && ++writes_since_flush_ >= plan_.fsync_every) {
    writes_since_flush_ = 0;
    flush_pending_ = true;
  }
  return true;
}

std::vector<SyntheticJobPlan> plan_synthetic_workload(const WorkloadSpec& spec, uint64_t device_blocks) {
  const uint64_t capacity = device_blocks * kLogicalBlockBytes;
  const std::string device = "the device's " + format_bytes(capacity);
  if (device_blocks == 0) throw WorkloadError("workload spec: the device has no capacity");

  uint64_t offset = spec.offset_bytes;
  if (spec.offset_percent > 0)
    offset = static_cast<uint64_t>(static_cast<double>(capacity) * spec.offset_percent / 100.0) / kLogicalBlockBytes *
             kLogicalBlockBytes;
  if (offset >= capacity)
    throw WorkloadError("offset: " + as_written(spec.offset_text, offset) + " exceeds " + device);

  uint64_t size = spec.size_bytes;
  if (spec.size_percent > 0)
    size = static_cast<uint64_t>(static_cast<double>(capacity) * spec.size_percent / 100.0) / kLogicalBlockBytes *
           kLogicalBlockBytes;
  else if (size == 0)
    size = capacity - offset;
  if (size > capacity || offset + size > capacity) {
    std::string at = offset > 0 ? " at offset " + as_written(spec.offset_text, offset) : "";
    throw WorkloadError("size: " + as_written(spec.size_text, size) + at + " exceeds " + device);
  }
  if (size < spec.bs_max)
    throw WorkloadError("size: " + as_written(spec.size_text, size) + " is smaller than the block size " +
                        format_bytes(spec.bs_max));

  SyntheticJobPlan base;
  base.rw = spec.rw;
  base.bs_min_blocks = static_cast<uint32_t>(spec.bs_min / kLogicalBlockBytes);
  base.bs_max_blocks = static_cast<uint32_t>(spec.bs_max / kLogicalBlockBytes);
  base.align_blocks = static_cast<uint32_t>(spec.align_bytes / kLogicalBlockBytes);
  base.iodepth = spec.iodepth;
  base.runtime_ps = spec.runtime_ps;
  base.rwmixread = spec.rwmixread;
  base.fua = spec.fua;
  base.thinktime_ps = spec.thinktime_ps;
  base.mean_interval_ps = spec.rate_iops > 0 ? 1e12 / spec.rate_iops : 0;
  base.poisson = spec.arrival == ArrivalProcess::Poisson;
  base.bmodel_bias = spec.arrival == ArrivalProcess::BModel ? spec.bmodel_bias : 0;
  base.zipf_theta = spec.zipf_theta;
  base.fsync_every = spec.fsync_every;

  const uint64_t start_block = offset / kLogicalBlockBytes;
  const uint64_t range_blocks = size / kLogicalBlockBytes;
  const uint32_t jobs = spec.numjobs;
  uint64_t slice_blocks = range_blocks;
  if (!spec.is_random()) {
    slice_blocks = range_blocks / jobs / base.bs_min_blocks * base.bs_min_blocks;
    if (slice_blocks < base.bs_max_blocks)
      throw WorkloadError("size: " + as_written(spec.size_text, size) + " is too small for numjobs=" +
                          std::to_string(jobs) + " sequential slices of " + format_bytes(spec.bs_max));
  }

  std::vector<SyntheticJobPlan> plans;
  plans.reserve(jobs);
  uint64_t seed_state = spec.seed;
  for (uint32_t j = 0; j < jobs; ++j) {
    SyntheticJobPlan p = base;
    p.job_index = j;
    p.seed = RandomGenerator::splitmix64(seed_state);
    if (spec.is_random()) {
      p.range_start = start_block;
      p.range_blocks = range_blocks;
    } else {
      p.range_start = start_block + j * slice_blocks;
      p.range_blocks = slice_blocks;
    }
    if (spec.count > 0) {
      p.request_limit = spec.count / jobs + (j < spec.count % jobs ? 1 : 0);
    } else if (spec.runtime_ps == 0) {
      // One pass: `size` in total, split like the slices.
      p.block_limit = spec.is_random() ? range_blocks / jobs + (j < range_blocks % jobs ? 1 : 0) : slice_blocks;
    }
    plans.push_back(p);
  }
  return plans;
}

std::vector<std::unique_ptr<RequestSubmitter>> make_synthetic_workload(const WorkloadSpec& spec,
                                                                       uint64_t device_blocks) {
  std::vector<std::unique_ptr<RequestSubmitter>> jobs;
  for (const SyntheticJobPlan& plan : plan_synthetic_workload(spec, device_blocks))
    jobs.push_back(std::make_unique<SyntheticJob>(plan));
  return jobs;
}

}  // namespace ufs
