// The garbage collector: per die, picks a victim block (a VictimPolicy, gc/victim_policy.h)
// when free blocks run short (foreground GC from gc_start_free_blocks until
// gc_stop_free_blocks; in idle time up to bg_gc_free_blocks), moves its valid sectors
// (through write-cache units, or by NAND copy-back in their plane), erases it and gives it
// back; a program or erase failure retires it instead. It also runs the victims others
// hand it: a WriteBooster flush's SLC block, and wear levelling's cold-data migration
// (after an erase, a worn block may take a young block's cold data: ftl/wear_leveller.h).
// Its flash operations (victim reads, copy-backs, erases) go through its own flash client.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_manager.h"
#include "ftl/gc_copy_back.h"
#include "ftl/gc_events.h"
#include "ftl/hybrid_pages.h"
#include "ftl/wear_leveller.h"
#include "gc/host_pacing.h"
#include "gc/victim_policy.h"
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
  uint64_t clean_ps = 0;              // victims' cleaning time: picked to erased, summed
  uint64_t cleaned = 0;               // victims erased after cleaning
  uint64_t erases = 0;
  uint64_t wl_rate_limited = 0;       // victim candidates passed over by rate limiting
  uint64_t wl_migrations = 0;         // cold blocks moved into worn blocks
  uint64_t expired_blocks = 0;        // blocks whose erase count reached block_lifetime
};

// The write cache as GC sees it: program units GC fills with a victim's valid sectors.
class GcUnits {
 public:
  static constexpr uint32_t kNoUnit = ~0u;
  virtual ~GcUnits() = default;
  // A unit for moved data programmed on `die` (stream Gc or Cold; hybrid: large-page); kNoUnit
  // when none is free (GarbageCollector::units_freed tells the collector to try again).
  virtual uint32_t gc_unit(WriteStream stream, bool large, uint32_t die, bool flush) = 0;
  virtual uint32_t gc_unit_room(uint32_t unit) const = 0;  // slots still free
  // n slots of the unit for the sectors at PPAs [from, from + n) (one page's run), a read
  // into them pending: their first slot and its buffer address.
  virtual uint64_t gc_stage(uint32_t unit, uint32_t from, uint32_t n, uint32_t& pos) = 0;
  // The read landed: the OOB read with it names the sectors' LBAs and data ages.
  virtual void gc_data_arrived(uint32_t unit, uint32_t pos, uint32_t n, const PageOob& oob) = 0;
  // No more data for the unit: it is programmed; or, given none, freed.
  virtual void gc_seal(uint32_t unit) = 0;
  virtual void gc_release(uint32_t unit) = 0;
  // A copy of `lba` moved from `from` to `to`: the map (or the cached data it backs) follows
  // when `from` was still the live copy; false when it was not (nothing changes then).
  virtual bool gc_follow_move(uint64_t lba, uint32_t from, uint32_t to) = 0;
};

// What an erase tells the rest of the FTL.
class GcEraseListener {
 public:
  virtual ~GcEraseListener() = default;
  // The die has a block back: units waiting for a die go first (before GC looks again).
  virtual void space_returned(uint32_t die) = 0;
  // A die in foreground GC earned host units room again (gc/host_pacing.h): those waiting retry.
  virtual void pace_earned(uint32_t /*die*/) {}
};

// The die's victim is done and GC has looked for another: a flush may take the die.
class VictimDoneListener {
 public:
  virtual ~VictimDoneListener() = default;
  virtual void victim_done(uint32_t die) = 0;
};

// A WriteBooster flush run on the collector's machinery: its pace and its accounting.
class FlushPacer {
 public:
  virtual ~FlushPacer() = default;
  // May the flush on `die` fill another unit (units_in_flight sealed, not yet programmed)?
  virtual bool may_fill(uint32_t die, uint32_t units_in_flight) const = 0;
  virtual void sectors_staged(uint32_t n) = 0;
  virtual void block_flushed() = 0;
  // An SLC block was erased (flushed, or retired): it leaves the buffer's fill.
  virtual void slc_block_erased(uint32_t block) = 0;
};

