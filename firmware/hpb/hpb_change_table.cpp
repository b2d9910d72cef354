#include "hpb/hpb_change_table.h"
#include <algorithm>
#include "core/firmware_ram.h"

namespace ufs {

HpbChangeTable::HpbChangeTable(uint32_t capacity, uint32_t subregions, uint32_t subregion_shift)
    : entries_(capacity), heads_(subregions, kNone), subregion_shift_(subregion_shift) {
  uint32_t slots = 2, bits = 1;
  while (slots < 2ull * capacity) slots <<= 1, ++bits;
  index_.assign(slots, kNone);
  mask_ = slots - 1;
  shift_ = 32 - bits;
  free_all();
}

void HpbChangeTable::free_all() {
  for (uint32_t e = 0; e < entries_.size(); ++e) entries_[e].next = e + 1 < entries_.size() ? e + 1 : kNone;
  free_ = entries_.empty() ? kNone : 0;
  size_ = 0;
}

void HpbChangeTable::clear() {
  if (size_ == 0) return;  // (empty: index and heads hold no entry already)
  std::fill(index_.begin(), index_.end(), kNone);
  std::fill(heads_.begin(), heads_.end(), kNone);
  free_all();
}

uint32_t* HpbChangeTable::insert(uint32_t lba, uint32_t value) {
  if (free_ == kNone) return nullptr;
  uint32_t i = home(lba);
  while (index_[i] != kNone) i = (i + 1) & mask_;
  const uint32_t e = free_;
  Entry& entry = entries_[e];
  free_ = entry.next;
  const uint32_t s = lba >> subregion_shift_;
  entry.lba = lba;
  entry.value = value;
  entry.next = heads_[s];
  heads_[s] = e;
  index_[i] = e;
  ++size_;
  return &entry.value;
}

// Linear probing's deletion without tombstones: each later entry of the probe run moves
// into the hole unless its home lies cyclically in (hole, its slot].
void HpbChangeTable::unindex(uint32_t e) {
  uint32_t hole = home(entries_[e].lba);
  while (index_[hole] != e) hole = (hole + 1) & mask_;
  for (uint32_t j = (hole + 1) & mask_; index_[j] != kNone; j = (j + 1) & mask_) {
    const uint32_t h = home(entries_[index_[j]].lba);
    if (((j - h) & mask_) >= ((j - hole) & mask_)) {  // its home is at or before the hole
      index_[hole] = index_[j];
      hole = j;
    }
  }
  index_[hole] = kNone;
}

uint64_t HpbChangeTable::ram_bytes() const {
  return vector_bytes(entries_) + vector_bytes(index_) + vector_bytes(heads_);
}

}  // namespace ufs
