// HPBvalve's host policy (Park et al., FAST'23; seed 000): the host HPB cache serves the
// foreground app first. Regions sit in three LRU lists, active foreground (AFG: the
// current foreground app's), inactive foreground (IFG: earlier foreground apps') and
// background (BG: fetched for anything else, e.g. the device's recommendations). Eviction
// takes BG first, then IFG, never AFG. A foreground app's misses are fetched at once (no
// read-count threshold), and a per-app launch profile (the sub-regions it reads first after
// becoming foreground, bounded to profile_kib of entries) is prefetched when it returns.
//
// Which app is in the foreground: the stream of the most recent read (the app-switch
// workloads run one app at a time; a trace's process names are its streams). A read from
// another stream is a foreground switch: AFG is demoted to IFG in one splice (O(1)).
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>
#include "host/hpb_host_cache.h"

namespace ufs {

class HpbValvePolicy : public HpbPolicy {
 public:
  enum class List : uint8_t { None, ActiveForeground, InactiveForeground, Background };
  // profile_entries: the launch profile's bound in entries (1 MB of 8-byte entries = 131072);
  // profile_reads: how many reads after a switch count as the launch.
  explicit HpbValvePolicy(uint64_t profile_entries = 131072, uint32_t profile_reads = 2048)
      : profile_entries_(profile_entries), profile_reads_(profile_reads) {}
  const char* name() const override { return "hpbvalve"; }
  void on_app(HpbHostCache& cache, uint32_t app, uint64_t now_ps) override;
  void on_read(HpbHostCache& cache, uint32_t subregion, uint64_t now_ps) override;
  void on_sense(HpbHostCache& cache, const uint8_t* descriptor) override;
  int64_t choose_victim(HpbHostCache& cache, uint32_t for_region) override;

  // For tests and stats.
  List list_of(uint32_t region) const { return region < where_.size() ? where_[region] : List::None; }
  size_t list_size(List l) const { return lists_[int(l)].size(); }
  uint32_t foreground() const { return foreground_; }
  uint64_t switches() const { return switches_; }
  uint64_t prefetched_subregions() const { return prefetched_; }
  size_t profile_size(uint32_t app) const;

 private:
  void place(uint32_t region, List l);  // to the most recently used end of l, O(1)
  void size_for(uint32_t regions);
  uint64_t profile_entries_;
  uint32_t profile_reads_;
  std::list<uint32_t> lists_[4];                 // index = List; front = least recently used
  std::vector<List> where_;                      // per region
  std::vector<std::list<uint32_t>::iterator> pos_;
  struct Profile {
    std::vector<uint32_t> subregions;            // in first-read order, no duplicates
    uint32_t reads_recorded = 0;
  };
  std::unordered_map<uint32_t, Profile> profiles_;
  std::vector<uint32_t> in_profile_;             // per sub-region: app + 1 that last recorded it
  uint32_t foreground_ = UINT32_MAX;
  uint64_t switches_ = 0, prefetched_ = 0;
};

}  // namespace ufs
