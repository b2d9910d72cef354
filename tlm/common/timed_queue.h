// A time-ordered queue of items delivered to a handler at their due time. Models use it
// instead of one thread or event per outstanding item: an idle queue costs nothing.
// Alone (unit tests) it orders its items in its own heap behind one sc_event: a busy queue
// costs one wake-up per due time. Attached to the platform's EventWheel, each item goes
// into the wheel's heap itself and the wheel delivers it (issue 18: one heap per item).
// Items live in a slab of fixed chunks (an item is handed to the handler where it lies:
// no copy out, and pushes from the handler never move it) and the heap orders small
// (time, seq, index) records, so large items are not moved around by the heap.
//
// The handler is a template parameter (issue 18): the hot queues name a small functor that
// calls their model's member directly, so a delivery is a direct call, not std::function's.
// Order: (due time, push order), a strict total order, so any heap gives the same sequence.
// Alone, an instant's items are delivered together; in the wheel, among everything else
// due at that instant in the wheel's order, and an item due now in the next delta cycle.
#pragma once
#include <systemc>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>
#include "common/min_heap.h"
#include "common/event_wheel.h"
#include "common/sim_time.h"
#include "common/slab.h"

namespace ufs {

template <class T, class Handler = std::function<void(T&)>>
class TimedQueue : public sc_core::sc_module, private EventWheel::Client {
 public:
  TimedQueue(sc_core::sc_module_name name, Handler handler)
      : sc_core::sc_module(name), handler_(std::move(handler)) {
    SC_METHOD(dispatch);
    sensitive << event_;
    dont_initialize();
  }
  SC_HAS_PROCESS(TimedQueue);

  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel) { wheel_ = wheel; }

  // Deliver item at absolute simulated time `at` (not before now).
  void push(const sc_core::sc_time& at, const T& item) {
    const uint32_t index = items_.put(item);
    ++size_;
    if (wheel_) {
      wheel_->schedule(*this, at.value(), index);
      return;
    }
    const sc_core::sc_time& now = sim_now();
    const uint64_t due = at < now ? now.value() : at.value();
    heap_push(Entry{due, seq_++, index});
    // Re-arm only when this item is due before the wake-up already set (and not while
    // dispatching, which re-arms at its end): a notification per push would pile
    // cancelled entries into the kernel's own queue.
    if (!dispatching_ && (!armed_ || due < armed_at_)) arm(due, now.value());
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // True when an item is due now or earlier and not yet delivered.
  bool due_now() {
    if (!wheel_) return !heap_.empty() && heap_[0].at <= sim_now().value();
    wheel_->catch_up();
    return items_ready() != 0;
  }

 private:
  struct Entry {
    uint64_t at;
    uint64_t seq;  // FIFO among equal times keeps runs deterministic
    uint32_t index;
  };

  void heap_push(const Entry& e) { min_heap_push(heap_, e); }
  void heap_pop() { min_heap_pop(heap_); }

  void arm(uint64_t due, uint64_t now) {
    armed_ = true;
    armed_at_ = due;
    const sc_core::sc_time delay = time_of_value(due - now);
    event_.notify(delay);
  }
  void wheel_wake() override {}  // attached, the queue is never notified: the wheel hands
                                 // it its items (wheel_item)
  void wheel_item(uint32_t index) override {
    handler_(items_[index]);  // may push more (never into this slot)
    items_.release(index);
    --size_;
  }
  void dispatch() {
    const uint64_t now = sim_now().value();
    armed_ = false;
    dispatching_ = true;
    while (!heap_.empty() && heap_[0].at <= now) {
      const uint32_t index = heap_[0].index;
      heap_pop();
      handler_(items_[index]);  // may push more, due now or later (never into this slot)
      items_.release(index);
      --size_;
    }
    dispatching_ = false;
    if (!heap_.empty()) arm(heap_[0].at, now);
  }

  Handler handler_;
  EventWheel* wheel_ = nullptr;
  sc_core::sc_event event_;
  std::vector<Entry> heap_;
  Slab<T> items_;
  size_t size_ = 0;  // items not yet delivered
  uint64_t seq_ = 0;
  bool armed_ = false;   // a wake-up is pending ...
  uint64_t armed_at_ = 0;  // ... for this time (ps)
  bool dispatching_ = false;
};

}  // namespace ufs
