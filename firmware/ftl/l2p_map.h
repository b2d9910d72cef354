// The firmware's logical-to-physical map, one 32-bit entry per 4 KiB logical block, as a
// DRAM-less controller keeps it (issue 20): the map pages on NAND are the entries' authority and
// the firmware's RAM holds only what it works on. A lookup finds, in order:
//  1. the write cache's entries (ftl/cached_entries.h: kCachedFlag | slot, bounded by its slots);
//  2. the frames of the map pages resident in the SRAM map cache, and of pages whose write-back
//     is pending (ftl/map_frames.h);
//  3. the newest copy of the map page on NAND (MapPageReader: the map store's directory), read in
//     zero time (Hal::peek_map_words): the timing model's existing approximation, as it charges no
//     load where an update makes a page resident and HPB reads entries of pages not in SRAM.
// Where the whole map is resident (firmware.map_cache false) it is one L2pRuns (ftl/l2p_runs.h).
// firmware.map_verify keeps a whole-map shadow beside it and checks every lookup against it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include "ftl/cached_entries.h"
#include "ftl/l2p_runs.h"
#include "ftl/map_frames.h"

namespace ufs {

// Told of every mapping change (HPB dirty tracking: host writes, UNMAP, GC and
// wear-levelling moves all go through L2pMap::set).
class L2pObserver {
 public:
  virtual ~L2pObserver() = default;
  // value: the new entry (L2pMap encoding). The observer is told after the entry changed,
  // the watcher before.
  virtual void on_map_change(uint64_t lba, uint32_t value) = 0;
};

// The newest NAND copy of a map page (the map store: its directory, the HAL's peek).
class MapPageReader {
 public:
  virtual ~MapPageReader() = default;
  // The page's entries as its newest copy on NAND holds them (all unmapped: none on NAND), in zero time.
  virtual void read_newest(uint32_t page, uint32_t* out) = 0;
};

struct L2pMapStats {
  uint64_t peeked_pages = 0;      // newest NAND copies read in zero time (Hal::peek_map_words)
  uint64_t detached_frames = 0;   // frames made by an entry set outside the cache (recovery)
  uint64_t verified_gets = 0;     // firmware.map_verify: lookups compared with the shadow
  uint64_t get_mismatches = 0;    // ... that differed
};

class L2pMap {
 public:
  static constexpr uint32_t kUnmapped = 0xFFFFFFFFu;
  static constexpr uint32_t kCachedFlag = 0x80000000u;  // entry names a write-cache slot

  // The whole map resident (an L2pRuns) until use_frames.
  explicit L2pMap(uint64_t logical_blocks);
  ~L2pMap();

  // The map cache is on: entries live in frames and map pages, no whole map (the map store, at start).
  void use_frames(uint32_t map_pages, uint32_t entries_per_page, MapPageReader& reader);
  // firmware.map_verify: a whole-map shadow takes every set and checks every lookup (before any set).
  void keep_shadow();

  uint32_t get(uint64_t lba) const {
    const uint32_t e = lookup(lba);
    if (shadow_) check(lba, e);
    return e;
  }
  void set(uint64_t lba, uint32_t value);
  // Power-up recovery: lba's entry is `value` (what the scan found). Set only where the map (the
  // map page's copy) says otherwise; true then. The shadow (map_verify) takes it either way.
  bool recover(uint64_t lba, uint32_t value);
  // The entries of LBAs [first, first + count) into out, as get() gives them (kUnmapped past the end).
  void entries(uint64_t first, uint32_t* out, uint32_t count) const;
  // The same without the write cache's entries: what the map pages hold for those LBAs (a cached
  // LBA's is the entry before it was cached). `nand` (optional, count words, may be out itself):
  // a NAND copy of those entries just read (a merge read), used for entries no frame knows
  // instead of the peek.
  void page_entries(uint64_t first, uint32_t* out, uint32_t count, const uint32_t* nand = nullptr) const;
  // lba's write-cache entry (kCachedFlag | slot), or CachedEntries::kNone.
  uint32_t cached_entry(uint64_t lba) const {
    if (whole_) {
      const uint32_t e = whole_->get(lba);
      return is_cached(e) ? e : CachedEntries::kNone;
    }
    return cached_.find(lba);
  }
  // The entries of [first, first + count) into out, each physical one as it is and any other
  // (unmapped, in the write cache) as `none`.
  void physical_range(uint64_t first, uint32_t count, uint32_t* out, uint32_t none) const;

