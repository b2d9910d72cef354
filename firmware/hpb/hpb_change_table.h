// The entries HPB tracks one by one (hpb.response_entries; HpbFreshness), kept as a
// controller keeps such a table: fixed arrays in SRAM sized at start from
// hpb.response_delta_entries, no allocation after. An entry is an LBA and its tracked
// value; an open-addressing index (linear probing, at most half full, deletion by
// backward shift so it never fills with tombstones) finds it by LBA, and the entries of a
// sub-region are chained so that its entries are dropped together without a search.
// (A std::map in its place cost ~640 instructions a step on the core even with its nodes
// pooled; this is a multiply, a probe or two and a compare.)
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

class HpbChangeTable {
 public:
  // capacity: entries it can hold; subregions of 2^subregion_shift LBAs each.
  HpbChangeTable(uint32_t capacity, uint32_t subregions, uint32_t subregion_shift);

  uint32_t size() const { return size_; }
  uint32_t capacity() const { return uint32_t(entries_.size()); }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == entries_.size(); }

  // The value tracked for lba, nullptr if it is not tracked.
  uint32_t* find(uint32_t lba) {
    const uint32_t i = entry_of(lba);
    return i == kNone ? nullptr : &entries_[i].value;
  }
  const uint32_t* find(uint32_t lba) const { return const_cast<HpbChangeTable*>(this)->find(lba); }
  // Tracks lba (not tracked yet) with value: its value's place, nullptr when full.
  uint32_t* insert(uint32_t lba, uint32_t value);

  bool has_subregion(uint32_t s) const { return heads_[s] != kNone; }
  // Forgets every entry of sub-region s, calling each() before each one goes.
  template <class Each>
  void drop_subregion(uint32_t s, Each each) {
    uint32_t e = heads_[s];
    heads_[s] = kNone;
    while (e != kNone) {
      each();
      unindex(e);
      const uint32_t next = entries_[e].next;
      entries_[e].next = free_;
      free_ = e;
      --size_;
      e = next;
    }
  }
  void clear();

  // The controller's RAM these arrays take (core/firmware_ram.h).
  uint64_t ram_bytes() const;

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Entry {
    uint32_t lba;
    uint32_t value;
    uint32_t next;  // in use: the sub-region's next entry; free: the next free entry
  };
  // Fibonacci hashing: the top bits of lba x 2^32/phi spread runs of LBAs over the index.
  uint32_t home(uint32_t lba) const { return (lba * 2654435769u) >> shift_; }
  uint32_t entry_of(uint32_t lba) const {
    for (uint32_t i = home(lba);; i = (i + 1) & mask_) {
      const uint32_t e = index_[i];
      if (e == kNone || entries_[e].lba == lba) return e;
    }
  }
  void unindex(uint32_t e);  // takes entry e out of the index (backward shift)
  void free_all();           // every entry on the free list

  std::vector<Entry> entries_;
  std::vector<uint32_t> index_;  // entry numbers (kNone: empty), a power of two >= 2 x capacity
  std::vector<uint32_t> heads_;  // per sub-region: its first entry (kNone: none tracked)
  uint32_t mask_ = 0, shift_ = 0;
  uint32_t subregion_shift_;
  uint32_t free_ = kNone;  // first free entry
  uint32_t size_ = 0;
};

}  // namespace ufs
