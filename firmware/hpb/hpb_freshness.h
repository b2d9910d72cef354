// Which entries handed out still hold, entry by entry (hpb.response_entries, after
// HotStorage'17's prototype): a host write keeps its published sub-region clean. The
// device tracks the changed entry (first "in the write cache", then its new PPA once
// programmed), counts the changes per sub-region (an HPB READ in flight compares the
// count), rejects entries that predate a change, and signs the new entry for a later
// RESPONSE (the entries programmed in one event's handler go to the crypto engine as one
// sign batch when it ends: flush); the host, which marked the entry dirty when it wrote,
// takes it back. Moves it
// does not track (GC, wear levelling), UNMAP and a full table dirty the sub-region as
// JEDEC HPB does.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include "hal/hal.h"
#include "hpb/hpb_change_table.h"
#include "hpb/hpb_params.h"
#include "hpb/hpb_regions.h"

namespace ufs {

struct HpbFreshnessStats {
  uint64_t delta_changes = 0;          // map changes tracked entry by entry instead of dirtying the sub-region
  uint64_t delta_overflows = 0;        // tracking full: the sub-region was marked dirty instead
  uint64_t response_entries_sent = 0;  // updated entries sent in RESPONSE UPIUs
  uint64_t delta_peak = 0;             // most changed entries tracked at once
  uint64_t entries_signed = 0;         // updated entries signed for the host
};

class HpbFreshness : public SubregionChanges {
 public:
  HpbFreshness(Hal& hal, const HpbDeviceParams& params, HpbRegions& regions);

  // The FTL mapped lba to value (a clean published sub-region, response_entries on).
  void track_change(uint64_t lba, uint32_t value);
  bool has_changes(uint32_t s) const override;
  void drop_changes(uint32_t s) override;
  // False if the entry for lba predates a tracked change (or its data is still in the cache).
  bool entry_ok(uint64_t lba, uint32_t ppa) const {
    const uint32_t* v = changed_.find(uint32_t(lba));
    return !v || *v == ppa;
  }
  bool tracking() const { return !changed_.empty(); }
  uint32_t changes(uint32_t s) const { return change_count_[s]; }
  void set_publish_lun(uint8_t lun) { publish_lun_ = lun; }  // updates are signed for the LU the host fetches
  void flush();                                   // the event's handler ends: sign what it programmed
  void update_signed(const HpbCryptoResult& r);  // the crypto engine signed a batch of updated entries
  void add_updates(CommandResponse& r);           // updated entries ride on a GOOD response
  void power_up();                                // new session key: every signed update is dead
  // The controller's RAM the tracking table takes (core/firmware_ram.h; 0 without response_entries).
  uint64_t ram_bytes() const { return params_.response_entries ? changed_.ram_bytes() : 0; }

  const HpbFreshnessStats& stats() const { return stats_; }

 private:
  static constexpr uint32_t kInCache = 0xFFFFFFFEu;  // the new data is still in the write cache
  struct SignedUpdate { uint64_t lba; uint32_t ppa; uint64_t entry; };
  struct Batch {                    // a sign batch the engine has (items and entries stay put)
    uint64_t id = 0;
    uint32_t epoch = 0;             // power cycle it was signed in
    std::vector<HpbSignItem> items;
    std::vector<uint8_t> entries;
  };

  Hal& hal_;
  const HpbDeviceParams& params_;
  HpbRegions& regions_;
  HpbChangeTable changed_;  // changed entries by LBA (the device's LBAs are 32-bit): the new PPA or kInCache
  std::vector<uint32_t> change_count_;    // per sub-region
  std::deque<SignedUpdate> updates_ready_;
  std::vector<HpbSignItem> to_sign_;      // programmed in this handler: the next batch
  std::deque<Batch> batches_;              // with the engine
  std::vector<Batch> spare_batches_;       // done: their vectors kept for the next ones
  uint64_t next_batch_ = 1;
  uint32_t epoch_ = 0;
  uint8_t publish_lun_ = 0;
  HpbFreshnessStats stats_;
};

}  // namespace ufs
