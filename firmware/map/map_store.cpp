#include "map/map_store.h"
#include <algorithm>
#include "core/firmware_ram.h"
#include "ftl/l2p_map.h"

namespace ufs {

MapStore::MapStore(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, L2pMap& map,
                   const BlockLayout& layout, FlashPort& flash)
    : hal_(hal), params_(params), map_(map), layout_(layout), flash_(flash), client_(flash.attach(*this)),
      spp_(geometry.sectors_per_page()), page_bytes_(geometry.page_bytes), entries_per_page_(geometry.page_bytes / 4) {
  if (!params.map_cache) return;
  const uint64_t logical_blocks = map.logical_blocks();
  const uint32_t pages = uint32_t((logical_blocks + entries_per_page_ - 1) / entries_per_page_);
  const uint32_t capacity = std::max<uint32_t>(1, uint32_t(uint64_t(params.l2p_sram_kib) * 1024 / geometry.page_bytes));
  cache_ = std::make_unique<MapCache>(capacity, pages, params.map_cache_policy);  // validate() vouched for the name
  dir_.assign(pages, L2pMap::kUnmapped);
  dir_seq_.assign(pages, 0);
  waiters_.resize(pages);
  listener_waits_.assign(pages, 0);
  map.use_frames(pages, uint32_t(entries_per_page_), *this);
}

uint32_t MapStore::wait_for_lookups(uint64_t lba, uint32_t blocks, MapWaiter& waiter, uint32_t token) {
  if (!cache_) return 0;
  uint32_t waits = 0;
  const uint32_t first = page_of(lba), last = page_of(lba + blocks - 1);
  for (uint32_t mp = first; mp <= last; ++mp) {
    if (cache_->resident(mp)) { cache_->touch(mp); ++stats_.read_hits; continue; }
    ++stats_.read_misses;
    if (miss_listener_) miss_listener_->on_map_miss(uint64_t(mp) * entries_per_page_);
    hal_.charge_cycles(params_.cycles.map_miss);
    if (dir_[mp] == L2pMap::kUnmapped) { install(mp, true); continue; }  // nothing on NAND yet
    if (waiters_[mp].empty() && !listener_waits_[mp]) load(mp);
    waiters_[mp].emplace_back(&waiter, token);
    ++waits;
  }
  return waits;
}

bool MapStore::ready_for(uint64_t lba) {
  if (!cache_) return true;
  const uint32_t mp = page_of(lba);
  if (cache_->resident(mp)) { cache_->touch(mp); return true; }
  if (dir_[mp] == L2pMap::kUnmapped) { install(mp, true); return true; }  // nothing on NAND yet
  if (waiters_[mp].empty() && !listener_waits_[mp]) load(mp);
  listener_waits_[mp] = 1;
  return false;
}

// A map update (remap or unmap) goes through the cache: the page is made resident
// (without a load: updates are merged with the NAND copy at write-back) and dirty.
void MapStore::updated(uint64_t lba) {
  if (!cache_) return;
  const uint32_t page = page_of(lba);
  if (cache_->resident(page)) cache_->touch(page);
  else {
    ++stats_.update_misses;
    install(page, false);
  }
  cache_->mark_dirty(page);
}

// The victim leaves before the page comes in (its frame, when no write-back holds it, is the
// one the page takes): the cache's frames stay at its capacity.
void MapStore::install(uint32_t page, bool loaded, std::unique_ptr<uint32_t[]>* words) {
  const uint32_t victim = cache_->insert(page, loaded);
  if (victim != MapCache::kNone) {
    if (cache_->dirty(victim)) sink_->write_back(victim);  // its updates go back to NAND (its frame waits)
    cache_->forget(victim);
    map_.page_resident(victim, false);
  }
  map_.page_resident(page, true, words);
}

void MapStore::read_newest(uint32_t page, uint32_t* out) {
  if (dir_[page] == L2pMap::kUnmapped ||
      !hal_.peek_map_words(layout_.address_of(layout_.block_of(dir_[page]), layout_.page_of(dir_[page])), out,
                           uint32_t(entries_per_page_))) {
    if (dir_[page] != L2pMap::kUnmapped) ++stats_.peek_no_words;
    std::fill_n(out, entries_per_page_, L2pMap::kUnmapped);
  }
}

// A load reads the page's entries into a buffer of its own (a cached entry is never on NAND:
// MapFrames::kUnknown left in place means the copy carried none).
void MapStore::load(uint32_t page) {
  if (loading_ == loads_.size()) loads_.emplace_back();
  LoadBuffer& b = loads_[loading_++];
  b.page = page;
  b.seq = dir_seq_[page];
  if (!b.words) b.words.reset(new uint32_t[entries_per_page_]);
  b.words[0] = MapFrames::kUnknown;  // still there after the read: the copy carried no entries
  flash_.read(client_, page, layout_.address_of(layout_.block_of(dir_[page]), layout_.page_of(dir_[page])), 0, spp_,
              kL2pSramBase, uint8_t(params_.map_read_priority), b.words.get(), uint32_t(entries_per_page_));
  ++stats_.loads;
}

void MapStore::verify_with() {
  if (!cache_ || !source_) return;  // the whole map resident: no map pages are loaded
  verifying_ = true;
  map_.keep_shadow();
  map_.set_watcher(this);
  words_per_page_bits_ = uint32_t((entries_per_page_ + 63) / 64);
  changed_.assign(size_t(pages()) * words_per_page_bits_, ~0ull);  // nothing programmed yet: nothing to compare
  snap_seq_.assign(pages(), 0);
  programmed_.resize(pages());
}

uint64_t MapStore::hash(const uint32_t* words, uint32_t count) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the words
  for (uint32_t i = 0; i < count; ++i) h = (h ^ words[i]) * 1099511628211ull;
  return h;
}

