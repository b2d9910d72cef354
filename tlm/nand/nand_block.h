// One erase block: its pages' data (a SectorStamp per 4 KiB sector), their OOB
// metadata, the program pointer and the erase count. Storage is allocated on the
// first program and kept across erases, so an unwritten block costs a few bytes
// and a 512 GiB device costs memory only where it was written.
#pragma once
#include <cstdint>
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
    ++erase_count_;
  }

 private:
  struct PageMeta {
    uint64_t sequence = 0;
    PageKind kind = PageKind::Erased;
    uint8_t flags = 0;
  };
  static constexpr uint8_t kFailed = 1;       // program failure
  static constexpr uint8_t kOwnOobLba = 2;    // OOB lba[] differs from the stamps' LBAs
  static constexpr uint8_t kOwnDataSeq = 4;   // OOB data_seq[] is not all 0 (host writes, GC copies)
  struct Storage {
    std::unique_ptr<SectorStamp[]> stamps;  // pages x sectors_per_page
    std::unique_ptr<PageMeta[]> meta;       // pages
    std::unique_ptr<uint32_t[]> oob_lba;    // pages x sectors_per_page, only if ever needed
    std::unique_ptr<uint64_t[]> data_seq;   // pages x sectors_per_page, only if ever needed
  };
  std::unique_ptr<Storage> storage_;
  uint32_t next_page_ = 0;
  uint32_t erase_count_ = 0;
  bool bad_ = false;
  bool slc_ = false;
};

}  // namespace ufs
