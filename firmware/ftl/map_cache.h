// The SRAM cache of L2P map pages (translation pages) in a DRAM-less device.
// One map page = one NAND page of 4-byte entries (16 KiB -> 4096 entries ->
// 16 MiB of LBAs). The cache tracks residency and dirty state; the entries' values
// live in L2pMap (the firmware's view of the table).
//
// Replacement (firmware.map_cache_policy), all O(1) (CLOCK amortised) over one
// intrusive list of resident map-page ids, newest at the head, victims from the tail:
//   lru   - a use moves the page to the head: the least recently used page goes.
//   fifo  - uses do not reorder: the page installed longest ago goes, however hot.
//   clock - second chance (Corbato's CLOCK): a use sets the page's reference bit; the
//           hand (the tail) passes over a referenced page, clearing its bit and moving
//           it behind the hand, and evicts the first unreferenced page. It approximates
//           LRU without reordering on every hit (what a controller does cheaply in HW).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ufs {

enum class MapCachePolicy : uint8_t { Lru, Fifo, Clock };

// "lru" | "fifo" | "clock"; false for anything else.
bool parse_map_cache_policy(const std::string& name, MapCachePolicy& out);

class MapCache {
 public:
  static constexpr uint32_t kNone = ~0u;

  MapCache(uint32_t capacity_pages, uint32_t map_pages, MapCachePolicy policy = MapCachePolicy::Lru);

  bool resident(uint32_t page) const { return state_[page] & kResident; }
  bool dirty(uint32_t page) const { return state_[page] & kDirty; }
  // True when the page's NAND copy was merged in (loaded); a dirty page that was
  // never loaded needs a read of its old copy before it is written back.
  bool loaded(uint32_t page) const { return state_[page] & kLoaded; }
  uint32_t capacity() const { return capacity_; }
  uint32_t size() const { return size_; }
  MapCachePolicy policy() const { return policy_; }

  // A use of a resident page (a hit): what it means depends on the policy.
  void touch(uint32_t page) {
    if (!resident(page)) return;
    if (policy_ == MapCachePolicy::Lru) move_to_front(page);
    else if (policy_ == MapCachePolicy::Clock) state_[page] |= kReferenced;
  }
  // Makes the page resident (a use of it). Returns the evicted page, or kNone;
  // the evicted page keeps its dirty/loaded bits until forget() (the caller writes it back).
  uint32_t insert(uint32_t page, bool loaded);
  void forget(uint32_t page) { if (!resident(page)) state_[page] = 0; }
  void mark_dirty(uint32_t page) { state_[page] |= kDirty; }
  void mark_clean(uint32_t page) { state_[page] &= uint8_t(~kDirty); }

 private:
  static constexpr uint8_t kResident = 1, kDirty = 2, kLoaded = 4, kReferenced = 8;
  void unlink(uint32_t page);
  void push_front(uint32_t page);
  void move_to_front(uint32_t page);
  uint32_t pick_victim();
  MapCachePolicy policy_;
  uint32_t capacity_;
  uint32_t size_ = 0;
  std::vector<uint8_t> state_;
  std::vector<uint32_t> prev_, next_;
  uint32_t head_ = kNone, tail_ = kNone;
};

}  // namespace ufs
