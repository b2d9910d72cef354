// One event wheel for the platform's internal wake-ups (issue 18).
//
// Without it, every wake-up of a model (a TimedQueue's due time, the host's kick, the
// host interface's DATA IN engine, the crypto unit's batch and delivery) is an sc_event
// with its own SC_METHOD: a round trip through the SystemC kernel per hop (a timed
// notification allocated and queued, a time step, a process activation, an update phase).
// Attached to the wheel, each of them is a Client instead, and one SC_METHOD runs them all.
// A TimedQueue's items go into the wheel's heap themselves (schedule): one heap per item,
// not the queue's own and then the wheel's for the queue's next due time.
//
// Order: what is due at one instant runs in the order it was notified or scheduled (the
// heap orders (time, sequence number), a strict total order: the heap's shape plays no
// part). Delta notifications are triggered in reverse order of notification, as
// sc_simcontext::crunch does, and a notification replaces or keeps a pending one by
// sc_event::notify's rules. (Until session 20 the wheel reproduced the kernel's order for
// equal times, which follows sc_ppq's heap shape, and each queue delivered its items of an
// instant together; the golden figures moved once with this change.)
//
// Run ahead (TLM-2.0's temporal decoupling): with set_run_ahead(true) the wheel does not go
// back to the kernel at each new time either. It advances its own clock through its wake-ups
// as long as they come before anything else the kernel has to do (the run controller's timed
// waits, an event a model notified through notify_kernel); at such an instant it runs one
// delta cycle and hands over, as the kernel would run the controller's thread after the
// methods of that delta. Models read the time with sim_now() (the wheel's clock while it
// runs), never sc_time_stamp().
#pragma once
#include <systemc>
#include <cstdint>
#include <functional>
#include <vector>
#include "common/min_heap.h"
#include "common/sim_time.h"

namespace ufs {

class EventWheel : public sc_core::sc_module {
 public:
  // A former sc_event with the one SC_METHOD sensitive to it (wheel_wake), or a queue
  // whose items the wheel delivers one by one (wheel_item).
  class Client {
   public:
    virtual ~Client() = default;
    virtual void wheel_wake() = 0;
    virtual void wheel_item(uint32_t) {}  // only clients that schedule() items get these

   protected:
    // Items of this client due now or earlier, not yet delivered.
    uint32_t items_ready() const { return items_ready_; }

   private:
    friend class EventWheel;
    enum class Pending : uint8_t { None, Delta, Timed };
    Pending pending_ = Pending::None;
    bool runnable_ = false;
    uint32_t delta_index_ = 0;
    uint32_t items_ready_ = 0;
    uint64_t timed_at_ = 0;   // its live timed notification: time ...
    uint64_t timed_seq_ = 0;  // ... and heap entry (older entries of it are dead)
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

  // Deliver item `arg` of client `c` (c.wheel_item(arg)) at absolute time `at` in ps; an
  // item due now or earlier runs in the next delta cycle. Unlike a notification, every
  // item is delivered, once.
  void schedule(Client& c, uint64_t at, uint32_t arg);

  // From another process: bring the wheel's clock to the kernel's (the time step there
  // begins: what is due then becomes runnable). Models running in the wheel need not.
  void catch_up() {
    if (!running_ && sc_core::sc_time_stamp().value() > now_) {
      begin_step();
      if (!runnable_.empty()) arm_delta();
    }
  }

  // Notify an sc_event another process waits for, at the models' current time (a delta
  // notification when the wheel is not ahead of the kernel).
  void notify_kernel(sc_core::sc_event& e);

  uint64_t wakeups() const { return wakeups_; }
  uint64_t activations() const { return activations_; }

 private:
  static constexpr uint32_t kWake = ~0u;  // arg of a notification's entry (not an item)
  // Binary heap on (at, seq). A notification's entry is dead once its client's live
  // notification is another one (cancelled, replaced by an earlier or a delta one).
  struct HeapSlot {
    uint64_t at;
    uint64_t seq;
    Client* client;
    uint32_t arg;
  };
  struct Run {
    Client* client;
    uint32_t arg;  // kWake: wheel_wake()
  };
  static bool dead(const HeapSlot& h) {
    return h.arg == kWake && (h.client->pending_ != Client::Pending::Timed || h.client->timed_seq_ != h.seq);
  }
  void heap_push(const HeapSlot& e);
  void heap_pop();

