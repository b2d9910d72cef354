// The collector's side of host pacing (the rules: gc/host_pacing.h). The placement asks it
// whether a host unit may go to a die in foreground GC and whether host data or map pages
// may open one of a die's last free blocks; a die that refused something retries
// (GcEraseListener::pace_earned) when its GC's progress may have changed the answer: a unit
// of moved data programmed, a page copied back. Off (firmware.gc_host_pacing false): nothing is
// paced and the hard limit is a whole free block.
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/block_manager.h"
#include "ftl/gc_events.h"
#include "gc/host_pacing.h"

namespace ufs {

class GcHostGate final : public HostWriteGate {
 public:
  // on: pacing in force; unit_sectors: a host unit; listener: told when a die may take units
  // again; copy_back: GC moves whole pages inside their plane (gc/host_pacing.h).
  GcHostGate(const BlockManager& blocks, bool on, uint32_t unit_sectors, GcEraseListener& listener, bool copy_back = false)
      : blocks_(blocks),
        on_(on),
        pacing_(blocks, unit_sectors, copy_back),
        retry_(blocks.layout().geometry().dies(), 0),
        listener_(listener) {}

  // HostWriteGate (the placement asks)
  bool host_may_place(uint32_t die, bool large) override;
  bool may_open_block(uint32_t die, bool large) override;
  bool may_share_gc_block(uint32_t die, bool large) override;

  bool on() const { return on_; }
  HostPacing& pacing() { return pacing_; }
  const HostPacing& pacing() const { return pacing_; }
  // GC on the die progressed: if it refused something since, its waiting units retry.
  void retry(uint32_t die);

 private:
  const BlockManager& blocks_;
  bool on_;
  HostPacing pacing_;
  std::vector<uint8_t> retry_;  // per die: refused something since its last retry
  GcEraseListener& listener_;
};

}  // namespace ufs
