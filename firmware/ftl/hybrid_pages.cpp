#include "ftl/hybrid_pages.h"
#include <algorithm>

namespace ufs {

HybridPoolShares::HybridPoolShares(const FlashGeometry& g, double over_provisioning) : keep_(1.0 - over_provisioning) {
  const uint64_t planes = uint64_t(g.dies()) * g.planes_per_die;
  const uint64_t blocks[2] = {g.small_blocks_per_plane, g.blocks_per_plane - g.small_blocks_per_plane};
  const uint64_t page_sectors[2] = {g.sectors_per_page(), g.large_sectors_per_page()};
  for (int large = 0; large < 2; ++large)
    limit_[large] = uint64_t(double(planes * blocks[large] * g.pages_per_block * page_sectors[large]) * keep_);
}

void HybridPoolShares::block_retired(bool large, uint32_t block_sectors) {
  uint64_t& limit = limit_[large];
  limit -= std::min(limit, uint64_t(double(block_sectors) * keep_));
}

HybridSlotRuns::HybridSlotRuns(uint32_t slots, uint32_t run) : used_(slots, 0), run_(run), free_(slots) {}

bool HybridSlotRuns::whole_run(uint32_t first) const {
  if (first + run_ > used_.size()) return false;
  for (uint32_t k = first; k < first + run_; ++k)
    if (used_[k]) return false;
  return true;
}

uint32_t HybridSlotRuns::allocate(bool large, uint32_t reserve_slots) {
  const uint32_t need = large ? run_ : 1, n = uint32_t(used_.size());
  if (free_ < need + reserve_slots) return kNone;
  uint32_t pick = kNone, whole_runs = 0;
  for (uint32_t i = 0; i + run_ <= n; i += run_) {
    if (!whole_run(i)) continue;
    ++whole_runs;
    if (large && pick == kNone) pick = i;
  }
  if (large) {
    if (pick == kNone || (reserve_slots && whole_runs < 2)) return kNone;
  } else {
    bool breaks_run = false;
    for (uint32_t i = 0; i < n; ++i) {
      if (used_[i]) continue;
      const bool whole = whole_run(i / run_ * run_);
      if (pick == kNone) { pick = i; breaks_run = whole; }
      if (!whole) { pick = i; breaks_run = false; break; }
    }
    if (pick == kNone || (reserve_slots && breaks_run && whole_runs < 2)) return kNone;
  }
  std::fill(used_.begin() + pick, used_.begin() + pick + need, uint8_t(1));
  free_ -= need;
  return pick;
}

void HybridSlotRuns::release(uint32_t first, bool large) {
  const uint32_t need = large ? run_ : 1;
  std::fill(used_.begin() + first, used_.begin() + first + need, uint8_t(0));
  free_ += need;
}

}  // namespace ufs
