#include "gc/write_booster_flush.h"

namespace ufs {

WriteBoosterFlush::WriteBoosterFlush(const FirmwareParams& params, const FlashGeometry& geometry,
                                     BlockManager& blocks, GarbageCollector& gc, WriteBooster& wb)
    : params_(params), dies_(geometry.dies()), planes_per_die_(geometry.planes_per_die), blocks_(blocks), gc_(gc),
      wb_(wb) {}

void WriteBoosterFlush::idle_began() {
  idle_ = true;
  ++wb_.stats().flushes_started;
  for (uint32_t die = 0; die < dies_; ++die) flush(die);
}

void WriteBoosterFlush::flush(uint32_t die) {
  if (stopped_ || !idle_ || held_) return;
  if (gc_.active(die)) {
    if (gc_.flushing(die)) gc_.resume(die);  // a flush a command paused goes on
    return;
  }
  // Sealed blocks only: the open SLC blocks (one per plane) stay open and take the next
  // writes. Flushing an open block spends a whole erase cycle on the few pages written since
  // the last idle gap (a phone idles every few writes), and the block it came from would be
  // reopened at once for the next write.
  const uint32_t victim = next_victim(die);
  if (victim == BlockManager::kNoBlock) {
    wb_.set_flushing(gc_.any_flushing());
    return;
  }
  gc_.start_flush(die, victim);
  wb_.set_flushing(true);
  gc_.resume(die);
}

// The die's closed SLC block with the fewest valid sectors (no program still going in);
// kNoBlock when none.
uint32_t WriteBoosterFlush::next_victim(uint32_t die) const {
  uint32_t best = BlockManager::kNoBlock;
  const uint32_t per_die = blocks_.layout().geometry().planes_per_die * blocks_.layout().geometry().blocks_per_plane;
  for (uint32_t block = die * per_die; block < (die + 1) * per_die; ++block) {
    const BlockInfo& b = blocks_.info(block);
    if (!b.slc || b.state != BlockState::Closed || b.programs_in_flight) continue;
    if (best == BlockManager::kNoBlock || b.valid < blocks_.info(best).valid) best = block;
  }
  return best;
}

// A flush takes its next unit only while the device is idle (a command stops it at the next
// unit, not the next block: an SLC block holds hundreds of TLC programs' worth) or while the
// die runs short of free blocks (foreground GC waits for the flush's victim), and keeps at
// most a unit per plane in flight, so the host finds the data buffer free and waits at most
// a program for the die.
bool WriteBoosterFlush::may_fill(uint32_t die, uint32_t units_in_flight) const {
  if (units_in_flight >= planes_per_die_) return false;
  return idle_ || blocks_.pools().free_blocks(die) < params_.gc.start_free_blocks;
}

// A flushed SLC block's pages leave the buffer's fill.
void WriteBoosterFlush::slc_block_erased(uint32_t block) {
  const BlockInfo& b = blocks_.info(block);
  wb_.add_used(-int64_t(b.next_page) * blocks_.layout().geometry().sectors_per_page());
  wb_.count_erase(b.erase_count + 1);
}

}  // namespace ufs
