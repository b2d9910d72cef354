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
  const std::string apps = body.substr(0, comma);
  if (apps.empty()) throw WorkloadError("smartphone: no app in '" + spec + "' (" + smartphone_app_names() + ")");
  SmartphoneSpec out;
  size_t from = 0;
  while (true) {
    const size_t plus = apps.find('+', from);
    const std::string app = apps.substr(from, plus == std::string::npos ? std::string::npos : plus - from);
    if (app.empty()) throw WorkloadError("smartphone: empty app name in '" + apps + "'");
    if (!find_smartphone_profile(app))
      throw WorkloadError("smartphone: unknown app '" + app + "' (" + smartphone_app_names() + ")");
    out.apps.push_back(app);
    if (plus == std::string::npos) break;
    from = plus + 1;
  }
  OptionList opts(comma == std::string::npos ? std::string() : body.substr(comma + 1), "smartphone options");
  if (auto v = opts.take("count")) {
    out.count = parse_count("count", *v);
    if (out.count == 0) throw WorkloadError("count: '" + *v + "' must be at least 1");
  }
  if (auto v = opts.take("seed")) out.seed = parse_count("seed", *v);
  if (auto v = opts.take("scale")) {
    out.scale = parse_number("scale", *v);
    // 0 plays every request at once; a million times slower is far beyond any use and keeps
    // arrival times inside the simulated time range.
    if (!(out.scale >= 0 && out.scale <= 1e6)) throw WorkloadError("scale: '" + *v + "' is out of range [0, 1e6]");
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
  if (auto v = opts.take("prefill")) {
    if (*v != "0" && *v != "1") throw WorkloadError("prefill: '" + *v + "' must be 0 or 1");
    out.prefill = *v == "1";
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
               uint32_t stream)
      : model_(model), rng_(seed), first_(first_block), span_(span_blocks), stream_(stream) {
    history_.reserve(kHistory);
  }

  const SmartphoneAppModel& model() const { return model_; }

  // The next request (arrival_ps left 0); returns the gap before it in ps, before
  // scale (0 for the app's first request).
  double next(BlockRequest& out) {
    out = BlockRequest();
    out.stream = stream_;
    const double gap = started_ ? smartphone_gap_ps(model_, rng_) : 0.0;

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
    return gap;
  }

 private:
  const SmartphoneAppModel& model_;
  RandomGenerator rng_;
  uint64_t first_, span_;
  uint32_t stream_;
  bool started_ = false;
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
    SmartphoneWorkload::AppGenerator pilot(m, 0x5eed0002, 0, span_blocks, 0);
    const double got = measured_reaccess(pilot, pilot_requests);
    m.reaccess_fraction = std::clamp(m.reaccess_fraction + (target - got), 0.0, 1.0 - m.sequential_fraction);
  }
  return m;
}

SmartphoneWorkload::SmartphoneWorkload(const SmartphoneSpec& spec, uint64_t device_blocks) : spec_(spec) {
  if (spec_.apps.empty()) throw WorkloadError("smartphone: no app");
  // Each distinct app is one stream with its own span, one after the other from offset.
  for (const std::string& app : spec_.apps) {
    if (!find_smartphone_profile(app))
      throw WorkloadError("smartphone: unknown app '" + app + "' (" + smartphone_app_names() + ")");
    const auto known = std::find(streams_.begin(), streams_.end(), app);
    visits_.push_back(static_cast<uint32_t>(known - streams_.begin()));
    if (known == streams_.end()) streams_.push_back(app);
  }
  const uint64_t span = spec_.span_bytes / kLogicalBlockBytes, first = spec_.offset_bytes / kLogicalBlockBytes;
  const uint64_t total = span * streams_.size();
  if (device_blocks > 0 && (first > device_blocks || total > device_blocks - first))
    throw WorkloadError("span: " + (streams_.size() > 1 ? std::to_string(streams_.size()) + " apps x " : "") +
                        format_bytes(spec_.span_bytes) +
                        " at offset " + format_bytes(spec_.offset_bytes) + " exceeds the device's " +
                        format_bytes(device_blocks * kLogicalBlockBytes));
  for (uint32_t i = 0; i < streams_.size(); ++i) {
    const SmartphoneAppProfile& profile = *find_smartphone_profile(streams_[i]);
    if (profile.max_kb * kKb > double(spec_.span_bytes))
      throw WorkloadError("span: " + format_bytes(spec_.span_bytes) + " is smaller than " + profile.name +
                          "'s largest request (" + format_bytes(uint64_t(profile.max_kb * kKb)) + ")");
    models_.push_back(std::make_unique<SmartphoneAppModel>(make_smartphone_app_model(profile, spec_.count, span)));
    // Stream 0 keeps the plain seed, so a one-app spec is the same stream whatever follows.
    uint64_t state = spec_.seed;
    for (uint32_t k = 0; k < i; ++k) RandomGenerator::splitmix64(state);
    apps_.push_back(std::make_unique<AppGenerator>(*models_.back(), i == 0 ? spec_.seed : state, first + i * span, span, i));
  }
  for (const uint32_t v : visits_) {
    const uint64_t n = spec_.count ? spec_.count : models_[v]->default_count;
    visit_limits_.push_back(n);
    limit_ += n;
  }
}

SmartphoneWorkload::~SmartphoneWorkload() = default;

const SmartphoneAppModel& SmartphoneWorkload::model(uint32_t stream) const { return *models_.at(stream); }

bool SmartphoneWorkload::next(BlockRequest& out) {
  while (generate(out)) {
    if (!spec_.prefill) return true;
    if (out.op != BlockOp::Read) continue;  // prefill: the reads' extents only, written at once
    out.op = BlockOp::Write;
    out.arrival_ps = 0;
    return true;
  }
  return false;
}

bool SmartphoneWorkload::generate(BlockRequest& out) {
  while (visit_ < visits_.size() && in_visit_ >= visit_limits_[visit_]) {
    ++visit_;
    in_visit_ = 0;
  }
  if (visit_ >= visits_.size()) return false;
  const double gap = apps_[visits_[visit_]]->next(out);
  if (issued_ > 0) {
    const double scaled = gap * spec_.scale + frac_ps_;
    const double whole = std::floor(scaled);
    frac_ps_ = scaled - whole;
    arrival_ps_ += static_cast<uint64_t>(whole);
  }
  out.arrival_ps = arrival_ps_;
  ++in_visit_;
  ++issued_;
  return true;
}

std::string SmartphoneWorkload::stream_name(uint32_t stream) const {
  return stream < streams_.size() ? streams_[stream] : RequestSubmitter::stream_name(stream);
}

}  // namespace ufs