void MapStore::note_mismatch(uint32_t page, const std::string& what) {
  if (!stats_.mismatches) first_mismatch_ = "map page " + std::to_string(page) + ": " + what;
  ++stats_.mismatches;
}

void MapStore::snapshot(uint32_t page, uint64_t seq, const uint32_t* words) {
  if (!verifying_) return;
  snap_seq_[page] = seq;
  std::fill_n(changed_.begin() + long(page) * words_per_page_bits_, words_per_page_bits_, 0);
  auto& ring = programmed_[page];
  std::copy_backward(ring.begin(), ring.end() - 1, ring.end());  // newest first
  ring[0] = {seq, hash(words, uint32_t(entries_per_page_))};
}

void MapStore::verify(uint32_t page, uint64_t load_seq, const uint32_t* words) {
  if (words[0] == MapFrames::kUnknown) { ++stats_.no_entries; return; }
  if (load_seq != snap_seq_[page]) {  // a newer copy is being programmed: this one as it was programmed
    const uint64_t h = hash(words, uint32_t(entries_per_page_));
    for (const auto& [seq, programmed] : programmed_[page])
      if (seq == load_seq) {
        if (h == programmed) ++stats_.intact;
        else note_mismatch(page, "a copy read back other than programmed");
        return;
      }
    ++stats_.older;  // programmed too long ago to be remembered
    return;
  }
  // What the shadow says the page holds (the whole map's entries, the cached ones resolved).
  std::vector<uint32_t> expected(entries_per_page_);
  map_.shadow_entries(uint64_t(page) * entries_per_page_, expected.data(), uint32_t(entries_per_page_));
  source_->resolve_cached(page, expected.data(), uint32_t(entries_per_page_));
  const uint64_t* changed = changed_.data() + size_t(page) * words_per_page_bits_;
  for (uint32_t i = 0; i < entries_per_page_; ++i) {
    if ((changed[i / 64] >> (i % 64)) & 1) continue;  // changed since that copy: the map has moved on
    ++stats_.entries;
    if (words[i] != expected[i]) {
      note_mismatch(page, "entry " + std::to_string(i) + ": NAND " + std::to_string(words[i]) + ", map " +
                              std::to_string(expected[i]));
      return;
    }
  }
  ++stats_.verified;
}

void MapStore::on_flash_done(uint64_t index, const FlashCompletion&) {
  const uint32_t page = uint32_t(index);
  uint32_t k = 0;
  while (k + 1 < loading_ && loads_[k].page != page) ++k;  // a few loads at once
  std::swap(loads_[k], loads_[--loading_]);  // out of the ones in flight (its buffer kept for the next)
  LoadBuffer& b = loads_[loading_];
  if (verifying_) verify(page, b.seq, b.words.get());
  hal_.charge_cycles(params_.cycles.map_miss);
  // The frame takes the entries the load brought (those a frame still holds are newer than any
  // copy). A write-back of the page landed during the load (its frame gone): the newest copy
  // instead. A copy without entries leaves them unknown (peeked when needed).
  std::unique_ptr<uint32_t[]>* loaded = &b.words;
  if (b.words[0] == MapFrames::kUnknown) {
    loaded = nullptr;
  } else if (b.seq != dir_seq_[page]) {
    ++stats_.stale_loads;
    read_newest(page, b.words.get());
  }
  install(page, true, loaded);
  // The waiters are taken out (a callback may make the page wait again); the page keeps the
  // spare list's storage and the spare takes this one's, so in steady state no wait
  // allocates (issue 18: a heap allocation and free per map load).
  std::vector<std::pair<MapWaiter*, uint32_t>> waiting = std::move(spare_waiters_);
  waiting.clear();
  waiting.swap(waiters_[page]);
  for (const auto& [waiter, token] : waiting) waiter->map_page_loaded(token);
  waiting.clear();
  spare_waiters_ = std::move(waiting);
  if (listener_waits_[page]) {
    listener_waits_[page] = 0;
    load_listener_->on_map_page_loaded();
  }
}

