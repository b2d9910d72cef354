#include "hpb/hpb_freshness.h"
#include <algorithm>
#include "ftl/l2p_map.h"
#include "hpb/hpb_ftl.h"

namespace ufs {

HpbFreshness::HpbFreshness(Hal& hal, const HpbDeviceParams& params, HpbRegions& regions)
    : hal_(hal), params_(params), regions_(regions), change_count_(regions.subregions(), 0) {}

void HpbFreshness::power_up() {
  changed_.clear();
  updates_ready_.clear();
}

void HpbFreshness::track_change(uint64_t lba, uint32_t value) {
  const uint32_t s = regions_.subregion_of(lba);
  auto it = changed_.find(lba);
  const bool host_write = L2pMap::is_cached(value);
  if (value == L2pMap::kUnmapped || (it == changed_.end() && !host_write)) { regions_.mark_dirty(s); return; }
  if (it == changed_.end()) {
    if (changed_.size() >= params_.response_delta_entries) {
      ++stats_.delta_overflows;
      regions_.mark_dirty(s);
      return;
    }
    it = changed_.emplace(lba, kInCache).first;
    stats_.delta_peak = std::max<uint64_t>(stats_.delta_peak, changed_.size());
  }
  hal_.charge_cycles(params_.cycles_dirty_mark);
  ++stats_.delta_changes;
  ++change_count_[s];
  regions_.break_run(s, lba % regions_.subregion_blocks());
  if (host_write) { it->second = kInCache; return; }
  it->second = value;  // programmed: sign the new entry for the host
  hal_.charge_cycles(params_.cycles_sign_entry);
  HpbCryptoJob job;
  job.kind = HpbCryptoJob::Sign;
  job.lba = lba;
  job.ppn = value;
  job.lun = publish_lun_;
  job.generation = regions_.generation(s);
  job.cookie = hpb_cookie::kUpdate | lba;
  hal_.submit_crypto(job);
  ++stats_.entries_signed;
}

bool HpbFreshness::has_changes(uint32_t s) const {
  if (changed_.empty()) return false;
  const uint64_t first = uint64_t(s) * regions_.subregion_blocks();
  const auto it = changed_.lower_bound(first);
  return it != changed_.end() && it->first < first + regions_.subregion_blocks();
}

void HpbFreshness::drop_changes(uint32_t s) {
  if (changed_.empty()) return;
  const uint64_t first = uint64_t(s) * regions_.subregion_blocks();
  changed_.erase(changed_.lower_bound(first), changed_.lower_bound(first + regions_.subregion_blocks()));
}

void HpbFreshness::update_signed(const HpbCryptoResult& r) {
  const uint64_t lba = r.cookie & 0xFFFFFFFFull;
  const auto it = changed_.find(lba);
  if (r.valid && it != changed_.end() && it->second == r.ppn) updates_ready_.push_back({lba, r.ppn, r.entry});
}

// Only if the change is still the latest one.
void HpbFreshness::add_updates(CommandResponse& r) {
  while (r.hpb_entry_count < params_.response_entries && !updates_ready_.empty()) {
    const SignedUpdate u = updates_ready_.front();
    updates_ready_.pop_front();
    const auto it = changed_.find(u.lba);
    if (it == changed_.end() || it->second != u.ppa) continue;
    r.hpb_entries[r.hpb_entry_count++] = HpbEntryUpdate{uint32_t(u.lba), u.entry};
    ++stats_.response_entries_sent;
  }
}

}  // namespace ufs
