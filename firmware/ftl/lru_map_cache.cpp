// LRU map-page replacement: a use moves the page to the head, the tail goes.
#include "ftl/map_cache.h"

namespace ufs {

namespace {
class LruMapCache : public MapCacheReplacement {
 public:
  explicit LruMapCache(uint32_t pages) : list_(pages) {}
  void installed(uint32_t page) override { list_.push_front(page); }
  void used(uint32_t page) override { list_.move_to_front(page); }
  uint32_t evict() override { return list_.pop_tail(); }
  uint64_t ram_bytes() const override { return list_.ram_bytes(); }

 private:
  PageList list_;
};
}  // namespace

std::unique_ptr<MapCacheReplacement> make_lru_map_cache(uint32_t map_pages) {
  return std::make_unique<LruMapCache>(map_pages);
}

}  // namespace ufs