  void run();
  void begin_step();
  void pop_cancelled();
  void extract_due(uint64_t t);
  bool run_lone_due(uint64_t t);
  void trigger(Client* c);
  void ready(Client* c, uint32_t arg) {
    ++c->items_ready_;
    runnable_.push_back(Run{c, arg});
  }
  void sync_clock(uint64_t t);
  uint64_t kernel_limit() const;
  void arm_delta();
  void arm_at(uint64_t t);

  sc_core::sc_event wake_;
  std::vector<HeapSlot> heap_;
  uint64_t seq_ = 0;
  std::vector<Client*> delta_;
  std::vector<Run> runnable_;
  std::vector<Run> batch_;
  uint64_t now_ = 0;               // the wheel's clock (ps)
  sc_core::sc_time now_time_;
  bool running_ = false;
  bool run_ahead_ = false;
  bool limit_stale_ = false;
  bool top_spent_ = false;  // heap_[0] is the lone entry running (run_lone_due)
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

// ---- the heap ------------------------------------------------------------------------

// While a lone due entry runs, its slot is still the heap's top (top_spent_): the first
// entry its handler adds takes that slot in one pass (min_heap_replace_top), instead of a
// pop before the handler and a push in it.
inline void EventWheel::heap_push(const HeapSlot& e) {
  if (top_spent_) {
    top_spent_ = false;
    min_heap_replace_top(heap_, e);
    return;
  }
  min_heap_push(heap_, e);
}

inline void EventWheel::heap_pop() { min_heap_pop(heap_); }

// ---- notifications (sc_event::notify / cancel) and items ------------------------------

inline void EventWheel::sync_clock(uint64_t t) {
  now_ = t;
  now_time_ = time_of_value(t);
}

inline void EventWheel::notify(Client& c, const sc_core::sc_time& delay) {
  catch_up();  // from another process: the kernel is where the wheel stopped, or later
  if (c.pending_ == Client::Pending::Delta) return;
  if (delay == sc_core::SC_ZERO_TIME) {
    c.delta_index_ = uint32_t(delta_.size());
    delta_.push_back(&c);
    c.pending_ = Client::Pending::Delta;  // a timed entry of it is dead now
    if (!running_) arm_delta();
    return;
  }
  const uint64_t at = now_ + delay.value();
  if (c.pending_ == Client::Pending::Timed && c.timed_at_ <= at) return;
  const uint64_t seq = seq_++;
  c.timed_at_ = at;
  c.timed_seq_ = seq;
  c.pending_ = Client::Pending::Timed;
  heap_push(HeapSlot{at, seq, &c, kWake});
  if (!running_ && heap_[0].seq == seq) arm_at(at);
}

inline void EventWheel::cancel(Client& c) {
  if (c.pending_ == Client::Pending::Delta) {
    // sc_simcontext::remove_delta_event: the last one takes its place.
    const uint32_t i = c.delta_index_;
    delta_[i] = delta_.back();
    delta_[i]->delta_index_ = i;
    delta_.pop_back();
  }
  c.pending_ = Client::Pending::None;  // a timed entry of it is dead now
}

inline void EventWheel::schedule(Client& c, uint64_t at, uint32_t arg) {
  catch_up();
  if (at <= now_) {
    ready(&c, arg);
    if (!running_) arm_delta();
    return;
  }
  const uint64_t seq = seq_++;
  heap_push(HeapSlot{at, seq, &c, arg});
  if (!running_ && heap_[0].seq == seq) arm_at(at);
}

inline void EventWheel::notify_kernel(sc_core::sc_event& e) {
  const uint64_t k = sc_core::sc_time_stamp().value();
  if (now_ > k) e.notify(time_of_value(now_ - k));
  else e.notify(sc_core::SC_ZERO_TIME);
  limit_stale_ = true;
}

// ---- the scheduler --------------------------------------------------------------------

inline void EventWheel::trigger(Client* c) {
  c->pending_ = Client::Pending::None;
  if (c->runnable_) return;
  c->runnable_ = true;
  runnable_.push_back(Run{c, kWake});
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

// The wheel's clock moves to the kernel's time (the kernel's time step at the old instant
// is over) and the time step there begins: every entry due then becomes runnable, before
// what is notified at that instant (methods run before threads).
inline void EventWheel::begin_step() {
  sync_clock(sc_core::sc_time_stamp().value());
  pop_cancelled();
  if (!heap_.empty() && heap_[0].at == now_) extract_due(now_);
}

// One activation: delta cycles and time steps of the models, as sc_simcontext::crunch and
// simulate would run them, until the kernel has something of its own to do.
inline void EventWheel::run() {
  ++activations_;
  wake_.cancel();
  const uint64_t kernel_now = sc_core::sc_time_stamp().value();
  if (kernel_now > now_) begin_step();
  running_ = true;
  sim_time_detail::g_wheel_now = &now_time_;
  uint64_t limit = kernel_limit();
  limit_stale_ = false;
  for (;;) {
    // Notification phase (also of deltas notified from outside since the last activation).
    if (!delta_.empty()) {
      for (size_t i = delta_.size(); i-- > 0;) trigger(delta_[i]);
      delta_.clear();
    }
    if (!runnable_.empty()) {
      // Evaluation phase: one delta cycle. What becomes runnable now runs in the next.
      batch_.swap(runnable_);
      for (const Run& r : batch_) {
        Client* c = r.client;
        ++wakeups_;
        if (r.arg == kWake) {
          c->runnable_ = false;
          c->wheel_wake();
        } else {
          --c->items_ready_;
          c->wheel_item(r.arg);
        }
      }
      batch_.clear();
    } else {
      // This instant is over for the models. While the kernel still has something at it,
      // the wheel waits for the kernel's next time step.
      pop_cancelled();
      if (heap_.empty()) break;
      const uint64_t t = heap_[0].at;
      if (limit <= now_ || !run_ahead_ || t >= limit) {
        arm_at(t);
        break;
      }
      sync_clock(t);  // run ahead of the kernel
      if (!run_lone_due(t)) {
        extract_due(t);  // several entries due at t: they run together in the next delta
        continue;
      }
    }
    // After a delta cycle.
    if (limit_stale_) {
      limit = kernel_limit();
      limit_stale_ = false;
    }
    if (limit <= now_) {
      // The kernel runs something at this instant after this delta (the controller's
      // thread): hand over; the next delta continues in the kernel's next delta.
      if (!delta_.empty() || !runnable_.empty()) {
        if (now_ > kernel_now) arm_at(now_);
        else arm_delta();
      } else {
        pop_cancelled();
        if (!heap_.empty()) arm_at(heap_[0].at);
      }
      break;
    }
  }
  running_ = false;
  sim_time_detail::g_wheel_now = nullptr;
}

inline void EventWheel::pop_cancelled() {
  while (!heap_.empty() && dead(heap_[0])) heap_pop();
}

// The heap's top (live, due at t, nothing runnable) when no other entry is due at t, as at
// 93% of the instants in bench: it runs at once as the delta cycle's only process, without
// staging through runnable_ (issue 18: the same order, ~35 instructions fewer per entry).
// Returns false, leaving the heap as it was, when another entry is due at t too.
inline bool EventWheel::run_lone_due(uint64_t t) {
  // The second entry in (at, seq) order is one of the top's children.
  const size_t n = heap_.size();
  if ((n > 1 && heap_[1].at == t) || (n > 2 && heap_[2].at == t)) return false;
  const HeapSlot top = heap_[0];
  top_spent_ = true;  // heap_push: the first entry the handler adds takes its place
  Client* c = top.client;
  ++wakeups_;
  if (top.arg == kWake) {
    c->pending_ = Client::Pending::None;  // trigger(): it was not runnable
    c->wheel_wake();
  } else {
    c->wheel_item(top.arg);
  }
  if (top_spent_) {
    top_spent_ = false;
    heap_pop();
  }
  return true;
}

inline void EventWheel::extract_due(uint64_t t) {
  do {
    const HeapSlot top = heap_[0];
    heap_pop();
    if (top.arg != kWake) ready(top.client, top.arg);
    else if (!dead(top)) trigger(top.client);
  } while (!heap_.empty() && heap_[0].at == t);
}

// ---- TimedWake --------------------------------------------------------------------------

inline TimedWake::TimedWake(sc_core::sc_module_name name, Handler handler)
    : sc_core::sc_module(name), handler_(std::move(handler)) {
  SC_METHOD(fire);
  sensitive << event_;
  dont_initialize();
}

}  // namespace ufs
