// HPBvalve's (FAST'23) three LRU lists of cached HPB sub-regions: active
// foreground (AFG: the app now in the foreground), inactive foreground (IFG:
// apps that were in the foreground before) and background (BG). Eviction takes
// the least recently used BG entry first, then IFG; AFG is never evicted, so the
// foreground app keeps its map entries. A foreground switch demotes all of AFG
// to IFG (list splice, O(1) links plus retagging). Moves are O(1): intrusive doubly linked
// lists over a per-entry node array. Plain C++; HpbValvePolicy (hpb_valve_policy.h) keeps
// regions in it.
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

class HpbValveLists {
 public:
  enum class List : uint8_t { None, ActiveFg, InactiveFg, Background };
  static constexpr uint32_t kNil = UINT32_MAX;

  explicit HpbValveLists(uint32_t subregions);

  // Insert or move s to the most recently used end of list l.
  void touch(uint32_t s, List l);
  void remove(uint32_t s);
  // The sub-region eviction takes next (LRU of BG, else of IFG), kNil if none.
  uint32_t victim() const;
  // Foreground switch: AFG joins IFG's most recently used end, AFG becomes empty.
  void demote_foreground();

  List list_of(uint32_t s) const { return nodes_[s].list; }
  uint32_t size(List l) const { return heads_[idx(l)].size; }
  uint32_t lru(List l) const { return heads_[idx(l)].first; }  // kNil when empty
  uint32_t next(uint32_t s) const { return nodes_[s].next; }    // towards MRU

 private:
  struct Node { uint32_t prev = kNil, next = kNil; List list = List::None; };
  struct Head { uint32_t first = kNil, last = kNil, size = 0; };
  static int idx(List l) { return int(l) - 1; }
  void unlink(uint32_t s);
  std::vector<Node> nodes_;
  Head heads_[3];
};

}  // namespace ufs
