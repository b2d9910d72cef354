#include "ftl/recovery.h"

namespace ufs {

RecoveryScan::RecoveryScan(const BlockManager& blocks, uint64_t logical_blocks, uint32_t map_pages)
    : bm_(blocks),
      blocks_per_die_(blocks.layout().geometry().planes_per_die * blocks.layout().geometry().blocks_per_plane),
      cursor_block_(blocks.layout().geometry().dies()),
      cursor_page_(blocks.layout().geometry().dies(), 0),
      dies_left_(blocks.layout().geometry().dies()),
      found_(blocks.layout().block_count()),
      lba_seq_(logical_blocks, 0),
      lba_prog_(logical_blocks, 0),
      lba_ppa_(logical_blocks, ~0u),
      map_seq_(map_pages, 0),
      map_ppa_(map_pages, ~0u) {
  for (uint32_t d = 0; d < cursor_block_.size(); ++d) cursor_block_[d] = d * blocks_per_die_;
}

uint64_t RecoveryScan::ram_bytes(const BlockManager& blocks, uint64_t logical_blocks, uint32_t map_pages) {
  return logical_blocks * (2 * sizeof(uint64_t) + sizeof(uint32_t)) +
         uint64_t(map_pages) * (sizeof(uint64_t) + sizeof(uint32_t)) +
         uint64_t(blocks.layout().block_count()) * sizeof(BlockFound) +
         uint64_t(blocks.layout().geometry().dies()) * 2 * sizeof(uint32_t);
}

void RecoveryScan::next(uint32_t die, uint32_t& block, uint32_t& page) const {
  const bool finished = cursor_block_[die] >= (die + 1) * blocks_per_die_;
  block = finished ? kDone : cursor_block_[die];
  page = cursor_page_[die];
}

void RecoveryScan::page_read(uint32_t die, FlashStatus status, const PageOob& oob) {
  const uint32_t block = cursor_block_[die], page = cursor_page_[die];
  const uint32_t spp = bm_.layout().spp_of(block);  // hybrid page size: the block's own page
  BlockFound& f = found_[block];
  ++pages_read_;
  bool block_ends = false;
  if (status == FlashStatus::BadBlock) {
    f.bad = true;
    block_ends = true;
  } else if (status != FlashStatus::Ok) {
    ++torn_pages_;  // cut mid-program (or failed): the page holds nothing usable
    f.pages_written = page + 1;
  } else if (oob.kind == PageKind::Erased) {
    block_ends = true;  // pages of a block are programmed in order: the rest is erased too
  } else {
    f.pages_written = page + 1;
    if (oob.sequence > max_sequence_) max_sequence_ = oob.sequence;
    if (oob.kind == PageKind::UserData) {
      for (uint32_t s = 0; s < spp; ++s) {
        const uint32_t lba = oob.lba[s];
        if (lba == kNoOobLba || lba >= lba_seq_.size()) continue;
        const uint64_t seq = oob.data_sequence(s);
        if (seq > max_sequence_) max_sequence_ = seq;
        // A tie is the same data moved (GC, a WriteBooster flush): the copy programmed last
        // wins, so the source block holds none of what GC had already moved; else GC,
        // resuming with the room its own write point has left, finds its moved sectors valid
        // in the victim again and (its pool out of free blocks) nowhere to put them.
        if (seq > lba_seq_[lba] || (seq == lba_seq_[lba] && oob.sequence >= lba_prog_[lba])) {
          lba_seq_[lba] = seq;
          lba_prog_[lba] = oob.sequence;
          lba_ppa_[lba] = bm_.layout().ppa(block, page, s);
        }
      }
    } else if (oob.kind == PageKind::MapData) {
      f.holds_map = true;
      const uint32_t mp = oob.lba[0];
      if (mp < map_seq_.size() && oob.sequence >= map_seq_[mp]) {
        map_seq_[mp] = oob.sequence;
        map_ppa_[mp] = bm_.layout().ppa(block, page, 0);
      }
    }
  }
  if (!block_ends && page + 1 >= bm_.pages_in_block(block)) block_ends = true;
  if (block_ends) {
    ++cursor_block_[die];
    cursor_page_[die] = 0;
    if (cursor_block_[die] >= (die + 1) * blocks_per_die_) --dies_left_;
  } else {
    ++cursor_page_[die];
  }
}

}  // namespace ufs
