// Background work as one sub-root: what the device writes when the host does not ask for it
// (GC in idle time, then the WriteBooster flush, each at its own threshold) and the events
// that hold, resume or stop it. It owns the idle scheduler and is the command table's
// CommandEndListener (idle time), power-loss recovery's RecoveryListener (idle work paused
// and the flush held during the scan; afterwards the replayed map pages go back to NAND and
// GC looks at every die) and write protection's WriteProtectHooks (GC's last chance; then GC
// and the flush stop and the writes waiting for space are refused). Preconditioning holds GC
// and the flush.
#pragma once
#include <cstdint>
#include <vector>
#include "command/command_table.h"
#include "ftl/gc_events.h"
#include "hal/hal.h"
#include "idle/idle_scheduler.h"
#include "protect/write_protection.h"
#include "recovery/power_up_recovery.h"

namespace ufs {

// The writes the device owes (the write path), as recovery and end of life change them.
class PendingWrites {
 public:
  virtual ~PendingWrites() = default;
  // After power-loss recovery: map pages whose newest entries are not on NAND (replayed[p] != 0).
  virtual void write_back_map_pages(const std::vector<uint8_t>& replayed) = 0;
  // The device turned read-only: writes waiting for a unit, syncs and FUA writes are refused.
  virtual void refuse_undurable() = 0;
};

struct BackgroundWorkLinks {
  BackgroundWriter& gc;        // background GC
  FreeSpaceListener& gc_dies;  // the collector looking at a die again
  BackgroundWriter* flush;     // WriteBooster's flush (null: WriteBooster off)
  PendingWrites& writes;
  uint32_t dies;
};

class BackgroundWork final : public CommandEndListener, public RecoveryListener, public WriteProtectHooks {
 public:
  // Idle tasks in order: background GC first, then the flush.
  BackgroundWork(Hal& hal, const BackgroundWorkLinks& links);

  void command_started() { idle_.command_started(); }
  void command_ended() override { idle_.command_ended(); }  // CommandEndListener
  void on_timer(uint64_t cookie) {
    if (cookie == IdleScheduler::kTimerCookie) idle_.on_timer();
  }
  // Preconditioning fills the FTL behind the background writers' backs: no victims, no flush.
  void hold(bool on);
  const IdleScheduler& idle() const { return idle_; }

  // RecoveryListener
  void recovery_started() override;
  void recovery_finished(const std::vector<uint8_t>& replayed) override;
  // WriteProtectHooks
  void reclaim_space() override;
  void write_protect_entered() override;

 private:
  void every_die_to_gc();
  IdleScheduler idle_;
  BackgroundWriter& gc_;
  FreeSpaceListener& gc_dies_;
  BackgroundWriter* flush_;
  PendingWrites& writes_;
  uint32_t dies_;
};

}  // namespace ufs
