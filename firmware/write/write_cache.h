// The write cache and its unit programmer: the write-cache area of the data buffer as
// program units (unit_sectors slots programmed together on one die; hybrid page size: one
// small page, or an aligned run of slots for a large page). A unit is allocated (host data
// leaves GC a reserve), filled (host data, read-modify-write fill, GC moves), sealed (the
// rest padded), placed (UnitPlacer) once all its data is in, programmed through its own
// flash client (a big logical page as consecutive programs) and released; a failed program
// retires the block and goes again elsewhere. While a unit is cached, each slot keeps the
// NAND copy its data supersedes valid (a power loss before the program must find it).
// Programmed host data moves the map to NAND and tells the DurabilityListener (FUA,
// SYNCHRONIZE CACHE); programmed GC data goes to the collector (GcUnitEvents).
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
#include "ftl/hybrid_pages.h"
#include "ftl/l2p_map.h"
#include "ftl/placement.h"
#include "ftl/write_booster.h"
#include "hal/hal.h"
#include "map/map_store.h"
#include "stats_visitor.h"

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

class WriteCache final : public FlashClient, public ObsoleteCopyListener {
 public:
  static constexpr uint32_t kNone = ~0u;
  static constexpr uint8_t kNoTag = 0xFF;
  enum class UnitState : uint8_t { Free, Filling, Sealed, Programming };
  // One slot of a unit as its filler sees it: the data's LBA (kNoLba: padding), the NAND copy
  // it supersedes (GC: the one it was read from), the sequence of the write that produced
  // it (OOB) and the FUA command waiting on it (kNoTag: none).
  struct Slot {
    uint64_t& lba;
    uint32_t& old_ppa;
    uint64_t& data_seq;
    uint8_t& fua_tag;
  };

  // The cache takes the data buffer's slots from `first_slot` on (params.write_cache_kib).
  WriteCache(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint32_t first_slot,
             BlockManager& blocks, L2pMap& map, MapStore& store, FlashPort& flash, UnitPlacer& placer,
             GcUnitEvents& gc, FreeSpaceListener& space);
  void set_durability_listener(DurabilityListener* l) { durable_ = l; }
  void set_freed_listener(UnitsFreedListener* l) { freed_ = l; }
  void set_write_booster(WriteBooster* wb) { wb_ = wb; }  // host sectors into SLC or TLC

  // A unit for `stream` (hybrid: a large-page unit when `large`), kNone when none is free;
  // host data may not take the last units (may_use_reserve: GC's). flush: a WriteBooster
  // flush's unit (its pace: FlushPacer).
  uint32_t allocate(WriteStream stream, bool may_use_reserve, bool large = false, bool flush = false);
  size_t host_reserve() const;
  UnitPlace& place(uint32_t unit) { return units_[unit]; }  // where it goes: set a GC unit's die, a pool
  uint32_t room(uint32_t unit) const { return units_[unit].capacity - units_[unit].assigned; }
  // The next n slots of the unit go to a filler: the position of the first.
  uint32_t stage(uint32_t unit, uint32_t n) {
    const uint32_t pos = units_[unit].assigned;
    units_[unit].assigned += n;
    return pos;
  }
  uint32_t buffer_slot(uint32_t unit, uint32_t pos) const { return units_[unit].first_slot + pos; }
  Slot slot(uint32_t unit, uint32_t pos) {
    Unit& u = units_[unit];
    return Slot{u.lbas[pos], u.old_ppa[pos], u.data_seq[pos], u.fua_tag[pos]};
  }
  // The slot a write-cache map entry names (L2pMap::is_cached(entry)).
  Slot cached(uint32_t entry) {
    const uint32_t at = L2pMap::slot_of(entry) - shape_.first_slot;
    uint32_t i = at / shape_.stride, pos = at % shape_.stride;
    if (units_[i].absorbed) { pos = units_[i].absorbed; i -= pos; }  // hybrid: inside a large unit
    return slot(i, pos);
  }
  void reads_started(uint32_t unit) { ++units_[unit].pending_reads; }  // a read into the unit (GC, fill)
  // n staged slots have their data (by_read: a read started before ended); the unit is
  // programmed if it is sealed and its data is all in.
  void arrived(uint32_t unit, uint32_t n, bool by_read);
  bool holds_fua(uint32_t unit, uint8_t tag) const;   // a slot of the unit waits for FUA write `tag`
  // SYNCHRONIZE CACHE: `tag` waits for every host unit sealed or programming; how many.
  uint32_t wait_for_host_units(uint8_t tag);
  // Write protection: the commands waiting for sealed units that will never be programmed
  // (tag, true: a sync; false: a FUA write), taken off them.
  void take_undurable(std::vector<std::pair<uint8_t, bool>>& waiting);

