// The collector's side of host pacing (the ledger: gc/host_pacing.h). Host units go to a die
// in foreground GC as its GC earns them; each sector moved out of a paced victim earns its
// share, and a die whose credit turned positive again has its waiting host units retry
// (GcEraseListener::pace_earned) once the event that earned it is handled.
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/gc_events.h"
#include "gc/host_pacing.h"

namespace ufs {

class GcHostGate final : public HostWriteGate {
 public:
  // cap_sectors: the credit a die keeps at most; listener: told when a die may take host units again.
  GcHostGate(uint32_t dies, uint32_t cap_sectors, GcEraseListener& listener)
      : pacing_(dies, cap_sectors), retry_(dies, 0), listener_(listener) {}

  // HostWriteGate (the placement asks and tells)
  bool host_may_place(uint32_t die) override;
  void host_placed(uint32_t die, uint32_t sectors) override { pacing_.placed(die, sectors); }
  void gc_spilled(uint32_t from, uint32_t to, uint32_t sectors) override;

  HostPacing& pacing() { return pacing_; }
  const HostPacing& pacing() const { return pacing_; }
  // A sector of the die's paced victim was moved.
  void sector_moved(uint32_t die) {
    if (pacing_.sector_moved(die)) retry_[die] = 1;
  }
  // The die's credit turned positive since the last call: its waiting host units retry.
  void retry(uint32_t die);

 private:
  HostPacing pacing_;
  std::vector<uint8_t> retry_;  // per die: its credit turned positive (host units retry)
  GcEraseListener& listener_;
};

}  // namespace ufs
