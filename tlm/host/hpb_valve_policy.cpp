#include "host/hpb_valve_policy.h"

namespace ufs {

void HpbValvePolicy::size_for(uint32_t regions) {
  if (where_.size() >= regions) return;
  where_.resize(regions, List::None);
  pos_.resize(regions);
}

void HpbValvePolicy::place(uint32_t region, List l) {
  size_for(region + 1);
  if (where_[region] != List::None) lists_[int(where_[region])].erase(pos_[region]);
  lists_[int(l)].push_back(region);
  pos_[region] = std::prev(lists_[int(l)].end());
  where_[region] = l;
}

size_t HpbValvePolicy::profile_size(uint32_t app) const {
  const auto it = profiles_.find(app);
  return it == profiles_.end() ? 0 : it->second.subregions.size();
}

void HpbValvePolicy::on_app(HpbHostCache& cache, uint32_t app, uint64_t) {
  if (app == foreground_) return;
  ++switches_;
  foreground_ = app;
  // The previous foreground app's regions become inactive foreground, most recent last.
  auto& afg = lists_[int(List::ActiveForeground)];
  for (uint32_t r : afg) where_[r] = List::InactiveForeground;
  auto& ifg = lists_[int(List::InactiveForeground)];
  ifg.splice(ifg.end(), afg);
  // Launch: prefetch what this app read first last time, into the active foreground.
  Profile& p = profiles_[app];
  for (uint32_t s : p.subregions) {
    if (s >= cache.subregions()) continue;
    const bool cached = cache.state(s) != HpbHostCache::SubState::Inactive;
    if (!cached && cache.request_fetch(s, false)) ++prefetched_;
    if (cached || cache.state(s) != HpbHostCache::SubState::Inactive) place(cache.region_of(s), List::ActiveForeground);
  }
  p.reads_recorded = 0;  // this launch records afresh, keeping what the last one found
}

void HpbValvePolicy::on_read(HpbHostCache& cache, uint32_t s, uint64_t) {
  size_for(cache.regions());
  in_profile_.resize(cache.subregions(), 0);
  // Record the launch profile: the sub-regions of the first profile_reads_ reads.
  if (foreground_ != UINT32_MAX) {
    Profile& p = profiles_[foreground_];
    if (p.reads_recorded < profile_reads_) {
      ++p.reads_recorded;
      const uint64_t bound = profile_entries_ / std::max<uint64_t>(1, cache.device().subregion_blocks);
      if (in_profile_[s] != foreground_ + 1 && p.subregions.size() < std::max<uint64_t>(1, bound)) {
        in_profile_[s] = foreground_ + 1;
        p.subregions.push_back(s);
      }
    }
  }
  // A foreground miss is cached at once; what the foreground reads is active foreground.
  if (cache.state(s) == HpbHostCache::SubState::Inactive && !cache.request_fetch(s, false)) return;
  place(cache.region_of(s), List::ActiveForeground);
}

void HpbValvePolicy::on_sense(HpbHostCache& cache, const uint8_t* d) {
  // Inactivations are obeyed; activations are fetched as background (the foreground
  // fetches its own on first read).
  const uint32_t inactive = std::min<uint32_t>(d[5], 2), active = std::min<uint32_t>(d[4], 2);
  for (uint32_t i = 0; i < inactive; ++i) {
    const uint32_t region = uint32_t(d[14 + 2 * i]) << 8 | d[15 + 2 * i];
    if (region < cache.regions() && !cache.pinned(region)) {
      cache.drop_region(region, false);
      ++cache.mutable_stats().device_inactivations;
      size_for(region + 1);
      if (where_[region] != List::None) { lists_[int(where_[region])].erase(pos_[region]); where_[region] = List::None; }
    }
  }
  for (uint32_t i = 0; i < active; ++i) {
    const uint32_t s = (uint32_t(d[6 + 4 * i]) << 8 | d[7 + 4 * i]) * cache.subs_per_region() +
                       (uint32_t(d[8 + 4 * i]) << 8 | d[9 + 4 * i]);
    if (s >= cache.subregions()) continue;
    const bool was = cache.state(s) != HpbHostCache::SubState::Inactive;
    if (!cache.request_fetch(s, false, true)) continue;
    const uint32_t region = cache.region_of(s);
    size_for(region + 1);
    if (!was && where_[region] == List::None) place(region, List::Background);
  }
}

// BG first, then IFG, least recently used first; never AFG. Regions the cache dropped
// meanwhile (device inactivation) leave the lists here.
int64_t HpbValvePolicy::choose_victim(HpbHostCache& cache, uint32_t for_region) {
  for (List l : {List::Background, List::InactiveForeground}) {
    auto& list = lists_[int(l)];
    for (auto it = list.begin(); it != list.end();) {
      const uint32_t r = *it;
      if (!cache.region_active(r)) { where_[r] = List::None; it = list.erase(it); continue; }
      if (r == for_region || cache.pinned(r)) { ++it; continue; }
      list.erase(it);
      where_[r] = List::None;
      return r;
    }
  }
  return -1;
}

}  // namespace ufs
