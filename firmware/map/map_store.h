// The L2P map's store in a DRAM-less device: the directory of map pages on NAND (where
// each page's newest copy is, and its program sequence) and the SRAM cache of map pages
// (ftl/map_cache.h), whose resident pages hold their entries in frames (ftl/l2p_map.h).
// Lookups of a host read wait for their pages' loads from NAND (one load per page, however
// many wait); a load's entries fill the page's frame. An update makes its page resident
// without a load (merged with the NAND copy when written back) and dirty; a dirty page
// evicted goes to the map writer. With firmware.map_cache false the whole map is resident:
// nothing waits.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "command/read_engine.h"
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_layout.h"
#include "ftl/l2p_map.h"
#include "ftl/map_cache.h"
#include "hal/hal.h"
#include "stats_visitor.h"

namespace ufs {

// Hears of host-read map misses (HPB device control mode counts them per sub-region).
class MapMissListener {
 public:
  virtual ~MapMissListener() = default;
  virtual void on_map_miss(uint64_t lba) = 0;
};

// Waits for any of the map pages it asked for (HPB READ BUFFER): told after each load,
// once the page's lookups went on.
class MapLoadListener {
 public:
  virtual ~MapLoadListener() = default;
  virtual void on_map_page_loaded() = 0;
};

// What a map page holds on NAND (issue 20): each of its LBAs' entries with the write cache
// resolved (a cached LBA's NAND copy, kept valid until its unit is programmed); unmapped past
// the device's end.
class MapPageSource {
 public:
  virtual ~MapPageSource() = default;
  // The map's entries of the page (L2pMap::entries; `nand`: a copy just read, for entries the
  // firmware's RAM does not hold), the cached ones resolved.
  virtual void nand_entries(uint32_t page, uint32_t* out, uint32_t count, const uint32_t* nand = nullptr) const = 0;
  // Cached entries among the page's `out` (kCachedFlag | slot) replaced by their NAND copies.
  virtual void resolve_cached(uint32_t page, uint32_t* out, uint32_t count) const = 0;
};

// Takes a dirty page out of SRAM back to NAND (the map writer).
class DirtyPageSink {
 public:
  virtual ~DirtyPageSink() = default;
  virtual void write_back(uint32_t page) = 0;
};

struct MapStoreStats {
  uint64_t read_hits = 0;      // host-read lookups whose map page was in SRAM
  uint64_t read_misses = 0;    // ... that had to wait for a map page load
  uint64_t update_misses = 0;  // map updates (writes, GC, UNMAP) whose page was not in SRAM
  uint64_t loads = 0;          // map pages read from NAND for lookups
  // firmware.map_verify: map pages loaded with their entries, checked against the firmware's map.
  uint64_t verified = 0;       // every entry unchanged since that copy was programmed equals the map's
  uint64_t entries = 0;        // entries compared (the others changed since)
  uint64_t mismatches = 0;     // an entry differs (first_mismatch says where)
  uint64_t stale_loads = 0;    // a newer copy landed while the page was loading: the frame takes that one
  uint64_t peek_no_words = 0;  // a peeked copy held no words (read as unmapped)
  uint64_t intact = 0;         // a newer copy was being programmed: this one read back as it was programmed
  uint64_t older = 0;          // ... and this one too old to be remembered (not compared)
  uint64_t no_entries = 0;     // the copy carries no entries (none expected: every copy is programmed with them)
};

class MapStore : public FlashClient, public MapLookups, public MapPageReader, private L2pObserver {
 public:
  // The map keeps its entries in the cache's frames (L2pMap::use_frames) when the map cache is on.
  MapStore(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, L2pMap& map,
           const BlockLayout& layout, FlashPort& flash);
  void set_dirty_sink(DirtyPageSink& sink) { sink_ = &sink; }
  void set_miss_listener(MapMissListener* l) { miss_listener_ = l; }
  void set_load_listener(MapLoadListener* l) { load_listener_ = l; }

  bool enabled() const { return cache_ != nullptr; }  // map pages are demand-loaded
  uint32_t pages() const { return uint32_t(dir_.size()); }
  uint64_t entries_per_page() const { return entries_per_page_; }
  uint32_t page_of(uint64_t lba) const { return uint32_t(lba / entries_per_page_); }

  // Host-read lookups (MapLookups).
  uint32_t wait_for_lookups(uint64_t lba, uint32_t blocks, MapWaiter& waiter, uint32_t token) override;
  // READ BUFFER: lba's map page is in SRAM; otherwise its load is started (or joined) and the
  // load listener is told when it is in. No hit or miss is counted.
  bool ready_for(uint64_t lba);
  // lba's mapping changes: its page becomes resident (without a load) and dirty.
  void updated(uint64_t lba);

