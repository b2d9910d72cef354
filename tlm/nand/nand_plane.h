// One plane of a die: its erase blocks. A plane has its own page register in
// hardware; the model keeps register contents with the operation in flight
// (the demux moves data register <-> bus), so the plane only holds blocks.
#pragma once
#include <vector>
#include "nand/nand_block.h"

namespace ufs {

struct NandPlane {
  std::vector<NandBlock> blocks;
};

}  // namespace ufs
