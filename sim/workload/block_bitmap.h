// A sparse bit per 4 KiB block, in 8 GiB pages allocated on first touch: the
// footprint of a trace spread over a 119 GiB (or multi-TiB) address space costs
// only the pages it touches.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace ufs {

class BlockBitmap {
 public:
  // Sets the bit; returns whether it was clear before.
  bool set(uint64_t block);
  bool test(uint64_t block) const;
  // Word-at-a-time range versions (a 512 KiB request is 128 blocks): the number
  // of bits newly set / already set in [first, first + count).
  uint64_t set_range(uint64_t first, uint64_t count);
  uint64_t count_range(uint64_t first, uint64_t count) const;
  uint64_t count() const { return count_; }

 private:
  static constexpr unsigned kPageShift = 21;  // 2^21 blocks = 8 GiB per page
  static constexpr uint64_t kWordsPerPage = (uint64_t{1} << kPageShift) / 64;
  uint64_t* page_words(uint64_t page);
  std::vector<std::unique_ptr<uint64_t[]>> pages_;
  uint64_t count_ = 0;
};

}  // namespace ufs
