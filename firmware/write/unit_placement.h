// Placement: where a program unit goes. GC work stays on its die (spilling onto another
// die's spare only when a failed program or erase left its own without a block), map
// pages go round robin over the dies, host units by the allocation policy (the next pool
// in stripe order with room, or their logical pages' pool under static mapping), and host
// data into the die's WriteBooster SLC buffer while it has room. Host data and map pages
// leave each die the free blocks its GC needs to move data (the hard limit, the gate's); above
// it, host units go to a die cleaning a victim at its GC's pace (HostWriteGate). Map pages
// never wait for the pace (GC's own map updates must not wait for GC), but take room it sees.
#pragma once
#include <cstdint>
#include "firmware_params.h"
#include "ftl/allocation_policy.h"
#include "ftl/block_manager.h"
#include "ftl/gc_events.h"
#include "ftl/placement.h"
#include "ftl/write_booster.h"
#include "hal/hal.h"

namespace ufs {

class UnitPlacement final : public UnitPlacer {
 public:
  // space: told when a die's free blocks may have fallen below a GC threshold.
  UnitPlacement(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, BlockManager& blocks,
                const AllocationPolicy& alloc, FreeSpaceListener& space);
  void set_write_booster(WriteBooster* wb) { wb_ = wb; }  // null: WriteBooster off
  // Host units into a die's TLC blocks wait for its GC's pace (null: no pacing).
  void set_host_gate(HostWriteGate* gate) { gate_ = gate; }
  // Filling through the backdoor: no SLC buffer (the fill is TLC data).
  void set_preconditioning(bool on) { preconditioning_ = on; }

  bool place(UnitPlace& u) override;

 private:
  static constexpr uint32_t kNone = ~0u;
  Hal& hal_;
  uint32_t dies_, spp_, program_pages_, planes_;
  uint32_t unit_pages_;          // pages of a host or GC unit (hybrid: one page of its pool's size)
  bool hybrid_;
  BlockManager& blocks_;
  const AllocationPolicy& alloc_;
  FreeSpaceListener& space_;
  WriteBooster* wb_ = nullptr;
  HostWriteGate* gate_ = nullptr;
  bool preconditioning_ = false;
  uint32_t next_pool_ = 0;       // striping pointer (index in the stripe order)
  uint32_t next_map_die_ = 0;
};

}  // namespace ufs
