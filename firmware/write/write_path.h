// The write path as one sub-root: everything that turns host data and map pages into
// programs. It owns the allocation policy and the hybrid pools' shares, placement, the write
// cache (the unit programmer), the cache's GC units, read-modify-write page fill, the
// preconditioner, the write engine and the map writer (dirty map pages' write-back and map
// block relocation). The garbage collector is built after it and reaches it through narrow
// interfaces: the GC units it fills and the map writer it relocates with; in return the
// write path is the collector's GcEraseListener (programs waiting for a die retry when a
// block comes back or the die's pace allows), and background work's PendingWrites.
//
// Its members are built in this order on purpose: the write cache, page fill and map writer
// attach to the flash port in it, and a client's id is part of every flash trace cookie.
#pragma once
#include <cstdint>
#include <memory>
#include "command/command_table.h"
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/allocation_policy.h"
#include "ftl/block_manager.h"
#include "ftl/gc_events.h"
#include "ftl/hybrid_pages.h"
#include "ftl/l2p_map.h"
#include "ftl/latency_split.h"
#include "ftl/write_booster.h"
#include "hal/hal.h"
#include "idle/background_work.h"
#include "map/map_store.h"
#include "map/map_writer.h"
#include "protect/write_protection.h"
#include "write/gc_units.h"
#include "write/page_fill.h"
#include "write/preconditioner.h"
#include "write/unit_placement.h"
#include "write/write_cache.h"
#include "write/write_engine.h"

namespace ufs {

// What the write path needs from the rest of the firmware at construction.
struct WritePathLinks {
  BlockManager& blocks;
  L2pMap& map;
  MapStore& store;
  FlashPort& flash;
  CommandTable& table;
  LatencySplit& latency;
  WriteProtection& protection;
  // The garbage collector (may be built later: only stored): told when a die's free blocks
  // may have fallen and when a victim's sector was superseded.
  FreeSpaceListener& space;
  VictimMoveListener& victims;
};

class WritePath final : public GcEraseListener, public PendingWrites {
 public:
  // first_slot: the write cache's first buffer slot (the read area's size).
  WritePath(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint64_t logical_blocks,
            uint32_t first_slot, const WritePathLinks& links);

  // The collector, once built: the victim mover takes GC units' events, host units go at
  // the pace of a die's foreground GC.
  void set_gc(GcUnitEvents& units, HostWriteGate& gate);
  void set_write_booster(WriteBooster* wb);  // null: WriteBooster off

  // GcEraseListener: a die has a block back, or earned host units room: units waiting for a
  // die go first, then map pages.
  void space_returned(uint32_t die) override;
  void pace_earned(uint32_t die) override { space_returned(die); }
  // PendingWrites (background work): after recovery, the replayed map pages go back to NAND;
  // once read-only, the write engine refuses what waits.
  void write_back_map_pages(const std::vector<uint8_t>& replayed) override { map_writer_.write_back_pages(replayed); }
  void refuse_undurable() override { writes_.refuse_undurable(); }
  // Programs wait for a die (host or GC units, map pages).
  bool programs_waiting() const { return cache_.waiting_for_die() || map_writer_.programs_waiting(); }

  // Zero-time fill through the backdoor (write/preconditioner.h); preconditioning() meanwhile.
  void precondition(uint64_t first_lba, uint64_t blocks, FlashBackdoor& backdoor);
  bool preconditioning() const { return preconditioning_; }

  WriteEngine& writes() { return writes_; }
  const WriteEngine& writes() const { return writes_; }
  const WriteCache& cache() const { return cache_; }
  const PageFill& fill() const { return fill_; }
  MapWriter& map_writer() { return map_writer_; }
  const MapWriter& map_writer() const { return map_writer_; }
  GcUnits& gc_units() { return gc_units_; }
  HybridPoolShares* shares() { return shares_.get(); }  // null: hybrid page size off

 private:
  std::unique_ptr<HybridPoolShares> shares_;  // hybrid: each pool's share of the data (null: off)
  AllocationPolicy alloc_;
  UnitPlacement placement_;
  WriteCache cache_;
  CacheGcUnits gc_units_;
  PageFill fill_;
  Preconditioner preconditioner_;
  WriteEngine writes_;
  MapWriter map_writer_;
  bool preconditioning_ = false;  // no GC and no stuck check while filling through the backdoor
};

}  // namespace ufs
