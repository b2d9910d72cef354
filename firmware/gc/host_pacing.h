// Host writes paced by foreground GC's progress (issue 14 item 2), read from the die's state
// rather than kept in a ledger (a ledger drifts: every write it misses, map pages, padding,
// data spilled from another die, takes the die towards its hard limit unseen).
//
// The die's room: its free blocks and the pages left in its open TLC blocks (every stream),
// in sectors. While it cleans a victim whose valid sectors were V when taken and are v now,
// GC still has to move v of them and gets a whole block S back at the erase: host units (and
// map pages) may take the room above S * v / V. That allowance rises by S/V per sector moved
// (R/V net of the move, R = S - V reclaimable), does not jump at the erase (v = 0: the block
// comes back exactly as the next victim takes its S), and anything else that takes room
// lowers it. So host writes share the die with GC at the victim's own ratio, unit by unit,
// instead of taking the die's free blocks at full speed and then waiting, all at once (every
// die at the same time in steady state), for the several victims it takes to free a block.
// This is the proportional (incremental) GC of real controllers; MQSim's soft and hard
// thresholds alone keep the bursts: the host runs free until the hard threshold, then stops.
//
// The hard limit follows GC's real need instead of a whole block: host data and map pages
// may open a die's last free blocks while GC can still finish its victim without them (its
// open block's room covers the valid sectors left and a unit of padding). With a whole block
// kept back, the allowance above would only ever bind a block higher, and a block less of
// spare area per die fills the victims (write amplification).
//
// Hybrid page size (small- and large-page pools, ftl/hybrid_pages.h): room and allowance are
// per pool, as each pool has its own free blocks and GC fills and frees blocks of one pool. A
// pool's allowance is its own room less what the die's victim still needs of it: the victim's
// own pool S * v / V (its block not yet earned back; the moves too when they stay in the pool),
// the other pool, when the victim's data moves into it, the v sectors still to come. Counted
// die-wide, the free blocks of the pool GC does not clean covered the other pool's victim, so
// nothing was ever paced (iiswc15 hybrid GC case: large-page victims, 53 of 64 small-page
// blocks free per die, 0 pacing waits): host units took the cleaned pool's room at full
// speed and then waited for whole victims (issue 14, session 22).
//
// GC's share of the write cache follows the same state (gc_ahead, read by the victim mover):
// a die whose GC is behind (host units wait on its pace) keeps a second moved-data unit queued
// at the die, so in the die's FIFO GC gets the program slots the host waits for; a die a block
// or more ahead keeps one (programming while the next fills: GC still programs back to back,
// its units are single-plane, one block). Otherwise, when every die cleans at once (host
// blocks fill in step on all dies, as in a burst after idle time), GC holds most of the cache
// and host writes queue behind programs nobody waits for (issue 14, session 19).
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/block_manager.h"

namespace ufs {

class HostPacing {
 public:
  // unit_sectors: a host unit (a unit placed needs that much allowance; hybrid page size: a
  // small page, a large-page unit a large page); copy_back: GC moves whole valid pages into
  // a block of their own plane (firmware.gc_copy_back).
  HostPacing(const BlockManager& blocks, uint32_t unit_sectors, bool copy_back = false);

  // A victim was taken on `die` (GC data or a map block); paced: below the foreground
  // threshold (host units go at its pace), else only the hard limit follows it; to_large:
  // hybrid page size, its data goes into the large-page pool.
  void victim_taken(uint32_t die, uint32_t victim, bool paced, bool to_large = false);
  void stop(uint32_t die);  // the die's victim is gone (erased) or GC moves no victim of its own

  bool paced(uint32_t die) const { return dies_[die].paced; }
  // A host unit (hybrid: of the large-page pool) may go to the die now (not paced, or its
  // pool's allowance covers the unit).
  bool may_place(uint32_t die, bool large = false) const;
  // Host data or map pages may open one of the die's free blocks of the pool (the hard limit).
  bool may_open_block(uint32_t die, bool large = false) const;
  // A host unit or map page may take a unit of GC's open block of the pool (its room beyond
  // GC's need).
  bool may_share_gc_block(uint32_t die, bool large = false) const;
  // GC's room in the pool beyond its need, in sectors: the victim's valid sectors left and a
  // unit of padding when its data goes there, else a whole block for the pool's next victim
  // (hybrid: both when the victim is of the other pool: its erase gives this pool nothing).
  int64_t gc_spare(uint32_t die, bool large = false) const;
  // The pool's room above what GC still needs of it (paced dies; the figure may_place
  // compares), in sectors. Without hybrid page size there is one pool (large = false).
  int64_t allowance(uint32_t die, bool large = false) const;
  // What the die's victim still needs of the pool, in sectors: S * v / V of its own pool, the
  // v sectors still to move of the other pool its data goes to, else nothing.
  uint64_t need(uint32_t die, bool large = false) const;
  // The die's GC is a block or more ahead of its need (the die's allowance, both pools with
  // hybrid page size, covers a whole block): host units are not waiting on its pace, so its
  // moved data need not queue ahead of theirs. Die-wide, not the victim's pool's: with hybrid
  // page size the other pool's host units do not wait on this GC. (iiswc15 hybrid GC case at
  // 12,800 requests with the victim's pool's figure: a large-page victim's pool never covers a
  // block, so GC kept its full share of the write cache throughout; 240 victims instead of
  // 160, WAF 7.8 instead of 5.4, write mean 126 instead of 88 ms.)
  bool gc_ahead(uint32_t die) const {
    const Die& d = dies_[die];
    if (d.victim == BlockManager::kNoBlock) return false;
    int64_t a = allowance(die, false);
    if (blocks_.layout().hybrid()) a += allowance(die, true);
    return a >= int64_t(blocks_.sectors_in_block(d.victim));
  }
  // The pool's free blocks and its open TLC blocks' pages left (every stream; not the SLC
  // buffer), in sectors.
  uint64_t room(uint32_t die, bool large = false) const;

  uint64_t refusals() const { return refusals_; }
  void count_refusal() { ++refusals_; }

 private:
  struct Die {
    bool paced = false;
    bool to_large = false;  // hybrid: the victim's data goes into the large-page pool
    uint32_t victim = BlockManager::kNoBlock;
    uint32_t valid = 0;  // the victim's valid sectors when taken
  };
  uint32_t open_room(uint32_t die, WriteStream s, uint32_t slot, bool large) const;
  uint32_t block_sectors(bool large) const;  // a block of the pool
  uint32_t unit(bool large) const;           // a host unit of the pool
  const BlockManager& blocks_;
  uint32_t unit_;
  bool copy_back_;
  std::vector<Die> dies_;
  uint64_t refusals_ = 0;
};

}  // namespace ufs
