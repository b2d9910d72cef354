#include "ftl/l2p_map.h"
#include <algorithm>

namespace ufs {

L2pMap::L2pMap(uint64_t logical_blocks)
    : logical_blocks_(logical_blocks), whole_(std::make_unique<L2pRuns>(logical_blocks)) {}

L2pMap::~L2pMap() = default;

void L2pMap::use_frames(uint32_t map_pages, uint32_t entries_per_page, MapPageReader& reader) {
  whole_.reset();
  epp_ = entries_per_page;
  while ((1u << shift_) < entries_per_page) ++shift_;
  pow2_ = (1u << shift_) == entries_per_page;
  frames_ = std::make_unique<MapFrames>(map_pages, entries_per_page);
  reader_ = &reader;
  peeked_.reset(new uint32_t[entries_per_page]);
}

void L2pMap::keep_shadow() { shadow_ = std::make_unique<L2pRuns>(logical_blocks_); }

void L2pMap::begin_fill() {
  if (!whole_) fill_ = std::make_unique<L2pRuns>(logical_blocks_);
}

const uint32_t* L2pMap::newest(uint32_t page) const {
  if (peeked_page_ != page) {
    reader_->read_newest(page, peeked_.get());
    peeked_page_ = page;
    ++stats_.peeked_pages;
  }
  return peeked_.get();
}

// An entry neither cached nor known in a frame: a fill's, else the map page's on NAND (a frame
// of the page learns all its unknown entries from that copy at once).
uint32_t L2pMap::resolve(uint64_t lba) const {
  if (fill_) {
    const uint32_t e = fill_->get(lba);
    if (e != kUnmapped) return e;
  }
  const uint32_t page = page_of(lba), off = offset_of(lba);
  const uint32_t f = frames_->frame_of(page);
  if (f != MapFrames::kNoFrame && !MapFrames::dense(f)) {  // a write-back buffer of a few entries
    const uint32_t e = frames_->sparse_entry(f, off);
    if (e != MapFrames::kUnknown) return e;
  }
  const uint32_t* nand = newest(page);
  if (!MapFrames::dense(f)) return nand[off];
  frames_->fill(f, nand);
  return frames_->words(f)[off];
}

// The observer hears of the change after it is made: what it does (HPB's dirty marking and
// signing, and their charge_cycles) follows the map update's own work, not inside it.
void L2pMap::set(uint64_t lba, uint32_t value) {
  if (watcher_) watcher_->on_map_change(lba, value);
  if (shadow_) shadow_->set(lba, value);
  if (whole_) {
    whole_->set(lba, value);
  } else if (is_cached(value)) {
    cached_.put(lba, value);
  } else {
    cached_.erase(lba);
    const uint32_t page = page_of(lba);
    const uint32_t had = frames_->frame_of(page);
    if (fill_) fill_->set(lba, value);
    if (!fill_ || had != MapFrames::kNoFrame) {
      // Outside the cache (recovery) the page gets a frame its write-back takes; a write-back
      // buffer of a few entries becomes a frame again.
      if (had == MapFrames::kNoFrame) ++stats_.detached_frames;
      frames_->set(frames_->attach(page), offset_of(lba), value);
    }
  }
  if (observer_) observer_->on_map_change(lba, value);
}

bool L2pMap::recover(uint64_t lba, uint32_t value) {
  if (shadow_) shadow_->set(lba, value);
  if (lookup(lba) == value) return false;
  set(lba, value);
  return true;
}

void L2pMap::entries(uint64_t first, uint32_t* out, uint32_t count) const {
  if (whole_) {
    whole_->entries(first, out, count);
    return;
  }
  page_entries(first, out, count);
  const uint64_t end = std::min(first + count, logical_blocks_);
  if (cached_.size())
    for (uint64_t lba = first; lba < end; ++lba) {
      const uint32_t e = cached_.find(lba);
      if (e != CachedEntries::kNone) out[lba - first] = e;
    }
  if (shadow_)
    for (uint64_t lba = first; lba < end; ++lba) check(lba, out[lba - first]);
}

void L2pMap::page_entries(uint64_t first, uint32_t* out, uint32_t count, const uint32_t* nand) const {
  if (whole_) {  // (the whole map holds the cached entries too: the write cache resolves them)
    whole_->entries(first, out, count);
    return;
  }
  const uint64_t end = std::min(first + count, logical_blocks_);
  uint64_t lba = first;
  while (lba < end) {
    const uint32_t page = page_of(lba), off = offset_of(lba);
    const uint64_t stop = std::min<uint64_t>(end, lba + (epp_ - off));
    const uint32_t n = uint32_t(stop - lba);
    uint32_t* const o = out + (lba - first);
    const uint32_t* const from_nand = nand ? nand + (lba - first) : nullptr;
    const uint32_t f = frames_->frame_of(page);
    const uint32_t* const known = MapFrames::dense(f) ? frames_->words(f) + off : nullptr;
    if (fill_) {  // a precondition fill: its entries after the frames'
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t e = known ? known[i] : f != MapFrames::kNoFrame ? frames_->sparse_entry(f, off + i) : MapFrames::kUnknown;
        if (e == MapFrames::kUnknown) e = fill_->get(lba + i);
        if (e == kUnmapped) e = from_nand ? from_nand[i] : newest(page)[off + i];
        o[i] = e;
      }
    } else if (f != MapFrames::kNoFrame && !known) {  // a write-back buffer of a few entries on the copy
      const uint32_t* const copy = from_nand ? from_nand : newest(page) + off;
      if (copy != o) std::copy(copy, copy + n, o);
      const MapFrames::Entries& e = frames_->sparse(f);
      for (auto it = std::lower_bound(e.begin(), e.end(), std::make_pair(off, uint32_t(0))); it != e.end() && it->first < off + n; ++it)
        o[it->first - off] = it->second;
    } else if (!known) {
      const uint32_t* const copy = from_nand ? from_nand : newest(page) + off;
      if (copy != o) std::copy(copy, copy + n, o);
    } else if (frames_->unknown(f) == 0) {
      std::copy(known, known + n, o);
    } else {
      const uint32_t* const copy = from_nand ? from_nand : newest(page) + off;
      for (uint32_t i = 0; i < n; ++i) o[i] = known[i] != MapFrames::kUnknown ? known[i] : copy[i];
    }
    lba = stop;
  }
  std::fill(out + (std::max(lba, first) - first), out + count, kUnmapped);  // past the device's end
}

void L2pMap::physical_range(uint64_t first, uint32_t count, uint32_t* out, uint32_t none) const {
  entries(first, out, count);
  for (uint32_t i = 0; i < count; ++i)
    if (!is_physical(out[i])) out[i] = none;
}

void L2pMap::check(uint64_t lba, uint32_t e) const {
  ++stats_.verified_gets;
  const uint32_t expected = shadow_->get(lba);
  if (e == expected) return;
  if (!stats_.get_mismatches)
    first_mismatch_ = "LBA " + std::to_string(lba) + ": map " + std::to_string(e) + ", shadow " + std::to_string(expected);
  ++stats_.get_mismatches;
}

uint64_t L2pMap::whole_map_bytes() const {
  if (whole_) return whole_->heap_bytes();
  return shadow_ ? shadow_->heap_bytes() : 0;
}

uint64_t L2pMap::table_bytes() const {
  if (!frames_) return 0;
  return frames_->table_bytes() + cached_.bytes() + uint64_t(epp_) * sizeof(uint32_t);  // the peek buffer
}

}  // namespace ufs
