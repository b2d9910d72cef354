// Power-loss recovery: the scan that rebuilds the FTL's state from what the NAND
// holds. Every block is read page by page (the OOB of each page) until its first
// erased page: user-data pages name their LBAs with the sequence number of the
// host write that produced each sector (GC copies keep it; of two copies of the same data
// the one programmed last wins), map pages name their
// map page number with the sequence of their program. The newest copy of each LBA
// and of each map page wins. A page whose program was cut by the power loss reads
// back uncorrectable and is skipped; blocks that hold anything are closed (no
// program is ever appended after a possibly torn page).
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/block_manager.h"
#include "hal/flash_types.h"

namespace ufs {

class RecoveryScan {
 public:
  static constexpr uint32_t kDone = ~0u;

  RecoveryScan(const BlockManager& blocks, uint64_t logical_blocks, uint32_t map_pages);
  // The RAM a scan's tables take while it runs (core/firmware_ram.h): per LBA its newest
  // copy's sequences and PPA, per map page the same, per block what was found.
  static uint64_t ram_bytes(const BlockManager& blocks, uint64_t logical_blocks, uint32_t map_pages);

  // The block and page die `die` reads next; block == kDone when the die is finished.
  void next(uint32_t die, uint32_t& block, uint32_t& page) const;
  // The read of that page completed: record what it holds and move the die's cursor.
  void page_read(uint32_t die, FlashStatus status, const PageOob& oob);
  bool done() const { return dies_left_ == 0; }

  struct BlockFound {
    uint32_t pages_written = 0;  // programmed (or torn) pages before the first erased one
    bool holds_map = false;
    bool bad = false;
  };
  const std::vector<BlockFound>& blocks_found() const { return found_; }
  // Newest copy of an LBA / map page: sequence (0 = none found) and PPA of its first sector.
  uint64_t lba_sequence(uint64_t lba) const { return lba_seq_[lba]; }
  uint32_t lba_ppa(uint64_t lba) const { return lba_ppa_[lba]; }
  uint64_t map_sequence(uint32_t page) const { return map_seq_[page]; }
  uint32_t map_ppa(uint32_t page) const { return map_ppa_[page]; }
  uint64_t max_sequence() const { return max_sequence_; }
  uint64_t pages_read() const { return pages_read_; }
  uint64_t torn_pages() const { return torn_pages_; }

 private:
  const BlockManager& bm_;
  uint32_t blocks_per_die_;
  std::vector<uint32_t> cursor_block_, cursor_page_;  // per die
  uint32_t dies_left_;
  std::vector<BlockFound> found_;
  std::vector<uint64_t> lba_seq_;
  std::vector<uint64_t> lba_prog_;  // the program sequence of that copy's page
  std::vector<uint32_t> lba_ppa_;
  std::vector<uint64_t> map_seq_;
  std::vector<uint32_t> map_ppa_;
  uint64_t max_sequence_ = 0, pages_read_ = 0, torn_pages_ = 0;
};

}  // namespace ufs
