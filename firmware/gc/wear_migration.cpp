#include "gc/wear_migration.h"
#include <algorithm>
#include <cmath>

namespace ufs {

WearMigration::WearMigration(Hal& hal, const FirmwareParams& params, BlockManager& blocks)
    : hal_(hal),
      blocks_(blocks),
      wear_(params.gc.wear_levelling, params.gc.block_lifetime, params.gc.wl_retirement_age, params.gc.wl_age_variance) {}

bool WearMigration::may_clean(uint32_t block) {
  const bool ok = wear_.may_clean(blocks_, block, double(hal_.random64() >> 11) * 0x1.0p-53);
  rate_limited_ += !ok;
  return ok;
}

uint32_t WearMigration::erased(uint32_t die, uint32_t block) {
  const BlockInfo& b = blocks_.info(block);
  expired_ += wear_.expired(b.erase_count + 1) && !wear_.expired(b.erase_count);
  uint32_t cold = BlockManager::kNoBlock;
  uint32_t& cold_open = blocks_.write_points().open_block(die, WriteStream::Cold);
  if (!b.slc && wear_.wants_cold_data(blocks_, block) &&  // SLC blocks go back to the buffer
      (cold_open == BlockManager::kNoBlock || blocks_.info(cold_open).programs_in_flight == 0))
    cold = wear_.pick_cold_block(blocks_, block);
  blocks_.return_erased_block(block, cold == BlockManager::kNoBlock);
  if (cold != BlockManager::kNoBlock) {
    if (cold_open != BlockManager::kNoBlock) blocks_.info(cold_open).state = BlockState::Closed;  // the last one's rest
    cold_open = block;
    ++migrations_;
  }
  return cold;
}

void WearMigration::visit_stats(StatsVisitor& v) const {
  double sum = 0, sum2 = 0;
  uint32_t n = 0, lo = ~0u, hi = 0;
  for (uint32_t b = 0; b < blocks_.layout().block_count(); ++b) {
    if (blocks_.info(b).state == BlockState::Bad) continue;
    const uint32_t e = blocks_.info(b).erase_count;
    sum += e; sum2 += double(e) * e; ++n;
    lo = std::min(lo, e); hi = std::max(hi, e);
  }
  const double mean = n ? sum / n : 0.0;
  v.figure("ftl.wear.erase_count_mean", mean, "cycles", "mean erase count of the blocks in use");
  v.figure("ftl.wear.erase_count_stddev", n ? std::sqrt(std::max(0.0, sum2 / n - mean * mean)) : 0.0, "cycles",
           "standard deviation of the erase counts");
  v.count("ftl.wear.erase_count_min", n ? lo : 0, "cycles", "fewest erases of a block in use");
  v.count("ftl.wear.erase_count_max", hi, "cycles", "most erases of a block in use");
  v.count("ftl.wear.expired_blocks", expired_, "blocks", "blocks whose erase count reached block_lifetime");
  v.count("ftl.wear.rate_limited_candidates", rate_limited_, "blocks", "victim candidates passed over");
  v.count("ftl.wear.migrations", migrations_, "blocks", "cold blocks moved into worn blocks");
}

}  // namespace ufs
