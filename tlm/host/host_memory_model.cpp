#include "host/host_memory_model.h"

#include <algorithm>
#include <stdexcept>

namespace ufs {

namespace {
constexpr uint64_t kMiB = 1024 * 1024;
constexpr uint64_t kPsPerUs = 1'000'000;
}  // namespace

std::string HostMemoryParams::validate() const {
  if (total_mib == 0) return "total_mib: must be above 0";
  if (reserved_mib + lmk_minfree_mib >= total_mib)
    return "reserved_mib: reserved_mib + lmk_minfree_mib must be below total_mib";
  if (enabled && launch_reads == 0) return "launch_reads: must be at least 1";
  if (launch_reads > 1000000000u) return "launch_reads: must be at most 1000000000";
  if (!apps.empty()) {  // checked even while off: a typo must not wait until it is turned on
    try {
      app_list();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
  }
  if (enabled) {
    try {
      if (app_list().empty()) return "apps: name at least one app (\"name=MiB,...\")";
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
  }
  return "";
}

std::vector<std::pair<std::string, uint64_t>> HostMemoryParams::app_list() const {
  std::vector<std::pair<std::string, uint64_t>> list;
  size_t at = 0;
  while (at < apps.size()) {
    size_t end = apps.find(',', at);
    if (end == std::string::npos) end = apps.size();
    const std::string item = apps.substr(at, end - at);
    const size_t eq = item.find('=');
    const std::string name = eq == std::string::npos ? item : item.substr(0, eq);
    const std::string mib = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (name.empty() || mib.empty() || mib.find_first_not_of("0123456789") != std::string::npos || mib.size() > 9)
      throw std::invalid_argument("apps: '" + item + "' is not name=MiB (e.g. chrome=700)");
    for (const auto& [other, ws] : list)
      if (other == name) throw std::invalid_argument("apps: '" + name + "' listed twice");
    list.emplace_back(name, std::stoull(mib));
    at = end + 1;
  }
  return list;
}

HostMemoryModel::HostMemoryModel(const HostMemoryParams& params) : params_(params) {
  const std::string error = params_.validate();
  if (!error.empty()) throw std::invalid_argument("host_memory." + error);
}

uint32_t HostMemoryModel::add_app(const std::string& name, uint64_t working_set_mib) {
  App a;
  a.name = name;
  a.working_set = working_set_mib * kMiB;
  apps_.push_back(a);
  return uint32_t(apps_.size() - 1);
}

uint64_t HostMemoryModel::used_bytes() const {
  uint64_t used = params_.reserved_mib * kMiB + hpb_bytes_;
  for (const App& a : apps_)
    if (a.alive) used += a.working_set;
  return used;
}

uint64_t HostMemoryModel::free_bytes() const {
  const uint64_t total = params_.total_mib * kMiB, used = used_bytes();
  return used >= total ? 0 : total - used;
}

uint64_t HostMemoryModel::hpb_headroom_bytes() const {
  const uint64_t limit = (params_.total_mib - params_.lmk_minfree_mib) * kMiB;
  const uint64_t others = used_bytes() - hpb_bytes_;
  return others >= limit ? 0 : limit - others;
}

uint64_t HostMemoryModel::bring_to_foreground(uint32_t app, uint64_t now_ps) {
  if (app >= apps_.size()) throw std::out_of_range("HostMemoryModel: unknown app");
  App& a = apps_[app];
  ++stats_.launches;
  uint64_t cost = 0;
  if (!a.alive) {
    ++stats_.cold_launches;
    a.alive = true;
    cost = params_.cold_launch_ms * 1000 * kPsPerUs;
  }
  a.last_used_ps = now_ps;
  foreground_ = app;
  relieve_pressure(now_ps);
  return cost;
}

void HostMemoryModel::set_hpb_bytes(uint64_t bytes, uint64_t now_ps) {
  hpb_bytes_ = bytes;
  relieve_pressure(now_ps);
}

// lmkd: while free memory is under minfree, take the least recently used alive
// background app. The regulator (when on) spares a recently used victim by asking
// the HPB cache for the shortfall; only if HPB cannot give enough is it killed.
void HostMemoryModel::relieve_pressure(uint64_t now_ps) {
  const uint64_t minfree = params_.lmk_minfree_mib * kMiB;
  const uint64_t recent = params_.regulator_recent_ms * 1000 * kPsPerUs;
  while (free_bytes() < minfree) {
    uint32_t victim = kNoApp;
    for (uint32_t i = 0; i < apps_.size(); ++i) {
      if (!apps_[i].alive || i == foreground_) continue;
      if (victim == kNoApp || apps_[i].last_used_ps < apps_[victim].last_used_ps) victim = i;
    }
    const uint64_t shortfall = minfree - free_bytes();
    const bool recently_used = victim != kNoApp && now_ps - apps_[victim].last_used_ps <= recent;
    if (params_.hpb_regulator && shrink_ && hpb_bytes_ > 0 && (victim == kNoApp || recently_used)) {
      stats_.regulator_time_ps += params_.regulator_cost_us * kPsPerUs;
      const uint64_t freed = std::min(shrink_(std::min(shortfall, hpb_bytes_)), hpb_bytes_);
      hpb_bytes_ -= freed;
      stats_.hpb_bytes_reclaimed += freed;
      if (freed >= shortfall) {
        if (victim != kNoApp) ++stats_.kills_avoided;
        continue;  // pressure relieved (loop re-checks)
      }
      if (freed > 0) continue;  // partly relieved: look again before killing
    }
    if (victim == kNoApp) return;  // only the foreground app and HPB remain: nothing lmkd may kill
    apps_[victim].alive = false;
    ++apps_[victim].kills;
    ++stats_.kills;
  }
}

}  // namespace ufs
