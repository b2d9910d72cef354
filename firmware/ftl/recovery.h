// Power-loss recovery's tables and rules (issue 20: the firmware's memory is the controller's
// memory). The map pages on NAND are the checkpoint; recovery rebuilds the L2P map from them
// plus a bounded replay of the data programmed after each page's copy, in three passes:
//
// 1. Scan: every block is read page by page (the OOB) until its first erased page. Kept per
//    block: pages written, holds map pages, bad, the program sequence of its first readable
//    page and its newest; per map page: its newest copy (PPA, sequence, and `covers`: the oldest data
//    program still in flight when the copy's entries were taken, PageOob::data_seq[0]) and
//    the newest program of data for its LBAs. A map page is replayed when data for it was
//    programmed at or after its copy's `covers` (no copy: any data). A host write, a GC move
//    and a copy-back each take a program sequence of their own (a copy-back writes a new one
//    into the copy's spare area), so every change of a mapping after the copy is found.
// 2. Replay, one batch of replayed map pages at a time: the data blocks whose newest program
//    can be that late are read again (the OOB); the data of the batch's pages programmed at or
//    after their copy's `covers` goes into the replay table: per LBA its newest copy (the host
//    write's sequence, then the program's: of two copies of the same data the one programmed
//    last wins, so GC resumes with what it had left to move).
// 3. Load: each map page's copy is read (its entries) and each entry checked: an entry into a
//    block erased after the copy was taken (its first page is younger than the copy, or it has
//    fewer pages now, or it is bad) names data that is gone: trimmed then (its move would be
//    in the replay), so the LBA is unmapped. A replayed entry wins over the copy's unless it
//    may be older data (its host write before the copy's program: a GC move of a version the
//    host overwrote meanwhile); then the page the copy names is read (its OOB) and the newer
//    of the two wins.
//
// RAM (ram_bytes): per block 24 B, per map page 32 B, the replay table (at most the L2P SRAM's
// bytes, at least one map page's: 24 B an entry) and one map page's entries per die being
// read (and one to compare with the map); nothing per LBA. With firmware.map_cache false the map has no pages on NAND (the whole
// map stays in SRAM): every LBA's data is replayed, in one batch as large as the map.
//
// Trims (UNMAP): an UNMAP is durable once its map page's copy is programmed (write-back on
// eviction, in idle time, or a GC relocation). One cut before that may bring the old data
// back while its block is not erased (SBC: UNMAP, like a write in the volatile cache, is not
// durable until a SYNCHRONIZE CACHE, which here waits for data programs only).
// Left: a GC move of data trimmed while the move was under way, programmed after the copy
// holding the trim was taken, is replayed (older data than the copy, which says unmapped: as
// a host write still in the write cache when the copy was taken looks), so that LBA comes back.
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/block_manager.h"
#include "hal/flash_types.h"

namespace ufs {

class RecoveryScan {
 public:
  static constexpr uint32_t kDone = ~0u;
  static constexpr uint32_t kNone = ~0u;

  // batch_pages: replayed map pages per replay batch (0: all of them at once).
  RecoveryScan(const BlockManager& blocks, uint64_t logical_blocks, uint64_t entries_per_page, uint32_t batch_pages);
  // Replayed map pages a batch holds: the L2P SRAM's bytes over a page's table (at least one);
  // all pages without a map cache (map_pages == 0: no map pages on NAND).
  static uint32_t batch_pages(uint64_t l2p_sram_bytes, uint64_t entries_per_page, uint32_t map_pages);
  // The RAM a recovery's tables take while it runs (core/firmware_ram.h).
  static uint64_t ram_bytes(const BlockManager& blocks, uint64_t logical_blocks, uint64_t entries_per_page,
                            uint32_t batch_pages);

