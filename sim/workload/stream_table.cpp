#include "stream_table.h"

namespace ufs {

StreamTable::StreamTable() : slots_(64, 0) {}

uint64_t StreamTable::hash(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h ^ (h >> 29);
}

void StreamTable::grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (uint32_t id = 0; id < names_.size(); ++id) {
    size_t i = hash(names_[id]) & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = id + 1;
  }
  slots_.swap(slots);
}

uint32_t StreamTable::intern(std::string_view name) {
  if (last_id_ != UINT32_MAX && names_[last_id_] == name) return last_id_;
  const size_t mask = slots_.size() - 1;
  size_t i = hash(name) & mask;
  while (slots_[i] != 0) {
    const uint32_t id = slots_[i] - 1;
    if (names_[id] == name) return last_id_ = id;
    i = (i + 1) & mask;
  }
  const uint32_t id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(name);
  slots_[i] = id + 1;
  if (names_.size() * 2 > slots_.size()) grow();
  return last_id_ = id;
}

}  // namespace ufs
