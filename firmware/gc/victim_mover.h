// Moving a victim's valid sectors out, per die (the collector picks the victim and erases
// it): runs of valid sectors within a page are read into write-cache units (GcUnits), at
// most gc_units_per_die sealed and not yet programmed per die (a WriteBooster flush: as its
// pacer allows); with gc_copy_back whole valid pages move by NAND copy-back in their plane,
// in the same window: the die's copy-backs in flight and sealed units together, the next
// issued as one completes (a victim's ~50 copy-backs issued at once held the die for ~12 ms
// while host reads queued behind them: issue 14 item 3).
// Its reads and copy-backs go through its own flash client. A die whose GC progressed lets
// the host units it paced retry (GcHostGate); the collector hears when the moves may be done.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_manager.h"
#include "ftl/gc_copy_back.h"
#include "ftl/gc_events.h"
#include "gc/gc_host_gate.h"
#include "hal/hal.h"

namespace ufs {

// The write cache as GC sees it: program units GC fills with a victim's valid sectors.
class GcUnits {
 public:
  static constexpr uint32_t kNoUnit = ~0u;
  virtual ~GcUnits() = default;
  // A unit for moved data programmed on `die` (stream Gc or Cold; hybrid: large-page); kNoUnit
  // when none is free (VictimMover::units_freed tells the mover to try again).
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

// Where a victim's last unit takes the rest of its data: the block its victim policy would
// clean next (the collector's selector), kNoBlock when there is none.
class NextVictimSource {
 public:
  virtual ~NextVictimSource() = default;
  virtual uint32_t next_victim(uint32_t die, bool large) = 0;
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

class VictimMover : public FlashClient, public GcUnitEvents {
 public:
  struct Move {
    uint32_t victim = BlockManager::kNoBlock;
    WriteStream stream = WriteStream::Gc;  // Cold: a wear-levelling migration
    bool to_large = false;                 // hybrid page size: into large-page units
    bool flush = false;                    // a WriteBooster flush: an SLC block, no copy-back
    bool scanned = false;                  // nothing to read (a map block: the map writer moves it)
  };
  struct Stats {
    uint64_t moved_sectors = 0;
    uint64_t buffered_reads = 0;  // victim reads into write-cache units
    uint64_t copy_backs = 0;      // pages moved by copy-back
    uint64_t topped_up = 0;       // sectors of the next victim in line that filled a victim's last unit
  };

  VictimMover(Hal& hal, const FirmwareParams& params, BlockManager& blocks, FlashPort& flash, GcUnits& units,
              GcHostGate& gate, VictimMoveListener& listener);
  void set_flush_pacer(FlushPacer* pacer) { pacer_ = pacer; }
  // A GC victim's last unit is filled up from the next victim in line instead of padded (null: padded).
  void set_next_victims(NextVictimSource* next) { next_ = next; }

  void start(uint32_t die, const Move& m);  // the die's victim (moves begin with fill)
  void clear(uint32_t die);                 // the victim is gone (erased)
  // Read the victim's valid sectors into units, as far as units and their limit allow.
  void fill(uint32_t die);
  bool moved_all(uint32_t die) const { return dies_[die].scanned && dies_[die].reads_in_flight == 0; }
  const Move& move(uint32_t die) const { return dies_[die]; }

  // GcUnitEvents: the write cache about the units GC fills (a programmed unit may end the
  // die's moves: the collector hears it).
  void moved(uint64_t lba, uint32_t from, uint32_t to) override;
  void unit_programmed(uint32_t die, bool flush_unit) override;
  void units_freed() override;
  uint32_t units_wanted() const override;  // with host pacing: units the dies moving data would take now
  uint32_t units_working_set() const override;  // with host pacing: the cleaning dies' full limits
  uint32_t waiting_for_units() const { return uint32_t(unit_waiters_.size()); }

  std::string progress(uint32_t die, bool erasing) const;  // " cursor N[ scanned][ erasing] reads R"
  const Stats& stats() const { return stats_; }

 private:
  static constexpr uint32_t kNone = ~0u;
  struct DieMove : Move {
    uint32_t cursor = 0;          // next sector offset in the victim to examine
    uint32_t unit = kNone;        // unit being filled
    bool unit_used = false;       // ... and given data
    uint32_t reads_in_flight = 0;  // buffered reads and copy-backs
    uint32_t copy_backs = 0;      // of which copy-backs (in the die's window with sealed units)
    bool no_copy_back = false;    // the rest of the victim goes through the buffer
  };
  struct Read { uint32_t unit, pos, count, die; };
  enum Op : uint64_t { kRead = 0, kCopyBack = 1 };  // in the top bits of an op's index

  void close_unit(uint32_t die);
  // Stages the next run of valid sectors of `block` from `cursor` on (one page's, at most the
  // unit's room) into the die's unit; false when the block has none left.
  bool stage_run(uint32_t die, uint32_t block, uint32_t& cursor);
  void top_up(uint32_t die);
  bool copy_back_page(uint32_t die);
  void read_done(uint32_t index, const FlashCompletion& c);
  void copy_back_done(uint32_t index, const FlashCompletion& c);
  void on_flash_done(uint64_t index, const FlashCompletion& c) override;

  Hal& hal_;
  const FirmwareParams& params_;
  BlockManager& blocks_;
  FlashPort& flash_;
  uint32_t client_;
  GcUnits& units_;
  GcHostGate& gate_;
  VictimMoveListener& listener_;
  FlushPacer* pacer_ = nullptr;
  NextVictimSource* next_ = nullptr;
  GcCopyBack copy_back_;
  std::vector<DieMove> dies_;
  // Per die: its GC and flush units sealed and not yet programmed (a unit may outlive its
  // victim: the host can invalidate the rest of the victim before the unit is programmed).
  std::vector<uint32_t> sealed_;
  uint32_t unit_limit(uint32_t die) const;  // sealed units and copy-backs the die's GC may hold now
  uint32_t queued(uint32_t die) const { return sealed_[die] + dies_[die].copy_backs; }  // ... holds
  uint32_t unit_limit_;  // firmware.gc_units_per_die (0: one per plane)
  std::vector<Read> reads_;
  std::vector<uint32_t> free_reads_;
  std::vector<uint32_t> unit_waiters_;  // dies waiting for a unit
  Stats stats_;
};

}  // namespace ufs
