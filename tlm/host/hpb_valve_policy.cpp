#include "host/hpb_valve_policy.h"

namespace ufs {

void HpbValvePolicy::setup(const HpbHostCache& cache) {
  if (lists_) return;
  regions_ = cache.regions();
  lists_ = std::make_unique<HpbValveLists>(regions_);
  const uint64_t entries_per_sub = cache.device().subregion_blocks;
  profiles_ = std::make_unique<HpbValveLaunchProfile>(profile_entries_ * 8, entries_per_sub * 8);
}

void HpbValvePolicy::on_app(HpbHostCache& cache, uint32_t app, uint64_t) {
  if (app == foreground_) return;
  setup(cache);
  ++switches_;
  foreground_ = app;
  lists_->demote_foreground();  // the previous foreground app's regions: inactive foreground
  // Launch: prefetch what this app read first last time, into the active foreground.
  for (uint32_t s : profiles_->prefetch(app_key(app))) {
    if (s >= cache.subregions()) continue;
    const bool cached = cache.state(s) != HpbHostCache::SubState::Inactive;
    if (!cached && cache.request_fetch(s, false)) ++prefetched_;
    if (cache.state(s) != HpbHostCache::SubState::Inactive) lists_->touch(cache.region_of(s), List::ActiveFg);
  }
  launch_reads_[app] = 0;  // this launch records afresh, keeping what the last one found
}

void HpbValvePolicy::on_read(HpbHostCache& cache, uint32_t s, uint64_t) {
  setup(cache);
  // A background app's or the system's read: no profile, no fetch of its own (the
  // device's recommendations bring such regions in as background); it refreshes the
  // region's place in whichever list holds it.
  if (!cache.read_foreground()) {
    if (cache.state(s) != HpbHostCache::SubState::Inactive) {
      const uint32_t region = cache.region_of(s);
      const List l = lists_->list_of(region);
      lists_->touch(region, l == List::None ? List::Background : l);
    }
    return;
  }
  // Record the launch profile: the sub-regions of the first profile_reads_ reads.
  if (foreground_ != UINT32_MAX) {
    uint32_t& reads = launch_reads_[foreground_];
    if (reads < profile_reads_) {
      ++reads;
      profiles_->record(app_key(foreground_), s);
    }
  }
  // A foreground miss is cached at once; what the foreground reads is active foreground.
  if (cache.state(s) == HpbHostCache::SubState::Inactive && !cache.request_fetch(s, false)) return;
  lists_->touch(cache.region_of(s), List::ActiveFg);
}

void HpbValvePolicy::on_sense(HpbHostCache& cache, const uint8_t* d) {
  setup(cache);
  // Inactivations are obeyed; activations are fetched as background (the foreground
  // fetches its own on first read).
  const uint32_t inactive = std::min<uint32_t>(d[5], 2), active = std::min<uint32_t>(d[4], 2);
  for (uint32_t i = 0; i < inactive; ++i) {
    const uint32_t region = uint32_t(d[14 + 2 * i]) << 8 | d[15 + 2 * i];
    if (region < cache.regions() && !cache.pinned(region)) {
      cache.drop_region(region, false);
      ++cache.mutable_stats().device_inactivations;
      lists_->remove(region);
    }
  }
  for (uint32_t i = 0; i < active; ++i) {
    const uint32_t s = (uint32_t(d[6 + 4 * i]) << 8 | d[7 + 4 * i]) * cache.subs_per_region() +
                       (uint32_t(d[8 + 4 * i]) << 8 | d[9 + 4 * i]);
    if (s >= cache.subregions()) continue;
    const bool was = cache.state(s) != HpbHostCache::SubState::Inactive;
    if (!cache.request_fetch(s, false, true)) continue;
    const uint32_t region = cache.region_of(s);
    if (!was && lists_->list_of(region) == List::None) lists_->touch(region, List::Background);
  }
}

// BG first, then IFG, least recently used first; never AFG. Regions the cache dropped
// meanwhile (device inactivation) leave the lists here.
int64_t HpbValvePolicy::choose_victim(HpbHostCache& cache, uint32_t for_region) {
  setup(cache);
  for (List l : {List::Background, List::InactiveFg}) {
    for (uint32_t r = lists_->lru(l); r != HpbValveLists::kNil;) {
      const uint32_t next = lists_->next(r);
      if (!cache.region_active(r)) {
        lists_->remove(r);
      } else if (r != for_region && !cache.pinned(r)) {
        lists_->remove(r);
        return r;
      }
      r = next;
    }
  }
  return -1;
}

}  // namespace ufs
