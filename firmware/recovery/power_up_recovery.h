// Power-loss recovery: after a sudden power-off the next power-up rebuilds the FTL from the
// NAND alone, in ftl/recovery's three passes (the rules and the RAM they take are there):
// the OOB scan, then per batch the replay (the data newer than its map page's copy read
// again) and the load (each map page's copy read, its entries checked, the replayed ones
// applied). One read per die at a time, all dies in parallel. From what it found: block
// states and open blocks, the free lists, the L2P map, the map directory, the program
// sequence and WriteBooster's buffer fill.
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
  uint64_t page_reads = 0;     // pages read: the scan's, the replay's, map page copies, checks
  uint64_t scan_reads = 0;     // pages whose OOB the scan read
  uint64_t replay_reads = 0;   // ... the replay read again (data newer than its map page's copy)
  uint64_t map_loads = 0;      // map page copies read (their entries)
  uint64_t check_reads = 0;    // pages a copy names read to compare with a replayed copy
  uint64_t replayed_pages = 0; // map pages with data newer than their copy
  uint64_t gone_entries = 0;   // copies' entries into blocks erased since (trimmed data)
  uint64_t no_entries = 0;     // map page copies that carried no entries (their LBAs came back unmapped)
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
  // Replayed map pages a batch holds (ftl/recovery.h) and the RAM recovery takes.
  static uint32_t batch_pages(const FirmwareParams& params, const FlashGeometry& geometry, const MapStore& store);
  static uint64_t ram_bytes(const FirmwareParams& params, const FlashGeometry& geometry, const BlockManager& blocks,
                            uint64_t logical_blocks, const MapStore& store);

  // The next power-up follows a sudden power-off (call before power-up).
  void arm() { armed_ = true; }
  // At power-up: start the scan if armed.
  void power_up();
  bool active() const { return scan_ != nullptr; }
  const RecoveryStats& stats() const { return stats_; }

 private:
  enum class Pass : uint8_t { Scan, Replay, Load };
  // Pass 3's reads: a map page's copy (its entries), or the page a copy's entry names.
  struct LoadRead {
    uint32_t map_page = 0;
    uint64_t lba = 0;   // check: the LBA and the two copies
    uint32_t ppa = 0;
    bool check = false;
  };
  void on_flash_done(uint64_t die, const FlashCompletion& c) override;
  void issue_read(uint32_t die);
  void next_batch();
  bool start_loads();
  void issue_load(uint32_t die);
  void copy_loaded(uint32_t die, const LoadRead& r, FlashStatus status);
  void checked(const LoadRead& r, FlashStatus status, const PageOob& oob);
  void install(uint64_t lba, uint32_t ppa);
  void finish();
  void rebuild_blocks();
  void rebuild_map_directory();

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
  Pass pass_ = Pass::Scan;
  std::vector<std::vector<LoadRead>> loads_;  // per die: pass 3's reads to issue (a stack)
  std::vector<uint8_t> loading_;              // per die: a read in flight
  std::vector<LoadRead> in_flight_;           // per die: that read
  std::vector<std::vector<uint32_t>> words_;  // per die: the map page copy read (its entries)
  uint64_t loads_left_ = 0;                   // pass 3's reads queued or in flight
  std::vector<uint8_t> replayed_;             // per map page: to be written back
  uint64_t recovered_ = 0;
  uint64_t start_ps_ = 0;
  RecoveryStats stats_;
  RecoveryStats at_start_;  // stats_ when this recovery started
};

}  // namespace ufs
