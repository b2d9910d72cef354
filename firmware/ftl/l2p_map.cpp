#include "ftl/l2p_map.h"
#include <algorithm>

namespace ufs {

L2pMap::L2pMap(uint64_t logical_blocks)
    : logical_blocks_(logical_blocks),
      chunks_((logical_blocks + kEntriesPerChunk - 1) / kEntriesPerChunk) {}

void L2pMap::set(uint64_t lba, uint32_t value) {
  if (observer_) observer_->on_map_change(lba, value);
  auto& chunk = chunks_[lba / kEntriesPerChunk];
  if (!chunk) {
    if (value == kUnmapped) return;
    chunk.reset(new uint32_t[kEntriesPerChunk]);
    std::fill_n(chunk.get(), kEntriesPerChunk, kUnmapped);
    ++chunks_allocated_;
  }
  chunk[lba % kEntriesPerChunk] = value;
}

}  // namespace ufs
