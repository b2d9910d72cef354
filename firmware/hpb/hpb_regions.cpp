#include "hpb/hpb_regions.h"
#include <algorithm>
#include "core/firmware_ram.h"

namespace ufs {

HpbRegions::HpbRegions(Hal& hal, const HpbDeviceParams& params, uint64_t logical_blocks)
    : hal_(hal), params_(params), subregion_blocks_(params.subregion_blocks()),
      subregions_per_region_(uint32_t(params.region_blocks() / params.subregion_blocks())) {
  const uint32_t subregions = uint32_t((logical_blocks + subregion_blocks_ - 1) / subregion_blocks_);
  regions_ = (subregions + subregions_per_region_ - 1) / subregions_per_region_;
  dirty_.assign(subregions, 1);  // nothing published yet
  generation_.assign(subregions, 0);
  update_recommended_.assign(subregions, 0);
  miss_count_.assign(subregions, 0);
  contiguous_.resize(subregions);
  region_active_.assign(regions_, 0);
  for (uint32_t r = params.pinned_start_region; r < params.pinned_start_region + params.pinned_regions && r < regions_; ++r)
    region_active_[r] = 1;
}

void HpbRegions::power_up() {
  std::fill(dirty_.begin(), dirty_.end(), 1);
  std::fill(update_recommended_.begin(), update_recommended_.end(), 0);
  for (auto& c : contiguous_) std::vector<uint64_t>().swap(c);
  global_generation_ = 0;
}

void HpbRegions::publish(uint32_t s) {
  update_recommended_[s] = 0;
  miss_count_[s] = 0;
  const uint32_t region = s / subregions_per_region_;
  if (!region_active_[region]) activate_region(region, false, s % subregions_per_region_);
  if (!dirty_[s] && !(changes_ && changes_->has_changes(s))) return;
  dirty_[s] = 0;
  // The new generation's entries carry every change; older entries die with the old generation.
  if (changes_) changes_->drop_changes(s);
  generation_[s] = ++global_generation_;
  contiguous_[s].assign((subregion_blocks_ + 63) / 64, 0);
}

void HpbRegions::mark_dirty(uint32_t s) {
  hal_.charge_cycles(params_.cycles_dirty_mark);
  ++stats_.dirty_marks;
  dirty_[s] = 1;
  if (changes_) changes_->drop_changes(s);
  std::vector<uint64_t>().swap(contiguous_[s]);
  // Device control mode: the host holds this sub-region; recommend fetching it again.
  const uint32_t region = s / subregions_per_region_;
  if (!params_.host_control() && region_active_[region] && !update_recommended_[s]) {
    update_recommended_[s] = 1;
    to_activate_.emplace_back(region, s % subregions_per_region_);
    ++stats_.activate_recommendations;
  }
}

bool HpbRegions::contiguous_run(uint32_t s, uint32_t first, uint32_t blocks) const {
  const std::vector<uint64_t>& bits = contiguous_[s];
  for (uint32_t i = first; i + 1 < first + blocks; ++i)
    if (bits.empty() || !(bits[i / 64] >> (i % 64) & 1)) return false;
  return true;
}

void HpbRegions::break_run(uint32_t s, uint64_t offset) {
  std::vector<uint64_t>& bits = contiguous_[s];
  if (bits.empty()) return;
  bits[offset / 64] &= ~(1ull << (offset % 64));
  if (offset > 0) bits[(offset - 1) / 64] &= ~(1ull << ((offset - 1) % 64));
}

void HpbRegions::on_map_miss(uint64_t lba) {
  if (params_.host_control()) return;
  const uint32_t s = subregion_of(lba);
  // A clean published sub-region is already in the host: its misses come from reads the
  // host sent without an entry (too long, not contiguous), and fetching it again would not help.
  if (!dirty_[s] && region_active_[s / subregions_per_region_]) return;
  if (update_recommended_[s] || ++miss_count_[s] < params_.dcm_activate_misses) return;
  miss_count_[s] = 0;
  update_recommended_[s] = 1;
  activate_region(s / subregions_per_region_, true, s % subregions_per_region_);
}

void HpbRegions::activate_region(uint32_t region, bool recommend, uint32_t subregion) {
  if (!region_active_[region]) {
    if (!pinned(region)) {
      if (active_lru_.size() >= params_.max_active_regions) {
        const uint32_t victim = active_lru_.front();
        deactivate_region(victim);
        if (!params_.host_control()) {
          to_inactivate_.push_back(victim);
          ++stats_.inactivate_recommendations;
        }
      }
      active_lru_.push_back(region);
    }
    region_active_[region] = 1;
  }
  if (recommend) {
    to_activate_.emplace_back(region, subregion);
    ++stats_.activate_recommendations;
  }
}

// The host no longer holds the region: its entries are ignored from now on.
void HpbRegions::deactivate_region(uint32_t region) {
  if (!region_active_[region]) return;
  region_active_[region] = 0;
  const auto it = std::find(active_lru_.begin(), active_lru_.end(), region);
  if (it != active_lru_.end()) active_lru_.erase(it);
  const uint32_t first = region * subregions_per_region_;
  for (uint32_t s = first; s < first + subregions_per_region_ && s < dirty_.size(); ++s) {
    dirty_[s] = 1;
    if (changes_) changes_->drop_changes(s);
    update_recommended_[s] = 0;
    std::vector<uint64_t>().swap(contiguous_[s]);
  }
}

void HpbRegions::inactivate(uint32_t region) {
  if (!pinned(region)) deactivate_region(region);
}

void HpbRegions::inactivate_all(bool pinned_too) {
  for (uint32_t r = 0; r < regions_; ++r)
    if (pinned_too || !pinned(r)) deactivate_region(r);
}

void HpbRegions::reset() {
  inactivate_all(true);
  to_activate_.clear();
  to_inactivate_.clear();
  reset_pending_ = !params_.host_control();
}

void HpbRegions::add_recommendations(CommandResponse& r) {
  if (!reset_pending_ && to_activate_.empty() && to_inactivate_.empty()) return;
  // Sense data descriptor 0x80 (the Linux driver's struct utp_hpb_rsp from desc_type on).
  auto& d = r.hpb_sense_descriptor;
  d.fill(0);
  d[0] = hpb_op::kSenseDescriptorType;
  d[1] = 0x10;
  d[3] = r.lun;
  if (reset_pending_) {
    reset_pending_ = false;
    d[2] = hpb_op::kRspDeviceReset;
  } else {
    d[2] = hpb_op::kRspRegionUpdate;
    uint8_t act = 0, inact = 0;
    while (act < 2 && !to_activate_.empty()) {
      put_be16(&d[6 + 4 * act], to_activate_.front().first);
      put_be16(&d[8 + 4 * act], to_activate_.front().second);
      to_activate_.pop_front();
      ++act;
    }
    while (inact < 2 && !to_inactivate_.empty()) {
      put_be16(&d[14 + 2 * inact], to_inactivate_.front());
      to_inactivate_.pop_front();
      ++inact;
    }
    d[4] = act;
    d[5] = inact;
  }
  r.hpb_update_alert = true;
  ++stats_.responses_with_hpb_sense;
}

uint64_t HpbRegions::ram_bytes() const {
  uint64_t b = vector_bytes(dirty_) + vector_bytes(generation_) + vector_bytes(update_recommended_) +
              vector_bytes(miss_count_) + vector_bytes(contiguous_) + vector_bytes(region_active_);
  for (const std::vector<uint64_t>& bits : contiguous_) b += vector_bytes(bits);
  return b;
}

}  // namespace ufs
