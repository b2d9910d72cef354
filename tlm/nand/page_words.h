// Page contents beyond the sector stamps: 32-bit words, as a map page holds its L2P entries
// (issue 20: the map's entries live in the map pages the NAND stores, not in the firmware).
// A die keeps them per page from the program that wrote them until the block's erase.
//
// Coded as runs, because a map page mostly is: entries of data written in order go up by one
// (one run per write unit or longer), unwritten LBAs repeat the unmapped value. Each run is a
// varint (length - 1, and whether it steps by 1 or repeats) and the zigzag varint of its first
// word against the previous run's next word (modulo 2^32): a sequentially written 16 KiB map
// page takes a few dozen bytes. A page with many short runs (random writes over a sequentially
// written range) keeps instead two bitmaps (per word: repeats, counts up) and the deltas of the
// other words; a mostly random one is kept plain, 4 bytes a word, and costs a copy. Every map
// page programmed goes through the coder, so it finds runs without a branch per word and
// chooses the format before coding (page_words.cpp).
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
  void mark(const uint32_t* words, uint32_t count);
  static uint32_t others(const uint32_t* words, uint32_t from, uint32_t to);
  void store_plain(uint64_t key, const uint32_t* words, uint32_t count);
  void keep(uint64_t key, std::vector<uint8_t>& code);
  std::map<uint64_t, std::vector<uint8_t>> pages_;
  uint64_t bytes_ = 0;
  // store()'s scratch: per word (bit i of word i/64) whether it repeats / counts up from the one
  // before; the coding buffer.
  std::vector<uint64_t> eq_, up_;
  std::vector<uint8_t> scratch_;
};

}  // namespace ufs
