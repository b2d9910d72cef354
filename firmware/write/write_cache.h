// The write cache's unit programmer. A unit (write/cache_units.h: allocation, slots) is
// filled (host data, read-modify-write fill, GC moves), sealed (the rest padded), placed
// (UnitPlacer) once all its data is in, programmed through the cache's own flash client (a
// big logical page as consecutive programs) and released; a failed program retires the
// block and goes again elsewhere. While a unit is cached, each slot keeps the
// NAND copy its data supersedes valid (a power loss before the program must find it).
// Programmed host data moves the map to NAND and tells the DurabilityListener (FUA,
// SYNCHRONIZE CACHE); programmed GC data goes to the victim mover (GcUnitEvents).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_manager.h"
#include "ftl/gc_events.h"
#include "ftl/l2p_map.h"
#include "ftl/placement.h"
#include "ftl/write_booster.h"
#include "hal/hal.h"
#include "map/map_store.h"
#include "stats_visitor.h"
#include "write/cache_units.h"

namespace ufs {

// Told when host data it staged with a tag is on NAND.
class DurabilityListener {
 public:
  virtual ~DurabilityListener() = default;
  virtual void fua_sector_programmed(uint8_t tag) = 0;   // a sector of a FUA write
  virtual void sync_unit_programmed(uint8_t tag) = 0;    // a unit a SYNCHRONIZE CACHE waits for
};

// Told when a unit came free, after the garbage collector (who must never starve).
class UnitsFreedListener {
 public:
  virtual ~UnitsFreedListener() = default;
  virtual void units_freed() = 0;
};

struct WriteCacheStats {
  uint64_t host_program_sectors = 0;   // sectors programmed for host data (incl. stale)
  uint64_t padding_sectors = 0;        // sectors padded to close a partial program unit
  uint64_t host_page_sectors = 0;      // page space programmed for host data: whole host units (data,
                                       // read-modify-write fill, padding); space utilisation's denominator
};

class WriteCache final : public FlashClient, public ObsoleteCopyListener, public MapPageSource {
 public:
  // The cache takes the data buffer's slots from `first_slot` on (params.write_cache_kib).
  WriteCache(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint32_t first_slot,
             BlockManager& blocks, L2pMap& map, MapStore& store, FlashPort& flash, UnitPlacer& placer,
             VictimMoveListener& victims, FreeSpaceListener& space);
  // The victim mover: moved data, programmed and freed units, the units GC wants (set once,
  // before the first unit is allocated).
  void set_gc_units(GcUnitEvents* gc) {
    gc_ = gc;
    table_.set_gc(gc);
  }
  void set_durability_listener(DurabilityListener* l) { durable_ = l; }
  void set_freed_listener(UnitsFreedListener* l) { freed_ = l; }
  void set_write_booster(WriteBooster* wb) { wb_ = wb; }  // host sectors into SLC or TLC

  // The units and their slots, as the fillers see them (allocate, stage, slot, ...).
  CacheUnits& units() { return table_; }
  const CacheUnits& units() const { return table_; }

  // Host data is in slots [pos, pos + count): the map points at it (the copy it supersedes
  // stays valid until the unit is programmed).
  void host_data_arrived(uint32_t unit, uint32_t pos, uint32_t count);
  // n staged slots have their data (by_read: a read started before ended); the unit is
  // programmed if it is sealed and its data is all in.
  void arrived(uint32_t unit, uint32_t n, bool by_read);
  // No more data for the unit: the rest is padding; it is programmed once its data is in.
  void seal(uint32_t unit);
  void release(uint32_t unit);  // given no data (GC), or programmed
  // An erase gave a die a block back: units waiting for a die go again.
  void retry_programs();
  // A NAND copy (map entry) is no longer the live one: its sector stops counting as valid.
  void copy_obsolete(uint32_t entry) override;
  // A map page's entries as NAND holds them: a cached LBA's entry is its superseded NAND copy.
  void nand_entries(uint32_t page, uint32_t* out, uint32_t count, const uint32_t* nand = nullptr) const override;
  void resolve_cached(uint32_t page, uint32_t* out, uint32_t count) const override;
  // SYNCHRONIZE CACHE: `tag` waits for every host unit sealed or programming; how many.
  uint32_t wait_for_host_units(uint8_t tag);
  // Write protection: the commands waiting for sealed units that will never be programmed
  // (tag, true: a sync; false: a FUA write), taken off them.
  void take_undurable(std::vector<std::pair<uint8_t, bool>>& waiting);

  size_t waiting_for_die() const { return program_waiters_.size(); }
  const WriteCacheStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;

 private:
  using Unit = CacheUnits::Unit;
  using UnitState = CacheUnits::UnitState;
  // Programs the unit if it is sealed and its data is in (else later, or when a die has room).
  void try_program(uint32_t unit);
  void programmed(uint32_t unit, FlashStatus status);
  void on_flash_done(uint64_t unit, const FlashCompletion& c) override { programmed(uint32_t(unit), c.status); }

  Hal& hal_;
  const FirmwareParams& params_;
  uint32_t spp_;  // sectors per (small) page
  bool hybrid_;
  BlockManager& blocks_;
  L2pMap& map_;
  MapStore& store_;
  FlashPort& flash_;
  uint32_t client_;
  UnitPlacer& placer_;
  GcUnitEvents* gc_ = nullptr;
  VictimMoveListener& victims_;
  FreeSpaceListener& space_;
  DurabilityListener* durable_ = nullptr;
  UnitsFreedListener* freed_ = nullptr;
  WriteBooster* wb_ = nullptr;
  CacheUnits table_;
  std::deque<uint32_t> program_waiters_;       // units waiting for a die with space
  WriteCacheStats stats_;
};

}  // namespace ufs
