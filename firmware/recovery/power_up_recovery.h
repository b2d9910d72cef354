// Power-loss recovery: after a sudden power-off the next power-up rebuilds the FTL from the
// NAND alone. The part runs the OOB scan (ftl/recovery: which page each die reads next,
// what the newest copy of each LBA and map page is) one read per die at a time, all dies in
// parallel, then rebuilds from what it found: block states and open blocks, the free lists,
// the L2P map, the map directory, the program sequence and WriteBooster's buffer fill.
// Commands meanwhile get NOT READY (active()). The rest of the firmware is told when the
// scan starts and ends through RecoveryListener (pause idle work; write the replayed map
// pages back and look for GC work).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_manager.h"
#include "ftl/l2p_map.h"
#include "ftl/recovery.h"
#include "ftl/write_booster.h"
#include "hal/hal.h"
#include "map/map_store.h"

namespace ufs {

class RecoveryListener {
 public:
  virtual ~RecoveryListener() = default;
  virtual void recovery_started() = 0;  // before the first read: hold background work
  // The FTL is rebuilt; replayed[p] != 0: map page p is older on NAND than the data found
  // (it must be written back so the map on NAND is current again).
  virtual void recovery_finished(const std::vector<uint8_t>& replayed) = 0;
};

struct RecoveryStats {
  uint64_t recoveries = 0;
  uint64_t page_reads = 0;     // pages whose OOB the scan read
  uint64_t torn_pages = 0;     // pages cut mid-program (read back uncorrectable)
  uint64_t recovered_lbas = 0; // LBAs mapped again from what the scan found
  uint64_t recovery_ps = 0;    // power-up to ready (last recovery)
};

class PowerUpRecovery : private FlashClient {
 public:
  // read_slots: the read area's slots (the scan reads each die's page into one of them;
  // nobody else uses them while commands wait). wb: null when WriteBooster is off.
  PowerUpRecovery(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint64_t logical_blocks,
                    uint32_t read_slots, BlockManager& blocks, L2pMap& map, MapStore& map_store, FlashPort& flash,
                    WriteBooster* wb, RecoveryListener& listener);

  // The next power-up follows a sudden power-off (call before power-up).
  void arm() { armed_ = true; }
  // At power-up: start the scan if armed.
  void power_up();
  bool active() const { return scan_ != nullptr; }
  const RecoveryStats& stats() const { return stats_; }

 private:
  void on_flash_done(uint64_t die, const FlashCompletion& c) override;
  void issue_read(uint32_t die);
  void finish();
  void rebuild_blocks();
  uint64_t rebuild_map();
  std::vector<uint8_t> rebuild_map_directory();

  Hal& hal_;
  const FirmwareParams& params_;
  const FlashGeometry& geo_;
  uint64_t logical_blocks_;
  uint32_t read_slots_;
  BlockManager& blocks_;
  L2pMap& map_;
  MapStore& map_store_;
  FlashPort& flash_;
  WriteBooster* wb_;
  RecoveryListener& listener_;
  uint32_t client_;
  uint32_t unit_pages_;  // pages per host or GC program unit (hybrid: one)
  bool armed_ = false;
  std::unique_ptr<RecoveryScan> scan_;  // non-null while recovering
  uint64_t start_ps_ = 0;
  RecoveryStats stats_;
};

}  // namespace ufs