  // Host data is in slots [pos, pos + count): the map points at it (the copy it supersedes
  // stays valid until the unit is programmed).
  void host_data_arrived(uint32_t unit, uint32_t pos, uint32_t count);
  // No more data for the unit: the rest is padding; it is programmed once its data is in.
  void seal(uint32_t unit);
  void release(uint32_t unit);  // given no data (GC), or programmed
  // An erase gave a die a block back: units waiting for a die go again.
  void retry_programs();
  // A NAND copy (map entry) is no longer the live one: its sector stops counting as valid.
  void copy_obsolete(uint32_t entry) override;

  bool busy() const;  // a unit sealed or programming
  void count_states(uint32_t (&free_filling_sealed_programming)[4]) const;
  size_t waiting_for_die() const { return program_waiters_.size(); }
  const WriteCacheStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;

 private:
  struct Unit : UnitPlace {      // where it goes (GC units stay on their die); capacity: slots it holds
    UnitState state = UnitState::Free;
    uint32_t first_slot = 0;
    uint8_t absorbed = 0;        // hybrid: > 0: this slot is that many slots into the large unit before it
    uint32_t assigned = 0;       // slots given to data (the rest is padding once sealed)
    uint32_t arrived = 0;        // slots whose data is in the buffer
    uint32_t pending_reads = 0;  // reads into the unit still coming (GC, read-modify-write fill)
    uint32_t programs_pending = 0;   // program ops of the unit in flight (a logical page may need several)
    bool program_failed = false;
    bool flush = false;              // a WriteBooster flush's unit (its pace: FlushPacer)
    std::vector<uint64_t> lbas;      // per slot: LBA or kNoLba
    // Per slot, GC: the source PPA; host: the NAND copy the cached data supersedes, kept
    // valid until this unit is programmed (a power loss before that must find it).
    std::vector<uint32_t> old_ppa;
    std::vector<uint64_t> data_seq;  // per slot: sequence of the host write that produced it (OOB)
    std::vector<uint8_t> fua_tag;    // per slot: FUA command waiting on it (kNoTag none)
    std::vector<uint8_t> sync_tags;  // SYNCHRONIZE CACHE commands waiting on this unit
  };
  // Programs the unit if it is sealed and its data is in (else later, or when a die has room).
  void try_program(uint32_t unit);
  void programmed(uint32_t unit, FlashStatus status);
  void on_flash_done(uint64_t unit, const FlashCompletion& c) override { programmed(uint32_t(unit), c.status); }

  struct Shape {
    uint32_t spp;             // sectors per (small) page
    uint32_t unit_sectors;    // a unit: a logical page or a program unit, the larger
    uint32_t large;           // hybrid: slots of a large-page unit
    uint32_t first_slot;      // the cache's first slot in the data buffer
    uint32_t stride;          // slots between unit descriptors (hybrid: 1)
    bool hybrid;
  };
  Hal& hal_;
  const FirmwareParams& params_;
  Shape shape_;
  BlockManager& blocks_;
  L2pMap& map_;
  MapStore& store_;
  FlashPort& flash_;
  uint32_t client_;
  UnitPlacer& placer_;
  GcUnitEvents& gc_;
  FreeSpaceListener& space_;
  DurabilityListener* durable_ = nullptr;
  UnitsFreedListener* freed_ = nullptr;
  WriteBooster* wb_ = nullptr;
  std::vector<Unit> units_;
  std::vector<uint32_t> free_units_;
  std::unique_ptr<HybridSlotRuns> slot_runs_;  // hybrid: write-cache slots of small and large units
  std::deque<uint32_t> program_waiters_;       // units waiting for a die with space
  WriteCacheStats stats_;
};

}  // namespace ufs
