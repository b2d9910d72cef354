// What the FTL's parts tell the garbage collector (narrow listeners, so parts that write
// or drop data need not know it).
#pragma once
#include <cstdint>

namespace ufs {

// A die's free blocks may have fallen below a GC threshold.
class FreeSpaceListener {
 public:
  virtual ~FreeSpaceListener() = default;
  virtual void free_space_changed(uint32_t die) = 0;
};

// Host units on a die whose GC runs: placed as GC earns them (gc/host_pacing.h).
class HostWriteGate {
 public:
  virtual ~HostWriteGate() = default;
  // large: hybrid page size, a unit of the large-page pool. False: not now (the die retries when it may).
  virtual bool host_may_place(uint32_t die, bool large) = 0;
  // Host data or map pages may open one of the die's free blocks (hybrid: of the large-page
  // pool); false: the rest is GC's (the die retries when it may).
  virtual bool may_open_block(uint32_t die, bool large) = 0;
  // A host unit or map page may take a unit of GC's open block of the pool (room beyond GC's need).
  virtual bool may_share_gc_block(uint32_t /*die*/, bool /*large*/) { return false; }
};

// What an erase tells the rest of the FTL.
class GcEraseListener {
 public:
  virtual ~GcEraseListener() = default;
  // The die has a block back: units waiting for a die go first (before GC looks again).
  virtual void space_returned(uint32_t die) = 0;
  // A die in foreground GC earned host units room again (gc/host_pacing.h): those waiting retry.
  virtual void pace_earned(uint32_t /*die*/) {}
};

// A NAND copy was superseded (overwritten, unmapped, moved): a map entry whose sector stops
// counting as valid (unmapped or write-cache entries are ignored); a GC victim may be empty now.
class ObsoleteCopyListener {
 public:
  virtual ~ObsoleteCopyListener() = default;
  virtual void copy_obsolete(uint32_t entry) = 0;
};

// The write cache about the units GC fills (GcUnits): told to the victim mover
// (gc/victim_mover.h), which fills them.
class GcUnitEvents {
 public:
  virtual ~GcUnitEvents() = default;
  // A GC unit's sector landed at `to` (moved from `from`); then the whole unit was programmed.
  virtual void moved(uint64_t lba, uint32_t from, uint32_t to) = 0;
  virtual void unit_programmed(uint32_t die, bool flush_unit) = 0;
  // A unit came free: dies waiting for one go on.
  virtual void units_freed() = 0;
  // Units the dies cleaning a victim would take now (host data leaves them free): without
  // them, host units waiting for the blocks only GC frees fill the cache and GC crawls.
  virtual uint32_t units_wanted() const { return 0; }
  // Units the dies cleaning a victim may hold at most (each its full limit, whatever it holds or
  // wants now): while they clean, host data holds no more than the cache less these.
  virtual uint32_t units_working_set() const { return 0; }
};

// The collector: the victim on `die` may have no valid sector left and nothing in flight
// (a sector of it became invalid, or its moves ended), so it may be erased.
class VictimMoveListener {
 public:
  virtual ~VictimMoveListener() = default;
  virtual void moves_may_be_done(uint32_t die) = 0;
};

// Idle time: every dirty map page in SRAM goes back to NAND (map/map_writer.h).
class IdleWriteBack {
 public:
  virtual ~IdleWriteBack() = default;
  virtual void write_back_dirty() = 0;
};

// GC of a map block: its live map pages are rewritten on the victim's die (map/map_writer.h).
class MapBlockCleaner {
 public:
  virtual ~MapBlockCleaner() = default;
  virtual void relocate_block(uint32_t die, uint32_t victim) = 0;
};

}  // namespace ufs
