// CLOCK (second chance) map-page replacement: a use sets the page's reference bit; the
// hand (the list's tail) passes over a referenced page, clearing its bit and moving it
// behind the hand, and evicts the first unreferenced page.
#include "ftl/map_cache.h"

namespace ufs {

namespace {
class ClockMapCache : public MapCacheReplacement {
 public:
  explicit ClockMapCache(uint32_t pages) : list_(pages), referenced_(pages, 0) {}
  void installed(uint32_t page) override {
    referenced_[page] = 0;
    list_.push_front(page);
  }
  void used(uint32_t page) override { referenced_[page] = 1; }
  uint32_t evict() override {
    if (list_.tail() == kNone) return kNone;
    // Each pass clears one bit, so at most (resident pages + 1) steps.
    while (referenced_[list_.tail()]) {
      const uint32_t p = list_.tail();
      referenced_[p] = 0;
      list_.move_to_front(p);
    }
    return list_.pop_tail();
  }
  uint64_t ram_bytes() const override { return list_.ram_bytes() + referenced_.capacity(); }

 private:
  PageList list_;
  std::vector<uint8_t> referenced_;
};
}  // namespace

std::unique_ptr<MapCacheReplacement> make_clock_map_cache(uint32_t map_pages) {
  return std::make_unique<ClockMapCache>(map_pages);
}

}  // namespace ufs
