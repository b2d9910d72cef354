// Preconditioning: a zero-time fill of an LBA range as if written sequentially, through the
// flash backdoor, before the simulation starts (stamps carry version 0). Units are placed
// exactly as the write path would place them (hybrid page size: split into large-page chunks
// and small pieces as a write is; static mapping: pool by pool), and the map pages of the
// range go to map blocks (none in SRAM yet) carrying their entries (issue 20: the NAND model
// stores them, a later load reads them back). No SLC buffer and no GC while it runs.
#pragma once
#include <cstdint>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/allocation_policy.h"
#include "ftl/block_manager.h"
#include "ftl/gc_events.h"
#include "ftl/hybrid_pages.h"
#include "ftl/l2p_map.h"
#include "hal/hal.h"
#include "map/map_store.h"
#include "write/unit_placement.h"

namespace ufs {

class Preconditioner {
 public:
  Preconditioner(const FirmwareParams& params, const FlashGeometry& geometry, uint64_t logical_blocks,
                 BlockManager& blocks, L2pMap& map, MapStore& store, FlashPort& flash, UnitPlacement& placement,
                 ObsoleteCopyListener& obsolete, const MapPageSource& source, const AllocationPolicy& alloc,
                 HybridPoolShares* shares);

  // [first_lba, first_lba + blocks), cut at the device's end; stops early when the device is full.
  void fill(uint64_t first_lba, uint64_t blocks, FlashBackdoor& backdoor);

 private:
  void fill_hybrid(uint64_t first_lba, uint64_t end, FlashBackdoor& backdoor);
  void fill_units(uint64_t first_lba, uint64_t end, FlashBackdoor& backdoor);
  void fill_map_pages(uint64_t first_lba, uint64_t end, FlashBackdoor& backdoor);
  // The unit's block takes it as written (no program in flight, written at time 0).
  void written(const UnitPlace& u);

  const FirmwareParams& params_;
  uint64_t logical_blocks_;
  uint32_t spp_, unit_sectors_, lp_sectors_, large_;  // large: hybrid page size, slots of a large page
  bool hybrid_;
  BlockManager& blocks_;
  L2pMap& map_;
  MapStore& store_;
  FlashPort& flash_;
  UnitPlacement& placement_;
  ObsoleteCopyListener& obsolete_;
  const MapPageSource& source_;
  const AllocationPolicy& alloc_;
  HybridPoolShares* shares_;
  std::vector<SectorStamp> stamps_;  // of the unit being written
  std::vector<PageOob> oobs_;
};

}  // namespace ufs
