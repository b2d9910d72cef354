// A pool of equal-sized nodes for a node-based container (std::map, std::set) the firmware
// updates on a hot path: an erased node goes on a free list and the next insert takes it
// back, so neither costs a walk of the C library's heap. (picolibc's malloc keeps one
// address-ordered free list that malloc and free both walk: with the firmware's many
// small blocks an insert or erase of a map node cost thousands of instructions on the
// core; a controller keeps such a table in a preallocated SRAM region.) Nodes the pool
// took from the heap stay with it; the container's other allocations (none for std::map)
// go to the heap as usual.
#pragma once
#include <cstddef>
#include <new>
#include <vector>

namespace ufs {

class NodePool {
 public:
  // `reserve`: nodes the free list can hold without growing.
  explicit NodePool(size_t reserve = 0) { free_.reserve(reserve); }
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;
  ~NodePool() {
    for (void* p : free_) ::operator delete(p);
  }

  void* take(size_t bytes) {
    if (bytes == node_bytes_ && !free_.empty()) {
      void* p = free_.back();
      free_.pop_back();
      return p;
    }
    if (node_bytes_ == 0) node_bytes_ = bytes;  // the first allocation is the container's node
    return ::operator new(bytes);
  }
  void give(void* p, size_t bytes) {
    if (bytes == node_bytes_) free_.push_back(p);
    else ::operator delete(p);
  }
  size_t free_nodes() const { return free_.size(); }

 private:
  size_t node_bytes_ = 0;
  std::vector<void*> free_;
};

// The allocator a container takes to use a NodePool (which must outlive the container).
template <class T>
struct NodePoolAllocator {
  using value_type = T;
  NodePool* pool;
  explicit NodePoolAllocator(NodePool* p) : pool(p) {}
  template <class U>
  NodePoolAllocator(const NodePoolAllocator<U>& o) : pool(o.pool) {}
  T* allocate(size_t n) { return static_cast<T*>(pool->take(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { pool->give(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const NodePoolAllocator<U>& o) const { return pool == o.pool; }
  template <class U>
  bool operator!=(const NodePoolAllocator<U>& o) const { return pool != o.pool; }
};

}  // namespace ufs
