#include "smartphone_workload.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "option_list.h"
#include "spec_values.h"
#include "workload_error.h"

namespace ufs {

namespace {

constexpr const char* kPrefix = "smartphone:";
constexpr double kBurstGapUs = 100;       // mean gap inside a burst (see the header)
constexpr uint32_t kHistory = 1024;       // re-accesses pick one of the last kHistory addresses
constexpr uint64_t kMaxPilotRequests = 100000;
constexpr uint64_t kPilotGaps = 50000;
constexpr double kKb = 1024;

}  // namespace

bool is_smartphone_spec(const std::string& spec) { return spec.rfind(kPrefix, 0) == 0; }

SmartphoneSpec parse_smartphone_spec(const std::string& spec) {
  if (!is_smartphone_spec(spec))
    throw WorkloadError("smartphone spec: expected 'smartphone:APP[,options]' but found '" + spec + "'");
  const std::string body = spec.substr(std::string(kPrefix).size());
  const size_t comma = body.find(',');
  const std::string app = body.substr(0, comma);
  if (app.empty()) throw WorkloadError("smartphone: no app in '" + spec + "' (" + smartphone_app_names() + ")");
  if (!find_smartphone_profile(app))
    throw WorkloadError("smartphone: unknown app '" + app + "' (" + smartphone_app_names() + ")");
  SmartphoneSpec out;
  out.apps.push_back(app);
  OptionList opts(comma == std::string::npos ? std::string() : body.substr(comma + 1), "smartphone options");
  if (auto v = opts.take("count")) {
    out.count = parse_count("count", *v);
    if (out.count == 0) throw WorkloadError("count: '" + *v + "' must be at least 1");
  }
  if (auto v = opts.take("seed")) out.seed = parse_count("seed", *v);
  if (auto v = opts.take("scale")) {
    out.scale = parse_number("scale", *v);
    if (!(out.scale >= 0)) throw WorkloadError("scale: '" + *v + "' is not a non-negative number");
  }
  if (auto v = opts.take("qd", "iodepth")) {
    const uint64_t qd = parse_count("qd", *v);
    if (qd == 0 || qd > 65535) throw WorkloadError("qd: '" + *v + "' is out of range [1, 65535]");
    out.qd = static_cast<uint32_t>(qd);
  }
  if (auto v = opts.take("span", "size")) {
    out.span_bytes = parse_size("span", *v);
    if (out.span_bytes == 0 || out.span_bytes % kLogicalBlockBytes != 0)
      throw WorkloadError("span: '" + *v + "' is not a positive multiple of 4 KiB");
  }
  if (auto v = opts.take("offset")) {
    out.offset_bytes = parse_size("offset", *v);
    if (out.offset_bytes % kLogicalBlockBytes != 0) throw WorkloadError("offset: '" + *v + "' is not a multiple of 4 KiB");
  }
  opts.finish();
  return out;
}

double smartphone_gap_ps(const SmartphoneAppModel& m, RandomGenerator& rng) {
  const bool burst = rng.next_double() < m.burst_fraction;
  const double u = rng.next_double();
  if (burst) return -m.burst_gap_ps * std::log1p(-u);
  return m.idle_gap_floor_ps - (m.idle_gap_ps - m.idle_gap_floor_ps) * std::log1p(-u);
}

// One app's request stream: op, size, address and arrival of each request.
class SmartphoneWorkload::AppGenerator {
 public:
  AppGenerator(const SmartphoneAppModel& model, uint64_t seed, uint64_t first_block, uint64_t span_blocks,
               double scale, uint32_t stream)
      : model_(model), rng_(seed), first_(first_block), span_(span_blocks), scale_(scale), stream_(stream) {
    history_.reserve(kHistory);
  }

  const SmartphoneAppModel& model() const { return model_; }

