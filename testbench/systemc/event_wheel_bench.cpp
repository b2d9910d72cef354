// EventWheel with TimedQueues attached (their items in the wheel's heap) and a TimedWake:
// what is due at one instant runs in the order it was scheduled or notified, whichever
// queue it belongs to; an item due now runs in the next delta cycle of the same instant.
#include <catch2/catch.hpp>
#include <systemc>
#include <string>
#include <vector>
#include "common/event_wheel.h"
#include "common/timed_queue.h"

using namespace ufs;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

struct Log {
  std::vector<std::string> seen;
  void note(const std::string& what) {
    seen.push_back(what + "@" + std::to_string(uint64_t(sim_now().to_seconds() * 1e9 + 0.5)));
  }
};

struct Rig : sc_core::sc_module {
  EventWheel wheel{"wheel"};
  Log log;
  TimedQueue<int> a{"a", [this](int& v) { on_a(v); }};
  TimedQueue<int> b{"b", [this](int& v) { log.note("b" + std::to_string(v)); }};
  TimedWake kick{"kick", [this] { log.note("kick"); }};
  SC_HAS_PROCESS(Rig);
  explicit Rig(sc_core::sc_module_name name, bool run_ahead) : sc_core::sc_module(name) {
    wheel.set_run_ahead(run_ahead);
    a.attach(&wheel);
    b.attach(&wheel);
    kick.attach(&wheel);
    SC_THREAD(drive);
  }
  void on_a(int v) {
    log.note("a" + std::to_string(v));
    if (v == 2) a.push(sim_now(), 20);  // due now: after what is already due now
    if (v == 3) b.push(sim_now() + sc_time(5, SC_NS), 30);
  }
  void drive() {
    b.push(sc_time(10, SC_NS), 1);
    a.push(sc_time(10, SC_NS), 1);
    kick.notify(sc_time(10, SC_NS));
    a.push(sc_time(10, SC_NS), 2);
    b.push(sc_time(10, SC_NS), 2);
    a.push(sc_time(5, SC_NS), 3);
    kick.notify(sc_time(20, SC_NS));  // later than the pending one: kept at 10 ns
    CHECK_FALSE(a.due_now());
    CHECK(a.size() == 3);
    wait(sc_time(12, SC_NS));
    CHECK(a.empty());
    CHECK(b.empty());
  }
};

}  // namespace

TEST_CASE("event wheel: same-time items and wake-ups run in schedule order across queues", "[wheel]") {
  // Both modes in one run (one kernel per process): running ahead and stepping with it.
  Rig ahead("ahead", true), stepped("stepped", false);
  sc_core::sc_start(sc_time(50, SC_NS));
  for (Rig* rig : {&ahead, &stepped}) {
    INFO(rig->name());
    // 5 ns: a3 (which books b30 for 10 ns). 10 ns: b1, a1, kick, a2, b2 in the order they
    // were scheduled (b30 last: scheduled last), then a20 (pushed due now by a2).
    const std::vector<std::string> want = {"a3@5", "b1@10", "a1@10", "kick@10", "a2@10",
                                           "b2@10", "b30@10", "a20@10"};
    CHECK(rig->log.seen == want);
  }
}
