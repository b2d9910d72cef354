#include "gc/gc_host_gate.h"

namespace ufs {

bool GcHostGate::host_may_place(uint32_t die, bool large) {
  if (!on_ || pacing_.may_place(die, large)) return true;
  pacing_.count_refusal();
  retry_[die] = 1;
  return false;
}

bool GcHostGate::may_open_block(uint32_t die, bool large) {
  const bool may = on_ ? pacing_.may_open_block(die, large) : blocks_.pools().free_blocks(die, large) > 1;
  if (!may && on_) retry_[die] = 1;
  return may;
}

bool GcHostGate::may_share_gc_block(uint32_t die, bool large) { return on_ && pacing_.may_share_gc_block(die, large); }

void GcHostGate::retry(uint32_t die) {
  if (!retry_[die]) return;
  retry_[die] = 0;
  listener_.pace_earned(die);
}

}  // namespace ufs
