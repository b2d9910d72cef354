#include "fcc/op_pool.h"

namespace ufs {

uint32_t OpPool::alloc() {
  if (free_.empty()) {
    slots_.push_back(std::make_unique<OpSlot>());
    slots_.back()->stamps.resize(kMaxSectorsPerPage);
    return uint32_t(slots_.size() - 1);
  }
  const uint32_t s = free_.back();
  free_.pop_back();
  return s;
}

}  // namespace ufs
