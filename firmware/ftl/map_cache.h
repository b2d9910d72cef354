// The SRAM cache of L2P map pages (translation pages) in a DRAM-less device.
// One map page = one NAND page of 4-byte entries (16 KiB -> 4096 entries ->
// 16 MiB of LBAs). The cache tracks residency and dirty state; a resident page's
// entries live in its frame (ftl/map_frames.h, behind ftl/l2p_map.h).
//
// Replacement as plug-ins (firmware.map_cache_policy names one): the cache tells its
// MapCacheReplacement which pages became resident and which were used, and asks it for
// the page to evict. Adding a policy: one new file (a class deriving from
// MapCacheReplacement and a make_ function), its line in kPolicies (map_cache.cpp), and
// the key value users put in firmware.map_cache_policy. Registered:
//   lru   - a use moves the page to the head: the least recently used page goes.
//   fifo  - uses do not reorder: the page installed longest ago goes, however hot.
//   clock - second chance (Corbato's CLOCK): a use sets the page's reference bit; the
//           hand passes over a referenced page, clearing its bit, and evicts the first
//           unreferenced page. It approximates LRU without reordering on every hit (what a
//           controller does cheaply in HW).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ufs {

class MapCacheReplacement {
 public:
  static constexpr uint32_t kNone = ~0u;
  virtual ~MapCacheReplacement() = default;
  virtual void installed(uint32_t page) = 0;  // the page became resident
  virtual void used(uint32_t page) = 0;       // a hit on a resident page
  // The resident page to evict, no longer tracked from now on; kNone when none is resident.
  virtual uint32_t evict() = 0;
  virtual uint64_t ram_bytes() const = 0;  // its per-page tables (core/firmware_ram.h)
};

// The registered policies: map_pages is the number of map pages (page ids 0..map_pages-1).
std::unique_ptr<MapCacheReplacement> make_map_cache_policy(const std::string& name, uint32_t map_pages);
bool is_map_cache_policy(const std::string& name);
std::string map_cache_policy_names();  // "lru | fifo | clock", for messages and help

// The policies' factories (one file each).
std::unique_ptr<MapCacheReplacement> make_lru_map_cache(uint32_t map_pages);
std::unique_ptr<MapCacheReplacement> make_fifo_map_cache(uint32_t map_pages);
std::unique_ptr<MapCacheReplacement> make_clock_map_cache(uint32_t map_pages);

// Pages in one intrusive list, newest at the head, O(1) each step: the order the
// registered policies keep (their victims come from the tail).
class PageList {
 public:
  static constexpr uint32_t kNone = ~0u;
  explicit PageList(uint32_t pages) : prev_(pages, kNone), next_(pages, kNone) {}
  uint32_t tail() const { return tail_; }
  void push_front(uint32_t p) {
    prev_[p] = kNone;
    next_[p] = head_;
    if (head_ != kNone) prev_[head_] = p;
    head_ = p;
    if (tail_ == kNone) tail_ = p;
  }
  void unlink(uint32_t p) {
    if (prev_[p] != kNone) next_[prev_[p]] = next_[p]; else head_ = next_[p];
    if (next_[p] != kNone) prev_[next_[p]] = prev_[p]; else tail_ = prev_[p];
    prev_[p] = next_[p] = kNone;
  }
  void move_to_front(uint32_t p) {
    if (head_ == p) return;
    unlink(p);
    push_front(p);
  }
  // Unlinks and returns the tail (kNone when empty).
  uint64_t ram_bytes() const { return uint64_t(prev_.capacity() + next_.capacity()) * sizeof(uint32_t); }
  uint32_t pop_tail() {
    const uint32_t p = tail_;
    if (p != kNone) unlink(p);
    return p;
  }

 private:
  std::vector<uint32_t> prev_, next_;
  uint32_t head_ = kNone, tail_ = kNone;
};

class MapCache {
 public:
  static constexpr uint32_t kNone = ~0u;

  // policy: a registered name (validate() vouches for firmware.map_cache_policy).
  MapCache(uint32_t capacity_pages, uint32_t map_pages, const std::string& policy = "lru");

  bool resident(uint32_t page) const { return state_[page] & kResident; }
  bool dirty(uint32_t page) const { return state_[page] & kDirty; }
  // True when the page's NAND copy was merged in (loaded); a dirty page that was
  // never loaded needs a read of its old copy before it is written back.
  bool loaded(uint32_t page) const { return state_[page] & kLoaded; }
  uint32_t capacity() const { return capacity_; }
  uint32_t size() const { return size_; }

  // A use of a resident page (a hit): what it means depends on the policy.
  void touch(uint32_t page) {
    if (resident(page)) policy_->used(page);
  }
  // Makes the page resident (a use of it). Returns the evicted page, or kNone;
  // the evicted page keeps its dirty/loaded bits until forget() (the caller writes it back).
  uint32_t insert(uint32_t page, bool loaded);
  void forget(uint32_t page) { if (!resident(page)) state_[page] = 0; }
  void mark_dirty(uint32_t page) { state_[page] |= kDirty; }
  void mark_clean(uint32_t page) { state_[page] &= uint8_t(~kDirty); }
  uint64_t ram_bytes() const { return state_.capacity() + policy_->ram_bytes(); }  // per-page state and order

 private:
  static constexpr uint8_t kResident = 1, kDirty = 2, kLoaded = 4;
  std::unique_ptr<MapCacheReplacement> policy_;
  uint32_t capacity_;
  uint32_t size_ = 0;
  std::vector<uint8_t> state_;
};

}  // namespace ufs
