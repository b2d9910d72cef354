// One NAND package on a channel: the dies (LUNs) behind one chip enable. The dies
// share the package's channel pins; the demux serialises their bus cycles.
#pragma once
#include <cstdint>
#include <deque>
#include "nand/nand_die.h"
#include "nand/nand_params.h"

namespace ufs {

class NandPackage {
 public:
  // first_die: global index of this package's first die.
  NandPackage(const NandParams& params, uint32_t first_die);
  uint32_t dies() const { return uint32_t(dies_.size()); }
  NandDie& die(uint32_t lun) { return dies_[lun]; }
  const NandDie& die(uint32_t lun) const { return dies_[lun]; }

 private:
  std::deque<NandDie> dies_;  // dies never move: the demux keeps pointers to them
};

}  // namespace ufs
