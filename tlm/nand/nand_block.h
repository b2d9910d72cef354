// One erase block: its pages' data (a SectorStamp per 4 KiB sector), their OOB
// metadata, the program pointer and the erase count.
//
// Contents are stored compactly: a block is programmed in page order, so its pages
// are an append-only byte stream, each page coded against what the page before it
// predicts (next LBA, next version, same sequence number). A page written in LBA
// order costs one byte when it continues the previous page of its program and a few
// otherwise, so a sequentially written block takes ~1 byte per 4 KiB sector instead of
// the 24 a plain array of stamps and OOB fields costs; random data takes ~10. Every
// field still round-trips exactly (any 64-bit value). A read decodes from the page's
// keyframe (every kKeyPages pages the coder starts afresh; their byte offsets are
// kept), so it touches a few dozen contiguous bytes, skipping at most 3 pages. Storage
// is allocated on the first program and kept across erases, so an unwritten block costs a few bytes
// and a 512 GiB device costs memory only where it was written.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include "hal/flash_types.h"

namespace ufs {

// Shape shared by every block of a die; passed in rather than stored per block.
struct NandBlockShape {
  uint32_t pages = 0;              // pages per block as operated by the die (storage size)
  uint32_t sectors_per_page = 0;
};

class NandBlock {
 public:
  // Pages per keyframe: 4 rather than 8 halves the pages a read skips (1.5 on average,
  // ~160 instructions per simulated 4 KiB read) for ~0.3 byte more per sector written.
  static constexpr uint32_t kKeyPages = 4;

  // Pages [0, next_page) have been programmed since the last erase (NAND programs
  // pages of a block in order, so this one pointer says which pages are erased).
  uint32_t next_page() const { return next_page_; }
  uint32_t erase_count() const { return erase_count_; }
  bool bad() const { return bad_; }
  void mark_bad() { bad_ = true; }
  bool allocated() const { return storage_ != nullptr; }
  // Operated as SLC since its last erase (meaningful once next_page() > 0).
  bool slc() const { return slc_; }
  void set_slc(bool slc) { slc_ = slc; }

  // Stores one page (sectors_per_page stamps and its OOB) at next_page().
  // `failed` records a program failure: the page is used up and reads back uncorrectable.
  void program_next(const NandBlockShape& shape, const SectorStamp* stamps, const PageOob& oob,
                    bool failed);
  // Copies sectors [first, first + count) of a page and its OOB. Erased pages read as
  // kNoLba stamps and an Erased OOB. Returns false for a page whose program failed.
  bool read(const NandBlockShape& shape, uint32_t page, uint32_t first, uint32_t count,
            SectorStamp* out, PageOob* oob) const;
  void erase() {
    next_page_ = 0;
    if (storage_) storage_->bytes.clear();
    ++erase_count_;
  }
  // Bytes of heap the block's contents hold now (tests and memory accounting).
  size_t storage_bytes() const;

  // The coder's prediction for the next page, reset at every keyframe.
  struct Cursor {
    uint64_t seq = 0;     // previous page's sequence number (keyframe: the block's first page's)
    uint64_t lba = 0;     // next stamp LBA expected
    uint64_t ver = 0;     // next stamp version expected
    uint64_t oob = 0;     // next explicit OOB LBA expected
    uint64_t dseq = 0;    // next data sequence expected
    uint8_t vstep = 0;    // version step of the previous run of stamps
    uint8_t dmode = 0;    // data sequence form of the previous page
  };

 private:
  // Growable byte stream: capacity grows by a quarter, and is trimmed when the block
  // is full, so the slack stays small (a std::vector doubles).
  struct Bytes {
    uint8_t* data = nullptr;
    uint32_t size = 0, cap = 0;
    Bytes() = default;
    Bytes(const Bytes&) = delete;
    Bytes& operator=(const Bytes&) = delete;
    ~Bytes() { std::free(data); }
    void clear() { size = 0; }
    uint8_t* grow(uint32_t n);  // room for n more bytes at data + size (size unchanged)
    void trim();
  };
  struct Storage {
    Cursor tail;                          // prediction after page next_page_ - 1
    uint64_t seq_base = 0;                // sequence of page 0 (keyframes code against it)
    std::unique_ptr<uint32_t[]> keys;     // byte offset of page k * kKeyPages
    uint32_t key_count = 0;
    Bytes bytes;
  };
  std::unique_ptr<Storage> storage_;
  uint32_t next_page_ = 0;
  uint32_t erase_count_ = 0;
  bool bad_ = false;
  bool slc_ = false;
};

}  // namespace ufs
