// The scoreboard's per-LBA version records, in chunks of 4096 logical blocks allocated
// on first write (a directory slot per chunk), so an untouched range costs nothing.
// A chunk starts narrow: 16-bit cells holding a version's offset from the chunk's base
// (the first version written there, less some slack for writes completing out of
// order), 2 bytes a block, which holds whatever a run writes in LBA order. The first
// version that does not fit widens the chunk to 32-bit cells (4 bytes a block); versions
// beyond 32 bits and the "unmapped" sentinel still round-trip (reserved cell values, a
// side map), so no value is ever truncated.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ufs {

class ScoreboardVersions {
 public:
  static constexpr uint64_t kChunk = 4096;
  // `absent`: what get() returns for a block never set.
  explicit ScoreboardVersions(uint64_t absent) : absent_(absent) {}

  uint64_t get(uint64_t lba) const {
    const uint64_t c = lba / kChunk;
    if (c >= chunks_.size()) return absent_;
    const Chunk& ch = chunks_[c];
    if (ch.narrow) {
      const uint16_t cell = ch.narrow[lba % kChunk];
      if (cell < kNarrowAllOnes) return ch.base + cell;
      return cell == kNarrowAbsent ? absent_ : ~0ull;
    }
    if (!ch.wide) return absent_;
    const uint32_t cell = ch.wide[lba % kChunk];
    if (cell < kOverflow) return cell;
    if (cell == kAbsent) return absent_;
    if (cell == kAllOnes) return ~0ull;
    return overflow_.at(lba);
  }
  void set(uint64_t lba, uint64_t value);

  bool chunk_allocated(uint64_t chunk) const {
    return chunk < chunks_.size() && (chunks_[chunk].narrow || chunks_[chunk].wide);
  }
  bool chunk_wide(uint64_t chunk) const { return chunk < chunks_.size() && chunks_[chunk].wide; }
  uint64_t chunk_slots() const { return chunks_.size(); }  // chunk indices below this may be allocated
  uint64_t chunks_allocated() const { return allocated_; }

 private:
  static constexpr uint16_t kNarrowAbsent = 0xFFFF;
  static constexpr uint16_t kNarrowAllOnes = 0xFFFE;   // the value ~0 (the scoreboard's "unmapped")
  static constexpr uint64_t kNarrowSlack = 0x1000;     // a chunk's base sits this far below its first version
  static constexpr uint32_t kAbsent = 0xFFFFFFFFu;
  static constexpr uint32_t kAllOnes = 0xFFFFFFFEu;
  static constexpr uint32_t kOverflow = 0xFFFFFFFDu;  // the value is in overflow_
  struct Chunk {
    std::unique_ptr<uint16_t[]> narrow;  // offsets from base
    std::unique_ptr<uint32_t[]> wide;    // values (once one did not fit narrow)
    uint64_t base = 0;
    bool has_base = false;               // base set by the first version other than ~0
  };
  void widen(Chunk& ch);
  void set_wide(Chunk& ch, uint64_t lba, uint64_t value);
  uint64_t absent_;
  std::vector<Chunk> chunks_;
  uint64_t allocated_ = 0;
  std::unordered_map<uint64_t, uint64_t> overflow_;
};

}  // namespace ufs