class GarbageCollector : public FlashClient,
                         public FreeSpaceListener,
                         public IdleTask,
                         public GcUnitEvents,
                         public HostWriteGate {
 public:
  GarbageCollector(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, BlockManager& blocks,
                   FlashPort& flash, GcUnits& units, MapBlockCleaner& maps, GcEraseListener& erased,
                   HybridPoolShares* shares);

  // Foreground (or, in idle time, background) GC on `die` when its free blocks ask for it.
  void check(uint32_t die);
  void free_space_changed(uint32_t die) override { check(die); }
  // Background GC as an idle task: after bg_gc_idle_us without commands each die cleans up to
  // bg_gc_free_blocks (dirty map pages first go back through `write_back`, when set).
  uint64_t idle_after_ps() const override { return uint64_t(params_.bg_gc_idle_us) * 1000000; }
  void idle_began() override;
  void idle_ended() override { background_ = false; }
  void set_idle_write_back(IdleWriteBack* write_back) { write_back_ = write_back; }
  void set_victim_done_listener(VictimDoneListener* l) { done_ = l; }
  void hold(bool on) { held_ = on; }                  // no new victims (preconditioning)
  void stop() { stopped_ = true; }                    // read-only device: nothing more is written

  // GcUnitEvents: the write cache about its units and superseded data.
  void units_freed() override;
  void victim_may_be_empty(uint32_t die) override { maybe_erase_victim(die); }
  void moved(uint64_t lba, uint32_t from, uint32_t to) override;
  void unit_programmed(uint32_t die, bool flush_unit) override;
  uint32_t units_wanted() const override;

  // HostWriteGate: host units on a die in foreground GC go at its pace (gc/host_pacing.h).
  bool host_may_place(uint32_t die) override;
  void host_placed(uint32_t die, uint32_t sectors) override { pacing_.placed(die, sectors); }
  void gc_spilled(uint32_t from, uint32_t to, uint32_t sectors) override;
  const HostPacing& pacing() const { return pacing_; }

  // WriteBooster flush: `victim` (an SLC block, state Victim) is emptied into the die's TLC
  // blocks at the pacer's pace; resume() after the pacer's answer may have changed.
  void set_flush_pacer(FlushPacer* pacer) { pacer_ = pacer; }
  void start_flush(uint32_t die, uint32_t victim);
  void resume(uint32_t die) { fill(die); }
  bool active(uint32_t die) const { return gc_[die].active; }
  bool flushing(uint32_t die) const { return gc_[die].flush; }
  bool any_flushing() const;

  bool idle() const;  // no victim on any die
  uint32_t waiting_for_units() const { return uint32_t(unit_waiters_.size()); }
  std::string debug_state(uint32_t die) const;  // ", GC victim ..." or empty

  const GcStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;

 private:
  static constexpr uint32_t kNone = ~0u;
  struct DieState {
    bool active = false;
    uint32_t victim = BlockManager::kNoBlock;
    uint32_t cursor = 0;         // next sector offset in the victim to examine
    bool scanned = false;
    uint32_t unit = kNone;       // unit being filled
    bool unit_used = false;      // ... and given data
    uint32_t reads_in_flight = 0;
    bool erasing = false;
    WriteStream stream = WriteStream::Gc;  // Cold: a wear-levelling migration
    bool flush = false;          // a WriteBooster flush: the victim is an SLC buffer block
    bool no_copy_back = false;   // gc_copy_back: the rest of the victim goes through the buffer
    bool large = false;          // hybrid page size: the victim is a large-page block
    bool to_large = false;       // ... and its data goes into large-page units
    uint64_t start_ps = 0;
  };
  struct Read { uint32_t unit, pos, count, die; };
  enum Op : uint64_t { kRead = 0, kCopyBack = 1, kErase = 2 };  // in the top bits of an op's index

  bool check_pool(uint32_t die, bool large);  // true when a victim was taken
  void fill(uint32_t die);
  void close_unit(uint32_t die);
  bool copy_back_page(uint32_t die);
  void read_done(uint32_t index, const FlashCompletion& c);
  void copy_back_done(uint32_t index, const FlashCompletion& c);
  void maybe_erase_victim(uint32_t die);
  void earn_for_move(uint32_t from);
  void retry_paced(uint32_t die);
  void erase_done(uint32_t block, FlashStatus status);
  uint32_t migration_after_erase(uint32_t die, uint32_t block);
  void on_flash_done(uint64_t index, const FlashCompletion& c) override;

  Hal& hal_;
  const FirmwareParams& params_;
  FlashGeometry geo_;
  BlockManager& blocks_;
  FlashPort& flash_;
  uint32_t client_;
  GcUnits& units_;
  MapBlockCleaner& maps_;
  GcEraseListener& erased_;
  HybridPoolShares* shares_;     // hybrid page size (null: off)
  FlushPacer* pacer_ = nullptr;
  IdleWriteBack* write_back_ = nullptr;
  VictimDoneListener* done_ = nullptr;
  std::unique_ptr<VictimPolicy> policy_;
  WearLeveller wear_;
  GcCopyBack copy_back_;
  std::function<bool(uint32_t)> allow_;  // wear levelling's rate limiting (empty: off)
  std::vector<DieState> gc_;
  // Per die: its GC and flush units sealed and not yet programmed (a unit may outlive its
  // victim: the host can invalidate the rest of the victim before the unit is programmed).
  std::vector<uint32_t> sealed_;
  uint32_t unit_limit_;  // firmware.gc_units_per_die (0: one per plane)
  std::vector<uint8_t> burst_;  // per die and pool: foreground GC runs until gc_stop_free_blocks
  std::vector<Read> reads_;
  std::vector<uint32_t> free_reads_;
  std::vector<uint32_t> unit_waiters_;  // dies waiting for a unit
  HostPacing pacing_;
  std::vector<uint8_t> paced_retry_;    // per die: its credit turned positive (host units retry)
  bool background_ = false, held_ = false, stopped_ = false;
  GcStats stats_;
};

}  // namespace ufs
