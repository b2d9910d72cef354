// The host side of HPB, as the Linux UFS driver's HPB module does it
// (drivers/ufs/core/ufshpb.c): a host-memory cache of the device's signed L2P
// entries per region / sub-region, READ(16) turned into HPB READ when the
// entries are there and clean, READ BUFFER to fetch a sub-region (throttled, when
// few commands are outstanding), WRITE BUFFER to inactivate regions, per-entry
// dirty marking on the host's own writes and UNMAPs, and a pluggable policy
// (device control mode follows the device's recommendations in RESPONSE sense
// data; host control mode counts reads). Plain C++ (no SystemC): the HostDriver
// calls it with the current time.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>
#include "hal/host_types.h"
#include "host/hpb_host_params.h"

namespace ufs {

// Regions in least-recently-used order as a doubly linked list over region indices:
// moving a region to the back on every read costs O(1), not a search of a deque.
class RegionList {
 public:
  void resize(uint32_t n) {
    prev_.assign(n + 1, n);
    next_.assign(n + 1, n);
    end_ = n;
  }
  bool empty() const { return next_[end_] == end_; }
  uint32_t back() const { return prev_[end_]; }
  void push_back(uint32_t r) {
    const uint32_t last = prev_[end_];
    next_[last] = r;
    prev_[r] = last;
    next_[r] = end_;
    prev_[end_] = r;
  }
  void erase(uint32_t r) {
    next_[prev_[r]] = next_[r];
    prev_[next_[r]] = prev_[r];
  }
  class iterator {
   public:
    iterator(const RegionList* l, uint32_t at) : l_(l), at_(at) {}
    uint32_t operator*() const { return at_; }
    iterator& operator++() {
      at_ = l_->next_[at_];
      return *this;
    }
    bool operator!=(const iterator& o) const { return at_ != o.at_; }

   private:
    const RegionList* l_;
    uint32_t at_;
  };
  iterator begin() const { return iterator(this, next_[end_]); }
  iterator end() const { return iterator(this, end_); }

