#include "host/hpbvalve_launch_profile.h"

namespace ufs {

HpbValveLaunchProfile::HpbValveLaunchProfile(uint64_t limit_bytes, uint64_t bytes_per_subregion)
    : limit_bytes_(limit_bytes), bytes_per_sub_(bytes_per_subregion ? bytes_per_subregion : 1) {}

bool HpbValveLaunchProfile::record(const std::string& app, uint32_t subregion) {
  App& a = apps_[app];
  if (a.seen.count(subregion)) return true;
  if ((a.order.size() + 1) * bytes_per_sub_ > limit_bytes_) return false;
  a.seen.insert(subregion);
  a.order.push_back(subregion);
  return true;
}

const std::vector<uint32_t>& HpbValveLaunchProfile::prefetch(const std::string& app) const {
  static const std::vector<uint32_t> kNone;
  auto it = apps_.find(app);
  return it == apps_.end() ? kNone : it->second.order;
}

uint64_t HpbValveLaunchProfile::bytes(const std::string& app) const {
  return prefetch(app).size() * bytes_per_sub_;
}

}  // namespace ufs
