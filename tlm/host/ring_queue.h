// A FIFO over a power-of-two ring that only allocates when it grows: the host's
// software queues use it so the steady state costs no heap allocation per request.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace ufs {

template <class T>
class RingQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  void push(T item) {
    if (size_ == items_.size()) grow();
    items_[(head_ + size_) & (items_.size() - 1)] = std::move(item);
    ++size_;
  }
  void pop() {
    head_ = (head_ + 1) & (items_.size() - 1);
    --size_;
  }

 private:
  void grow() {
    std::vector<T> bigger(items_.empty() ? 16 : items_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move(items_[(head_ + i) & (items_.size() - 1)]);
    items_ = std::move(bigger);
    head_ = 0;
  }
  std::vector<T> items_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace ufs