  void next(BlockRequest& out) {
    out = BlockRequest();
    out.stream = stream_;
    // Arrival: the first request at 0, then a burst gap or an idle gap.
    if (started_) {
      const double gap = smartphone_gap_ps(model_, rng_) * scale_ + frac_ps_;
      const double whole = std::floor(gap);
      frac_ps_ = gap - whole;
      arrival_ps_ += static_cast<uint64_t>(whole);
    }
    out.arrival_ps = arrival_ps_;

    const double u = rng_.next_double();
    const bool sequential = started_ && u < model_.sequential_fraction;
    const bool reaccess = !sequential && !history_.empty() &&
                          u < model_.sequential_fraction + model_.reaccess_fraction;
    bool write = sequential ? prev_write_ : rng_.next_double() < model_.write_fraction;
    uint32_t blocks = (write ? model_.write_sizes : model_.read_sizes).sample(rng_);
    blocks = static_cast<uint32_t>(std::min<uint64_t>(blocks, span_));
    uint64_t start = 0;  // relative to first_
    if (sequential && prev_end_ + blocks <= span_) {
      start = prev_end_;
    } else if (reaccess) {
      start = std::min<uint64_t>(history_[rng_.below(history_.size())], span_ - blocks);
    } else {
      start = rng_.below(span_ - blocks + 1);
    }
    if (history_.size() < kHistory) history_.push_back(start);
    else history_[history_pos_++ % kHistory] = start;
    prev_end_ = start + blocks;
    prev_write_ = write;
    started_ = true;
    out.op = write ? BlockOp::Write : BlockOp::Read;
    out.lba = first_ + start;
    out.blocks = blocks;
  }