  // The directory: the PPA of a page's first sector on NAND (L2pMap::kUnmapped: none yet).
  uint32_t location(uint32_t page) const { return dir_[page]; }
  uint64_t sequence(uint32_t page) const { return dir_seq_[page]; }
  void set_location(uint32_t page, uint32_t ppa, uint64_t seq) {
    dir_[page] = ppa;
    dir_seq_[page] = seq;
    map_.nand_copy_moved(page);
  }
  // MapPageReader: the newest copy's entries, in zero time (Hal::peek_map_words).
  void read_newest(uint32_t page, uint32_t* out) override;
  // SRAM state the writer needs: a page fully in SRAM needs no merge read; written back, it is clean.
  bool in_sram(uint32_t page) const { return cache_->resident(page) && cache_->loaded(page); }
  bool resident_dirty(uint32_t page) const { return cache_->resident(page) && cache_->dirty(page); }
  void written_back(uint32_t page) { if (cache_->resident(page)) cache_->mark_clean(page); }

  // The controller's RAM (core/firmware_ram.h): the directory, the cache's per-page state and
  // replacement order, the load waiters; and the cache's frames (the L2P SRAM).
  uint64_t directory_bytes() const;
  uint64_t frame_bytes() const { return cache_ ? uint64_t(cache_->capacity()) * page_bytes_ : 0; }
  // Frames beyond the cache's (write-back buffers of pages evicted with a write-back pending,
  // detached frames), the sparse write-back buffers and the loads' buffers: their most at once.
  uint64_t buffer_bytes() const;

  // What the map pages hold (issue 20): the map writer programs each map page's entries with
  // the page, so the map pages on NAND carry them.
  void set_source(const MapPageSource& source) { source_ = &source; }
  const MapPageSource* source() const { return source_; }
  // firmware.map_verify: the map keeps a whole-map shadow that checks every lookup, and every
  // load's entries are checked against it when nothing in the page changed since that copy was
  // programmed (set_source first).
  void verify_with();
  bool verifying() const { return verifying_; }
  // The map writer programs `page` with sequence `seq`: its entries as they are now (`words`).
  void snapshot(uint32_t page, uint64_t seq, const uint32_t* words);

  const MapStoreStats& stats() const { return stats_; }
  const uint64_t& counter(int which) const;  // traced: 0 hits, 1 misses, 2 update misses, 3 loads
  void visit_stats(StatsVisitor& v) const;

 private:
  // `words`: the entries a load brought (the page's frame takes them).
  void install(uint32_t page, bool loaded, std::unique_ptr<uint32_t[]>* words = nullptr);
  void load(uint32_t page);
  void on_flash_done(uint64_t page, const FlashCompletion& c) override;  // a load is in
  void on_map_change(uint64_t lba, uint32_t) override { changed_[lba / 64] |= 1ull << (lba % 64); }
  void verify(uint32_t page, uint64_t load_seq, const uint32_t* words);
  // A load's entries (its page, the directory's sequence when it was issued).
  struct LoadBuffer {
    uint32_t page = 0;
    uint64_t seq = 0;
    std::unique_ptr<uint32_t[]> words;  // entries_per_page; a new frame takes it (MapFrames::set_resident)
  };
  static uint64_t hash(const uint32_t* words, uint32_t count);
  void note_mismatch(uint32_t page, const std::string& what);
  Hal& hal_;
  const FirmwareParams& params_;
  L2pMap& map_;
  const BlockLayout& layout_;
  FlashPort& flash_;
  uint32_t client_;
  uint32_t spp_;
  uint32_t page_bytes_;
  uint64_t entries_per_page_;
  std::unique_ptr<MapCache> cache_;  // null: the whole map is resident
  std::vector<uint32_t> dir_;
  std::vector<uint64_t> dir_seq_;
  // Per page being loaded: who waits (lookups), and whether the load listener does.
  std::vector<std::vector<std::pair<MapWaiter*, uint32_t>>> waiters_;
  std::vector<std::pair<MapWaiter*, uint32_t>> spare_waiters_;  // storage handed on (on_flash_done)
  std::vector<uint8_t> listener_waits_;
  DirtyPageSink* sink_ = nullptr;
  MapMissListener* miss_listener_ = nullptr;
  MapLoadListener* load_listener_ = nullptr;
  MapStoreStats stats_;
  const MapPageSource* source_ = nullptr;
  // firmware.map_verify only (empty otherwise).
  bool verifying_ = false;
  std::vector<uint64_t> changed_;                  // per LBA: its entry changed since its page's last snapshot
  uint32_t words_per_page_bits_ = 0;               // changed_ words per map page
  std::vector<uint64_t> snap_seq_;                 // per page: last snapshot's sequence
  std::vector<LoadBuffer> loads_;                  // loads in flight and spare buffers (the first loading_)
  uint32_t loading_ = 0;
  std::vector<std::array<std::pair<uint64_t, uint64_t>, 8>> programmed_;  // per page: last copies' (seq, hash)
  std::string first_mismatch_;
};

}  // namespace ufs
