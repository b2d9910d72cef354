#include "host/app_launch_tracker.h"

#include <algorithm>
#include "host/hpb_host_cache.h"

namespace ufs {

namespace {
HostMemoryParams with_regulator(HostMemoryParams p, bool regulator) {
  p.hpb_regulator = p.hpb_regulator || regulator;
  return p;
}
}  // namespace

AppLaunchTracker::AppLaunchTracker(const HostMemoryParams& params, StreamName stream_name, HpbHostCache* hpb,
                                   bool hpb_preallocated, bool regulator)
    : params_(with_regulator(params, regulator)),
      stream_name_(std::move(stream_name)),
      hpb_(hpb),
      hpb_preallocated_(hpb_preallocated),
      memory_(params_) {
  for (const auto& [name, mib] : params_.app_list()) {
    memory_.add_app(name, mib);
    names_.push_back(name);
    AppStats s;
    s.name = name;
    stats_.push_back(s);
  }
  if (hpb_) {
    // The regulator frees HPB memory region by region (the policy's eviction order).
    memory_.set_hpb_shrink([this](uint64_t wanted) {
      const uint64_t freed = hpb_->shrink(wanted);
      last_hpb_bytes_ = hpb_->stats().memory_bytes;
      return freed;
    });
    sync_hpb_memory(0);
  }
}

int32_t AppLaunchTracker::role_of(uint32_t stream) {
  if (stream >= roles_.size()) roles_.resize(size_t(stream) + 1, kUnresolved);
  int32_t& role = roles_[stream];
  if (role != kUnresolved) return role;
  const std::string name = stream_name_ ? stream_name_(stream) : std::string();
  role = kSystem;
  const std::string& suffix = params_.background_suffix;
  for (uint32_t a = 0; a < names_.size(); ++a) {
    if (name == names_[a]) role = int32_t(a);
    else if (!suffix.empty() && name == names_[a] + suffix) role = int32_t(a) | kBackgroundBit;
  }
  return role;
}

void AppLaunchTracker::sync_hpb_memory(uint64_t now_ps) {
  if (!hpb_) return;
  const uint64_t held = hpb_->stats().memory_bytes;
  if (held == last_hpb_bytes_) return;
  last_hpb_bytes_ = held;
  const uint64_t budget = uint64_t(hpb_->params().budget_mib) << 20;
  memory_.set_hpb_bytes(hpb_preallocated_ ? std::max(budget, held) : held, now_ps);
}

void AppLaunchTracker::close_launch() {
  if (!launch_.open) return;
  AppStats& s = stats_[launch_.app];
  ++s.launches;
  s.launch_ps += launch_.cold_ps + launch_.latency_ps;
  s.cold_ps += launch_.cold_ps;
  if (launch_.cold_ps) ++s.cold_launches;
  s.launch_reads += launch_.reads;
  s.hpb_reads += launch_.hpb_reads;
  s.map_load_reads += launch_.map_load_reads;
  launch_.open = false;
}

void AppLaunchTracker::switch_to(uint32_t app, uint64_t now_ps) {
  close_launch();
  sync_hpb_memory(now_ps);
  foreground_ = app;
  launch_ = Launch();
  launch_.open = true;
  launch_.app = app;
  launch_.start_ps = now_ps;
  // The HPB policy learns of the switch first: the previous app's entries are no longer
  // the active foreground's when lmkd and the regulator act on the new app's memory.
  if (hpb_) hpb_->mutable_policy().on_app(*hpb_, app, now_ps);
  launch_.cold_ps = memory_.bring_to_foreground(app, now_ps);
}

AppLaunchTracker::Role AppLaunchTracker::on_issue(const BlockRequest& request, uint64_t now_ps) {
  const int32_t role = role_of(request.stream);
  sync_hpb_memory(now_ps);
  if (role < 0) return Role{0, false, false};
  const uint32_t app = uint32_t(role & ~kBackgroundBit);
  const bool background = (role & kBackgroundBit) != 0;
  if (!background && app != foreground_) switch_to(app, now_ps);
  return Role{app, !background, true};
}

void AppLaunchTracker::on_complete(const IoRecord& record, bool hpb_read, uint64_t now_ps) {
  if (launch_.open && record.request.op == BlockOp::Read && record.arrival_ps >= launch_.start_ps &&
      role_of(record.request.stream) == int32_t(launch_.app)) {
    ++launch_.reads;
    launch_.latency_ps += record.complete_ps - record.arrival_ps;
    if (hpb_read) ++launch_.hpb_reads;
    if (map_probe_ && map_probe_(record.tag)) ++launch_.map_load_reads;
    if (launch_.reads >= params_.launch_reads) close_launch();
  }
  sync_hpb_memory(now_ps);
}

void AppLaunchTracker::finish() { close_launch(); }

const std::vector<AppLaunchTracker::AppStats>& AppLaunchTracker::apps() const {
  for (uint32_t a = 0; a < stats_.size(); ++a) stats_[a].kills = memory_.kills_of(a);
  return stats_;
}

}  // namespace ufs
