// The demux's time-ordered event queue: like common/timed_queue.h, but it asks the
// kernel for a wake-up only when the earliest due time moves earlier, and never
// while it is dispatching (it re-arms once at the end). Every kernel notification
// costs a timed-queue insert, and a cancelled one lingers in the kernel's heap, so
// this keeps the demux at one kernel wake-up per distinct due time.
#pragma once
#include <systemc>
#include <cstdint>
#include <queue>
#include <vector>

namespace ufs {

template <class T>
class FlashEventQueue : public sc_core::sc_module {
 public:
  using Handler = void (*)(void* context, T& item);

  FlashEventQueue(sc_core::sc_module_name name, Handler handler, void* context)
      : sc_core::sc_module(name), handler_(handler), context_(context) {
    SC_METHOD(dispatch);
    sensitive << wake_;
    dont_initialize();
  }
  SC_HAS_PROCESS(FlashEventQueue);

  // Deliver item at absolute time `at` (not before now).
  void push(const sc_core::sc_time& at, const T& item) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time due = at < now ? now : at;
    heap_.push(Entry{due, seq_++, item});
    if (!dispatching_ && (!armed_ || due < armed_at_)) arm(due, now);
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
  void arm(const sc_core::sc_time& due, const sc_core::sc_time& now) {
    armed_ = true;
    armed_at_ = due;
    wake_.notify(due - now);
  }
  void dispatch() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    armed_ = false;
    dispatching_ = true;
    while (!heap_.empty() && heap_.top().at <= now) {
      T item = heap_.top().item;
      heap_.pop();
      handler_(context_, item);
    }
    dispatching_ = false;
    if (!heap_.empty()) arm(heap_.top().at, now);
  }

  Handler handler_;
  void* context_;
  sc_core::sc_event wake_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  uint64_t seq_ = 0;
  bool armed_ = false;
  bool dispatching_ = false;
  sc_core::sc_time armed_at_;
};

}  // namespace ufs
