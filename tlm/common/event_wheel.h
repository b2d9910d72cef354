// One event wheel for the platform's internal wake-ups (issue 18).
//
// Without it, every wake-up of a model (a TimedQueue's due time, the host's kick, the
// host interface's DATA IN engine, the crypto unit's batch and delivery) is an sc_event
// with its own SC_METHOD: a round trip through the SystemC kernel per hop (a timed
// notification allocated and queued, a time step, a process activation, an update phase).
// Attached to the wheel, each of them is a Client instead, and one SC_METHOD runs them all.
//
// Same results, not just the same times: when several wake-ups fall on the same instant,
// the order they run in decides e.g. which command a die serves first, so the wheel
// reproduces the SystemC 2.3.4 kernel's order exactly. Its timed queue is the kernel's
// sc_ppq (the same binary heap, compared on time only, with cancelled entries left in place
// until they surface), delta notifications are triggered in reverse order of notification
// as sc_simcontext::crunch does, and a notification replaces or keeps a pending one by
// sc_event::notify's rules. The golden runs (testbench/golden) are identical with and
// without the wheel.
//
// Run ahead (TLM-2.0's temporal decoupling): with set_run_ahead(true) the wheel does not go
// back to the kernel at each new time either. It advances its own clock through its wake-ups
// as long as they come before anything else the kernel has to do (the run controller's timed
// waits, an event a model notified through notify_kernel); at such an instant it runs one
// delta cycle and hands over, as the kernel would run the controller's thread after the
// methods of that delta. Models read the time with sim_now() (the wheel's clock while it
// runs), never sc_time_stamp(). Timed waits of other processes that share the kernel's
// queue are mirrored with kernel_timeout() so that the queue's shape, and with it the order
// of simultaneous wake-ups, stays the kernel's.
#pragma once
#include <systemc>
#include <cstdint>
#include <functional>
#include <vector>
#include "common/sim_time.h"

namespace ufs {

class EventWheel : public sc_core::sc_module {
 public:
  // A former sc_event with the one SC_METHOD sensitive to it.
  class Client {
   public:
    virtual ~Client() = default;
    virtual void wheel_wake() = 0;

   private:
    friend class EventWheel;
    enum class Pending : uint8_t { None, Delta, Timed };
    Pending pending_ = Pending::None;
    bool runnable_ = false;
    uint32_t timed_ = 0;      // slab index of its live timed entry
    uint32_t delta_index_ = 0;
  };

  explicit EventWheel(sc_core::sc_module_name name);
  SC_HAS_PROCESS(EventWheel);

  // Go ahead of the kernel's time (see above). Before the simulation starts.
  void set_run_ahead(bool on) { run_ahead_ = on; }
  bool run_ahead() const { return run_ahead_; }

  // sc_event::notify(delay) for client `c` (SC_ZERO_TIME: a delta notification).
  void notify(Client& c, const sc_core::sc_time& delay);
  // sc_event::cancel().
  void cancel(Client& c);

  // Notify an sc_event another process waits for, at the models' current time (a delta
  // notification when the wheel is not ahead of the kernel).
  void notify_kernel(sc_core::sc_event& e);

  // Another process waits until absolute time `at` in the kernel's timed queue: mirror it
  // (its place in the queue orders simultaneous wake-ups). Returns a handle for
  // cancel_kernel_timeout (the wait ended by an event first, so the kernel cancelled it).
  uint32_t kernel_timeout(const sc_core::sc_time& at);
  void cancel_kernel_timeout(uint32_t handle);

  uint64_t wakeups() const { return wakeups_; }
  uint64_t activations() const { return activations_; }

 private:
  static constexpr uint32_t kNone = ~0u;
  struct Timed {
    uint64_t at;
    Client* client;  // nullptr: cancelled (a dead entry, as the kernel's)
    bool phantom;    // another process's timeout (kernel_timeout)
  };
  // sc_ppq_base, entry for entry: 1-based heap of slab indices, strict comparisons. Each
  // heap slot carries its entry's time, so sifting compares without a trip to the slab.
  struct HeapSlot {
    uint64_t at;
    uint32_t e;
  };
  void heap_insert(uint32_t e);
  uint32_t heap_extract_top();
  void heapify(size_t i);
  uint32_t alloc_timed(uint64_t at, Client* c, bool phantom);
  void free_timed(uint32_t e) { free_.push_back(e); }

  void run();
  void pop_cancelled();
  void extract_due(uint64_t t);
  void trigger(Client* c);
  void sync_clock(uint64_t t);
  uint64_t kernel_limit() const;
  void arm_delta();
  void arm_at(uint64_t t);

