// The FlashController's timeline at the end of a run: the array phase in flight gets its
// slice up to its booked end (args.in_flight), and every op still waiting for its die (a
// cached program, the die queue) gets one from its arrival to the end (args.queued), on
// the die's track under "NAND die queues". Exact times on one die with round numbers.
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <nlohmann/json.hpp>
#include "common/trace_recorder.h"
#include "fcc_bench_harness.h"

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace fcc_timeline_bench {

namespace {

namespace fs = std::filesystem;

struct Slice {
  std::string name, process, thread;
  double ts = 0, dur = 0;  // us
  nlohmann::json args;
};

std::vector<Slice> slices_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str());
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
  for (const auto& e : doc.at("traceEvents")) {
    if (e["ph"] == "M" && e["name"] == "process_name") processes[e["pid"]] = e["args"]["name"];
    if (e["ph"] == "M" && e["name"] == "thread_name") threads[{e["pid"], e["tid"]}] = e["args"]["name"];
  }
  std::vector<Slice> out;
  for (const auto& e : doc.at("traceEvents"))
    if (e["ph"] == "X")
      out.push_back(Slice{e["name"], processes[e["pid"]], threads[{e["pid"], e["tid"]}], e["ts"], e["dur"],
                          e.contains("args") ? e["args"] : nlohmann::json::object()});
  return out;
}

