// The write points: each die's open block per write stream, where the stream's next pages
// go (kNoBlock when it has none). Plane-first allocation keeps one open block per plane
// (`slot` = plane); hybrid page size keeps a stream's write point in small- and in
// large-page blocks apart (`large`). Who opens, fills and closes a block is the writer's.
#pragma once
#include <cstdint>
#include <vector>
#include "hal/flash_types.h"

namespace ufs {

// Open blocks per stream: host data, GC-moved (cold) data, and map pages kept apart;
// Cold: data a wear-levelling migration moves into a worn block.
// Slc: host data into the WriteBooster buffer (ftl/write_booster.h).
enum class WriteStream : uint8_t { Host = 0, Gc = 1, Map = 2, Cold = 3, Slc = 4 };
constexpr uint32_t kWriteStreams = 5;

class WritePoints {
 public:
  static constexpr uint32_t kNoBlock = ~0u;

  explicit WritePoints(const FlashGeometry& geometry)
      : planes_(geometry.planes_per_die), open_(geometry.dies() * kWriteStreams * 2 * planes_, kNoBlock) {}

  uint32_t& open_block(uint32_t die, WriteStream s, uint32_t slot = 0, bool large = false) {
    return open_[index(die, s, slot, large)];
  }
  uint32_t open_block(uint32_t die, WriteStream s, uint32_t slot = 0, bool large = false) const {
    return open_[index(die, s, slot, large)];
  }
  uint64_t ram_bytes() const { return uint64_t(open_.capacity()) * sizeof(uint32_t); }

 private:
  uint32_t index(uint32_t die, WriteStream s, uint32_t slot, bool large) const {
    return ((die * kWriteStreams + uint32_t(s)) * 2 + large) * planes_ + slot;
  }
  uint32_t planes_;
  std::vector<uint32_t> open_;
};

}  // namespace ufs