 private:
  const SmartphoneAppModel& model_;
  RandomGenerator rng_;
  uint64_t first_, span_;
  double scale_;
  uint32_t stream_;
  bool started_ = false;
  uint64_t arrival_ps_ = 0;
  double frac_ps_ = 0;
  uint64_t prev_end_ = 0;
  bool prev_write_ = false;
  std::vector<uint64_t> history_;
  uint64_t history_pos_ = 0;
};

namespace {

// Share of requests whose start address an earlier request started at (Table IV's
// temporal locality, as trace-stats measures it).
double measured_reaccess(SmartphoneWorkload::AppGenerator& g, uint64_t n) {
  std::unordered_set<uint64_t> seen;
  seen.reserve(n * 2);
  uint64_t hits = 0;
  BlockRequest r;
  for (uint64_t i = 0; i < n; ++i) {
    g.next(r);
    if (!seen.insert(r.lba).second) ++hits;
  }
  return double(hits) / double(n);
}

// Share of requests that find a FIFO server with the profile's constant mean
// service time idle (the Table IV NoWait ratio of a generated arrival stream).
double fifo_nowait(const SmartphoneAppModel& m, uint64_t n) {
  RandomGenerator rng(0x5eed0002);
  const double service = m.profile->mean_service_ms * double(kPsPerMs);
  double t = 0, free_at = 0;
  uint64_t nowait = 0;
  for (uint64_t i = 0; i < n; ++i) {
    if (i > 0) t += smartphone_gap_ps(m, rng);
    if (t >= free_at) ++nowait;
    free_at = std::max(free_at, t) + service;
  }
  return double(nowait) / double(n);
}

}  // namespace

SmartphoneAppModel make_smartphone_app_model(const SmartphoneAppProfile& p, uint64_t count, uint64_t span_blocks) {
  SmartphoneAppModel m;
  m.profile = &p;
  m.write_fraction = p.write_req_pct / 100;
  const double single = p.single_page_pct / 100;
  const uint32_t max_blocks = static_cast<uint32_t>(p.max_kb / 4);
  m.read_sizes = RequestSizeSampler(p.ave_read_kb / 4, single, p.size_sigma, max_blocks);
  m.write_sizes = RequestSizeSampler(p.ave_write_kb / 4, single, p.size_sigma, max_blocks);
  m.burst_gap_ps = kBurstGapUs * double(kPsPerUs);
  m.idle_gap_floor_ps = p.mean_service_ms * double(kPsPerMs);
  const double mean_gap_ps = double(kPsPerSecond) / p.arrival_rate;
  if (mean_gap_ps <= m.idle_gap_floor_ps)
    throw WorkloadError("smartphone: " + p.name + ": arrival rate x mean service time leaves no idle gaps");
  // The burst share that gives Table IV's NoWait ratio on a FIFO server taking Table
  // IV's mean service time per request (bisection; NoWait falls as bursts grow). The
  // idle-gap mean follows from the burst share so the overall rate stays Table IV's.
  const double target_nowait = p.nowait_pct / 100;
  double lo = 0, hi = 1;
  for (int i = 0; i < 30; ++i) {
    m.burst_fraction = 0.5 * (lo + hi);
    m.idle_gap_ps = (mean_gap_ps - m.burst_fraction * m.burst_gap_ps) / (1 - m.burst_fraction);
    if (m.idle_gap_ps < m.idle_gap_floor_ps) {  // too many bursts for the rate
      hi = m.burst_fraction;
      continue;
    }
    (fifo_nowait(m, kPilotGaps) > target_nowait ? lo : hi) = m.burst_fraction;
  }
  m.burst_fraction = lo;
  m.idle_gap_ps = (mean_gap_ps - m.burst_fraction * m.burst_gap_ps) / (1 - m.burst_fraction);
  m.sequential_fraction = p.spatial_pct / 100;
  m.default_count = static_cast<uint64_t>(p.requests);
  // Sequential requests that continue a re-accessed one, and random ones that hit an
  // earlier address by chance (more often the more requests share the span), also
  // land on known addresses: a pilot run of the same length and span measures that
  // and the re-access share makes up the rest.
  const uint64_t pilot_requests = std::min(count ? count : m.default_count, kMaxPilotRequests);
  const double target = p.temporal_pct / 100;
  m.reaccess_fraction = target;
  for (int round = 0; round < 4; ++round) {
    SmartphoneWorkload::AppGenerator pilot(m, 0x5eed0002, 0, span_blocks, 1.0, 0);
    const double got = measured_reaccess(pilot, pilot_requests);
    m.reaccess_fraction = std::clamp(m.reaccess_fraction + (target - got), 0.0, 1.0 - m.sequential_fraction);
  }
  return m;
}

SmartphoneWorkload::SmartphoneWorkload(const SmartphoneSpec& spec, uint64_t device_blocks) : spec_(spec) {
  if (spec_.apps.size() != 1) throw WorkloadError("smartphone: expected one app");
  const SmartphoneAppProfile* profile = find_smartphone_profile(spec_.apps[0]);
  if (!profile) throw WorkloadError("smartphone: unknown app '" + spec_.apps[0] + "' (" + smartphone_app_names() + ")");
  const uint64_t span = spec_.span_bytes / kLogicalBlockBytes, first = spec_.offset_bytes / kLogicalBlockBytes;
  if (device_blocks > 0 && (first > device_blocks || span > device_blocks - first))
    throw WorkloadError("span: " + format_bytes(spec_.span_bytes) + " at offset " + format_bytes(spec_.offset_bytes) +
                        " exceeds the device's " + format_bytes(device_blocks * kLogicalBlockBytes));
  if (profile->max_kb * kKb > double(spec_.span_bytes))
    throw WorkloadError("span: " + format_bytes(spec_.span_bytes) + " is smaller than " + profile->name +
                        "'s largest request (" + format_bytes(uint64_t(profile->max_kb * kKb)) + ")");
  model_ = std::make_unique<SmartphoneAppModel>(make_smartphone_app_model(*profile, spec_.count, span));
  app_ = std::make_unique<AppGenerator>(*model_, spec_.seed, first, span, spec_.scale, 0);
  limit_ = spec_.count ? spec_.count : model_->default_count;
}

SmartphoneWorkload::~SmartphoneWorkload() = default;

const SmartphoneAppModel& SmartphoneWorkload::model() const { return *model_; }

bool SmartphoneWorkload::next(BlockRequest& out) {
  if (issued_ >= limit_) return false;
  app_->next(out);
  ++issued_;
  return true;
}

std::string SmartphoneWorkload::stream_name(uint32_t stream) const {
  return stream < spec_.apps.size() ? spec_.apps[stream] : RequestSubmitter::stream_name(stream);
}

}  // namespace ufs
