#include "map/map_store.h"
#include <algorithm>
#include "core/firmware_ram.h"
#include "ftl/l2p_map.h"

namespace ufs {

MapStore::MapStore(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint64_t logical_blocks,
                   const BlockLayout& layout, FlashPort& flash)
    : hal_(hal), params_(params), layout_(layout), flash_(flash), client_(flash.attach(*this)),
      spp_(geometry.sectors_per_page()), page_bytes_(geometry.page_bytes), entries_per_page_(geometry.page_bytes / 4) {
  if (!params.map_cache) return;
  const uint32_t pages = uint32_t((logical_blocks + entries_per_page_ - 1) / entries_per_page_);
  const uint32_t capacity = std::max<uint32_t>(1, uint32_t(uint64_t(params.l2p_sram_kib) * 1024 / geometry.page_bytes));
  cache_ = std::make_unique<MapCache>(capacity, pages, params.map_cache_policy);  // validate() vouched for the name
  dir_.assign(pages, L2pMap::kUnmapped);
  dir_seq_.assign(pages, 0);
  waiters_.resize(pages);
  listener_waits_.assign(pages, 0);
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

void MapStore::install(uint32_t page, bool loaded) {
  const uint32_t victim = cache_->insert(page, loaded);
  if (victim == MapCache::kNone) return;
  if (cache_->dirty(victim)) sink_->write_back(victim);  // its updates go back to NAND
  cache_->forget(victim);
}

void MapStore::load(uint32_t page) {
  flash_.read(client_, page, layout_.address_of(layout_.block_of(dir_[page]), layout_.page_of(dir_[page])), 0, spp_,
              kL2pSramBase, uint8_t(params_.map_read_priority));
  ++stats_.loads;
}

void MapStore::on_flash_done(uint64_t index, const FlashCompletion&) {
  const uint32_t page = uint32_t(index);
  hal_.charge_cycles(params_.cycles.map_miss);
  install(page, true);
  std::vector<std::pair<MapWaiter*, uint32_t>> waiting;
  waiting.swap(waiters_[page]);
  for (const auto& [waiter, token] : waiting) waiter->map_page_loaded(token);
  if (listener_waits_[page]) {
    listener_waits_[page] = 0;
    load_listener_->on_map_page_loaded();
  }
}

uint64_t MapStore::directory_bytes() const {
  if (!cache_) return 0;
  return vector_bytes(dir_) + vector_bytes(dir_seq_) + vector_bytes(waiters_) + vector_bytes(listener_waits_) +
         cache_->ram_bytes();
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
}

}  // namespace ufs
