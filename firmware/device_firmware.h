// The device firmware: SCSI command handling and a page-mapped FTL with a write
// cache in the data buffer, writes striped across dies in program units, and
// greedy / cost-benefit garbage collection per die. Event-driven and
// run-to-completion: every handler charges its CPU cycles through the HAL and
// returns; nothing blocks.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>
#include "firmware_params.h"
#include "ftl/allocation_policy.h"
#include "ftl/hybrid_pages.h"
#include "ftl/latency_split.h"
#include "ftl/map_cache.h"
#include "ftl/slot_allocator.h"
#include "core/firmware_ram.h"
#include "core/ftl_core.h"
#include "gc/garbage_collector.h"
#include "idle/background_work.h"
#include "hal/hal.h"
#include "command/buffer_layout.h"
#include "command/command_table.h"
#include "command/read_engine.h"
#include "command/scsi_dispatch.h"
#include "ftl/gc_events.h"
#include "ftl/placement.h"
#include "map/map_writer.h"
#include "hpb/hpb_feature.h"
#include "protect/write_protection.h"
#include "query/query_server.h"
#include "recovery/power_up_recovery.h"
#include "scsi/scsi_command.h"
#include "stats_visitor.h"
#include "wb/write_booster_feature.h"
#include "write/write_path.h"

namespace ufs {

struct FirmwareStats {
  uint64_t session_keys_loaded = 0;   // HPB session keys drawn at power-up
  uint64_t crypto_results = 0;        // sign/verify results from the crypto engine
  uint64_t crypto_rejected = 0;       // of which not valid
};

class DeviceFirmware : public FirmwareEvents {
 public:
  DeviceFirmware(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry);

  // FirmwareEvents
  void on_command(const HostCommand& command) override;
  void on_flash_complete(const FlashCompletion& completion) override;
  void on_data_out_done(uint8_t tag, uint64_t token) override;
  void on_data_in_done(uint8_t tag, uint64_t token) override;
  void on_timer(uint64_t cookie) override;
  void on_crypto_done(const HpbCryptoResult& result) override;
  void on_power_up() override;

  // The next power-up follows a sudden power-off: rebuild the map from the NAND (OOB
  // scan) before serving commands; commands meanwhile get NOT READY (recovery().active()).
  // Call before power-up.
  void recover_on_power_up() { recovery_.arm(); }
  const PowerUpRecovery& recovery() const { return recovery_; }

  // Zero-time fill of [first_lba, first_lba + blocks) as if written sequentially
  // (stamps carry version 0), through the backdoor. Call before the simulation starts.
  void precondition(uint64_t first_lba, uint64_t blocks, FlashBackdoor& backdoor);

  // QUERY REQUEST (flags, attributes, descriptors) of the features that registered.
  QueryResponse query(const QueryRequest& q) { return query_.query(q); }

  uint64_t logical_blocks() const { return ftl_.map().logical_blocks(); }
  const FirmwareStats& stats() const { return stats_; }
  // Every part's statistics, named as in stats.json (stats_visitor.h).
  void visit_stats(StatsVisitor& v) const;
  // The controller's RAM the firmware takes (core/firmware_ram.h): its bounded tables, the
  // map cache's frames, a whole map in the host's heap (no map cache, map_verify), the recovery scan's tables.
  FirmwareRam ram() const;
  // Block manager, L2P map, flash port, map store.
  const FtlCore& ftl() const { return ftl_; }
  const CommandTable& commands() const { return table_; }
  const ReadEngine& reads() const { return reads_; }
  const WritePath& write_path() const { return write_; }
  const GarbageCollector& gc() const { return gc_; }
  // Reads' and writes' time in the device by part (ftl/latency_split.h).
  const LatencySplit& latency_split() const { return latency_; }
  void reset_latency_split() { latency_.reset_sums(); }
  const HpbDevice* hpb() const { return hpb_ ? &hpb_->device() : nullptr; }  // null when HPB is off
  const WriteBooster* writebooster() const { return wb_ ? &wb_->buffer() : nullptr; }  // null when it is off
  bool idle() const;  // nothing queued or in flight (for tests)

 private:
  struct EventEnd;  // at the end of every handler (device_firmware.cpp)

  Hal& hal_;
  FirmwareParams params_;
  FtlCore ftl_;                      // block manager, L2P map, flash port, map store (flash client 0)
  LatencySplit latency_{256};
  CommandTable table_;
  WriteProtection protection_;       // end of life: read-only once no block can be freed
  QueryServer query_;                // HPB and WriteBooster register their flags, attributes, descriptor fields
  WritePath write_;                  // placement, write cache, GC units, page fill, write engine, map writer
  ReadEngine reads_;
  ScsiDispatch scsi_;                // the SCSI commands: checked, answered or handed to an engine
  GarbageCollector gc_;
  std::unique_ptr<WriteBoosterFeature> wb_;      // the SLC buffer and its flush (null: WriteBooster off)
  BackgroundWork background_;        // idle GC and flush; held by recovery, stopped by write protection
  PowerUpRecovery recovery_;
  FirmwareStats stats_;
  std::unique_ptr<HpbFeature> hpb_;              // the FTL as HPB sees it and the HPB device (null: HPB off)
};

}  // namespace ufs
