#include "ftl/slot_allocator.h"

namespace ufs {

SlotAllocator::SlotAllocator(uint32_t slots) : used_(slots, 0), free_(slots) {}

int64_t SlotAllocator::allocate(uint32_t count) {
  const uint32_t n = capacity();
  if (count == 0 || count > free_) return -1;
  // Two passes from the hint: wrap once.
  uint32_t start = hint_ < n ? hint_ : 0;
  for (uint32_t scanned = 0; scanned < n + count;) {
    if (start + count > n) { scanned += n - start; start = 0; continue; }
    uint32_t run = 0;
    while (run < count && !used_[start + run]) ++run;
    if (run == count) {
      for (uint32_t i = 0; i < count; ++i) used_[start + i] = 1;
      free_ -= count;
      hint_ = start + count;
      return start;
    }
    scanned += run + 1;
    start += run + 1;
  }
  return -1;
}

void SlotAllocator::release(uint32_t first, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) used_[first + i] = 0;
  free_ += count;
}

}  // namespace ufs
