#include "gc/garbage_collector.h"
#include <algorithm>

namespace ufs {

GarbageCollector::GarbageCollector(Hal& hal, const FirmwareParams& params, BlockManager& blocks, FlashPort& flash,
                                   GcUnits& units, MapBlockCleaner& maps, GcEraseListener& erased,
                                   HybridPoolShares* shares)
    : hal_(hal),
      params_(params),
      blocks_(blocks),
      flash_(flash),
      client_(flash.attach(*this)),
      maps_(maps),
      erased_(erased),
      shares_(shares),
      wear_(hal, params, blocks),
      selector_(hal, params, blocks, shares, wear_),
      gate_(blocks, params.gc.host_pacing, params.write_unit_sectors(blocks.layout().geometry()),
            erased, params.gc.copy_back),
      mover_(hal, params, blocks, flash, units, gate_, *this),
      gc_(blocks.layout().geometry().dies()) {
  mover_.set_next_victims(this);
}

void GarbageCollector::set_helpers(IdleWriteBack* write_back, FlushPacer* pacer, VictimDoneListener* done) {
  write_back_ = write_back;
  pacer_ = pacer;
  done_ = done;
  mover_.set_flush_pacer(pacer);
}

void GarbageCollector::free_space_changed(uint32_t die) {
  if (stopped_) return;
  // Hybrid page size: each pool (small-, large-page blocks) keeps its own free blocks; a
  // die cleans one victim at a time, of the small pool first.
  if (!check_pool(die, false) && blocks_.layout().hybrid()) check_pool(die, true);
  if (!gc_[die].active) gate_.pacing().stop(die);  // no foreground GC: host units go freely
}

bool GarbageCollector::check_pool(uint32_t die, bool large) {
  DieState& g = gc_[die];
  const uint32_t free = blocks_.pools().free_blocks(die, large);
  const uint32_t target = selector_.target(die, large, free);
  if (g.active && mover_.move(die).flush && free < target) mover_.fill(die);  // a paused flush finishes first
  if (held_ || g.active || free >= target) return false;
  bool to_other = false;
  // Hybrid: what the other pool can take of a victim's data (no victim on the die now: its
  // room beyond a block for its own next victim).
  const int64_t other_room = blocks_.layout().hybrid() ? gate_.pacing().gc_spare(die, !large) : 0;
  const uint32_t victim = selector_.pick(die, large, to_other, other_room);
  if (victim == BlockManager::kNoBlock) return false;
  // Below the foreground threshold host units go at this victim's pace; a victim taken
  // only for idle time's higher target paces nothing (the hard limit still follows it).
  gate_.pacing().victim_taken(die, victim, selector_.foreground(die, large, free), to_other ? !large : large);
  const BlockInfo& vb = blocks_.info(victim);
  ++stats_.victims;
  stats_.bg_victims += selector_.background();
  stats_.cross_pool_victims += to_other;
  g = DieState{};
  g.active = true;
  g.start_ps = hal_.now_ps();
  blocks_.info(victim).state = BlockState::Victim;
  VictimMover::Move m;
  m.victim = victim;
  m.to_large = to_other ? !large : large;
  // GC of a map block: its live map pages are rewritten through the map stream (a merge read
  // brings back those not in SRAM); the block empties as they land.
  m.scanned = vb.holds_map;
  mover_.start(die, m);
  if (vb.holds_map) {
    maps_.relocate_block(die, victim);
    moves_may_be_done(die);
  } else {
    mover_.fill(die);
  }
  return true;
}

void GarbageCollector::idle_began() {
  selector_.set_background(true);
  if (write_back_) write_back_->write_back_dirty();
  for (uint32_t die = 0; die < gc_.size(); ++die) free_space_changed(die);
}

void GarbageCollector::start_flush(uint32_t die, uint32_t victim) {
  DieState& g = gc_[die];
  g = DieState{};
  g.active = true;
  g.start_ps = hal_.now_ps();
  VictimMover::Move m;
  m.victim = victim;
  m.flush = true;
  mover_.start(die, m);
  blocks_.info(victim).state = BlockState::Victim;
  gate_.pacing().stop(die);
}

bool GarbageCollector::any_flushing() const {
  for (uint32_t die = 0; die < gc_.size(); ++die)
    if (mover_.move(die).flush) return true;
  return false;
}

void GarbageCollector::moves_may_be_done(uint32_t die) {
  DieState& g = gc_[die];
  if (!g.active || !mover_.moved_all(die) || g.erasing) return;
  const uint32_t victim = mover_.move(die).victim;
  if (blocks_.info(victim).valid != 0) return;
  g.erasing = true;
  flash_.erase(client_, victim, blocks_.layout().address_of(victim, 0));
}

// The victim's erase completed (the collector's only flash operation; the index is the block).
void GarbageCollector::on_flash_done(uint64_t index, const FlashCompletion& c) {
  const uint32_t block = uint32_t(index);
  const FlashStatus status = c.status;
  const uint32_t die = blocks_.layout().die_of_block(block);
  BlockInfo& b = blocks_.info(block);
  if (status != FlashStatus::Ok || b.retire_after_gc) {
    if (status != FlashStatus::Ok) flash_.count_erase_failure();
    blocks_.retire_block(block);
    if (shares_) shares_->block_retired(b.large, blocks_.sectors_in_block(block));
  }
  if (b.slc) pacer_->slc_block_erased(block);  // a flushed WriteBooster block
  uint32_t cold = BlockManager::kNoBlock;
  if (status == FlashStatus::Ok && !b.retire_after_gc) {
    ++stats_.erases;
    cold = wear_.erased(die, block);  // after an erase, a worn block may take a young block's cold data
  }
  DieState& g = gc_[die];
  const VictimMover::Move& m = mover_.move(die);
  gate_.pacing().stop(die);  // space_returned below retries what waits
  if (m.flush) pacer_->block_flushed();
  else if (g.active) {
    stats_.clean_ps += hal_.now_ps() - g.start_ps;
    ++stats_.cleaned;
  }
  g = DieState{};
  mover_.clear(die);
  if (cold != BlockManager::kNoBlock) {  // before anything else can start a GC on this die
    g.active = true;
    VictimMover::Move migration;
    migration.victim = cold;
    migration.stream = WriteStream::Cold;
    mover_.start(die, migration);
    blocks_.info(cold).state = BlockState::Victim;
    gate_.pacing().stop(die);  // a migration frees nothing: host units go freely meanwhile
    mover_.fill(die);
  }
  // Space came back: units waiting for a die go first, then maybe more GC.
  erased_.space_returned(die);
  free_space_changed(die);
  if (done_) done_->victim_done(die);
}

bool GarbageCollector::idle() const {
  for (const DieState& g : gc_)
    if (g.active) return false;
  return true;
}

std::string GarbageCollector::debug_state(uint32_t die) const {
  const DieState& g = gc_[die];
  if (!g.active) return "";
  const uint32_t victim = mover_.move(die).victim;
  std::string pacing;
  if (gate_.on()) {  // per pool with hybrid page size (gc/host_pacing.h)
    const bool hybrid = blocks_.layout().hybrid();
    for (const bool large : {false, true}) {
      if (large && !hybrid) break;
      pacing += std::string(hybrid ? (large ? " large pages:" : " small pages:") : "") + " room " +
                std::to_string(gate_.pacing().room(die, large)) + " allowance " +
                std::to_string(gate_.pacing().allowance(die, large));
    }
    if (gate_.pacing().paced(die)) pacing += " paced";
  }
  return ", GC victim " + std::to_string(victim) + " valid " + std::to_string(blocks_.info(victim).valid) +
         mover_.progress(die, g.erasing) + pacing;
}

GcStats GarbageCollector::stats() const {
  GcStats s = stats_;
  s.moved_sectors = mover_.stats().moved_sectors;
  s.buffered_reads = mover_.stats().buffered_reads;
  s.copy_backs = mover_.stats().copy_backs;
  s.topped_up = mover_.stats().topped_up;
  s.wl_rate_limited = wear_.rate_limited();
  s.wl_migrations = wear_.migrations();
  s.expired_blocks = wear_.expired_blocks();
  return s;
}

void GarbageCollector::visit_stats(StatsVisitor& v) const {
  const GcStats f = stats();
  v.count("ftl.gc_cross_pool_victims", f.cross_pool_victims, "blocks", "hybrid: victims moved into the other pool");
  v.count("ftl.gc_victims", f.victims, "blocks", "GC victims taken");
  v.count("ftl.bg_gc_victims", f.bg_victims, "blocks", "of which in idle time");
  v.count("ftl.gc_moved_sectors", f.moved_sectors, "sectors", "valid sectors GC moved");
  if (gate_.on())
    v.count("ftl.gc_host_pacing_waits", gate_.pacing().refusals(), "tries",
            "host units not placed on a die for want of its GC's pace (gc_host_pacing)");
  v.count("ftl.gc_buffered_reads", f.buffered_reads, "reads", "GC reads through the data buffer");
  v.count("ftl.gc_copy_backs", f.copy_backs, "pages", "pages GC moved by copy-back");
  v.count("ftl.gc_topped_up_sectors", f.topped_up, "sectors",
          "sectors of the next victim in line moved to fill a victim's last unit (instead of padding)");
  v.count("ftl.gc_cleaned", f.cleaned, "blocks", "victims erased after cleaning");
  v.figure("ftl.gc_clean_us_mean", f.cleaned ? double(f.clean_ps) / double(f.cleaned) / 1e6 : 0.0, "us",
           "victims' cleaning time, picked to erased");
  v.count("ftl.erases", f.erases, "blocks", "blocks erased");
  wear_.visit_stats(v);  // the erase counts of the blocks in use
}

}  // namespace ufs
