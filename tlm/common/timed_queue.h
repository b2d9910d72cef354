// A time-ordered queue of items delivered to a handler at their due time, with
// a single sc_event behind it. Models use it instead of one thread or event per
// outstanding item: an idle queue costs nothing, a busy one one wake-up per due time.
#pragma once
#include <systemc>
#include <functional>
#include <queue>
#include <vector>

namespace ufs {

template <class T>
class TimedQueue : public sc_core::sc_module {
 public:
  using Handler = std::function<void(T&)>;

  TimedQueue(sc_core::sc_module_name name, Handler handler)
      : sc_core::sc_module(name), handler_(std::move(handler)) {
    SC_METHOD(dispatch);
    sensitive << wake_;
    dont_initialize();
  }
  SC_HAS_PROCESS(TimedQueue);

  // Deliver item at absolute simulated time `at` (not before now).
  void push(const sc_core::sc_time& at, T item) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time due = at < now ? now : at;
    heap_.push(Entry{due, seq_++, std::move(item)});
    wake_.notify(due - now);  // an earlier pending notification wins, as SystemC defines
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

 private:
  struct Entry {
    sc_core::sc_time at;
    uint64_t seq;  // FIFO among equal times keeps runs deterministic
    T item;
    bool operator>(const Entry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void dispatch() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!heap_.empty() && heap_.top().at <= now) {
      T item = std::move(const_cast<Entry&>(heap_.top()).item);
      heap_.pop();
      handler_(item);
    }
    if (!heap_.empty()) wake_.notify(heap_.top().at - now);
  }
  Handler handler_;
  sc_core::sc_event wake_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  uint64_t seq_ = 0;
};

}  // namespace ufs