  // --- pass 1: the scan -----------------------------------------------------------------
  // The block and page die `die` reads next; block == kDone when the die is finished.
  void next(uint32_t die, uint32_t& block, uint32_t& page) const;
  // The read of that page completed: record what it holds and move the die's cursor.
  void page_read(uint32_t die, FlashStatus status, const PageOob& oob);
  bool done() const { return dies_left_ == 0; }

  struct BlockFound {
    // Program sequence of its first readable page (~0: none; a torn first page is skipped
    // after a recovery and the block written on from its next unit).
    uint64_t first_seq = ~0ull;
    uint64_t newest_seq = 0;  // newest program sequence of its pages
    uint32_t pages_written = 0;  // programmed (or torn) pages before the first erased one
    bool holds_map = false;
    bool bad = false;
  };
  struct MapPageFound {
    uint64_t seq = 0;          // newest copy's program sequence (0: none on NAND)
    uint64_t covers = 0;       // data programs from this sequence on may be missing from it
    uint64_t newest_data = 0;  // newest program of data for its LBAs (0: none)
    uint32_t ppa = kNone;      // newest copy's first sector
    uint32_t slot = kNone;     // in the current batch: its table's index
  };
  const std::vector<BlockFound>& blocks_found() const { return found_; }
  const MapPageFound& map_page(uint32_t page) const { return pages_[page]; }
  uint32_t map_pages() const { return uint32_t(pages_.size()); }
  uint64_t entries_per_page() const { return entries_per_page_; }
  bool replayed(uint32_t page) const;
  uint64_t max_sequence() const { return max_sequence_; }
  uint64_t pages_read() const { return pages_read_; }
  uint64_t torn_pages() const { return torn_pages_; }

  // --- pass 2: replay, a batch at a time --------------------------------------------------
  // The next batch: map pages [batch_first, batch_end) holding at most batch_pages replayed
  // ones; false when every page was in one. Its dies' cursors start over.
  bool start_batch();
  uint32_t batch_first() const { return batch_first_; }
  uint32_t batch_end() const { return batch_end_; }
  bool batch_replays() const { return batch_replayed_ > 0; }
  // As next/page_read, over the blocks that can hold data of the batch's replayed pages.
  void replay_next(uint32_t die, uint32_t& block, uint32_t& page) const;
  void replay_page_read(uint32_t die, FlashStatus status, const PageOob& oob);
  bool replay_done() const { return dies_left_ == 0; }
  uint64_t replay_pages_read() const { return replay_reads_; }

  struct Replayed {
    uint64_t data_seq = 0;  // 0: none found for this LBA
    uint64_t prog_seq = 0;
    uint32_t ppa = kNone;
  };
  // The newest copy of a batch page's LBA programmed after its copy's covers (data_seq 0: none).
  const Replayed& replayed_entry(uint64_t lba) const;

  // --- pass 3: checks on a copy's entry ----------------------------------------------------
  // The copy of map page `page` names `ppa`: is that data gone (its block erased since)?
  bool gone(uint32_t ppa, uint32_t page) const;

 private:
  void advance(uint32_t die, uint32_t block, uint32_t page, bool block_ends);
  bool replay_candidate(uint32_t block) const;
  void skip_to_candidate(uint32_t die);
  const BlockManager& bm_;
  uint64_t logical_blocks_, entries_per_page_;
  uint32_t batch_pages_;
  uint32_t blocks_per_die_;
  std::vector<uint32_t> cursor_block_, cursor_page_;  // per die
  uint32_t dies_left_;
  std::vector<BlockFound> found_;
  std::vector<MapPageFound> pages_;
  uint64_t max_sequence_ = 0, pages_read_ = 0, torn_pages_ = 0, replay_reads_ = 0;
  // The current batch.
  uint32_t batch_first_ = 0, batch_end_ = 0, batch_replayed_ = 0;
  uint64_t batch_covers_ = 0;       // the oldest covers of its replayed pages
  std::vector<Replayed> table_;     // batch_pages x entries_per_page
};

}  // namespace ufs
