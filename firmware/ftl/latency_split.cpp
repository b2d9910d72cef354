#include "ftl/latency_split.h"

namespace ufs {

void LatencySplit::finish(uint32_t tag, bool write, uint64_t now_ps) {
  Command& c = commands_[tag];
  charge(c, now_ps);
  Sums& s = write ? writes_ : reads_;
  ++s.commands;
  s.device_ps += now_ps - c.start_ps;
  s.map_load_ps += c.part_ps[0];
  s.nand_ps += c.part_ps[1];
  s.transfer_ps += c.part_ps[2];
  s.waiting_ps += c.part_ps[3];
  s.hpb_verify_ps += c.part_ps[4];
}

}  // namespace ufs
