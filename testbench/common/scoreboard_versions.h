// The scoreboard's per-LBA version records: one 32-bit cell per logical block in
// chunks of 4096 allocated on first write (a directory slot per chunk), so a written
// block costs 4 bytes and an untouched range nothing. Write versions are a host-wide
// counter well below 2^32 in any run we can simulate; larger values and the
// "unmapped" sentinel still round-trip (the latter by a reserved cell value, the
// former through a side map), so no value is ever truncated.
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
    if (c >= chunks_.size() || !chunks_[c]) return absent_;
    const uint32_t cell = chunks_[c][lba % kChunk];
    if (cell < kOverflow) return cell;
    if (cell == kAbsent) return absent_;
    if (cell == kAllOnes) return ~0ull;
    return overflow_.at(lba);
  }
  void set(uint64_t lba, uint64_t value);

  bool chunk_allocated(uint64_t chunk) const { return chunk < chunks_.size() && chunks_[chunk]; }
  uint64_t chunk_slots() const { return chunks_.size(); }  // chunk indices below this may be allocated
  uint64_t chunks_allocated() const { return allocated_; }

 private:
  static constexpr uint32_t kAbsent = 0xFFFFFFFFu;
  static constexpr uint32_t kAllOnes = 0xFFFFFFFEu;   // the value ~0 (the scoreboard's "unmapped")
  static constexpr uint32_t kOverflow = 0xFFFFFFFDu;  // the value is in overflow_
  uint64_t absent_;
  std::vector<std::unique_ptr<uint32_t[]>> chunks_;
  uint64_t allocated_ = 0;
  std::unordered_map<uint64_t, uint64_t> overflow_;
};

}  // namespace ufs
