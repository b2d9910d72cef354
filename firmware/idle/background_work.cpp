#include "idle/background_work.h"

namespace ufs {

BackgroundWork::BackgroundWork(Hal& hal, const BackgroundWorkLinks& links)
    : idle_(hal), gc_(links.gc), gc_dies_(links.gc_dies), flush_(links.flush), writes_(links.writes),
      dies_(links.dies) {
  idle_.add(gc_);
  if (flush_) idle_.add(*flush_);
}

void BackgroundWork::hold(bool on) {
  gc_.hold(on);
  if (flush_) flush_->hold(on);
}

void BackgroundWork::every_die_to_gc() {
  for (uint32_t die = 0; die < dies_; ++die) gc_dies_.free_space_changed(die);
}

// Idle work waits while the scan rebuilds the FTL.
void BackgroundWork::recovery_started() {
  idle_.pause(true);
  if (flush_) flush_->hold(true);
}

void BackgroundWork::recovery_finished(const std::vector<uint8_t>& replayed) {
  idle_.pause(false);
  if (flush_) flush_->hold(false);
  writes_.write_back_map_pages(replayed);
  every_die_to_gc();
}

// Nothing on the flash and units still wait for a block: every die is out of free blocks and
// its GC cannot get one to move a victim into (grown bad blocks used up the spare). No later
// event frees a block, so the device becomes read-only instead of hanging; a victim GC can
// still clean is the last chance.
void BackgroundWork::reclaim_space() { every_die_to_gc(); }

void BackgroundWork::write_protect_entered() {
  gc_.stop();
  if (flush_) flush_->stop();
  writes_.refuse_undurable();
}

}  // namespace ufs
