// Items by index in fixed chunks: an item never moves once put (a handler may hold a
// reference to one while more are put), freed slots are reused last-freed first. The
// timed queues keep their items here, and the firmware core its events' payloads
// (issue 18: a queued event is an index, not a copy of its largest payload).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace ufs {

template <class T>
class Slab {
 public:
  // A free slot's index (its item as last left); put() also stores `item` there.
  uint32_t take() {
    if (!free_.empty()) {
      const uint32_t index = free_.back();
      free_.pop_back();
      return index;
    }
    const uint32_t index = count_++;
    if ((index & kChunkMask) == 0) chunks_.emplace_back(new T[kChunk]);
    return index;
  }
  uint32_t put(const T& item) {
    const uint32_t index = take();
    (*this)[index] = item;
    return index;
  }
  void release(uint32_t index) { free_.push_back(index); }
  T& operator[](uint32_t index) { return chunks_[index >> kChunkBits][index & kChunkMask]; }
  const T& operator[](uint32_t index) const { return chunks_[index >> kChunkBits][index & kChunkMask]; }

 private:
  static constexpr uint32_t kChunkBits = 6, kChunk = 1u << kChunkBits, kChunkMask = kChunk - 1;
  std::vector<std::unique_ptr<T[]>> chunks_;
  uint32_t count_ = 0;  // slots made so far
  std::vector<uint32_t> free_;
};

}  // namespace ufs
