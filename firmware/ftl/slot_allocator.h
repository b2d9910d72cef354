// Allocates contiguous runs of 4 KiB slots in a region of the data buffer
// (read staging). Next-fit over a bitmap: runs are short-lived and small.
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

class SlotAllocator {
 public:
  explicit SlotAllocator(uint32_t slots);
  // First slot of a free run of `count` slots, or -1 when none is free now.
  int64_t allocate(uint32_t count);
  void release(uint32_t first, uint32_t count);
  uint32_t free_slots() const { return free_; }
  uint32_t capacity() const { return static_cast<uint32_t>(used_.size()); }

 private:
  std::vector<uint8_t> used_;
  uint32_t hint_ = 0;
  uint32_t free_;
};

}  // namespace ufs
