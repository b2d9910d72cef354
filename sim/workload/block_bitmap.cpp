#include "block_bitmap.h"

namespace ufs {

bool BlockBitmap::set(uint64_t block) {
  const uint64_t page = block >> kPageShift;
  if (page >= pages_.size()) pages_.resize(page + 1);
  std::unique_ptr<uint64_t[]>& words = pages_[page];
  if (!words) words.reset(new uint64_t[kWordsPerPage]());
  const uint64_t bit = block & ((uint64_t{1} << kPageShift) - 1);
  uint64_t& word = words[bit >> 6];
  const uint64_t mask = uint64_t{1} << (bit & 63);
  if (word & mask) return false;
  word |= mask;
  ++count_;
  return true;
}

uint64_t* BlockBitmap::page_words(uint64_t page) {
  if (page >= pages_.size()) pages_.resize(page + 1);
  std::unique_ptr<uint64_t[]>& words = pages_[page];
  if (!words) words.reset(new uint64_t[kWordsPerPage]());
  return words.get();
}

namespace {
// Mask of bits [lo, hi) in a 64-bit word, 0 <= lo < hi <= 64.
inline uint64_t bit_mask(unsigned lo, unsigned hi) {
  const uint64_t upper = hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
  return upper & ~((uint64_t{1} << lo) - 1);
}
}  // namespace

uint64_t BlockBitmap::set_range(uint64_t first, uint64_t count) {
  uint64_t added = 0;
  uint64_t block = first;
  const uint64_t end = first + count;
  while (block < end) {
    uint64_t* words = page_words(block >> kPageShift);
    const uint64_t word_start = block & ~uint64_t{63};
    const unsigned lo = static_cast<unsigned>(block - word_start);
    const unsigned hi = static_cast<unsigned>(end - word_start < 64 ? end - word_start : 64);
    uint64_t& word = words[(block & ((uint64_t{1} << kPageShift) - 1)) >> 6];
    const uint64_t mask = bit_mask(lo, hi);
    added += static_cast<uint64_t>(__builtin_popcountll(mask & ~word));
    word |= mask;
    block = word_start + hi;
  }
  count_ += added;
  return added;
}

uint64_t BlockBitmap::count_range(uint64_t first, uint64_t count) const {
  uint64_t found = 0;
  uint64_t block = first;
  const uint64_t end = first + count;
  while (block < end) {
    const uint64_t page = block >> kPageShift;
    const uint64_t word_start = block & ~uint64_t{63};
    const unsigned lo = static_cast<unsigned>(block - word_start);
    const unsigned hi = static_cast<unsigned>(end - word_start < 64 ? end - word_start : 64);
    if (page < pages_.size() && pages_[page]) {
      const uint64_t word = pages_[page][(block & ((uint64_t{1} << kPageShift) - 1)) >> 6];
      found += static_cast<uint64_t>(__builtin_popcountll(word & bit_mask(lo, hi)));
    }
    block = word_start + hi;
  }
  return found;
}

bool BlockBitmap::test(uint64_t block) const {
  const uint64_t page = block >> kPageShift;
  if (page >= pages_.size() || !pages_[page]) return false;
  const uint64_t bit = block & ((uint64_t{1} << kPageShift) - 1);
  return (pages_[page][bit >> 6] >> (bit & 63)) & 1;
}

}  // namespace ufs
