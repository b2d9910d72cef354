#include "ftl/map_cache.h"

namespace ufs {

bool parse_map_cache_policy(const std::string& name, MapCachePolicy& out) {
  if (name == "lru") out = MapCachePolicy::Lru;
  else if (name == "fifo") out = MapCachePolicy::Fifo;
  else if (name == "clock") out = MapCachePolicy::Clock;
  else return false;
  return true;
}

MapCache::MapCache(uint32_t capacity_pages, uint32_t map_pages, MapCachePolicy policy)
    : policy_(policy), capacity_(capacity_pages), state_(map_pages, 0), prev_(map_pages, kNone), next_(map_pages, kNone) {}

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

void MapCache::move_to_front(uint32_t p) {
  if (head_ == p) return;
  unlink(p);
  push_front(p);
}

// The tail is the oldest (FIFO), least recently used (LRU) or the clock hand (CLOCK).
uint32_t MapCache::pick_victim() {
  if (policy_ == MapCachePolicy::Clock) {
    // Each pass clears one bit, so at most size_ + 1 steps.
    while (state_[tail_] & kReferenced) {
      const uint32_t p = tail_;
      state_[p] &= uint8_t(~kReferenced);
      move_to_front(p);
    }
  }
  return tail_;
}

uint32_t MapCache::insert(uint32_t p, bool loaded) {
  if (resident(p)) {
    if (loaded) state_[p] |= kLoaded;
    touch(p);
    return kNone;
  }
  uint32_t victim = kNone;
  if (size_ >= capacity_ && tail_ != kNone) {
    victim = pick_victim();
    unlink(victim);
    state_[victim] &= uint8_t(~(kResident | kReferenced));
    --size_;
  }
  state_[p] = uint8_t(kResident | (loaded ? kLoaded : 0));
  push_front(p);
  ++size_;
  return victim;
}

}  // namespace ufs
