#include "gc/host_pacing.h"
#include <algorithm>

namespace ufs {

void HostPacing::victim_taken(uint32_t die, uint32_t valid, uint32_t reclaim, bool fresh) {
  Die& d = dies_[die];
  if (fresh || !d.paced) d.credit = std::max<int64_t>(d.credit, 0);
  d.paced = true;
  d.valid = valid;
  d.reclaim = reclaim;
  d.moved = 0;
  d.earned = 0;
}

bool HostPacing::earn(Die& d, uint32_t target) {
  if (target <= d.earned) return false;
  const bool was = d.credit > 0;
  d.credit = std::min(cap_, d.credit + int64_t(target - d.earned));
  d.earned = target;
  return !was && d.credit > 0;
}

bool HostPacing::sector_moved(uint32_t die) {
  Die& d = dies_[die];
  if (!d.paced || d.valid == 0) return false;
  ++d.moved;
  // R/V per sector moved, in whole sectors; never past R (the host may have invalidated
  // some of the victim's sectors meanwhile: GC then moves fewer than V).
  const uint32_t target = uint32_t(std::min<uint64_t>(d.reclaim, uint64_t(d.moved) * d.reclaim / d.valid));
  return earn(d, target);
}

bool HostPacing::victim_erased(uint32_t die) {
  Die& d = dies_[die];
  if (!d.paced) return false;
  // What the erase gave back: the block less what GC moved out of it (the victim's valid
  // sectors the host overwrote before GC moved them were freed too).
  const uint32_t freed = d.reclaim + (d.valid - std::min(d.valid, d.moved));
  d.valid = 0;  // until the next victim: nothing more to earn
  return earn(d, std::max(freed, d.earned));
}

bool HostPacing::refund(uint32_t die, uint32_t sectors) {
  Die& d = dies_[die];
  if (!d.paced) return false;
  const bool was = d.credit > 0;
  d.credit = std::min(cap_, d.credit + int64_t(sectors));
  return !was && d.credit > 0;
}

void HostPacing::placed(uint32_t die, uint32_t sectors) {
  Die& d = dies_[die];
  if (d.paced) d.credit -= int64_t(sectors);
}

}  // namespace ufs
