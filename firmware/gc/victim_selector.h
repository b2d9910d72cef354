// When a die's pool needs GC and which block it cleans. Foreground GC starts below
// gc_start_free_blocks and keeps taking victims until gc_stop_free_blocks (a burst); in idle
// time background GC cleans up to bg_gc_free_blocks. The victim comes from the VictimPolicy
// (gc/victim_policy.h), under wear levelling's rate limiting, and holds at most what still
// gives a program unit back.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>
#include "firmware_params.h"
#include "ftl/block_manager.h"
#include "ftl/hybrid_pages.h"
#include "gc/victim_policy.h"
#include "gc/wear_migration.h"
#include "hal/hal.h"

namespace ufs {

class VictimSelector {
 public:
  // shares: hybrid page size (null: off).
  VictimSelector(Hal& hal, const FirmwareParams& params, const BlockManager& blocks, HybridPoolShares* shares,
                 WearMigration& wear);

  void set_background(bool on) { background_ = on; }  // idle time: the higher target
  bool background() const { return background_; }
  // The free blocks the pool (hybrid: `large` or not) of `die` should have, given `free`
  // now: a burst starts below the start threshold and ends at the stop one.
  uint32_t target(uint32_t die, bool large, uint32_t free);
  // `free` is below the foreground threshold (the stop one during a burst).
  bool foreground(uint32_t die, bool large, uint32_t free) const {
    return free < (burst_[die * 2 + large] ? params_.gc.stop_free_blocks : params_.gc.start_free_blocks);
  }
  // The pool's next victim, kNoBlock when none is worth cleaning. to_other (hybrid): the pool
  // holds more than its share, so the victim's data goes into the other pool, if that pool's
  // room beyond its own next victim's block (other_room, sectors: GC's spare there) takes it.
  uint32_t pick(uint32_t die, bool large, bool& to_other, int64_t other_room = 0);
  // The pool's block the policy would clean next (kNoBlock: none), without wear levelling's
  // rate limiting (only a few of its sectors move now: the rest when it is picked).
  uint32_t next_in_line(uint32_t die, bool large);

 private:
  Hal& hal_;
  const FirmwareParams& params_;
  const BlockManager& blocks_;
  HybridPoolShares* shares_;
  std::unique_ptr<VictimPolicy> policy_;
  std::function<bool(uint32_t)> allow_;  // wear levelling's rate limiting (empty: off)
  std::vector<uint8_t> burst_;           // per die and pool: foreground GC runs until the stop threshold
  bool background_ = false;
};

}  // namespace ufs
