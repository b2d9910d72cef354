// FIFO map-page replacement: uses do not reorder, the page installed longest ago goes.
#include "ftl/map_cache.h"

namespace ufs {

namespace {
class FifoMapCache : public MapCacheReplacement {
 public:
  explicit FifoMapCache(uint32_t pages) : list_(pages) {}
  void installed(uint32_t page) override { list_.push_front(page); }
  void used(uint32_t) override {}
  uint32_t evict() override { return list_.pop_tail(); }
  uint64_t ram_bytes() const override { return list_.ram_bytes(); }

 private:
  PageList list_;
};
}  // namespace

std::unique_ptr<MapCacheReplacement> make_fifo_map_cache(uint32_t map_pages) {
  return std::make_unique<FifoMapCache>(map_pages);
}

}  // namespace ufs