  sc_core::sc_event wake_;
  std::vector<Timed> slab_;
  std::vector<uint32_t> free_;
  std::vector<HeapSlot> heap_{HeapSlot{0, 0}};  // heap_[0] unused
  std::vector<Client*> delta_;
  std::vector<Client*> runnable_;
  std::vector<Client*> batch_;
  uint64_t now_ = 0;               // the wheel's clock (ps)
  sc_core::sc_time now_time_;
  bool running_ = false;
  bool begun_ = true;              // the time step at now_ has begun (entries due extracted)
  bool run_ahead_ = false;
  bool limit_stale_ = false;
  uint64_t wakeups_ = 0, activations_ = 0;
};

// A wake-up with sc_event's notification rules: its own sc_event and SC_METHOD (a model
// used alone, as in unit tests), or a Client of the platform's EventWheel once attached.
class TimedWake : public sc_core::sc_module, private EventWheel::Client {
 public:
  using Handler = std::function<void()>;
  TimedWake(sc_core::sc_module_name name, Handler handler);
  SC_HAS_PROCESS(TimedWake);

  // From now on wake through `wheel` (before the simulation starts).
  void attach(EventWheel* wheel) { wheel_ = wheel; }
  EventWheel* wheel() const { return wheel_; }

  // sc_event::notify(delay) / cancel().
  void notify(const sc_core::sc_time& delay) {
    if (wheel_) wheel_->notify(*this, delay);
    else event_.notify(delay);
  }
  void cancel() {
    if (wheel_) wheel_->cancel(*this);
    else event_.cancel();
  }

 private:
  void wheel_wake() override { handler_(); }
  void fire() { handler_(); }

