// The min-heap shared by the event wheel and the timed queues: entries ordered by (at, seq),
// a strict total order, so any heap shape pops the same sequence. Sift with a hole rather
// than swaps: both callers are on the per-I/O hot path (issue 18). A pop (what a bench I/O
// pays most for in the wheel: 8.7 entries per I/O) takes Floyd's bottom-up path: the hole
// goes down to a leaf along the smaller children (one comparison per level), then the last
// entry climbs back from there (it came from the bottom, so it rarely climbs): about half
// the comparisons of sifting it down from the root. (Four children per node was tried: more
// comparisons per pop, slower.)
#pragma once
#include <cstddef>
#include <vector>

namespace ufs {

template <class Entry>
inline bool min_heap_before(const Entry& a, const Entry& b) {
  return a.at != b.at ? a.at < b.at : a.seq < b.seq;
}

template <class Entry>
inline void min_heap_push(std::vector<Entry>& heap, const Entry& e) {
  heap.push_back(e);
  size_t i = heap.size() - 1;
  while (i > 0) {
    const size_t p = (i - 1) / 2;
    if (!min_heap_before(e, heap[p])) break;
    heap[i] = heap[p];
    i = p;
  }
  heap[i] = e;
}

// Puts `e` into the hole at heap[0] (heap[0]'s entry is gone; the others form a heap).
template <class Entry>
inline void min_heap_fill_root(std::vector<Entry>& heap, const Entry& e) {
  const size_t n = heap.size();
  // The hole at the root goes down to a leaf, the smaller child moving up each level.
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && min_heap_before(heap[c + 1], heap[c])) ++c;
    heap[i] = heap[c];
    i = c;
  }
  // `e` goes into the hole, climbing while it comes before its parent.
  while (i > 0) {
    const size_t p = (i - 1) / 2;
    if (!min_heap_before(e, heap[p])) break;
    heap[i] = heap[p];
    i = p;
  }
  heap[i] = e;
}

// Removes heap[0].
template <class Entry>
inline void min_heap_pop(std::vector<Entry>& heap) {
  const Entry last = heap.back();
  heap.pop_back();
  if (!heap.empty()) min_heap_fill_root(heap, last);
}

// Removes heap[0] and adds `e`: one pass where a pop and a push take two. `e` sifts down
// from the root (two comparisons per level, stopping early) rather than by Floyd's path:
// the wheel's use (the first entry a lone due entry's handler adds) is often due soon and
// belongs near the top, where Floyd's would go down to a leaf and climb back (bench: 101
// instructions per I/O more).
template <class Entry>
inline void min_heap_replace_top(std::vector<Entry>& heap, const Entry& e) {
  const size_t n = heap.size();
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && min_heap_before(heap[c + 1], heap[c])) ++c;
    if (!min_heap_before(heap[c], e)) break;
    heap[i] = heap[c];
    i = c;
  }
  heap[i] = e;
}

}  // namespace ufs