 private:
  std::vector<uint32_t> prev_, next_;  // index end_ is the sentinel
  uint32_t end_ = 0;
};

// What the host learned about the device's HPB at probe time (QUERY descriptors,
// attributes and flags; HpbDeviceInfo::from_query parses them).
struct HpbDeviceInfo {
  bool supported = false;
  bool host_control = false;        // bHPBControl = 0
  uint32_t version = 0x200;
  uint64_t logical_blocks = 0;
  uint64_t region_blocks = 4096;
  uint64_t subregion_blocks = 4096;
  uint32_t max_active_regions = 1;
  uint32_t max_read_blocks = 1;     // bMAX_DATA_SIZE_FOR_HPB_SINGLE_CMD (HPB 1.0: 1)
  uint32_t pinned_start = 0, pinned_count = 0;
  uint8_t lun = 0;
};

struct HpbHostStats {
  uint64_t reads_seen = 0;           // block reads the driver looked at
  uint64_t hpb_reads = 0;            // sent as HPB READ
  uint64_t read_buffers = 0;         // READ BUFFER (map) commands completed
  uint64_t read_buffer_bytes = 0;
  uint64_t read_buffer_failures = 0;
  uint64_t write_buffers = 0;        // WRITE BUFFER (inactivate) commands sent
  uint64_t activations = 0;          // sub-regions fetched into the cache
  uint64_t evictions = 0;            // regions dropped to make room
  uint64_t device_inactivations = 0; // regions dropped because the device said so
  uint64_t timeouts = 0;             // host control mode: regions dropped by the read timer
  uint64_t recommendations = 0;      // RESPONSEs with the HPB update alert
  uint64_t dirty_marks = 0;          // cached entries made dirty by the host's writes
  uint64_t memory_bytes = 0;         // host memory now held by entries
  uint64_t peak_memory_bytes = 0;
  uint64_t lookup_ns = 0;            // host CPU spent building HPB READs
  uint64_t map_copy_ns = 0;          // host time copying READ BUFFER data into the cache
  uint64_t regulator_drops = 0;      // regions dropped to give memory back (shrink)
  uint64_t response_entries = 0;     // updated entries that came in RESPONSEs (hpb.response_entries)
  uint64_t response_entries_used = 0;  // of them, written into the cache (dirty bit cleared)
};

class HpbHostCache;

// Decides which sub-regions the host caches. A later policy (foreground-aware
// HPBvalve) plugs in here.
class HpbPolicy {
 public:
  virtual ~HpbPolicy() = default;
  virtual const char* name() const = 0;
  // A block read of this sub-region is about to be issued (normal READ or HPB READ).
  virtual void on_read(HpbHostCache& cache, uint32_t subregion, uint64_t now_ps) = 0;
  // A RESPONSE carried HPB sense data (descriptor type 0x80, 18 bytes from desc_type).
  virtual void on_sense(HpbHostCache& cache, const uint8_t* descriptor) = 0;
  virtual void on_tick(HpbHostCache& cache, uint64_t now_ps) {}
  // The app (workload stream) a read comes from, before on_read.
  virtual void on_app(HpbHostCache& cache, uint32_t app, uint64_t now_ps) {}
  // Room is needed for for_region: the region to drop, or -1 for the cache's own LRU choice.
  virtual int64_t choose_victim(HpbHostCache& cache, uint32_t for_region) { return -1; }
};

// Linux device control mode: activate / inactivate what the device recommends.
class HpbDeviceControlPolicy : public HpbPolicy {
 public:
  const char* name() const override { return "device"; }
  void on_read(HpbHostCache&, uint32_t, uint64_t) override {}
  void on_sense(HpbHostCache& cache, const uint8_t* descriptor) override;
};

// Linux host control mode: read counters, activation after activation_reads, eviction
// thresholds, a read timer that drops idle regions (WRITE BUFFER 0x01 tells the device).
class HpbHostControlPolicy : public HpbPolicy {
 public:
  const char* name() const override { return "host"; }
  void on_read(HpbHostCache& cache, uint32_t subregion, uint64_t now_ps) override;
  void on_sense(HpbHostCache& cache, const uint8_t* descriptor) override;
  void on_tick(HpbHostCache& cache, uint64_t now_ps) override;
};

class HpbHostCache {
 public:
  // policy null: from params.policy (auto = the device's control mode).
  HpbHostCache(const HpbHostParams& params, const HpbDeviceInfo& device, std::unique_ptr<HpbPolicy> policy = nullptr);

  // A block read about to be issued: returns true and rewrites cmd's CDB into HPB READ when
  // its entries are cached and clean; host_ns gets the host CPU time this costs.
  // app: the app (workload stream) issuing it; foreground: it is the foreground app's read
  // (false: a background app's or the system's; the policy sees it through read_foreground()).
  bool prepare_read(uint64_t lba, uint32_t blocks, HostCommand& cmd, uint64_t now_ps, uint64_t& host_ns,
                    uint32_t app = 0, bool foreground = true);
  // The host writes or unmaps these blocks: their cached entries are dirty from now on.
  void on_write(uint64_t lba, uint64_t blocks);
  // That write or unmap completed (updated entries for its blocks are taken from then on).
  void on_write_done(uint64_t lba, uint64_t blocks);
  // Every RESPONSE of a block command passes here (HPB sense data).
  void on_response(const CommandResponse& r, uint64_t now_ps);
  // The next HPB management command to send now (READ BUFFER / WRITE BUFFER), if any may go.
  bool next_command(uint32_t outstanding, HostCommand& cmd);
  // Its completion; data = DATA IN bytes (READ BUFFER). Returns the host time the entries take to copy.
  uint64_t on_command_done(const HostCommand& cmd, const CommandResponse& r, const uint8_t* data, uint32_t bytes,
                           uint64_t now_ps);
  bool has_pending() const { return !fetch_queue_.empty() || !inactivate_queue_.empty(); }
  bool busy() const { return in_flight_ > 0 || has_pending(); }

