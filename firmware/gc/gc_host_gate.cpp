#include "gc/gc_host_gate.h"

namespace ufs {

bool GcHostGate::host_may_place(uint32_t die) {
  if (pacing_.may_place(die)) return true;
  pacing_.count_refusal();
  return false;
}

// Moved data of `from` programmed on `to`: `to` pays for the space, `from` keeps what its
// victim's erase will give back.
void GcHostGate::gc_spilled(uint32_t from, uint32_t to, uint32_t sectors) {
  pacing_.placed(to, sectors);
  if (pacing_.refund(from, sectors)) retry_[from] = 1;
}

void GcHostGate::retry(uint32_t die) {
  if (!retry_[die]) return;
  retry_[die] = 0;
  listener_.pace_earned(die);
}

}  // namespace ufs
