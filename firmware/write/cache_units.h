// The write cache's units: the write-cache area of the data buffer cut into program units
// (unit_sectors slots programmed together on one die; hybrid page size: one small page, or
// an aligned run of slots for a large page). It hands units out (host data leaves GC a
// reserve) and takes them back, and shows a unit's slots to the parts that fill it (host
// writes, read-modify-write fill, GC moves): where it goes, the room left, the next slots,
// each slot's LBA, superseded copy, age and FUA tag. Sealing, programming and what a
// programmed unit means are the write cache's (write/write_cache.h), which alone sees a
// unit's inside.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>
#include "firmware_params.h"
#include "ftl/gc_events.h"
#include "ftl/hybrid_pages.h"
#include "ftl/l2p_map.h"
#include "ftl/placement.h"

namespace ufs {

class CacheUnits {
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

  // The units take the data buffer's slots from `first_slot` on (params.write_cache_kib).
  CacheUnits(const FirmwareParams& params, const FlashGeometry& geometry, uint32_t first_slot);
  // How many units the dies cleaning a victim would take now (the host's reserve grows by it).
  void set_gc(const GcUnitEvents* gc) { gc_ = gc; }

  // A unit for `stream` (hybrid: a large-page unit when `large`), Filling; kNone when none is
  // free. Host data may not take the last units (may_use_reserve: GC's). flush: a
  // WriteBooster flush's unit (its pace: FlushPacer).
  uint32_t allocate(WriteStream stream, bool may_use_reserve, bool large = false, bool flush = false);
  size_t host_reserve() const;
  // What host data may hold (units; hybrid: slots): the cache less two units and, while dies
  // clean victims, GC's working set (GcUnitEvents::units_working_set), at most half the cache.
  size_t host_share() const;
  size_t host_held() const { return host_held_; }
  void free(uint32_t unit);  // Free again (given no data, or programmed)

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
    uint32_t i, pos;
    locate(entry, i, pos);
    return slot(i, pos);
  }
  // The NAND copy a write-cache map entry's data supersedes (kept valid until it is programmed).
  uint32_t old_ppa_of(uint32_t entry) const {
    uint32_t i, pos;
    locate(entry, i, pos);
    return units_[i].old_ppa[pos];
  }
  void reads_started(uint32_t unit) { ++units_[unit].pending_reads; }  // a read into the unit (GC, fill)
  bool holds_fua(uint32_t unit, uint8_t tag) const;  // a slot of the unit waits for FUA write `tag`

  bool busy() const;  // a unit sealed or programming
  uint64_t ram_bytes() const;  // the units' slot records (core/firmware_ram.h)
  void count_states(uint32_t (&free_filling_sealed_programming)[4]) const;

 private:
  void locate(uint32_t entry, uint32_t& i, uint32_t& pos) const {
    const uint32_t at = L2pMap::slot_of(entry) - shape_.first_slot;
    i = at / shape_.stride;
    pos = at % shape_.stride;
    if (units_[i].absorbed) { pos = units_[i].absorbed; i -= pos; }  // hybrid: inside a large unit
  }
  friend class WriteCache;  // seals, programs and releases units: it sees their inside
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
  struct Shape {
    uint32_t unit_sectors;    // a unit: a logical page or a program unit, the larger
    uint32_t large;           // hybrid: slots of a large-page unit
    uint32_t first_slot;      // the cache's first slot in the data buffer
    uint32_t stride;          // slots between unit descriptors (hybrid: 1)
    bool hybrid;
  };
  Shape shape_;
  const GcUnitEvents* gc_ = nullptr;
  std::vector<Unit> units_;
  std::vector<uint32_t> free_units_;
  size_t host_held_ = 0;  // host units allocated and not yet freed (hybrid: their slots)
  std::unique_ptr<HybridSlotRuns> slot_runs_;  // hybrid: write-cache slots of small and large units
};

}  // namespace ufs
