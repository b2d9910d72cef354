#include "block_remapper.h"

namespace ufs {

namespace {
inline uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}
}  // namespace

BlockRemapper::BlockRemapper() : slots_(1 << 16, Slot{0, 0}) {}

void BlockRemapper::grow() {
  std::vector<Slot> old(slots_.size() * 2, Slot{0, 0});
  old.swap(slots_);
  const uint64_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    uint64_t i = mix(s.key) & mask;
    while (slots_[i].key != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

uint64_t BlockRemapper::map(uint64_t block) {
  const uint64_t key = block + 1;
  const uint64_t mask = slots_.size() - 1;
  uint64_t i = mix(key) & mask;
  while (slots_[i].key != 0) {
    if (slots_[i].key == key) return slots_[i].value;
    i = (i + 1) & mask;
  }
  const uint64_t value = count_++;
  slots_[i] = Slot{key, value};
  if (count_ * 2 > slots_.size()) grow();
  return value;
}

}  // namespace ufs
