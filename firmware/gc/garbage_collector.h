// The garbage collector: per die, when free blocks run short (foreground GC from
// gc_start_free_blocks until gc_stop_free_blocks; in idle time up to bg_gc_free_blocks) it
// takes a victim block, has its valid sectors moved out, erases it and gives it back; a
// program or erase failure retires it instead. It also runs the victims others hand it: a
// WriteBooster flush's SLC block, and wear levelling's cold-data migration. Its parts:
//  - VictimSelector (gc/victim_selector.h): the thresholds and the victim policy;
//  - VictimMover (gc/victim_mover.h): the moves, through write-cache units or copy-back;
//  - GcHostGate (gc/gc_host_gate.h): host units at the pace of a die's foreground GC;
//  - WearMigration (gc/wear_migration.h): rate limiting's veto, cold-data migration.
// The collector itself starts victims and erases them (its own flash client) once their
// moves are done (VictimMoveListener); the write cache tells the mover about GC units
// (GcUnitEvents, unit_events()).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_manager.h"
#include "ftl/gc_events.h"
#include "ftl/hybrid_pages.h"
#include "gc/gc_host_gate.h"
#include "gc/victim_mover.h"
#include "gc/victim_selector.h"
#include "gc/wear_migration.h"
#include "hal/hal.h"
#include "idle/idle_scheduler.h"
#include "stats_visitor.h"

namespace ufs {

struct GcStats {
  uint64_t victims = 0;
  uint64_t bg_victims = 0;            // of which taken in idle time (background GC)
  uint64_t cross_pool_victims = 0;    // hybrid page size: victims whose data went to the other pool
  uint64_t moved_sectors = 0;
  uint64_t buffered_reads = 0;        // victim reads into write-cache units
  uint64_t copy_backs = 0;            // pages moved by copy-back
  uint64_t topped_up = 0;             // sectors of the next victim in line that filled a victim's last unit
  uint64_t clean_ps = 0;              // victims' cleaning time: picked to erased, summed
  uint64_t cleaned = 0;               // victims erased after cleaning
  uint64_t erases = 0;
  uint64_t wl_rate_limited = 0;       // victim candidates passed over by rate limiting
  uint64_t wl_migrations = 0;         // cold blocks moved into worn blocks
  uint64_t expired_blocks = 0;        // blocks whose erase count reached block_lifetime
};

// The die's victim is done and GC has looked for another: a flush may take the die.
class VictimDoneListener {
 public:
  virtual ~VictimDoneListener() = default;
  virtual void victim_done(uint32_t die) = 0;
};

class GarbageCollector : public FlashClient,
                         public FreeSpaceListener,
                         public BackgroundWriter,
                         public VictimMoveListener,
                         public NextVictimSource {
 public:
  GarbageCollector(Hal& hal, const FirmwareParams& params, BlockManager& blocks, FlashPort& flash, GcUnits& units,
                   MapBlockCleaner& maps, GcEraseListener& erased, HybridPoolShares* shares);

  // Foreground (or, in idle time, background) GC on `die` when its free blocks ask for it.
  void free_space_changed(uint32_t die) override;
  // Background GC as an idle task: after bg_gc_idle_us without commands each die cleans up to
  // bg_gc_free_blocks (dirty map pages first go back through `write_back`, when set).
  uint64_t idle_after_ps() const override { return uint64_t(params_.gc.bg_idle_us) * 1000000; }
  void idle_began() override;
  void idle_ended() override { selector_.set_background(false); }
  // write_back: idle time's map write-back (null: none); pacer and done: a WriteBooster flush
  // (null: off), told when a die's victim is done.
  void set_helpers(IdleWriteBack* write_back, FlushPacer* pacer, VictimDoneListener* done);
  void hold(bool on) override { held_ = on; }         // no new victims (preconditioning)
  void stop() override { stopped_ = true; }           // read-only device: nothing more is written

  // The write cache's events about the units GC fills go to the mover.
  GcUnitEvents& unit_events() { return mover_; }
  // VictimMoveListener: the die's victim may be empty (moves ended, or a sector of it became
  // invalid): erase it once it is.
  void moves_may_be_done(uint32_t die) override;
  // NextVictimSource: the block the die's victim policy would clean next (a victim's last unit
  // takes some of its data).
  uint32_t next_victim(uint32_t die, bool large) override { return selector_.next_in_line(die, large); }

  // Host units on a die in foreground GC go at its pace (the placement's HostWriteGate).
  GcHostGate& host_gate() { return gate_; }

  // WriteBooster flush: `victim` (an SLC block, state Victim) is emptied into the die's TLC
  // blocks at the pacer's pace; resume() after the pacer's answer may have changed.
  void start_flush(uint32_t die, uint32_t victim);
  void resume(uint32_t die) { mover_.fill(die); }
  bool active(uint32_t die) const { return gc_[die].active; }
  bool flushing(uint32_t die) const { return mover_.move(die).flush; }
  bool any_flushing() const;

  bool idle() const;  // no victim on any die
  const VictimMover& mover() const { return mover_; }
  std::string debug_state(uint32_t die) const;  // ", GC victim ..." or empty

  GcStats stats() const;
  void visit_stats(StatsVisitor& v) const;

 private:
  struct DieState {
    bool active = false;
    bool erasing = false;
    uint64_t start_ps = 0;
  };

  bool check_pool(uint32_t die, bool large);  // true when a victim was taken
  void on_flash_done(uint64_t index, const FlashCompletion& c) override;  // the victim's erase

  Hal& hal_;
  const FirmwareParams& params_;
  BlockManager& blocks_;
  FlashPort& flash_;
  uint32_t client_;
  MapBlockCleaner& maps_;
  GcEraseListener& erased_;
  HybridPoolShares* shares_;     // hybrid page size (null: off)
  FlushPacer* pacer_ = nullptr;
  IdleWriteBack* write_back_ = nullptr;
  VictimDoneListener* done_ = nullptr;
  WearMigration wear_;
  VictimSelector selector_;
  GcHostGate gate_;
  VictimMover mover_;
  std::vector<DieState> gc_;
  bool held_ = false, stopped_ = false;
  GcStats stats_;  // the collector's own counters (the parts keep theirs)
};

}  // namespace ufs
