#include "ftl/cached_entries.h"

namespace ufs {

void CachedEntries::put(uint64_t lba, uint32_t entry) {
  if (2 * (size_ + 1) > slots_.size()) grow();
  size_t i = home(lba);
  while (slots_[i].lba != kEmpty && slots_[i].lba != lba) i = (i + 1) & mask();
  if (slots_[i].lba == kEmpty) {
    ++size_;
    if (size_ > peak_) peak_ = size_;
  }
  slots_[i] = Slot{lba, entry};
}

void CachedEntries::erase(uint64_t lba) {
  if (size_ == 0) return;
  size_t i = home(lba);
  while (slots_[i].lba != lba) {
    if (slots_[i].lba == kEmpty) return;
    i = (i + 1) & mask();
  }
  // Backward shift: each later entry of the probe run moves into the hole if its home is not
  // between the hole and itself (cyclically), so every entry stays reachable from its home.
  for (size_t j = (i + 1) & mask();; j = (j + 1) & mask()) {
    if (slots_[j].lba == kEmpty) break;
    const size_t h = home(slots_[j].lba);
    const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (stays) continue;
    slots_[i] = slots_[j];
    i = j;
  }
  slots_[i] = Slot{};
  --size_;
}

void CachedEntries::grow() {
  std::vector<Slot> old;
  old.swap(slots_);
  slots_.assign(old.size() * 2, Slot{});
  --shift_;
  size_ = 0;
  for (const Slot& s : old)
    if (s.lba != kEmpty) put(s.lba, s.entry);
}

}  // namespace ufs
