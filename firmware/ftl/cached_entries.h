// The write cache's entries (issue 20): LBAs whose newest data waits in a write-cache slot, each
// with its entry (L2pMap::cached(slot)). They are not map-page content (a map page holds the NAND
// copy a cached LBA supersedes, write/write_cache.h), so they are kept apart and found first; there
// are at most as many as the cache has slots. Open addressing, linear probing, deletion by
// backward shift (no tombstones), grown when half full.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ufs {

class CachedEntries {
 public:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;

  CachedEntries() { slots_.assign(16, Slot{}); }
  // lba's entry, or kNone.
  uint32_t find(uint64_t lba) const {
    if (size_ == 0) return kNone;
    for (size_t i = home(lba);; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.lba == lba) return s.entry;
      if (s.lba == kEmpty) return kNone;
    }
  }
  void put(uint64_t lba, uint32_t entry);
  void erase(uint64_t lba);
  uint32_t size() const { return size_; }
  uint32_t peak() const { return peak_; }
  uint64_t bytes() const { return uint64_t(slots_.capacity()) * sizeof(Slot); }

 private:
  static constexpr uint64_t kEmpty = ~0ull;
  struct Slot {
    uint64_t lba = kEmpty;
    uint32_t entry = kNone;
  };
  size_t mask() const { return slots_.size() - 1; }
  size_t home(uint64_t lba) const { return size_t((lba * 0x9E3779B97F4A7C15ull) >> shift_); }
  void grow();
  std::vector<Slot> slots_;  // a power of two
  uint32_t shift_ = 60;      // 64 - log2(slots)
  uint32_t size_ = 0, peak_ = 0;
};

}  // namespace ufs
