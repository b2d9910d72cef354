// HpbValveLists: HPBvalve's AFG / IFG / BG LRU lists (eviction BG then IFG, AFG
// never; a foreground switch demotes AFG to IFG).
#include <catch2/catch.hpp>

#include "host/hpbvalve_lists.h"

using ufs::HpbValveLists;
using L = HpbValveLists::List;

TEST_CASE("HPBvalve lists: moves keep LRU order and sizes", "[hpbvalve]") {
  HpbValveLists v(8);
  v.touch(1, L::ActiveFg);
  v.touch(2, L::ActiveFg);
  v.touch(3, L::ActiveFg);
  v.touch(1, L::ActiveFg);  // 1 becomes MRU
  CHECK(v.size(L::ActiveFg) == 3);
  CHECK(v.lru(L::ActiveFg) == 2);
  CHECK(v.next(2) == 3);
  CHECK(v.next(3) == 1);
  v.touch(3, L::Background);  // move across lists
  CHECK(v.size(L::ActiveFg) == 2);
  CHECK(v.size(L::Background) == 1);
  CHECK(v.list_of(3) == L::Background);
  CHECK(v.next(2) == 1);
  v.remove(2);
  CHECK(v.lru(L::ActiveFg) == 1);
  CHECK(v.list_of(2) == L::None);
}

TEST_CASE("HPBvalve lists: eviction takes BG first, then IFG, never AFG", "[hpbvalve]") {
  HpbValveLists v(8);
  v.touch(0, L::ActiveFg);
  v.touch(1, L::InactiveFg);
  v.touch(2, L::InactiveFg);
  v.touch(3, L::Background);
  v.touch(4, L::Background);
  CHECK(v.victim() == 3);
  v.remove(3);
  CHECK(v.victim() == 4);
  v.remove(4);
  CHECK(v.victim() == 1);
  v.remove(1);
  CHECK(v.victim() == 2);
  v.remove(2);
  CHECK(v.victim() == HpbValveLists::kNil);  // only AFG left: nothing evictable
}

TEST_CASE("HPBvalve lists: a foreground switch demotes AFG behind IFG", "[hpbvalve]") {
  HpbValveLists v(8);
  v.touch(5, L::InactiveFg);
  v.touch(1, L::ActiveFg);
  v.touch(2, L::ActiveFg);
  v.demote_foreground();
  CHECK(v.size(L::ActiveFg) == 0);
  CHECK(v.size(L::InactiveFg) == 3);
  CHECK(v.list_of(1) == L::InactiveFg);
  CHECK(v.lru(L::InactiveFg) == 5);
  CHECK(v.next(5) == 1);
  CHECK(v.next(1) == 2);
  v.touch(7, L::ActiveFg);  // the new foreground app
  CHECK(v.victim() == 5);
  v.demote_foreground();
  CHECK(v.size(L::InactiveFg) == 4);
}
