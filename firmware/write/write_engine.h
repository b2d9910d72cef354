// The write path's commands. WRITE: the command's range widened to whole logical pages
// (what it does not cover is filled by read-modify-write, write/page_fill) is given slots
// in the filling host unit (one, one per pool under static mapping, or a small- and a
// large-page one with hybrid page size) and its data is asked for in up to eight
// transfers at a time; a write with no unit free waits in FIFO order until one is.
// FUA (or write-through) answers once its sectors are programmed, closing the unit that
// holds its tail; SYNCHRONIZE CACHE closes the filling units and answers once every host
// unit holding data is programmed; UNMAP drops the mappings its parameter list names.
// Once the device is write protected (protect/write_protection), writes that can no longer
// get a unit or be made durable are refused.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include "command/command_table.h"
#include "command/read_engine.h"
#include "firmware_params.h"
#include "ftl/allocation_policy.h"
#include "ftl/block_manager.h"
#include "ftl/hybrid_pages.h"
#include "ftl/l2p_map.h"
#include "ftl/latency_split.h"
#include "hal/hal.h"
#include "map/map_store.h"
#include "protect/write_protection.h"
#include "scsi/scsi_command.h"
#include "stats_visitor.h"
#include "write/page_fill.h"
#include "write/write_cache.h"

namespace ufs {

struct WriteStats {
  uint64_t host_write_blocks = 0;
  uint64_t rmw_writes = 0;       // write commands that did not cover whole logical pages
  uint64_t unmapped_blocks = 0;
  uint64_t flushes = 0;          // SYNCHRONIZE CACHE commands
};

class WriteEngine final : public DurabilityListener, public UnitsFreedListener, public BufferWaiters {
 public:
  WriteEngine(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint64_t logical_blocks,
              CommandTable& table, LatencySplit& latency, L2pMap& map, MapStore& store,
              const AllocationPolicy& alloc, HybridPoolShares* shares, const BlockManager& blocks, WriteCache& cache,
              PageFill& fill, WriteProtection& protection);
  // Reads waiting for buffer space go before writes when write-cache units come free.
  void set_reads(BufferWaiters* reads) { reads_ = reads; }

  void start_write(const HostCommand& c, const ScsiCommand& s);
  void start_sync(const HostCommand& c);
  void start_unmap(const HostCommand& c, const ScsiCommand& s);
  // DATA OUT landed: write data, or an UNMAP parameter list (kControlToken).
  void data_out_done(uint8_t tag, uint64_t token);

  void retry_waiting() override;  // writes waiting for a unit, in FIFO order
  void units_freed() override;    // reads, then writes
  void fua_sector_programmed(uint8_t tag) override;
  void sync_unit_programmed(uint8_t tag) override;
  // The device turned read-only: writes waiting for a unit, and syncs and FUA writes
  // waiting for units that will never be programmed, are refused (their data stays readable).
  void refuse_undurable();

  size_t waiting() const { return waiters_.size(); }
  const WriteStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;

 private:
  static constexpr uint32_t kNone = ~0u;
  static constexpr uint32_t kMaxDataOutRequests = 8;
  struct Command {
    uint64_t lba = 0;
    uint32_t blocks = 0;
    uint32_t done = 0;         // blocks arrived
    bool fua = false;
    uint32_t nondurable = 0;   // FUA: sectors not yet programmed
    uint32_t sync_pending = 0; // SYNCHRONIZE CACHE: units still to program
    uint32_t out_requests = 0; // READY TO TRANSFER requests in flight
    uint64_t span_lba = 0;     // the command's range widened to whole logical pages
    uint32_t span = 0;
    uint32_t span_staged = 0;  // sectors of the span given unit slots
    uint32_t control_bytes = 0;  // UNMAP: the parameter list's length
    bool waiting = false;      // queued for a unit
    bool rejected = false;     // refused (write protected) once its data in flight has arrived
  };
  struct Shape {
    uint64_t logical_blocks;
    uint32_t lp_sectors;       // logical page
    uint32_t large;            // hybrid page size: slots of a large-page unit (0: off)
  };
  void request_data(uint8_t tag);
  uint32_t& filling_unit(uint64_t lba);
  void finish_unmap(uint8_t tag);

  Hal& hal_;
  const FirmwareParams& params_;
  Shape shape_;
  CommandTable& table_;
  LatencySplit& latency_;
  L2pMap& map_;
  MapStore& store_;
  const AllocationPolicy& alloc_;
  HybridPoolShares* shares_;     // hybrid page size (null: off)
  const BlockManager& blocks_;
  WriteCache& cache_;
  PageFill& fill_;
  WriteProtection& protection_;  // end of life: writes refused
  BufferWaiters* reads_ = nullptr;
  std::vector<Command> commands_;
  std::vector<uint32_t> host_units_;  // host units being filled: one, or one per pool (static mapping, hybrid)
  std::deque<uint8_t> waiters_;       // writes waiting for a unit
  WriteStats stats_;
};

}  // namespace ufs
