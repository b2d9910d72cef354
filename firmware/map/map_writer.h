// Writes map pages back to NAND: dirty pages evicted from SRAM (or all of them in idle
// time, firmware.bg_map_writeback) in program units of program_pages pages, each page
// merged first with its NAND copy when it is not fully in SRAM; and GC of a map block,
// whose live pages are rewritten on the victim's die with two units kept for it, so
// cleaning never waits behind ordinary write-backs. A landed page moves the directory
// (map store) and obsoletes its older copy; a failed program retires the block and goes
// again elsewhere.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_manager.h"
#include "ftl/gc_events.h"
#include "ftl/placement.h"
#include "hal/hal.h"
#include "map/map_store.h"
#include "stats_visitor.h"

namespace ufs {

struct MapWriterStats {
  uint64_t merge_reads = 0;      // map pages read back to merge updates before write-back
  uint64_t page_writes = 0;      // map pages programmed (write-back and GC relocation)
  uint64_t relocations = 0;      // map pages rewritten because GC cleaned their block
  uint64_t idle_writebacks = 0;  // dirty map pages written back in idle time (bg_map_writeback)
};

class MapWriter : public FlashClient, public DirtyPageSink, public MapBlockCleaner, public IdleWriteBack {
 public:
  MapWriter(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, BlockManager& blocks,
            FlashPort& flash, MapStore& store, UnitPlacer& placer, ObsoleteCopyListener& obsolete,
            FreeSpaceListener& space, L2pMap& map);

  void write_back(uint32_t page) override;  // a dirty page leaves SRAM: it waits once
  // GC of a map block on `die`: its live pages are rewritten; the block empties as they land.
  void relocate_block(uint32_t die, uint32_t victim) override;
  // Idle time: every dirty page in SRAM goes back (clean from then on).
  void write_back_dirty() override;
  // After recovery: the pages whose newest entries are not on NAND yet.
  void write_back_pages(const std::vector<uint8_t>& pages);
  // Units that found no die with room: space came back (an erase), try again.
  void retry_programs();
  bool programs_waiting() const { return !program_waiters_.empty(); }

  uint64_t ram_bytes() const;  // per map page: queued for write-back (core/firmware_ram.h)
  // The units' pages' entries from program to completion (program_pages map pages a unit).
  uint64_t buffer_bytes() const;

  const MapWriterStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;

 private:
  static constexpr uint32_t kNone = ~0u;
  // A write-back of up to program_pages dirty map pages in one program.
  struct Unit {
    bool busy = false;
    std::vector<uint32_t> pages;    // map page ids
    uint32_t pending_reads = 0;     // merge reads still to come
    std::vector<uint8_t> merged;    // per page: its NAND copy was read into the unit's buffer
    uint32_t block = BlockManager::kNoBlock, page = 0;
    uint64_t seq = 0;
    uint32_t reloc_die = kNone;     // GC relocation of a map block on this die (else a plain write-back)
  };
  void flush(bool force);
  void flush_relocations(uint32_t die);
  uint32_t free_unit(bool relocation) const;
  void start(uint32_t unit);
  void program(uint32_t unit);
  void programmed(uint32_t unit, FlashStatus status);
  void on_flash_done(uint64_t unit, const FlashCompletion& c) override;
  void enqueue(uint32_t page);  // queue_, the page's frame held until its write-back lands

  Hal& hal_;
  const FirmwareParams& params_;
  uint32_t spp_, page_bytes_;
  BlockManager& blocks_;
  FlashPort& flash_;
  uint32_t client_;
  MapStore& store_;
  L2pMap& map_;  // the frames a pending write-back holds (ftl/map_frames.h)
  UnitPlacer& placer_;
  ObsoleteCopyListener& obsolete_;
  FreeSpaceListener& space_;
  std::deque<uint32_t> queue_;                    // map pages to program, each at most once
  std::vector<uint8_t> queued_;                   // per map page: in queue_
  std::vector<std::deque<uint32_t>> relocations_; // per die: map pages its GC must rewrite
  std::vector<Unit> units_;
  std::vector<std::vector<uint32_t>> unit_words_;  // per unit: its pages' entries as programmed
  std::deque<uint32_t> program_waiters_;          // units waiting for a die with space
  MapWriterStats stats_;
};

}  // namespace ufs
