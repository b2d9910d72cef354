// HPBvalve's (FAST'23) per-app launch-time profile: the HPB sub-regions an app
// read while launching, in first-read order, bounded in map bytes (the paper
// keeps at most 1 MB of L2P entries per app) so that the next launch of the
// same app can prefetch them. Plain C++; HpbValvePolicy (hpb_valve_policy.h) drives it.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ufs {

class HpbValveLaunchProfile {
 public:
  // bytes_per_subregion: map bytes one cached sub-region takes (entries * 8).
  HpbValveLaunchProfile(uint64_t limit_bytes, uint64_t bytes_per_subregion);
  // The app read this sub-region while launching; false when the profile is full.
  bool record(const std::string& app, uint32_t subregion);
  // The sub-regions to prefetch when the app launches again (empty if unknown).
  const std::vector<uint32_t>& prefetch(const std::string& app) const;
  uint64_t bytes(const std::string& app) const;

 private:
  struct App { std::vector<uint32_t> order; std::unordered_set<uint32_t> seen; };
  uint64_t limit_bytes_, bytes_per_sub_;
  std::unordered_map<std::string, App> apps_;
};

}  // namespace ufs
