#include "fcc/suspend_resume.h"
#include "common/log.h"
#include "common/sim_time.h"
#include "fcc/die_sequencer.h"
#include "fcc/flash_timeline.h"

namespace ufs {

SuspendResume::SuspendResume(bool enabled, uint32_t dies, DieSequencer& sequencer, std::string owner)
    : enabled_(enabled), sequencer_(sequencer), owner_(std::move(owner)), dies_(dies) {}

bool SuspendResume::try_suspend(uint32_t die) {
  Die& d = dies_[die];
  if (!enabled_ || !d.group.empty() || !sequencer_.suspendable(die)) return false;
  d.since = sim_now();
  d.left = sequencer_.set_aside(die, d.group);
  UFS_LOG(Debug, Fcc, owner_.c_str(), "die " << die << ": program/erase suspended for a read, "
                                              << d.left.to_seconds() * 1e6 << " us of array time left");
  ++suspensions_;
  return true;
}

void SuspendResume::resume(uint32_t die) {
  Die& d = dies_[die];
  const sc_core::sc_time start = sequencer_.resume(die, d.group, d.left);
  UFS_LOG(Debug, Fcc, owner_.c_str(), "die " << die << ": program/erase resumes at " << start.to_seconds() * 1e6 << " us");
}

void SuspendResume::trace_in_flight(FlashTimeline& timeline, const OpPool& pool) const {
  for (uint32_t die = 0; die < dies_.size(); ++die)
    if (!dies_[die].group.empty()) timeline.suspended(die, pool, dies_[die].group, dies_[die].since, dies_[die].left);
}

uint64_t SuspendResume::cut_power(uint32_t die) {
  const uint64_t torn = sequencer_.tear(die, dies_[die].group);
  dies_[die].group.clear();
  return torn;
}

}  // namespace ufs
