#include "host/hpbvalve_lists.h"

namespace ufs {

HpbValveLists::HpbValveLists(uint32_t subregions) : nodes_(subregions) {}

void HpbValveLists::unlink(uint32_t s) {
  Node& n = nodes_[s];
  Head& h = heads_[idx(n.list)];
  if (n.prev != kNil) nodes_[n.prev].next = n.next; else h.first = n.next;
  if (n.next != kNil) nodes_[n.next].prev = n.prev; else h.last = n.prev;
  --h.size;
  n.prev = n.next = kNil;
  n.list = List::None;
}

void HpbValveLists::touch(uint32_t s, List l) {
  if (l == List::None) { remove(s); return; }
  if (nodes_[s].list != List::None) unlink(s);
  Node& n = nodes_[s];
  Head& h = heads_[idx(l)];
  n.list = l;
  n.prev = h.last;
  n.next = kNil;
  if (h.last != kNil) nodes_[h.last].next = s; else h.first = s;
  h.last = s;
  ++h.size;
}

void HpbValveLists::remove(uint32_t s) {
  if (nodes_[s].list != List::None) unlink(s);
}

uint32_t HpbValveLists::victim() const {
  if (heads_[idx(List::Background)].first != kNil) return heads_[idx(List::Background)].first;
  return heads_[idx(List::InactiveFg)].first;
}

void HpbValveLists::demote_foreground() {
  Head& a = heads_[idx(List::ActiveFg)];
  if (a.first == kNil) return;
  Head& i = heads_[idx(List::InactiveFg)];
  // The links splice in O(1); the moved nodes are retagged (no allocation).
  for (uint32_t s = a.first; s != kNil; s = nodes_[s].next) nodes_[s].list = List::InactiveFg;
  if (i.last != kNil) { nodes_[i.last].next = a.first; nodes_[a.first].prev = i.last; } else i.first = a.first;
  i.last = a.last;
  i.size += a.size;
  a = Head{};
}

}  // namespace ufs
