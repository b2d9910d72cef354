#include "nand/nand_package.h"

namespace ufs {

NandPackage::NandPackage(const NandParams& params, uint32_t first_die) {
  for (uint32_t i = 0; i < params.dies_per_package; ++i) dies_.emplace_back(params, first_die + i);
}

}  // namespace ufs
