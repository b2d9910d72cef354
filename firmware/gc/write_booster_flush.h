// The WriteBooster flush (ftl/write_booster.h): in idle time, each die's sealed (closed) SLC
// block with the fewest valid sectors becomes a victim whose valid data the garbage collector
// moves into the die's TLC blocks; once it is erased (back in the buffer) the die takes the
// next while the device stays idle. The open SLC blocks are never flushed: they fill up over
// the following bursts, so each SLC erase cycle is spent on a whole block's writes.
// It paces the collector's units for a flush (FlushPacer) and keeps the buffer's fill.
#pragma once
#include <cstdint>
#include "firmware_params.h"
#include "ftl/block_manager.h"
#include "ftl/write_booster.h"
#include "gc/garbage_collector.h"
#include "idle/idle_scheduler.h"

namespace ufs {

class WriteBoosterFlush : public FlushPacer, public BackgroundWriter, public VictimDoneListener {
 public:
  WriteBoosterFlush(const FirmwareParams& params, const FlashGeometry& geometry, BlockManager& blocks,
                    GarbageCollector& gc, WriteBooster& wb);

  // Flush the die's next SLC block if the device is idle and the die's collector is free.
  void flush(uint32_t die);
  bool idle() const { return idle_; }  // idle long enough for a flush
  void hold(bool on) override { held_ = on; }   // preconditioning, power-loss recovery
  void stop() override { stopped_ = true; }     // read-only device

  // IdleTask
  uint64_t idle_after_ps() const override { return wb_.flush_idle_ps(); }
  void idle_began() override;
  void idle_ended() override { idle_ = false; }
  // VictimDoneListener: the die's collector finished a victim
  void victim_done(uint32_t die) override { flush(die); }
  // FlushPacer
  bool may_fill(uint32_t die, uint32_t units_in_flight) const override;
  void sectors_staged(uint32_t n) override { wb_.stats().flushed_sectors += n; }
  void block_flushed() override { ++wb_.stats().flushed_blocks; }
  void slc_block_erased(uint32_t block) override;

 private:
  uint32_t next_victim(uint32_t die) const;
  const FirmwareParams& params_;
  uint32_t dies_, planes_per_die_;
  BlockManager& blocks_;
  GarbageCollector& gc_;
  WriteBooster& wb_;
  bool idle_ = false, held_ = false, stopped_ = false;
};

}  // namespace ufs
