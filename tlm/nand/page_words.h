// Page contents beyond the sector stamps: 32-bit words, as a map page holds its L2P entries
// (issue 20: the map's entries live in the map pages the NAND stores, not in the firmware).
// A die keeps them per page from the program that wrote them until the block's erase.
//
// Coded as runs, because a map page mostly is: entries of data written in order go up by one
// (one run per write unit or longer), unwritten LBAs repeat the unmapped value. Each run is a
// varint (length - 1, and whether it steps by 1 or repeats) and the zigzag varint of its first
// word against the previous run's next word: a sequentially written 16 KiB map page takes a
// few dozen bytes. A page whose runs would take more than its plain words (randomly written:
// ~5 bytes a word; judged over its first quarter) is kept plain, 4 bytes a word, and costs a copy.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <cstdio>
#include <vector>

namespace ufs {

class PageWords {
 public:
  // `key` orders pages so that one block's are contiguous: page_key(block_key, page).
  static uint64_t page_key(uint64_t block_key, uint32_t page) { return (block_key << 24) | page; }

  void store(uint64_t key, const uint32_t* words, uint32_t count);
  // The words stored for the page into out[0, count): false (out untouched) when it has none.
  bool load(uint64_t key, uint32_t* out, uint32_t count) const;
  bool has(uint64_t key) const { return pages_.count(key) != 0; }
  uint32_t words(uint64_t key) const;  // how many the page holds (0: none)
  // Every page of the block goes (erase).
  void drop_block(uint64_t block_key);
  uint64_t pages() const { return pages_.size(); }
  uint64_t bytes() const { return bytes_; }  // coded bytes held

 private:
  void keep(uint64_t key, std::vector<uint8_t>& code);
  std::map<uint64_t, std::vector<uint8_t>> pages_;
  uint64_t bytes_ = 0;
  std::vector<uint8_t> scratch_;  // store()'s coding buffer
};

}  // namespace ufs
