#include "ftl/recovery.h"
#include <algorithm>

namespace ufs {

RecoveryScan::RecoveryScan(const BlockManager& blocks, uint64_t logical_blocks, uint64_t entries_per_page,
                           uint32_t batch_pages)
    : bm_(blocks),
      logical_blocks_(logical_blocks),
      entries_per_page_(entries_per_page),
      batch_pages_(batch_pages),
      blocks_per_die_(blocks.layout().geometry().planes_per_die * blocks.layout().geometry().blocks_per_plane),
      cursor_block_(blocks.layout().geometry().dies()),
      cursor_page_(blocks.layout().geometry().dies(), 0),
      dies_left_(blocks.layout().geometry().dies()),
      found_(blocks.layout().block_count()),
      pages_((logical_blocks + entries_per_page - 1) / entries_per_page) {
  for (uint32_t d = 0; d < cursor_block_.size(); ++d) cursor_block_[d] = d * blocks_per_die_;
}

uint32_t RecoveryScan::batch_pages(uint64_t l2p_sram_bytes, uint64_t entries_per_page, uint32_t map_pages) {
  if (map_pages == 0) return 0;
  return uint32_t(std::max<uint64_t>(1, l2p_sram_bytes / (entries_per_page * sizeof(Replayed))));
}

uint64_t RecoveryScan::ram_bytes(const BlockManager& blocks, uint64_t logical_blocks, uint64_t entries_per_page,
                                 uint32_t batch_pages) {
  const uint64_t pages = (logical_blocks + entries_per_page - 1) / entries_per_page;
  const uint64_t table_pages = batch_pages ? std::min<uint64_t>(batch_pages, pages) : pages;
  const uint32_t dies = blocks.layout().geometry().dies();
  return uint64_t(blocks.layout().block_count()) * sizeof(BlockFound) + pages * sizeof(MapPageFound) +
         table_pages * entries_per_page * sizeof(Replayed) +
         uint64_t(dies) * (2 * sizeof(uint32_t) + entries_per_page * sizeof(uint32_t)) +
         entries_per_page * sizeof(uint32_t);
}

bool RecoveryScan::replayed(uint32_t page) const {
  const MapPageFound& p = pages_[page];
  return p.newest_data != 0 && p.newest_data >= p.covers;
}

void RecoveryScan::next(uint32_t die, uint32_t& block, uint32_t& page) const {
  const bool finished = cursor_block_[die] >= (die + 1) * blocks_per_die_;
  block = finished ? kDone : cursor_block_[die];
  page = cursor_page_[die];
}

void RecoveryScan::advance(uint32_t die, uint32_t block, uint32_t page, bool block_ends) {
  if (!block_ends && page + 1 >= bm_.pages_in_block(block)) block_ends = true;
  if (block_ends) {
    ++cursor_block_[die];
    cursor_page_[die] = 0;
    if (cursor_block_[die] >= (die + 1) * blocks_per_die_) --dies_left_;
  } else {
    ++cursor_page_[die];
  }
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
    if (f.first_seq == ~0ull) f.first_seq = oob.sequence;
    f.newest_seq = std::max(f.newest_seq, oob.sequence);
    max_sequence_ = std::max(max_sequence_, oob.sequence);
    if (oob.kind == PageKind::UserData) {
      for (uint32_t s = 0; s < spp; ++s) {
        const uint32_t lba = oob.lba[s];
        if (lba == kNoOobLba || lba >= logical_blocks_) continue;
        max_sequence_ = std::max(max_sequence_, oob.data_sequence(s));
        MapPageFound& mp = pages_[lba / entries_per_page_];
        mp.newest_data = std::max(mp.newest_data, oob.sequence);
      }
    } else if (oob.kind == PageKind::MapData) {
      f.holds_map = true;
      const uint32_t mp = oob.lba[0];
      if (mp < pages_.size() && oob.sequence >= pages_[mp].seq) {
        pages_[mp].seq = oob.sequence;
        pages_[mp].covers = oob.data_sequence(0);
        pages_[mp].ppa = bm_.layout().ppa(block, page, 0);
      }
    }
  }
  advance(die, block, page, block_ends);
}

