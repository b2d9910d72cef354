// A time-ordered queue of items delivered to a handler at their due time, with
// a single wake-up behind it (its own sc_event, or the platform's EventWheel once attached). Models use it instead of one thread or event per
// outstanding item: an idle queue costs nothing, a busy one one wake-up per due time.
// Items live in a slab and the heap orders small (time, seq, index) records, so
// large items are not moved around by the heap.
#pragma once
#include <systemc>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>
#include "common/event_wheel.h"
#include "common/sim_time.h"

namespace ufs {

template <class T>
class TimedQueue : public sc_core::sc_module {
 public:
  using Handler = std::function<void(T&)>;

  TimedQueue(sc_core::sc_module_name name, Handler handler)
      : sc_core::sc_module(name), handler_(std::move(handler)), wake_("wake", [this] { dispatch(); }) {}

  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel) { wake_.attach(wheel); }

  // Deliver item at absolute simulated time `at` (not before now).
  void push(const sc_core::sc_time& at, T item) {
    const sc_core::sc_time now = sim_now();
    const sc_core::sc_time due = at < now ? now : at;
    uint32_t index;
    if (free_.empty()) {
      index = static_cast<uint32_t>(items_.size());
      items_.push_back(std::move(item));
    } else {
      index = free_.back();
      free_.pop_back();
      items_[index] = std::move(item);
    }
    heap_.push(Entry{due, seq_++, index});
    // Re-arm only when this item is due before the wake-up already set (and not while
    // dispatching, which re-arms at its end): a notification per push would pile
    // cancelled entries into the kernel's own queue.
    if (!dispatching_ && (!armed_ || due < armed_at_)) arm(due, now);
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // True when an item is due at or before `t` (delivered or not yet).
  bool due_by(const sc_core::sc_time& t) const { return !heap_.empty() && heap_.top().at <= t; }

 private:
  struct Entry {
    sc_core::sc_time at;
    uint64_t seq;  // FIFO among equal times keeps runs deterministic
    uint32_t index;
    bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void arm(const sc_core::sc_time& due, const sc_core::sc_time& now) {
    armed_ = true;
    armed_at_ = due;
    wake_.notify(due - now);
  }
  void dispatch() {
    const sc_core::sc_time now = sim_now();
    armed_ = false;
    dispatching_ = true;
    while (!heap_.empty() && heap_.top().at <= now) {
      const uint32_t index = heap_.top().index;
      heap_.pop();
      T item = std::move(items_[index]);
      free_.push_back(index);
      handler_(item);  // may push more, due now or later
    }
    dispatching_ = false;
    if (!heap_.empty()) arm(heap_.top().at, now);
  }

  Handler handler_;
  TimedWake wake_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  std::vector<T> items_;
  std::vector<uint32_t> free_;
  uint64_t seq_ = 0;
  bool armed_ = false;          // wake_ has a pending notification ...
  sc_core::sc_time armed_at_;   // ... for this time
  bool dispatching_ = false;
};

}  // namespace ufs