  // The map cache's residency and the map writer's write-backs (ftl/map_frames.h).
  // `loaded`: the NAND copy a load brought (MapFrames::set_resident).
  void page_resident(uint32_t page, bool resident, std::unique_ptr<uint32_t[]>* loaded = nullptr) {
    if (frames_) frames_->set_resident(page, resident, loaded);
  }
  void hold_page(uint32_t page) { if (frames_) frames_->hold(page); }
  void release_page(uint32_t page) { if (frames_) frames_->release(page); }
  // The page's newest NAND copy moved (the directory changed): a peeked copy is stale.
  void nand_copy_moved(uint32_t page) { if (page == peeked_page_) peeked_page_ = kNoPage; }
  // A frame made by set() outside the cache, waiting for its page's write-back.
  bool detached(uint32_t page) const {
    return frames_ && frames_->frame_of(page) != MapFrames::kNoFrame && !frames_->resident(page) && !frames_->held(page);
  }

  // A precondition fill: its entries go to a transient whole map until its map pages are written
  // (end_fill frees it); lookups find them after the frames.
  void begin_fill();
  void end_fill() { fill_.reset(); }

  void set_observer(L2pObserver* observer) { observer_ = observer; }
  // A second listener, told the same (the map store's check of map pages read from NAND).
  void set_watcher(L2pObserver* watcher) { watcher_ = watcher; }

  static bool is_cached(uint32_t e) { return e != kUnmapped && (e & kCachedFlag); }
  static bool is_physical(uint32_t e) { return !(e & kCachedFlag); }  // kUnmapped has the flag set
  static uint32_t cached(uint32_t slot) { return kCachedFlag | slot; }
  static uint32_t slot_of(uint32_t e) { return e & ~kCachedFlag; }

  uint64_t logical_blocks() const { return logical_blocks_; }
  bool whole() const { return whole_ != nullptr; }  // the whole map resident (no map cache)
  uint64_t whole_chunks_allocated() const { return whole_ ? whole_->chunks_allocated() : 0; }
  bool verifying() const { return shadow_ != nullptr; }
  // firmware.map_verify: the shadow's entries (L2pRuns::entries).
  void shadow_entries(uint64_t first, uint32_t* out, uint32_t count) const { shadow_->entries(first, out, count); }
  const MapFrames* frames() const { return frames_.get(); }
  const L2pMapStats& stats() const { return stats_; }
  const std::string& first_mismatch() const { return first_mismatch_; }
  // Host heap the whole map takes: the resident map (no map cache), else the shadow (map_verify).
  uint64_t whole_map_bytes() const;
  // The controller's RAM besides the frames' words: the cached entries, the frames' tables, the peek buffer.
  uint64_t cached_bytes() const { return cached_.bytes(); }
  uint64_t table_bytes() const;

 private:
  static constexpr uint32_t kNoPage = ~0u;
  uint32_t lookup(uint64_t lba) const {
    if (whole_) return whole_->get(lba);
    uint32_t e = cached_.find(lba);
    if (e == CachedEntries::kNone) {
      const uint32_t f = frames_->frame_of(page_of(lba));
      e = MapFrames::dense(f) ? frames_->words(f)[offset_of(lba)] : MapFrames::kUnknown;
      if (e == MapFrames::kUnknown) e = resolve(lba);
    }
    return e;
  }
  // Map pages hold page_bytes / 4 entries, mostly a power of two: a shift, not a division, per lookup.
  uint32_t page_of(uint64_t lba) const { return pow2_ ? uint32_t(lba >> shift_) : uint32_t(lba / epp_); }
  uint32_t offset_of(uint64_t lba) const { return pow2_ ? uint32_t(lba & (epp_ - 1)) : uint32_t(lba % epp_); }
  uint32_t resolve(uint64_t lba) const;          // not cached, not known in a frame
  const uint32_t* newest(uint32_t page) const;   // the peek buffer, holding the page's newest copy
  void check(uint64_t lba, uint32_t e) const;    // map_verify

  uint64_t logical_blocks_;
  uint32_t epp_ = 1;
  uint32_t shift_ = 0;
  bool pow2_ = true;
  std::unique_ptr<L2pRuns> whole_;   // no map cache: the whole map
  std::unique_ptr<L2pRuns> shadow_;  // map_verify
  std::unique_ptr<L2pRuns> fill_;    // a precondition fill in progress
  CachedEntries cached_;
  std::unique_ptr<MapFrames> frames_;
  MapPageReader* reader_ = nullptr;
  // The last page peeked (lookups of a page not resident come in runs: GC moves, HPB READ BUFFER).
  mutable std::unique_ptr<uint32_t[]> peeked_;
  mutable uint32_t peeked_page_ = kNoPage;
  mutable L2pMapStats stats_;
  mutable std::string first_mismatch_;
  L2pObserver* observer_ = nullptr;
  L2pObserver* watcher_ = nullptr;
};

}  // namespace ufs
