#include "ftl/wear_leveller.h"

namespace ufs {

WearLeveller::WearLeveller(const std::string& policy, uint32_t block_lifetime, double retirement_age,
                           double age_variance)
    : policy_(policy == "rate-limit" ? Policy::RateLimit : policy == "migration" ? Policy::Migration : Policy::Off),
      lifetime_(block_lifetime),
      retirement_age_(retirement_age),
      age_variance_(age_variance) {}

double WearLeveller::mean_remaining(const BlockManager& bm) const {
  const uint32_t usable = bm.layout().block_count() - bm.bad_blocks();
  const double mean_erases = usable ? double(bm.total_erases()) / usable : 0.0;
  return double(lifetime_) - mean_erases;
}

bool WearLeveller::may_clean(const BlockManager& bm, uint32_t block, double uniform) const {
  if (!rate_limits() || lifetime_ == 0) return true;
  const double threshold = (1.0 - age_variance_) * mean_remaining(bm);
  const double left = remaining(bm, block);
  if (left >= threshold) return true;
  return left > 0 && uniform < left / threshold;
}

bool WearLeveller::wants_cold_data(const BlockManager& bm, uint32_t block) const {
  if (!migrates() || lifetime_ == 0) return false;
  return remaining(bm, block) < retirement_age_ * mean_remaining(bm);
}

uint32_t WearLeveller::pick_cold_block(const BlockManager& bm, uint32_t worn) const {
  const FlashGeometry& g = bm.layout().geometry();
  const uint32_t per_die = g.planes_per_die * g.blocks_per_plane;
  const uint32_t first = bm.layout().die_of_block(worn) * per_die;
  // Cold data: a block with more life left than the mean (rarely cleaned), written the
  // longest time ago (the content's temperature: its last write).
  const double mean = mean_remaining(bm);
  uint32_t best = BlockManager::kNoBlock;
  for (uint32_t b = first; b < first + per_die; ++b) {
    const BlockInfo& i = bm.info(b);
    if (i.state != BlockState::Closed || i.holds_map || i.slc || i.programs_in_flight || i.valid == 0) continue;
    if (remaining(bm, b) <= mean) continue;
    if (best == BlockManager::kNoBlock || i.last_write_ps < bm.info(best).last_write_ps) best = b;
  }
  return best;
}

}  // namespace ufs