  Handler handler_;
  EventWheel* wheel_ = nullptr;
  sc_core::sc_event event_;
};

// ---- definitions (header-only: tlm/crypto is built without the rest of tlm) ----


inline EventWheel::EventWheel(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(run);
  sensitive << wake_;
  dont_initialize();
}

// ---- the kernel's timed queue (sc_ppq_base), entry for entry ------------------------

inline uint32_t EventWheel::alloc_timed(uint64_t at, Client* c, bool phantom) {
  uint32_t e;
  if (free_.empty()) {
    e = uint32_t(slab_.size());
    slab_.push_back(Timed{at, c, phantom});
  } else {
    e = free_.back();
    free_.pop_back();
    slab_[e] = Timed{at, c, phantom};
  }
  return e;
}

inline void EventWheel::heap_insert(uint32_t e) {
  const uint64_t at = slab_[e].at;
  heap_.push_back(HeapSlot{at, e});
  size_t i = heap_.size() - 1;
  while (i > 1 && heap_[i / 2].at > at) {
    heap_[i] = heap_[i / 2];
    i /= 2;
  }
  heap_[i] = HeapSlot{at, e};
}

inline uint32_t EventWheel::heap_extract_top() {
  const uint32_t top = heap_[1].e;
  heap_[1] = heap_.back();
  heap_.pop_back();
  heapify(1);
  return top;
}

inline void EventWheel::heapify(size_t i) {
  const size_t n = heap_.size() - 1;
  for (size_t l; l = 2 * i, l <= n;) {
    size_t smallest = heap_[l].at < heap_[i].at ? l : i;
    const size_t r = l + 1;
    if (r <= n && heap_[r].at < heap_[smallest].at) smallest = r;
    if (smallest == i) break;
    std::swap(heap_[i], heap_[smallest]);
    i = smallest;
  }
}

// ---- notifications (sc_event::notify / cancel) ---------------------------------------

inline void EventWheel::sync_clock(uint64_t t) {
  now_ = t;
  now_time_ = time_of_value(t);
}

inline void EventWheel::notify(Client& c, const sc_core::sc_time& delay) {
  // From another process (the kernel is where the wheel stopped, or later).
  if (!running_) {
    const uint64_t k = sc_core::sc_time_stamp().value();
    if (k > now_) {
      sync_clock(k);
      begun_ = false;
    }
  }
  if (c.pending_ == Client::Pending::Delta) return;
  if (delay == sc_core::SC_ZERO_TIME) {
    if (c.pending_ == Client::Pending::Timed) slab_[c.timed_].client = nullptr;
    c.delta_index_ = uint32_t(delta_.size());
    delta_.push_back(&c);
    c.pending_ = Client::Pending::Delta;
    if (!running_) arm_delta();
    return;
  }
  const uint64_t at = now_ + delay.value();
  if (c.pending_ == Client::Pending::Timed) {
    if (slab_[c.timed_].at <= at) return;
    slab_[c.timed_].client = nullptr;
  }
  c.timed_ = alloc_timed(at, &c, false);
  heap_insert(c.timed_);
  c.pending_ = Client::Pending::Timed;
  if (!running_) arm_at(heap_.size() > 1 ? heap_[1].at : at);
}

inline void EventWheel::cancel(Client& c) {
  if (c.pending_ == Client::Pending::Delta) {
    // sc_simcontext::remove_delta_event: the last one takes its place.
    const uint32_t i = c.delta_index_;
    delta_[i] = delta_.back();
    delta_[i]->delta_index_ = i;
    delta_.pop_back();
  } else if (c.pending_ == Client::Pending::Timed) {
    slab_[c.timed_].client = nullptr;
  }
  c.pending_ = Client::Pending::None;
}

inline void EventWheel::notify_kernel(sc_core::sc_event& e) {
  const uint64_t k = sc_core::sc_time_stamp().value();
  if (now_ > k) e.notify(time_of_value(now_ - k));
  else e.notify(sc_core::SC_ZERO_TIME);
  limit_stale_ = true;
}

inline uint32_t EventWheel::kernel_timeout(const sc_core::sc_time& at) {
  const uint64_t k = sc_core::sc_time_stamp().value();
  if (!running_ && k > now_) {
    sync_clock(k);
    begun_ = false;
  }
  const uint32_t e = alloc_timed(at.value(), nullptr, true);
  heap_insert(e);
  return e;
}

inline void EventWheel::cancel_kernel_timeout(uint32_t handle) {
  // Now a cancelled entry (the handle is not reused before it leaves the queue).
  if (handle < slab_.size() && slab_[handle].phantom) slab_[handle].phantom = false;
}

// ---- the scheduler --------------------------------------------------------------------

inline void EventWheel::trigger(Client* c) {
  c->pending_ = Client::Pending::None;
  if (c->runnable_) return;
  c->runnable_ = true;
  runnable_.push_back(c);
}

inline void EventWheel::arm_delta() { wake_.notify(sc_core::SC_ZERO_TIME); }

inline void EventWheel::arm_at(uint64_t t) {
  const uint64_t k = sc_core::sc_time_stamp().value();
  if (t > k) wake_.notify(time_of_value(t - k));
  else wake_.notify(sc_core::SC_ZERO_TIME);
}

// Absolute time of the kernel's next activity other than the wheel (now: something
// runs at the current time, e.g. the controller's thread after this delta).
inline uint64_t EventWheel::kernel_limit() const {
  const uint64_t k = sc_core::sc_time_stamp().value();
  const uint64_t d = sc_core::sc_time_to_pending_activity().value();
  return d > ~0ull - k ? ~0ull : k + d;
}

// One activation: delta cycles and time steps of the models, as sc_simcontext::crunch and
// simulate would run them, until the kernel has something of its own to do.
inline void EventWheel::run() {
  ++activations_;
  wake_.cancel();
  const uint64_t kernel_now = sc_core::sc_time_stamp().value();
  if (kernel_now > now_) {
    sync_clock(kernel_now);  // the kernel's time step at the old instant is over
    begun_ = false;
  }
  running_ = true;
  sim_time_detail::g_wheel_now = &now_time_;
  uint64_t limit = kernel_limit();
  limit_stale_ = false;
  for (;;) {
    if (!begun_) {
      // The time step at now_ begins (next_time: cancelled entries at the top go; then
      // every entry due now triggers, in heap order), before the kernel's own processes
      // at this instant: methods run before threads.
      pop_cancelled();
      if (heap_.size() > 1 && heap_[1].at == now_) extract_due(now_);
      begun_ = true;
    }
    // Notification phase (also of deltas notified from outside since the last activation).
    if (!delta_.empty()) {
      for (size_t i = delta_.size(); i-- > 0;) trigger(delta_[i]);
      delta_.clear();
    }
    if (!runnable_.empty()) {
      // Evaluation phase: one delta cycle. Processes made runnable now run in the next.
      batch_.swap(runnable_);
      for (Client* c : batch_) {
        c->runnable_ = false;
        ++wakeups_;
        c->wheel_wake();
      }
      batch_.clear();
      if (limit_stale_) {
        limit = kernel_limit();
        limit_stale_ = false;
      }
      if (limit <= now_) {
        // The kernel runs something at this instant after this delta (the controller's
        // thread): hand over; the next delta continues in the kernel's next delta.
        if (!delta_.empty()) {
          if (now_ > kernel_now) arm_at(now_);
          else arm_delta();
        } else if (heap_.size() > 1) {
          arm_at(heap_[1].at);
        }
        break;
      }
      continue;
    }
    // This instant is over for the models. While the kernel still has something at it,
    // the queue stays as it is (its time step has not ended).
    if (limit <= now_) {
      if (heap_.size() > 1) arm_at(heap_[1].at);
      break;
    }
    pop_cancelled();
    if (heap_.size() <= 1) break;
    const uint64_t t = heap_[1].at;
    if (!run_ahead_ || t >= limit) {
      arm_at(t);
      break;
    }
    sync_clock(t);  // run ahead of the kernel
    extract_due(t);
  }
  running_ = false;
  sim_time_detail::g_wheel_now = nullptr;
}

inline void EventWheel::pop_cancelled() {
  while (heap_.size() > 1 && !slab_[heap_[1].e].client && !slab_[heap_[1].e].phantom) free_timed(heap_extract_top());
}

inline void EventWheel::extract_due(uint64_t t) {
  do {
    const uint32_t e = heap_extract_top();
    Client* c = slab_[e].client;
    free_timed(e);
    if (c) trigger(c);
  } while (heap_.size() > 1 && heap_[1].at == t);
}

// ---- TimedWake --------------------------------------------------------------------------

inline TimedWake::TimedWake(sc_core::sc_module_name name, Handler handler)
    : sc_core::sc_module(name), handler_(std::move(handler)) {
  SC_METHOD(fire);
  sensitive << event_;
  dont_initialize();
}

}  // namespace ufs
