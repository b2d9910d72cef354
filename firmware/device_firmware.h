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
#include "ftl/block_manager.h"
#include "ftl/hybrid_pages.h"
#include "ftl/l2p_map.h"
#include "ftl/latency_split.h"
#include "ftl/map_cache.h"
#include "ftl/slot_allocator.h"
#include "flash/flash_port.h"
#include "gc/garbage_collector.h"
#include "gc/write_booster_flush.h"
#include "idle/idle_scheduler.h"
#include "hal/hal.h"
#include "command/buffer_layout.h"
#include "command/command_table.h"
#include "command/read_engine.h"
#include "ftl/gc_events.h"
#include "ftl/placement.h"
#include "map/map_store.h"
#include "map/map_writer.h"
#include "hpb/hpb_device.h"
#include "protect/write_protection.h"
#include "query/query_server.h"
#include "recovery/power_up_recovery.h"
#include "scsi/scsi_command.h"
#include "stats_visitor.h"
#include "write/gc_units.h"
#include "write/page_fill.h"
#include "write/unit_placement.h"
#include "write/write_cache.h"

namespace ufs {

struct FirmwareStats {
  uint64_t host_write_blocks = 0;
  uint64_t unmapped_blocks = 0;
  uint64_t flushes = 0;
  uint64_t session_keys_loaded = 0;   // HPB session keys drawn at power-up
  uint64_t crypto_results = 0;        // sign/verify results from the crypto engine
  uint64_t crypto_rejected = 0;       // of which not valid
  // Read-modify-write of logical pages larger than a write
  uint64_t rmw_writes = 0;            // write commands that did not cover whole logical pages
};

class DeviceFirmware : public FirmwareEvents, private HpbFtl, private CommandEndListener, private BufferWaiters,
                       private GcEraseListener, private DurabilityListener, private UnitsFreedListener,
                       private RecoveryListener, private WriteProtectHooks {
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
  // scan) before serving commands; commands meanwhile get NOT READY. Call before power-up.
  void recover_on_power_up() { recovery_.arm(); }
  bool recovering() const { return recovery_.active(); }
  const PowerUpRecovery& recovery() const { return recovery_; }

  // Zero-time fill of [first_lba, first_lba + blocks) as if written sequentially
  // (stamps carry version 0), through the backdoor. Call before the simulation starts.
  void precondition(uint64_t first_lba, uint64_t blocks, FlashBackdoor& backdoor);

  // QUERY REQUEST (flags, attributes, descriptors) of the features that registered.
  QueryResponse query(const QueryRequest& q) { return query_.query(q); }

  uint64_t logical_blocks() const { return logical_blocks_; }
  const FirmwareStats& stats() const { return stats_; }
  // Every part's statistics, named as in stats.json (stats_visitor.h).
  void visit_stats(StatsVisitor& v) const;
  const CommandTable& commands() const { return table_; }
  const ReadEngine& reads() const { return reads_; }
  const MapStore& map_store() const { return map_store_; }
  const MapWriter& map_writer() const { return map_writer_; }
  const FlashPort& flash() const { return flash_; }
  const GarbageCollector& gc() const { return gc_; }
  // Reads' and writes' time in the device by part (ftl/latency_split.h).
  const LatencySplit& latency_split() const { return latency_; }
  void reset_latency_split() { latency_.reset_sums(); }
  const BlockManager& blocks() const { return blocks_; }
  const L2pMap& map() const { return map_; }
  const HpbDevice* hpb() const { return hpb_.get(); }  // null when HPB is off
  HpbDevice* hpb() { return hpb_.get(); }
  WriteBooster* writebooster() { return wb_.get(); }  // null when WriteBooster is off
  const WriteBooster* writebooster() const { return wb_.get(); }
  // (NAND sectors programmed) / (host sectors written): write amplification.
  double write_amplification() const;
  bool idle() const;  // nothing queued or in flight (for tests)
  bool write_protected() const { return protection_.on(); }
  // One line per die and queue: what the FTL is waiting for (stall diagnostics).
  std::string debug_state() const;

 private:
  static constexpr uint32_t kNone = ~0u;

  // ---- buffer layout: [read area slots][write cache units], 4 KiB slots

  // ---- per-tag command state
  struct TagState {
    uint64_t lba = 0;
    uint32_t blocks = 0;
    uint32_t staged = 0;       // Read: blocks assigned to segments; Write: blocks requested
    uint32_t done = 0;         // Read: blocks sent; Write: blocks arrived
    bool fua = false;
    uint32_t nondurable = 0;   // Write with FUA: sectors not yet programmed
    uint32_t sync_pending = 0; // Sync: units still to program
    uint32_t out_requests = 0; // Write: READY TO TRANSFER requests in flight
    uint64_t span_lba = 0;     // Write: the command's range widened to whole logical pages
    uint32_t span = 0;
    uint32_t span_staged = 0;  // Write: sectors of the span given unit slots
    uint32_t control_bytes = 0;
    bool waiting = false;      // queued for buffer space
    bool rejected = false;     // Write: refused (write protected) once its data in flight has arrived
  };

  // command handling
  void start_write(const HostCommand& c, const ScsiCommand& s);
  void request_write_data(uint8_t tag);
  void start_sync(const HostCommand& c);
  void start_unmap(const HostCommand& c, const ScsiCommand& s);
  void finish_unmap(uint8_t tag);
  void retry_waiters();   // reads, then writes
  void retry_waiting() override;  // BufferWaiters: writes waiting for a unit
  // logical pages: the filling host unit for an LBA
  uint32_t& filling_unit(uint64_t lba);
  // Hybrid page size: the write-cache slots of a large unit.
  uint32_t large_capacity() const { return geo_.large_sectors_per_page(); }
  // DurabilityListener (FUA writes, SYNCHRONIZE CACHE), UnitsFreedListener
  void fua_sector_programmed(uint8_t tag) override;
  void sync_unit_programmed(uint8_t tag) override;
  void units_freed() override { retry_waiters(); }

  // RecoveryListener: idle work waits while power-loss recovery scans
  void recovery_started() override;
  void recovery_finished(const std::vector<uint8_t>& replayed) override;

  // GcEraseListener
  void space_returned(uint32_t die) override;

  // HpbFtl (device_firmware_hpb.cpp)
  uint64_t hpb_logical_blocks() const override { return logical_blocks_; }
  uint32_t hpb_mapping(uint64_t lba) const override;
  void hpb_claim_tag(uint8_t tag, uint8_t lun) override;
  void hpb_fail(const HostCommand& c, uint8_t key, uint8_t asc_code) override { table_.fail(c, key, asc_code); }
  void hpb_respond(uint8_t tag, uint8_t lun) override { table_.respond(tag, lun); }
  void hpb_start_read(const HostCommand& c, uint64_t lba, uint32_t blocks, bool hpb) override;
  bool hpb_map_page_ready(uint64_t lba) override;
  uint64_t hpb_map_page_entries() const override { return map_store_.entries_per_page(); }
  void hpb_verify_time(uint8_t tag, bool begin) override {
    if (begin) latency_.begin(tag, LatencyPart::HpbVerify, hal_.now_ps());
    else latency_.end(tag, LatencyPart::HpbVerify, hal_.now_ps());
  }

  Hal& hal_;
  FirmwareParams params_;
  FlashGeometry geo_;
  BlockManager blocks_;
  uint64_t logical_blocks_;
  L2pMap map_;
  uint32_t spp_;
  uint32_t unit_sectors_;            // write unit: a logical page or a program unit, the larger
  uint32_t lp_sectors_;              // logical page
  bool hybrid_;                      // hybrid page size: small- and large-page pools
  std::unique_ptr<HybridPoolShares> shares_;  // hybrid: each pool's share of the data (null: off)
  AllocationPolicy alloc_;
  uint32_t read_slots_;
  std::vector<TagState> tags_;
  // WriteProtectHooks: GC's last chance; then stop background writes, refuse what waits
  void reclaim_space() override;
  void write_protect_entered() override;
  LatencySplit latency_{256};
  CommandTable table_;
  std::vector<uint32_t> host_units_; // host units being filled: one, or one per pool (static mapping)
  std::deque<uint8_t> write_waiters_;// writes waiting for a unit
  FlashPort flash_;
  WriteProtection protection_;       // end of life: read-only once no block can be freed
  MapStore map_store_;
  UnitPlacement placement_;
  WriteCache cache_;
  CacheGcUnits gc_units_;
  PageFill fill_;
  MapWriter map_writer_;
  ReadEngine reads_;
  GarbageCollector gc_;
  bool preconditioning_ = false;     // no GC while filling through the backdoor
  void command_ended() override { idle_.command_ended(); }  // CommandEndListener
  IdleScheduler idle_{hal_};         // background GC, WriteBooster flush
  std::unique_ptr<WriteBooster> wb_;
  std::unique_ptr<WriteBoosterFlush> flush_;     // null: WriteBooster off
  PowerUpRecovery recovery_;
  FirmwareStats stats_;
  std::unique_ptr<HpbDevice> hpb_;               // null: HPB off
  QueryServer query_;
};

}  // namespace ufs
