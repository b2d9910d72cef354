// HPBvalve's host policy (Park et al., FAST'23; seed 000): the host HPB cache serves the
// foreground app first. Regions sit in three LRU lists (hpbvalve_lists.h): active
// foreground (AFG: the current foreground app's), inactive foreground (IFG: earlier
// foreground apps') and background (BG: fetched for anything else, e.g. the device's
// recommendations). Eviction takes BG first, then IFG, never AFG. A foreground app's misses
// are fetched at once (no read-count threshold), and a per-app launch profile
// (hpbvalve_launch_profile.h: the sub-regions it reads first after becoming foreground,
// bounded to profile_entries entries) is prefetched when it returns.
//
// Which app is in the foreground: the stream of the most recent read (the app-switch
// workloads run one app at a time; a trace's process names are its streams). A read from
// another stream is a foreground switch: AFG is demoted to IFG in one splice.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include "host/hpb_host_cache.h"
#include "host/hpbvalve_launch_profile.h"
#include "host/hpbvalve_lists.h"

namespace ufs {

class HpbValvePolicy : public HpbPolicy {
 public:
  using List = HpbValveLists::List;
  // profile_entries: the launch profile's bound in entries (1 MB of 8-byte entries = 131072);
  // profile_reads: how many reads after a switch count as the launch.
  explicit HpbValvePolicy(uint64_t profile_entries = 131072, uint32_t profile_reads = 2048)
      : profile_entries_(profile_entries), profile_reads_(profile_reads) {}
  const char* name() const override { return "hpbvalve"; }
  void on_app(HpbHostCache& cache, uint32_t app, uint64_t now_ps) override;
  void on_read(HpbHostCache& cache, uint32_t subregion, uint64_t now_ps) override;
  void on_sense(HpbHostCache& cache, const uint8_t* descriptor) override;
  int64_t choose_victim(HpbHostCache& cache, uint32_t for_region) override;

  // For tests and stats (lists hold regions).
  List list_of(uint32_t region) const { return lists_ && region < regions_ ? lists_->list_of(region) : List::None; }
  uint32_t list_size(List l) const { return lists_ ? lists_->size(l) : 0; }
  uint32_t foreground() const { return foreground_; }
  uint64_t switches() const { return switches_; }
  uint64_t prefetched_subregions() const { return prefetched_; }
  size_t profile_size(uint32_t app) const { return profiles_ ? profiles_->prefetch(app_key(app)).size() : 0; }

 private:
  void setup(const HpbHostCache& cache);  // on first use: the cache's geometry
  static std::string app_key(uint32_t app) { return std::to_string(app); }
  uint64_t profile_entries_;
  uint32_t profile_reads_;
  uint32_t regions_ = 0;
  std::unique_ptr<HpbValveLists> lists_;
  std::unique_ptr<HpbValveLaunchProfile> profiles_;
  std::unordered_map<uint32_t, uint32_t> launch_reads_;  // per app: reads recorded in this launch
  uint32_t foreground_ = UINT32_MAX;
  uint64_t switches_ = 0, prefetched_ = 0;
};

}  // namespace ufs