bool RecoveryScan::start_batch() {
  for (uint32_t p = batch_first_; p < batch_end_; ++p) pages_[p].slot = kNone;
  if (batch_end_ >= pages_.size()) return false;
  batch_first_ = batch_end_;
  batch_replayed_ = 0;
  batch_covers_ = ~0ull;
  uint32_t end = batch_first_;
  for (; end < pages_.size(); ++end) {
    if (!replayed(end)) continue;
    if (batch_pages_ && batch_replayed_ == batch_pages_) break;
    pages_[end].slot = batch_replayed_++;
    batch_covers_ = std::min(batch_covers_, pages_[end].covers);
  }
  batch_end_ = end;
  table_.assign(size_t(batch_replayed_) * entries_per_page_, Replayed{});
  const uint32_t dies = uint32_t(cursor_block_.size());
  dies_left_ = batch_replayed_ ? dies : 0;
  for (uint32_t d = 0; d < dies && batch_replayed_; ++d) {
    cursor_block_[d] = d * blocks_per_die_;
    cursor_page_[d] = 0;
    skip_to_candidate(d);
  }
  return true;
}

// A block can hold a batch page's replayed data: data written since an old enough program.
bool RecoveryScan::replay_candidate(uint32_t block) const {
  const BlockFound& f = found_[block];
  return !f.bad && !f.holds_map && f.pages_written > 0 && f.newest_seq >= batch_covers_;
}

void RecoveryScan::skip_to_candidate(uint32_t die) {
  const uint32_t end = (die + 1) * blocks_per_die_;
  while (cursor_block_[die] < end && !replay_candidate(cursor_block_[die])) ++cursor_block_[die];
  cursor_page_[die] = 0;
  if (cursor_block_[die] >= end) --dies_left_;
}

void RecoveryScan::replay_next(uint32_t die, uint32_t& block, uint32_t& page) const { next(die, block, page); }

void RecoveryScan::replay_page_read(uint32_t die, FlashStatus status, const PageOob& oob) {
  const uint32_t block = cursor_block_[die], page = cursor_page_[die];
  const uint32_t spp = bm_.layout().spp_of(block);
  ++replay_reads_;
  if (status == FlashStatus::Ok && oob.kind == PageKind::UserData) {
    const uint64_t first = uint64_t(batch_first_) * entries_per_page_, end = uint64_t(batch_end_) * entries_per_page_;
    for (uint32_t s = 0; s < spp; ++s) {
      const uint32_t lba = oob.lba[s];
      if (lba == kNoOobLba || lba < first || lba >= end || lba >= logical_blocks_) continue;
      const MapPageFound& mp = pages_[lba / entries_per_page_];
      if (mp.slot == kNone || oob.sequence < mp.covers) continue;  // in the copy already
      Replayed& r = table_[size_t(mp.slot) * entries_per_page_ + lba % entries_per_page_];
      const uint64_t seq = oob.data_sequence(s);
      // A tie is the same data moved (GC, a WriteBooster flush): the copy programmed last
      // wins, so the source block holds none of what GC had already moved; else GC,
      // resuming with the room its own write point has left, finds its moved sectors valid
      // in the victim again and (its pool out of free blocks) nowhere to put them.
      if (seq > r.data_seq || (seq == r.data_seq && oob.sequence >= r.prog_seq)) {
        r.data_seq = seq;
        r.prog_seq = oob.sequence;
        r.ppa = bm_.layout().ppa(block, page, s);
      }
    }
  }
  if (page + 1 >= found_[block].pages_written) {
    ++cursor_block_[die];
    skip_to_candidate(die);
  } else {
    ++cursor_page_[die];
  }
}

const RecoveryScan::Replayed& RecoveryScan::replayed_entry(uint64_t lba) const {
  static const Replayed kNothing{};
  const MapPageFound& mp = pages_[lba / entries_per_page_];
  if (mp.slot == kNone) return kNothing;
  return table_[size_t(mp.slot) * entries_per_page_ + lba % entries_per_page_];
}

bool RecoveryScan::gone(uint32_t ppa, uint32_t page) const {
  const uint32_t block = bm_.layout().block_of(ppa);
  if (block >= found_.size()) return true;
  const BlockFound& f = found_[block];
  return f.bad || f.holds_map || bm_.layout().page_of(ppa) >= f.pages_written || f.first_seq > pages_[page].seq;
}

}  // namespace ufs
