#include "scoreboard_versions.h"
#include <algorithm>

namespace ufs {

void ScoreboardVersions::set(uint64_t lba, uint64_t value) {
  const uint64_t c = lba / kChunk;
  if (c >= chunks_.size()) chunks_.resize(c + 1);
  Chunk& ch = chunks_[c];
  if (!ch.narrow && !ch.wide) {
    ch.narrow.reset(new uint16_t[kChunk]);
    std::fill_n(ch.narrow.get(), kChunk, kNarrowAbsent);
    ++allocated_;
  }
  if (ch.narrow) {
    if (value == ~0ull) {
      ch.narrow[lba % kChunk] = kNarrowAllOnes;
      return;
    }
    if (!ch.has_base) {
      ch.base = value - std::min(value, kNarrowSlack);
      ch.has_base = true;
    }
    if (value >= ch.base && value - ch.base < kNarrowAllOnes) {
      ch.narrow[lba % kChunk] = uint16_t(value - ch.base);
      return;
    }
    widen(ch);
  }
  set_wide(ch, lba, value);
}

// Every narrow cell becomes a wide one holding the same value.
void ScoreboardVersions::widen(Chunk& ch) {
  const uint64_t first = uint64_t(&ch - chunks_.data()) * kChunk;
  ch.wide.reset(new uint32_t[kChunk]);
  std::fill_n(ch.wide.get(), kChunk, kAbsent);
  std::unique_ptr<uint16_t[]> narrow = std::move(ch.narrow);
  for (uint64_t i = 0; i < kChunk; ++i) {
    const uint16_t cell = narrow[i];
    if (cell == kNarrowAbsent) continue;
    set_wide(ch, first + i, cell == kNarrowAllOnes ? ~0ull : ch.base + cell);
  }
}

void ScoreboardVersions::set_wide(Chunk& ch, uint64_t lba, uint64_t value) {
  uint32_t& cell = ch.wide[lba % kChunk];
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
