#include "debug_state.h"
#include <algorithm>

namespace ufs {

std::string debug_state(const DeviceFirmware& fw) {
  const BlockManager& blocks = fw.ftl().blocks();
  const WritePath& write = fw.write_path();
  const GarbageCollector& gc = fw.gc();
  const FlashGeometry& geo = blocks.layout().geometry();
  std::string out;
  uint32_t unit_states[4];
  write.cache().units().count_states(unit_states);
  out += "units free/filling/sealed/programming " + std::to_string(unit_states[0]) + "/" +
         std::to_string(unit_states[1]) + "/" + std::to_string(unit_states[2]) + "/" +
         std::to_string(unit_states[3]) + "; waiting: reads " + std::to_string(fw.reads().waiting()) +
         ", writes " + std::to_string(write.writes().waiting()) + ", units for a die " +
         std::to_string(write.cache().waiting_for_die()) + ", GC for a unit " + std::to_string(gc.mover().waiting_for_units()) + "\n";
  for (uint32_t d = 0; d < geo.dies(); ++d) {
    out += "die " + std::to_string(d) + ": free blocks " + std::to_string(blocks.pools().free_blocks(d));
    if (geo.hybrid()) out += " (large-page pool: " + std::to_string(blocks.pools().free_blocks(d, true)) + ")";
    uint32_t closed = 0, fewest = ~0u, fewest_large = ~0u, busy = 0, bad = 0, open = 0;
    const uint32_t per_die = geo.planes_per_die * geo.blocks_per_plane;
    for (uint32_t b = d * per_die; b < (d + 1) * per_die; ++b) {
      const BlockInfo& i = blocks.info(b);
      bad += i.state == BlockState::Bad;
      open += i.state == BlockState::Open;
      if (i.state != BlockState::Closed) continue;
      ++closed;
      if (geo.hybrid() && i.large) fewest_large = std::min(fewest_large, i.valid);
      busy += i.programs_in_flight != 0;
      fewest = std::min(fewest, i.valid);
    }
    if (geo.hybrid()) out += ", fewest valid in a large-page block " + std::to_string(fewest_large);
    out += ", closed " + std::to_string(closed) + " (fewest valid " + std::to_string(fewest) + ", " +
           std::to_string(busy) + " with programs in flight), open " + std::to_string(open) + ", bad " +
           std::to_string(bad);
    out += gc.debug_state(d) + "\n";
  }
  return out;
}

}  // namespace ufs
