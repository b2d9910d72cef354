// EventWheel with TimedQueues attached (their items in the wheel's heap) and a TimedWake:
// what is due at one instant runs in the order it was scheduled or notified, whichever
// queue it belongs to; an item due now runs in the next delta cycle of the same instant.
#include <catch2/catch.hpp>
#include <systemc>
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include "common/event_wheel.h"
#include "common/min_heap.h"
#include "common/slab.h"
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

// Items that push more items from their handlers (0-3 each, due now or up to 3 ns later, into
// any of three queues), the same script run by the wheel and by a plain ordered set: the
// wheel must deliver in (time, push order). Many instants have one item due (the wheel runs
// it at once and the first item its handler pushes takes its heap slot), others several.
struct Script {
  std::mt19937_64 rng{23};
  uint32_t next_id = 0;
  static constexpr uint32_t kItems = 20000;
  template <class Push>  // push(queue, at_ps, id)
  void start(Push push) {
    for (int i = 0; i < 30; ++i) push(int(rng() % 3), (rng() % 4) * 1000, next_id++);
  }
  template <class Push>
  void on_item(uint64_t now, Push push) {
    const int k = int(rng() % 4);
    for (int i = 0; i < k && next_id < kItems; ++i) push(int(rng() % 3), now + (rng() % 4) * 1000, next_id++);
  }
};
using Delivery = std::tuple<int, uint32_t, uint64_t>;  // queue, item, time (ps)

struct ScriptRig : sc_core::sc_module {
  struct Handler {
    ScriptRig* rig;
    int queue;
    void operator()(uint32_t& id) const { rig->on_item(queue, id); }
  };
  EventWheel wheel{"wheel"};
  TimedQueue<uint32_t, Handler> q0{"q0", Handler{this, 0}}, q1{"q1", Handler{this, 1}}, q2{"q2", Handler{this, 2}};
  Script script;
  std::vector<Delivery> seen;
  SC_HAS_PROCESS(ScriptRig);
  ScriptRig(sc_core::sc_module_name name, bool run_ahead) : sc_core::sc_module(name) {
    wheel.set_run_ahead(run_ahead);
    for (auto* q : {&q0, &q1, &q2}) q->attach(&wheel);
    SC_THREAD(drive);
  }
  void push(int queue, uint64_t at, uint32_t id) {
    TimedQueue<uint32_t, Handler>* qs[] = {&q0, &q1, &q2};
    qs[queue]->push(sc_time::from_value(at), id);
  }
  void on_item(int queue, uint32_t id) {
    const uint64_t now = sim_now().value();
    seen.emplace_back(queue, id, now);
    script.on_item(now, [this](int q, uint64_t at, uint32_t i) { push(q, at, i); });
  }
  void drive() {
    script.start([this](int q, uint64_t at, uint32_t i) { push(q, at, i); });
  }
};

std::vector<Delivery> script_by_ordered_set() {
  Script script;
  std::set<std::tuple<uint64_t, uint64_t, int, uint32_t>> pending;  // (at, push order, queue, item)
  uint64_t seq = 0, now = 0;
  auto push = [&](int q, uint64_t at, uint32_t id) { pending.insert({std::max(at, now), seq++, q, id}); };
  script.start(push);
  std::vector<Delivery> out;
  while (!pending.empty()) {
    const auto [at, order, q, id] = *pending.begin();
    pending.erase(pending.begin());
    now = at;
    out.emplace_back(q, id, now);
    script.on_item(now, push);
  }
  return out;
}

}  // namespace

// One rig per process: a second wheel in the kernel would hold the first to its instants.
void check_script_run(bool run_ahead) {
  ScriptRig rig("rig", run_ahead);
  sc_core::sc_start();
  const std::vector<Delivery> want = script_by_ordered_set();
  REQUIRE(want.size() == Script::kItems);
  // The first delivery that differs (queue, item, time in ps), if any.
  size_t first = 0;
  while (first < want.size() && first < rig.seen.size() && rig.seen[first] == want[first]) ++first;
  auto show = [](const std::vector<Delivery>& v, size_t i) {
    if (i >= v.size()) return std::string("none");
    return "q" + std::to_string(std::get<0>(v[i])) + " item " + std::to_string(std::get<1>(v[i])) + " at " +
           std::to_string(std::get<2>(v[i])) + " ps";
  };
  INFO("delivery " << first << ": wheel " << show(rig.seen, first) << ", ordered set " << show(want, first));
  CHECK(first == want.size());
  CHECK(rig.seen.size() == want.size());
  CHECK((rig.q0.empty() && rig.q1.empty() && rig.q2.empty()));
  if (run_ahead) CHECK(rig.wheel.activations() == 1);  // it ran ahead all the way
}

TEST_CASE("event wheel: items pushed from handlers run in time and push order when running ahead", "[wheel]") {
  check_script_run(true);
}

TEST_CASE("event wheel: items pushed from handlers run in time and push order when stepping with the kernel", "[wheel]") {
  check_script_run(false);
}

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

TEST_CASE("min heap: pops (at, seq) in order through interleaved pushes and pops", "[wheel]") {
  // The wheel's heap: against an ordered set, with many equal times (seq breaks the tie) and
  // sizes that cross every partly filled last level; a pop followed by a push is sometimes
  // one replace_top, as the wheel does for the first entry a lone entry's handler adds.
  struct Entry {
    uint64_t at, seq;
  };
  std::mt19937_64 rng(18);
  std::vector<Entry> heap;
  std::set<std::pair<uint64_t, uint64_t>> want;
  uint64_t seq = 0, now = 0, popped = 0;
  for (int step = 0; step < 200000; ++step) {
    const bool push = want.empty() || (want.size() < 300 && rng() % 100 < 52);
    if (!push && rng() % 3 == 0) {
      // replace_top: the top goes, an entry due no earlier comes.
      const std::pair<uint64_t, uint64_t> first = *want.begin();
      want.erase(want.begin());
      REQUIRE(heap[0].at == first.first);
      REQUIRE(heap[0].seq == first.second);
      now = heap[0].at;
      const Entry e{now + rng() % 40, seq++};
      min_heap_replace_top(heap, e);
      want.insert({e.at, e.seq});
      ++popped;
    } else if (push) {
      const Entry e{now + rng() % 40, seq++};  // never before the last pop, as in the wheel
      min_heap_push(heap, e);
      want.insert({e.at, e.seq});
    } else {
      const std::pair<uint64_t, uint64_t> first = *want.begin();
      want.erase(want.begin());
      REQUIRE(heap[0].at == first.first);
      REQUIRE(heap[0].seq == first.second);
      now = heap[0].at;
      min_heap_pop(heap);
      ++popped;
    }
    REQUIRE(heap.size() == want.size());
  }
  CHECK(popped > 90000);
}

TEST_CASE("slab: items stay where they were put while more are put, freed slots are reused", "[wheel]") {
  Slab<std::vector<int>> slab;
  const uint32_t first = slab.put({1, 2, 3});
  const std::vector<int>* held = &slab[first];
  std::vector<uint32_t> more;
  for (int i = 0; i < 1000; ++i) more.push_back(slab.put({i}));  // many chunks
  CHECK(&slab[first] == held);
  CHECK(*held == std::vector<int>{1, 2, 3});
  for (int i = 0; i < 1000; ++i) CHECK(slab[more[size_t(i)]] == std::vector<int>{i});
  slab.release(more[10]);
  slab.release(more[20]);
  CHECK(slab.put({7}) == more[20]);  // last freed first
  CHECK(slab.put({8}) == more[10]);
  CHECK(slab.put({9}) == more.back() + 1);
}