  // ---- for policies
  enum class SubState : uint8_t { Inactive, Queued, Fetching, Active };
  const HpbHostParams& params() const { return params_; }
  const HpbDeviceInfo& device() const { return device_; }
  uint32_t subregions() const { return uint32_t(subs_.size()); }
  uint32_t regions() const { return uint32_t(regions_.size()); }
  uint32_t region_of(uint32_t subregion) const { return subregion / subs_per_region_; }
  uint32_t subs_per_region() const { return subs_per_region_; }
  SubState state(uint32_t s) const { return subs_[s].state; }
  bool has_dirty(uint32_t s) const { return subs_[s].dirty_count > 0; }
  uint32_t& sub_reads(uint32_t s) { return subs_[s].reads; }
  uint32_t& region_reads(uint32_t r) { return regions_[r].reads; }
  bool region_active(uint32_t r) const { return regions_[r].active_subs > 0 || regions_[r].queued_subs > 0; }
  bool pinned(uint32_t r) const { return r >= device_.pinned_start && r < device_.pinned_start + device_.pinned_count; }
  // Queue a READ BUFFER for the sub-region (re-fetch when active with dirty entries).
  // Makes room first (evicting LRU regions, with host-control thresholds when enforce_thresholds);
  // returns false when there is no room.
  // device_stale: the device recommended this sub-region, so an active copy is fetched again
  // even when the host did not write into it (its own writes reach the map later, GC moves data).
  bool request_fetch(uint32_t subregion, bool enforce_thresholds, bool device_stale = false);
  // Drop a region's entries; tell_device: WRITE BUFFER 0x01 (host control mode).
  void drop_region(uint32_t region, bool tell_device);
  void touch_region(uint32_t region, uint64_t now_ps);
  // The read being prepared comes from the foreground app (policies' on_read may ask).
  bool read_foreground() const { return read_foreground_; }
  // Memory pressure (HPBvalve's regulator): drop regions in the policy's eviction order
  // until at least `bytes` of host memory are free or nothing more may go; returns the
  // bytes freed.
  uint64_t shrink(uint64_t bytes);
  uint64_t region_last_read(uint32_t r) const { return regions_[r].last_read_ps; }
  uint32_t& region_expiries(uint32_t r) { return regions_[r].expiries; }
  const RegionList& lru() const { return lru_; }

  const HpbHostStats& stats() const { return stats_; }
  HpbHostStats& mutable_stats() { return stats_; }
  const HpbPolicy& policy() const { return *policy_; }
  HpbPolicy& mutable_policy() { return *policy_; }
  uint32_t capacity_subregions() const { return capacity_subs_; }
  uint32_t cached_subregions() const { return cached_subs_; }

 private:
  struct Sub {
    SubState state = SubState::Inactive;
    uint32_t reads = 0;
    uint32_t dirty_count = 0;
    bool refetch_queued = false;       // Active with dirty entries, in fetch_queue_
    uint64_t usable_from_ps = 0;       // after the entries are copied in
    std::vector<uint64_t> entries;     // while Active
    std::vector<uint64_t> dirty;       // bitmap per entry
  };
  struct Region {
    uint32_t reads = 0;
    uint32_t active_subs = 0;          // Active or Fetching
    uint32_t queued_subs = 0;
    uint64_t last_read_ps = 0;
    uint32_t expiries = 0;
    bool in_lru = false;
  };
  bool evict_for(uint32_t region, bool enforce_thresholds);
  void release(uint32_t s);
  void tick(uint64_t now_ps);

  HpbHostParams params_;
  HpbDeviceInfo device_;
  std::unique_ptr<HpbPolicy> policy_;
  uint32_t subs_per_region_ = 1;
  uint32_t capacity_subs_ = 0;
  uint32_t cached_subs_ = 0;           // Active + Fetching + Queued
  std::vector<Sub> subs_;
  std::vector<Region> regions_;
  RegionList lru_;                     // active regions, least recently used first
  std::deque<uint32_t> fetch_queue_;
  std::deque<uint32_t> inactivate_queue_;
  uint32_t in_flight_ = 0;
  uint64_t next_tick_ps_ = 0;
  bool read_foreground_ = true;
  std::vector<std::pair<uint64_t, uint64_t>> writes_in_flight_;  // (lba, blocks) of writes/unmaps not yet completed
  HpbHostStats stats_;
};

}  // namespace ufs
