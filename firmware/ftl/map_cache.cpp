#include "ftl/map_cache.h"

namespace ufs {

MapCache::MapCache(uint32_t capacity_pages, uint32_t map_pages)
    : capacity_(capacity_pages), state_(map_pages, 0), prev_(map_pages, kNone), next_(map_pages, kNone) {}

void MapCache::unlink(uint32_t p) {
  if (prev_[p] != kNone) next_[prev_[p]] = next_[p]; else head_ = next_[p];
  if (next_[p] != kNone) prev_[next_[p]] = prev_[p]; else tail_ = prev_[p];
  prev_[p] = next_[p] = kNone;
}

void MapCache::push_front(uint32_t p) {
  prev_[p] = kNone;
  next_[p] = head_;
  if (head_ != kNone) prev_[head_] = p;
  head_ = p;
  if (tail_ == kNone) tail_ = p;
}

void MapCache::touch(uint32_t p) {
  if (!resident(p) || head_ == p) return;
  unlink(p);
  push_front(p);
}

uint32_t MapCache::insert(uint32_t p, bool loaded) {
  if (resident(p)) {
    if (loaded) state_[p] |= kLoaded;
    touch(p);
    return kNone;
  }
  uint32_t victim = kNone;
  if (size_ >= capacity_ && tail_ != kNone) {
    victim = tail_;
    unlink(victim);
    state_[victim] &= uint8_t(~kResident);
    --size_;
  }
  state_[p] = uint8_t(kResident | (loaded ? kLoaded : 0));
  push_front(p);
  ++size_;
  return victim;
}

}  // namespace ufs
