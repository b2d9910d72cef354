#include "ftl/map_cache.h"
#include "policy_registry.h"

namespace ufs {

namespace {
// The registry (firmware.map_cache_policy): a new policy is one line here.
const PolicyEntry<std::unique_ptr<MapCacheReplacement> (*)(uint32_t map_pages)> kPolicies[] = {
    {"lru", make_lru_map_cache},
    {"fifo", make_fifo_map_cache},
    {"clock", make_clock_map_cache},
};
}  // namespace

std::unique_ptr<MapCacheReplacement> make_map_cache_policy(const std::string& name, uint32_t map_pages) {
  const auto make = find_policy(kPolicies, name);
  return make ? make(map_pages) : nullptr;
}

bool is_map_cache_policy(const std::string& name) { return find_policy(kPolicies, name) != nullptr; }

std::string map_cache_policy_names() { return policy_names(kPolicies); }

MapCache::MapCache(uint32_t capacity_pages, uint32_t map_pages, const std::string& policy)
    : policy_(make_map_cache_policy(policy, map_pages)), capacity_(capacity_pages), state_(map_pages, 0) {
  // validate() refuses other names with a message; the firmware throws nothing (its target
  // build has no exceptions), so a name that got past it here means LRU, the default.
  if (!policy_) policy_ = make_map_cache_policy("lru", map_pages);
}

uint32_t MapCache::insert(uint32_t p, bool loaded) {
  if (resident(p)) {
    if (loaded) state_[p] |= kLoaded;
    policy_->used(p);
    return kNone;
  }
  uint32_t victim = kNone;
  if (size_ >= capacity_) {
    victim = policy_->evict();
    if (victim != kNone) {
      state_[victim] &= uint8_t(~kResident);
      --size_;
    }
  }
  state_[p] = uint8_t(kResident | (loaded ? kLoaded : 0));
  policy_->installed(p);
  ++size_;
  return victim;
}

}  // namespace ufs