uint64_t MapStore::buffer_bytes() const {
  if (!cache_) return 0;
  const MapFrames& f = *map_.frames();
  const uint64_t b = vector_bytes(loads_) + uint64_t(loads_.size()) * page_bytes_;
  const uint64_t own = cache_->capacity();
  return b + (f.peak() > own ? uint64_t(f.peak() - own) * page_bytes_ : 0) + f.sparse_peak_bytes();
}

uint64_t MapStore::directory_bytes() const {
  if (!cache_) return 0;
  return vector_bytes(dir_) + vector_bytes(dir_seq_) + vector_bytes(waiters_) + vector_bytes(listener_waits_) +
         cache_->ram_bytes() + map_.table_bytes();
}

const uint64_t& MapStore::counter(int which) const {
  switch (which) {
    case 0: return stats_.read_hits;
    case 1: return stats_.read_misses;
    case 2: return stats_.update_misses;
    default: return stats_.loads;
  }
}

void MapStore::visit_stats(StatsVisitor& v) const {
  const uint64_t lookups = stats_.read_hits + stats_.read_misses;
  v.count("ftl.map_cache.read_hits", stats_.read_hits, "lookups", "read lookups whose map page was in SRAM");
  v.count("ftl.map_cache.read_misses", stats_.read_misses, "lookups", "read lookups that waited for a map load");
  v.figure("ftl.map_cache.read_hit_ratio", lookups ? double(stats_.read_hits) / double(lookups) : 1.0, "fraction",
           "read lookups served from SRAM");
  v.count("ftl.map_cache.update_misses", stats_.update_misses, "updates", "map updates whose page was not in SRAM");
  v.count("ftl.map_cache.page_loads", stats_.loads, "pages", "map pages read from NAND for lookups");
  if (!cache_) return;
  const L2pMapStats& m = map_.stats();
  v.count("ftl.map_cache.peeked_pages", m.peeked_pages, "pages",
          "map pages' newest NAND copies read in zero time (entries outside SRAM the timing model charges no load for)");
  v.count("ftl.map_cache.peek_no_words", stats_.peek_no_words, "pages", "peeked copies that held no entries");
  v.count("ftl.map_cache.stale_loads", stats_.stale_loads, "pages",
          "loads a newer copy overtook (the frame took the newer copy's entries)");
  v.count("ftl.map_cache.frames_peak", map_.frames()->peak(), "frames",
          "map page frames in use at most (the cache's and those waiting for a write-back)");
  v.count("ftl.map_cache.detached_frames", m.detached_frames, "frames", "frames made by entries set outside the cache");
  if (!verifying_) return;
  v.count("ftl.map_cache.verify.lookups", m.verified_gets, "entries", "lookups compared with the whole-map shadow");
  v.count("ftl.map_cache.verify.lookup_mismatches", m.get_mismatches, "entries", "lookups that differed from the shadow");
  if (m.get_mismatches)
    v.text("ftl.map_cache.verify.first_lookup_mismatch", map_.first_mismatch(), "the first lookup that differed");
  v.count("ftl.map_cache.verify.equal", stats_.verified, "pages",
          "map pages loaded whose entries equal the map's (those unchanged since that copy was programmed)");
  v.count("ftl.map_cache.verify.entries", stats_.entries, "entries", "entries compared");
  v.count("ftl.map_cache.verify.mismatches", stats_.mismatches, "pages", "map pages loaded with an entry not the map's");
  v.count("ftl.map_cache.verify.intact", stats_.intact, "pages",
          "map pages loaded while a newer copy was being programmed: read back as that copy was programmed");
  v.count("ftl.map_cache.verify.older", stats_.older, "pages",
          "map pages loaded while a newer copy was being programmed, too old to be remembered (not compared)");
  v.count("ftl.map_cache.verify.no_entries", stats_.no_entries, "pages",
          "map pages loaded that carry no entries (none: every copy is programmed with them)");
  if (stats_.mismatches) v.text("ftl.map_cache.verify.first_mismatch", first_mismatch_, "the first entry that differed");
}

}  // namespace ufs
