// The SRAM cache of L2P map pages (translation pages) in a DRAM-less device.
// One map page = one NAND page of 4-byte entries (16 KiB -> 4096 entries ->
// 16 MiB of LBAs). Replacement is LRU: an intrusive list over map-page ids, so
// lookups, touches and evictions are O(1). The cache tracks residency and dirty
// state; the entries' values live in L2pMap (the firmware's view of the table).
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

class MapCache {
 public:
  static constexpr uint32_t kNone = ~0u;

  MapCache(uint32_t capacity_pages, uint32_t map_pages);

  bool resident(uint32_t page) const { return state_[page] & kResident; }
  bool dirty(uint32_t page) const { return state_[page] & kDirty; }
  // True when the page's NAND copy was merged in (loaded); a dirty page that was
  // never loaded needs a read of its old copy before it is written back.
  bool loaded(uint32_t page) const { return state_[page] & kLoaded; }
  uint32_t capacity() const { return capacity_; }
  uint32_t size() const { return size_; }

  // Most recently used now.
  void touch(uint32_t page);
  // Makes the page resident (most recently used). Returns the evicted page, or kNone;
  // the evicted page keeps its dirty/loaded bits until forget() (the caller writes it back).
  uint32_t insert(uint32_t page, bool loaded);
  void forget(uint32_t page) { if (!resident(page)) state_[page] = 0; }
  void mark_dirty(uint32_t page) { state_[page] |= kDirty; }
  void mark_clean(uint32_t page) { state_[page] &= uint8_t(~kDirty); }
  // Least recently used resident page, or kNone.
  uint32_t lru() const { return tail_; }

 private:
  static constexpr uint8_t kResident = 1, kDirty = 2, kLoaded = 4;
  void unlink(uint32_t page);
  void push_front(uint32_t page);
  uint32_t capacity_;
  uint32_t size_ = 0;
  std::vector<uint8_t> state_;
  std::vector<uint32_t> prev_, next_;
  uint32_t head_ = kNone, tail_ = kNone;
};

}  // namespace ufs