// A Bench whose controller records its timeline into t.json in a folder of its own, removed
// at the end.
struct TracedBench {
  fs::path dir;
  Bench b;
  TraceRecorder trace;
  explicit TracedBench(const FlashControllerParams& f) : dir(make_dir()), b(f), trace(options(dir)) {
    b.fcc.set_trace(&trace);
  }
  ~TracedBench() { fs::remove_all(dir); }
  std::string path() const { return (dir / "t.json").string(); }
  static fs::path make_dir() {
    const fs::path d = fs::temp_directory_path() / ("ufs-fcc-timeline-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }
  static TraceRecorderOptions options(const fs::path& d) {
    TraceRecorderOptions o;
    o.timeline_path = (d / "t.json").string();
    return o;
  }
};

}  // namespace

TEST_CASE("FCC timeline: ops still waiting for their die when the run ends get a queued slice", "[fcc][observability]") {
  FlashControllerParams f = test_fcc();
  f.cache_program = true;
  TracedBench t(f);
  Bench& b = t.b;
  TraceRecorder& trace = t.trace;
  const std::string path = t.path();
  Driver drv("drv", [&] {
    // Die 0 (channel 0): three programs at 0; a read arriving at 300 us; an erase that
    // would arrive at 900 us, after the end. Die 2 (channel 1): one read, long done.
    for (uint64_t c = 1; c <= 3; ++c) b.fcc.submit(program_op(0, 0, uint32_t(c), 0, c), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 1, 0, 0, 4, 1), sc_time(300, SC_US));
    b.fcc.submit(erase_op(0, 1, 5, 5), sc_time(900, SC_US));
    b.fcc.submit(read_op(2, 0, 0, 0, 6, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start(sc_time(400, SC_US));
  // Program 1: data-in [10, 10 + 3 x (100 + 16384)], tPROG 500 us to 549462 ns: in flight.
  // Program 2's data went into the cache register behind it; program 3 and the read wait
  // in the die queue; the erase is queued but has not arrived.
  REQUIRE(b.rec.done.size() == 1);
  CHECK(b.rec.done[0].c.cookie == 6);
  CHECK(b.fcc.ops_in_flight() == 5);
  b.fcc.trace_in_flight();
  CHECK(trace.finish().empty());

  std::map<uint64_t, const Slice*> queued;  // by cookie
  std::vector<const Slice*> in_flight;
  const std::vector<Slice> slices = slices_of(path);
  for (const Slice& s : slices) {
    if (s.args.contains("in_flight")) in_flight.push_back(&s);
    if (!s.args.contains("queued")) continue;
    CHECK(s.process == "NAND die queues");
    CHECK(s.thread == "die 0 (channel 0)");
    CHECK(s.ts + s.dur == Approx(400.0));  // each ends at the run's end
    CHECK(queued.emplace(s.args["cookie"].get<uint64_t>(), &s).second);
  }
  REQUIRE(in_flight.size() == 1);
  CHECK(in_flight[0]->name == "program");
  CHECK(in_flight[0]->args["cookie"] == 1);
  CHECK(in_flight[0]->ts + in_flight[0]->dur == Approx(549.462));

  // Every op the controller still holds is on the timeline, once: 1 in flight + 4 waiting.
  REQUIRE(queued.size() == 4);
  CHECK(queued.at(2)->name == "program (queued)");
  CHECK(queued.at(2)->args["waiting"] == "cache register");
  CHECK(queued.at(2)->ts == 0);
  CHECK(queued.at(3)->name == "program (queued)");
  CHECK(queued.at(3)->args["waiting"] == "die queue");
  CHECK(queued.at(3)->args["block"] == 3);
  CHECK(queued.at(3)->ts == 0);
  CHECK(queued.at(4)->name == "read (queued)");
  CHECK(queued.at(4)->ts == Approx(300.0));  // from its arrival
  CHECK(queued.at(5)->name == "erase (queued)");
  CHECK(queued.at(5)->ts == Approx(400.0));  // not arrived yet: a slice of length 0 at the end
  CHECK(queued.at(5)->dur == 0);
}

TEST_CASE("FCC timeline: a program or erase still suspended for a read when the run ends gets a slice", "[fcc][observability]") {
  FlashControllerParams f = test_fcc();
  f.suspend_for_read = true;
  TracedBench t(f);
  Bench& b = t.b;
  TraceRecorder& trace = t.trace;
  const std::string path = t.path();
  Driver drv("drv", [&] {
    b.fcc.submit(erase_op(0, 0, 5, 1), sc_core::SC_ZERO_TIME);  // command to 100, tBERS to 3500100
    sc_core::wait(sc_time(1000, SC_US));
    b.fcc.submit(read_op(0, 1, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  // The erase is suspended at 1000 us with 2500.1 us of tBERS left; after the 20 us
  // suspend the read's tR runs [1020.1, 1070.1] us: the run ends inside it.
  sc_core::sc_start(sc_time(1050, SC_US));
  CHECK(b.rec.done.empty());
  CHECK(b.fcc.suspensions() == 1);
  b.fcc.trace_in_flight();
  CHECK(trace.finish().empty());

  std::vector<const Slice*> suspended, in_flight, cut;
  const std::vector<Slice> slices = slices_of(path);
  for (const Slice& s : slices) {
    if (s.name == "erase (suspended)" && s.args.contains("queued")) suspended.push_back(&s);
    if (s.name == "erase (suspended)" && !s.args.contains("queued")) cut.push_back(&s);
    if (s.args.contains("in_flight")) in_flight.push_back(&s);
  }
  // The erase's array phase before the suspend, on the die's own track.
  REQUIRE(cut.size() == 1);
  CHECK(cut[0]->ts == Approx(0.1));
  CHECK(cut[0]->ts + cut[0]->dur == Approx(1000.0));
  // Its remainder, waiting to resume, from the suspend to the end of the run.
  REQUIRE(suspended.size() == 1);
  CHECK(suspended[0]->process == "NAND die queues");
  CHECK(suspended[0]->thread == "die 0 (channel 0)");
  CHECK(suspended[0]->ts == Approx(1000.0));
  CHECK(suspended[0]->ts + suspended[0]->dur == Approx(1050.0));
  CHECK(suspended[0]->args["waiting"] == "suspended");
  CHECK(suspended[0]->args["cookie"] == 1);
  CHECK(suspended[0]->args["block"] == 5);
  CHECK(suspended[0]->args["left_ns"] == 2500100);
  // The read that suspended it is in its array phase.
  REQUIRE(in_flight.size() == 1);
  CHECK(in_flight[0]->name == "read");
  CHECK(in_flight[0]->args["cookie"] == 2);
  CHECK(in_flight[0]->ts + in_flight[0]->dur == Approx(1070.1));
}

}  // namespace fcc_timeline_bench
