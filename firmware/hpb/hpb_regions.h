// The device's record of what the host holds. Per sub-region: whether the entries it
// published still hold (dirty), the generation they were signed under, which
// neighbouring entries are physically contiguous (HPB 2.0 runs from one entry), and the
// SRAM misses counted toward a recommendation. Per region: whether the host was told to
// hold it (the least recently activated goes first when too many are), and the
// activate / inactivate recommendations waiting to ride on a GOOD response (device
// control mode).
#pragma once
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>
#include "hal/hal.h"
#include "hpb/hpb_params.h"
#include "map/map_store.h"

namespace ufs {

// Entries tracked one by one inside a sub-region (hpb.response_entries; HpbFreshness):
// they die when the sub-region is republished, dirtied or inactivated.
class SubregionChanges {
 public:
  virtual ~SubregionChanges() = default;
  virtual bool has_changes(uint32_t subregion) const = 0;
  virtual void drop_changes(uint32_t subregion) = 0;
};

struct HpbRegionStats {
  uint64_t dirty_marks = 0;             // clean published sub-regions made dirty (writes, UNMAP, GC)
  uint64_t activate_recommendations = 0, inactivate_recommendations = 0;
  uint64_t responses_with_hpb_sense = 0;
};

class HpbRegions : public MapMissListener {
 public:
  HpbRegions(Hal& hal, const HpbDeviceParams& params, uint64_t logical_blocks);
  void set_changes(SubregionChanges* changes) { changes_ = changes; }

  uint32_t subregions() const { return uint32_t(dirty_.size()); }
  uint32_t regions() const { return regions_; }
  uint32_t subregions_per_region() const { return subregions_per_region_; }
  uint64_t subregion_blocks() const { return subregion_blocks_; }
  uint32_t subregion_of(uint64_t lba) const { return uint32_t(lba / subregion_blocks_); }
  bool dirty(uint32_t s) const { return dirty_[s] != 0; }
  uint32_t generation(uint32_t s) const { return generation_[s]; }
  uint32_t active_regions() const { return uint32_t(active_lru_.size()); }

  // READ BUFFER: the sub-region becomes clean under a fresh generation (unless it already
  // was: its entries are then the same as those handed out before); its region is active.
  void publish(uint32_t s);
  // A map change the device does not track entry by entry: the entries handed out die.
  void mark_dirty(uint32_t s);
  // Contiguity of the published entries: offset's PPA + 1 == PPA of offset + 1.
  void record_contiguous(uint32_t s, uint32_t offset) { contiguous_[s][offset / 64] |= 1ull << (offset % 64); }
  // True if the blocks [first, first + blocks) of sub-region s are one physical run.
  bool contiguous_run(uint32_t s, uint32_t first, uint32_t blocks) const;
  // One entry changed (tracked): the runs through it no longer hold.
  void break_run(uint32_t s, uint64_t offset);

  void on_map_miss(uint64_t lba) override;  // device control mode counts SRAM misses
  void inactivate(uint32_t region);          // WRITE BUFFER 0x01 (pinned regions stay)
  // Every region: WRITE BUFFER 0x03 leaves the pinned ones, fHPBEn cleared takes them too.
  void inactivate_all(bool pinned_too);
  void reset();                              // fHPBReset: all inactive, the host told to reset
  void power_up();                           // new session key: nothing published holds
  // A GOOD response: pending recommendations (or the reset) go into its sense data.
  void add_recommendations(CommandResponse& r);

  // The controller's RAM (core/firmware_ram.h): the per-region and per-sub-region state, and
  // the contiguity bits of the sub-regions published now (a bit per LBA the host holds).
  uint64_t ram_bytes() const;

  const HpbRegionStats& stats() const { return stats_; }

 private:
  bool pinned(uint32_t region) const {
    return region >= params_.pinned_start_region && region < params_.pinned_start_region + params_.pinned_regions;
  }
  void activate_region(uint32_t region, bool recommend, uint32_t subregion);
  void deactivate_region(uint32_t region);  // the host no longer holds it: its entries are dead

  Hal& hal_;
  const HpbDeviceParams& params_;
  SubregionChanges* changes_ = nullptr;
  uint64_t subregion_blocks_;
  uint32_t subregions_per_region_;
  uint32_t regions_;
  uint32_t global_generation_ = 0;
  std::vector<uint8_t> dirty_;          // per sub-region: changed since published (1 = never published too)
  std::vector<uint32_t> generation_;    // per sub-region: generation of its last publication
  std::vector<uint8_t> update_recommended_;  // per sub-region: re-activation already recommended
  std::vector<uint16_t> miss_count_;    // per sub-region: SRAM misses (device control mode)
  std::vector<std::vector<uint64_t>> contiguous_;  // per published sub-region: bit i = PPA(i+1) == PPA(i)+1
  std::vector<uint8_t> region_active_;  // per region: the host was told to hold it (device control mode)
  std::deque<uint32_t> active_lru_;     // active regions, least recently activated first
  std::deque<std::pair<uint32_t, uint32_t>> to_activate_;  // (region, sub-region) recommendations pending
  std::deque<uint32_t> to_inactivate_;
  bool reset_pending_ = false;
  HpbRegionStats stats_;
};

}  // namespace ufs
