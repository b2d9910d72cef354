#include "scoreboard_versions.h"
#include <algorithm>

namespace ufs {

void ScoreboardVersions::set(uint64_t lba, uint64_t value) {
  const uint64_t c = lba / kChunk;
  if (c >= chunks_.size()) chunks_.resize(c + 1);
  auto& chunk = chunks_[c];
  if (!chunk) {
    chunk.reset(new uint32_t[kChunk]);
    std::fill_n(chunk.get(), kChunk, kAbsent);
    ++allocated_;
  }
  uint32_t& cell = chunk[lba % kChunk];
  if (cell == kOverflow) overflow_.erase(lba);
  if (value < kOverflow) {
    cell = uint32_t(value);
  } else if (value == ~0ull) {
    cell = kAllOnes;
  } else {
    cell = kOverflow;
    overflow_[lba] = value;
  }
}

}  // namespace ufs
