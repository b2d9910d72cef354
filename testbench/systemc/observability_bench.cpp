// Observability: waves (VCD/FST), the transaction timeline (Chrome / Perfetto trace
// events) and the log format. A short run on the small preset with everything on, read
// back by independent parsers (nlohmann::json; a VCD syntax check; GTKWave's vcd2fst and
// fst2vcd when installed); and a run with observability off, in a child process, that
// must report exactly the same statistics (recording never changes timing).
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "common/log.h"
#include "common/sim_time.h"
#include "common/trace_recorder.h"
#include "config/config_tree.h"
#include "platform/platform_config.h"
#include "platform/simulation.h"

using namespace ufs;
// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace observability_bench {

namespace fs = std::filesystem;

namespace {

const char* kWorkload = "rw=randrw,rwmixread=60,bsrange=4k-64k,iodepth=8,numjobs=2,count=3000,seed=5";

std::string temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("ufs-obs-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunOptions small_run(const std::string& out) {
  RunOptions o;
  o.preset = "test-small";
  o.workload = kWorkload;
  o.out_dir = out;
  o.quiet = true;
  o.progress = false;
  return o;
}

// What a VCD says, checked line by line against the format (IEEE 1364 §18).
struct VcdInfo {
  std::string error;  // empty: valid
  std::map<std::string, std::string> names;  // id -> scope.name
  std::map<std::string, int> width;          // id -> bits
  std::vector<uint64_t> times;
  std::map<std::string, uint64_t> changes;  // full name -> value changes after $dumpvars
  std::map<std::string, uint64_t> max_value;
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> values;  // name -> (time, value), all
};

VcdInfo parse_vcd(const std::string& text) {
  VcdInfo v;
  std::istringstream in(text);
  std::string tok;
  std::vector<std::string> scope;
  bool timescale = false, defs_done = false, in_dumpvars = false;
  auto fail = [&v](const std::string& why) {
    if (v.error.empty()) v.error = why;
  };
  // Declarations: tokens up to $enddefinitions.
  while (!defs_done && in >> tok) {
    if (tok == "$timescale") {
      std::string t, end;
      in >> t >> end;
      timescale = t == "1ps" && end == "$end";
    } else if (tok == "$scope") {
      std::string kind, name, end;
      in >> kind >> name >> end;
      if (end != "$end") fail("bad $scope");
      scope.push_back(name);
    } else if (tok == "$upscope") {
      std::string end;
      in >> end;
      if (scope.empty()) fail("$upscope without $scope");
      else scope.pop_back();
    } else if (tok == "$var") {
      std::string type, id, name, end;
      int bits = 0;
      in >> type >> bits >> id >> name >> end;
      if (end != "$end" || bits <= 0 || (type != "wire" && type != "integer")) fail("bad $var " + name);
      if (v.names.count(id)) fail("duplicate id " + id);
      std::string full;
      for (const auto& s : scope) full += s + ".";
      v.names[id] = full + name;
      v.width[id] = bits;
    } else if (tok == "$enddefinitions") {
      in >> tok;
      defs_done = true;
    } else if (tok == "$date" || tok == "$version" || tok == "$comment") {
      while (in >> tok && tok != "$end") {
      }
    } else {
      fail("unexpected token in header: " + tok);
    }
  }
  if (!timescale) fail("no $timescale 1ps");
  if (!defs_done) fail("no $enddefinitions");
  if (!scope.empty()) fail("unclosed $scope");
  // Value changes.
  while (in >> tok) {
    if (tok == "$dumpvars") {
      in_dumpvars = true;
    } else if (tok == "$end") {
      in_dumpvars = false;
    } else if (tok[0] == '#') {
      const uint64_t t = std::stoull(tok.substr(1));
      if (!v.times.empty() && t <= v.times.back()) fail("time not increasing at " + tok);
      v.times.push_back(t);
    } else if (tok[0] == 'b') {
      std::string id;
      in >> id;
      if (!v.names.count(id)) fail("value for an undeclared id " + id);
      if (tok.size() < 2 || tok.find_first_not_of("01", 1) != std::string::npos) fail("bad vector value " + tok);
      if (int(tok.size()) - 1 > v.width[id]) fail("value wider than its variable");
      const uint64_t value = std::stoull(tok.substr(1), nullptr, 2);
      if (!v.times.empty()) v.values[v.names[id]].emplace_back(v.times.back(), value);
      if (!in_dumpvars) ++v.changes[v.names[id]];
      v.max_value[v.names[id]] = std::max(v.max_value[v.names[id]], value);
    } else if (tok[0] == '0' || tok[0] == '1') {
      const std::string id = tok.substr(1);
      if (!v.names.count(id)) fail("value for an undeclared id " + id);
      if (v.width[id] != 1) fail("scalar value for a vector");
      if (!v.times.empty()) v.values[v.names[id]].emplace_back(v.times.back(), tok[0] == '1');
      if (!in_dumpvars) ++v.changes[v.names[id]];
      v.max_value[v.names[id]] = std::max<uint64_t>(v.max_value[v.names[id]], tok[0] == '1');
    } else {
      fail("unexpected token: " + tok);
    }
    if (v.times.empty()) fail("value change before the first time step");
  }
  return v;
}

// Runs `argv` and returns its exit status (-1 when it could not run).
int run_program(const std::vector<std::string>& args, const std::string& stdout_file) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (!stdout_file.empty()) {
      if (!std::freopen(stdout_file.c_str(), "w", stdout)) _exit(126);
    } else if (!std::freopen("/dev/null", "w", stdout)) {
      _exit(126);
    }
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// The statistics of a run without wall-clock and memory figures (those differ run to run).
nlohmann::json timing_stats(nlohmann::json j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& k = it.key();
      if (k.find("wall") != std::string::npos || k.find("rss") != std::string::npos ||
          k.find("per_second_wall") != std::string::npos || k == "speed")
        continue;
      out[k] = timing_stats(it.value());
    }
    return out;
  }
  return j;
}

// Runs the simulation in a child process (the kernel elaborates once per process) and
// returns its stats.json.
nlohmann::json stats_in_child(const RunOptions& o) {
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 0;
    try {
      run_simulation(o);
    } catch (...) {
      code = 3;
    }
    std::fflush(nullptr);
    _exit(code);
  }
  int status = 0;
  REQUIRE(pid > 0);
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return nlohmann::json::parse(read_file(o.out_dir + "/stats.json"));
}

}  // namespace

TEST_CASE("A run folder holds a valid trace-event timeline and a VCD an independent parser accepts",
          "[observability]") {
  const std::string out = temp_dir("run");
  RunOptions o = small_run(out);
  o.waves = "waves.vcd";
  o.timeline = "timeline.json";
  const RunResult r = run_simulation(o);
  REQUIRE(r.mismatches == 0);
  REQUIRE(fs::exists(out + "/waves.vcd"));
  REQUIRE(fs::exists(out + "/timeline.json"));
  REQUIRE(fs::exists(out + "/stats.json"));

  // ---- timeline: valid JSON in the trace-event format
  const nlohmann::json doc = nlohmann::json::parse(read_file(out + "/timeline.json"));
  REQUIRE(doc.contains("traceEvents"));
  const auto& events = doc["traceEvents"];
  REQUIRE(events.is_array());
  std::map<int, std::string> process_names;
  std::map<std::pair<int, int>, std::string> thread_names;
  for (const auto& e : events) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("pid"));
    REQUIRE(e.contains("name"));
    REQUIRE(e.contains("ts"));
    if (e["ph"] == "M" && e["name"] == "process_name") process_names[e["pid"]] = e["args"]["name"];
    if (e["ph"] == "M" && e["name"] == "thread_name")
      thread_names[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
  }
  auto group_of = [&](const nlohmann::json& e) {
    const std::string process = process_names[e["pid"].get<int>()];
    const std::string thread = thread_names[{e["pid"].get<int>(), e["tid"].get<int>()}];
    if (process == "NAND dies") return std::string("die");
    if (process == "flash channels") return std::string("channel");
    if (process == "UniPro link") return std::string("link");
    if (thread == "firmware") return std::string("firmware");
    if (process.rfind("host stream", 0) == 0) return std::string("host");
    return process;
  };
  std::map<std::string, uint64_t> slices, tagged;
  std::set<std::string> names;
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> per_track;
  std::set<std::pair<int, int>> queue_tracks;  // ops still waiting at the end: a stack, all ending then
  uint64_t counters = 0;
  for (const auto& e : events) {
    if (e["ph"] == "C") {
      ++counters;
      REQUIRE(e["args"].contains("value"));
    }
    if (e["ph"] != "X") continue;
    REQUIRE(e.contains("dur"));
    REQUIRE(e.contains("tid"));
    const double ts = e["ts"].get<double>(), dur = e["dur"].get<double>();
    REQUIRE(ts >= 0);
    REQUIRE(dur >= 0);
    const std::string g = group_of(e);
    ++slices[g];
    names.insert(e["name"].get<std::string>());
    if (e.contains("args") && e["args"].contains("tag")) ++tagged[g];
    per_track[{e["pid"].get<int>(), e["tid"].get<int>()}].emplace_back(ts, ts + dur);
    if (g == "NAND die queues") queue_tracks.insert({e["pid"].get<int>(), e["tid"].get<int>()});
  }
  INFO("slices per group: " << nlohmann::json(slices).dump());
  CHECK(slices["die"] > 0);
  CHECK(slices["channel"] > 0);
  CHECK(slices["link"] > 0);
  CHECK(slices["firmware"] > 0);
  CHECK(slices["host"] == 3000);  // one per command
  CHECK(counters > 0);
  // Tags link a command's slices: every link and host slice has one, most NAND ones too.
  CHECK(tagged["link"] == slices["link"]);
  CHECK(tagged["host"] == slices["host"]);
  CHECK(tagged["die"] > slices["die"] / 2);
  for (const char* n : {"COMMAND", "DATA IN", "DATA OUT", "READY TO TRANSFER", "RESPONSE", "read", "write",
                        "program", "data out", "data in", "read cmd", "command", "flash done"})
    CHECK(names.count(n) == 1);
  CHECK(thread_names.size() >= 2 + 4 + 4 + 1);  // link directions, channels x2 + dies x4, firmware
  // Slices on one track never overlap (Perfetto only nests them); a die's queue track at the
  // run's end nests its waiting ops, each inside the one that arrived before it.
  uint64_t overlaps = 0, not_nested = 0;
  for (auto& [track, list] : per_track) {
    std::sort(list.begin(), list.end());
    const bool queue = queue_tracks.count(track) != 0;
    for (size_t i = 1; i < list.size(); ++i) {
      if (queue) not_nested += list[i].second > list[i - 1].second + 1e-6;
      else if (list[i].first < list[i - 1].second - 1e-6) ++overlaps;
    }
  }
  CHECK(overlaps == 0);
  CHECK(not_nested == 0);

  // ---- waves: the VCD syntax, and signals that moved
  const VcdInfo vcd = parse_vcd(read_file(out + "/waves.vcd"));
  INFO(vcd.error);
  REQUIRE(vcd.error.empty());
  CHECK(vcd.times.size() > 100);
  CHECK(vcd.changes.at("ufs.fcc.die0.busy") > 10);
  CHECK(vcd.max_value.at("ufs.fcc.die0.state") >= 2);  // programs happened
  CHECK(vcd.changes.at("ufs.fcc.ch0.busy") > 10);
  CHECK(vcd.changes.at("ufs.link.h2d_busy") > 10);
  CHECK(vcd.changes.at("ufs.link.d2h_busy") > 10);
  CHECK(vcd.changes.at("ufs.cpu.busy") > 10);
  CHECK(vcd.max_value.at("ufs.host.outstanding") == 16);  // 2 jobs x iodepth 8
  CHECK(vcd.max_value.at("ufs.hostif.queue_depth") > 1);
  CHECK(vcd.max_value.at("ufs.cpu.l2p_lookups") > 1000);

  // ---- GTKWave's own reader, when installed
  if (access("/usr/bin/vcd2fst", X_OK) == 0) {
    const std::string fst = out + "/waves.fst";
    REQUIRE(run_program({"/usr/bin/vcd2fst", out + "/waves.vcd", fst}, "") == 0);
    CHECK(fs::file_size(fst) > 100);
    if (access("/usr/bin/fst2vcd", X_OK) == 0) {
      const std::string back = out + "/back.vcd";
      REQUIRE(run_program({"/usr/bin/fst2vcd", fst}, back) == 0);
      const std::string text = read_file(back);
      CHECK(text.find("h2d_busy") != std::string::npos);
      CHECK(text.find("outstanding") != std::string::npos);
    }
  } else {
    WARN("vcd2fst not installed: only the built-in VCD check ran");
  }
  fs::remove_all(out);
}

TEST_CASE("The recorder turns intervals booked out of order into ordered waves and counters", "[observability]") {
  const std::string dir = temp_dir("unit");
  using Steps = std::vector<std::pair<uint64_t, uint64_t>>;
  {
    TraceRecorderOptions t;
    t.waves_path = dir + "/u.vcd";
    t.timeline_path = dir + "/u.json";
    TraceRecorder rec(t);
    const int busy = rec.wire("top.unit", "busy");
    const int depth = rec.integer("top", "depth", "proc");
    const int track = rec.track("proc", "lane");
    rec.busy(busy, 100, 200);
    rec.busy(busy, 200, 300);  // abutting: stays busy
    rec.busy(busy, 50, 80);    // booked later, earlier in time
    rec.busy(busy, 400, 1000);
    rec.change(busy, 1000, +1);  // cut short at 600 (a suspend)
    rec.change(busy, 600, -1);
    rec.change(depth, 10, +1);
    rec.change(depth, 20, +1);
    rec.change(depth, 20, -1);  // no net change at 20
    rec.change(depth, 700, +2);
    rec.slice(track, "x", 5, 15, TraceArgs().tag(7).add("bytes", 4096).label("kind", "a \"quoted\" one"));
    CHECK(rec.finish().empty());
  }
  const VcdInfo v = parse_vcd(read_file(dir + "/u.vcd"));
  INFO(v.error);
  REQUIRE(v.error.empty());
  CHECK(v.values.at("top.unit.busy") == Steps{{0, 0}, {50, 1}, {80, 0}, {100, 1}, {300, 0}, {400, 1}, {600, 0}});
  CHECK(v.values.at("top.depth") == Steps{{0, 0}, {10, 1}, {700, 3}});
  const nlohmann::json doc = nlohmann::json::parse(read_file(dir + "/u.json"));
  Steps counter;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "C") counter.emplace_back(uint64_t(e["ts"].get<double>() * 1e6 + 0.5), e["args"]["value"]);
    if (e["ph"] == "X") {
      CHECK(e["name"] == "x");
      CHECK(e["ts"].get<double>() == Approx(5e-6));
      CHECK(e["dur"].get<double>() == Approx(10e-6));
      CHECK(e["args"]["tag"] == 7);
      CHECK(e["args"]["bytes"] == 4096);
      CHECK(e["args"]["kind"] == "a \"quoted\" one");
    }
  }
  CHECK(counter == Steps{{0, 0}, {10, 1}, {700, 3}});
  fs::remove_all(dir);
}

TEST_CASE("A sampler holding write-outs back records a span's value at its start, not late", "[observability]") {
  const std::string dir = temp_dir("hold");
  using Steps = std::vector<std::pair<uint64_t, uint64_t>>;
  const sc_core::sc_time now(1000, sc_core::SC_PS);
  sim_time_detail::g_wheel_now = &now;  // simulated time stands at 1000 ps
  uint64_t late = 0;
  {
    TraceRecorderOptions t;
    t.waves_path = dir + "/h.vcd";
    TraceRecorder rec(t);
    const int busy = rec.wire("top", "busy");
    const int power = rec.integer("top", "power");
    rec.hold_from(500);  // the sampler's last sample
    // Enough changes to force a write-out (1M buffered): it must stop at 500, not at now.
    for (int i = 0; i < (1 << 20) + 8; ++i) rec.change(busy, 900, i % 2 ? -1 : +1);
    rec.change(power, 500, +7);  // the span [500, 1000) known only now
    rec.change(power, 1000, -7);
    late = rec.late_changes();
    CHECK(rec.finish().empty());
  }
  sim_time_detail::g_wheel_now = nullptr;
  CHECK(late == 0);
  const VcdInfo v = parse_vcd(read_file(dir + "/h.vcd"));
  INFO(v.error);
  REQUIRE(v.error.empty());
  CHECK(v.values.at("top.power") == Steps{{0, 0}, {500, 7}, {1000, 0}});
  fs::remove_all(dir);
}

TEST_CASE("The waves carry the device power, and its integral is the measured phase's energy",
          "[observability][energy]") {
  const std::string out = temp_dir("power");
  RunOptions o = small_run(out);
  o.waves = "w.vcd";
  o.timeline = "t.json";
  run_simulation(o);
  const nlohmann::json stats = nlohmann::json::parse(read_file(out + "/stats.json"));
  const VcdInfo v = parse_vcd(read_file(out + "/w.vcd"));
  INFO(v.error);
  REQUIRE(v.error.empty());
  REQUIRE(v.values.count("ufs.energy.power_uw"));
  const auto& steps = v.values.at("ufs.energy.power_uw");
  CHECK(steps.size() > 5);
  CHECK(steps.back().second == 0);  // back to 0 when the measured phase ends
  // Integral of the step signal: uW x ps -> uJ.
  long double uj = 0;
  for (size_t i = 0; i + 1 < steps.size(); ++i)
    uj += (long double)steps[i].second * (long double)(steps[i + 1].first - steps[i].first) * 1e-12L;
  const double total = stats["energy"]["total_uj"].get<double>();
  REQUIRE(total > 0);
  CHECK(double(uj) == Approx(total).epsilon(1e-4));  // measured 1.9e-5 (rounding to uW, clamps)
  CHECK(double(v.max_value.at("ufs.energy.power_uw")) * 1e-3 >= stats["energy"]["mean_power_mw"].get<double>());
  // The same power as a counter track on the timeline.
  const nlohmann::json doc = nlohmann::json::parse(read_file(out + "/t.json"));
  uint64_t counters = 0;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == "C" && e["name"] == "power_uw") ++counters;
  CHECK(counters + 1 >= steps.size());
  fs::remove_all(out);
}

TEST_CASE("FST waves without vcd2fst on PATH are refused up front, naming how to get it", "[observability]") {
  // GTKWave is optional (cmake/install-deps.sh extras): an empty PATH stands for a machine without it.
  const std::string dir = temp_dir("nofst");
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", dir.c_str(), 1);
  TraceRecorderOptions t;
  t.waves_path = dir + "/w.fst";
  std::string message;
  try {
    TraceRecorder rec(t);
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  setenv("PATH", path.c_str(), 1);
  CHECK(message.find("w.fst: FST output needs GTKWave's vcd2fst") != std::string::npos);
  CHECK(message.find("./make.sh extras") != std::string::npos);
  CHECK(!fs::exists(dir + "/w.fst"));
  CHECK(!fs::exists(dir + "/w.fst.tmp.vcd"));
  fs::remove_all(dir);
}

TEST_CASE("Recording waves and a timeline does not change the simulation's results", "[observability]") {
  const std::string off_dir = temp_dir("off"), on_dir = temp_dir("on");
  const RunOptions off = small_run(off_dir);
  RunOptions on = small_run(on_dir);
  on.waves = "w.vcd";
  on.timeline = "t.json";
  const nlohmann::json a = timing_stats(stats_in_child(off));
  const nlohmann::json b = timing_stats(stats_in_child(on));
  CHECK(fs::exists(on_dir + "/w.vcd"));
  CHECK(!fs::exists(off_dir + "/w.vcd"));
  CHECK(a.dump(1) == b.dump(1));
  CHECK(a["simulated_seconds"].get<double>() > 0);
  fs::remove_all(off_dir);
  fs::remove_all(on_dir);
}

TEST_CASE("A waves window keeps only that stretch of simulated time and .fst goes through vcd2fst",
          "[observability]") {
  const std::string out = temp_dir("window");
  RunOptions o = small_run(out);
  const bool fst = access("/usr/bin/vcd2fst", X_OK) == 0 && TraceRecorder::program_on_path("vcd2fst");
  o.waves = fst ? "w.fst" : "w.vcd";
  o.timeline = out + "/t.json";  // absolute names are kept as they are
  o.waves_window = "2ms:4ms";  // past the first TLC programs (nand.t_prog_us), so the window is busy
  run_simulation(o);
  const uint64_t from = 2000000000ull, to = 4000000000ull;

  const nlohmann::json doc = nlohmann::json::parse(read_file(out + "/t.json"));
  uint64_t slices = 0, outside = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] != "X" && e["ph"] != "C") continue;
    const double ts = e["ts"].get<double>(), end = ts + e.value("dur", 0.0);
    ++slices;
    if (end < from / 1e6 - 1e-6 || ts > to / 1e6 + 1e-6) ++outside;
  }
  CHECK(slices > 100);
  CHECK(outside == 0);

  std::string vcd_text;
  if (fst) {
    REQUIRE(fs::exists(out + "/w.fst"));
    CHECK(!fs::exists(out + "/w.fst.tmp.vcd"));
    REQUIRE(run_program({"fst2vcd", out + "/w.fst"}, out + "/back.vcd") == 0);
    vcd_text = read_file(out + "/back.vcd");
    CHECK(vcd_text.find("#2000000000") != std::string::npos);
  } else {
    vcd_text = read_file(out + "/w.vcd");
    const VcdInfo v = parse_vcd(vcd_text);
    INFO(v.error);
    REQUIRE(v.error.empty());
    REQUIRE(!v.times.empty());
    CHECK(v.times.front() == from);
    CHECK(v.times.back() <= to);
    CHECK(v.times.size() > 10);
  }
  fs::remove_all(out);
}

TEST_CASE("Bad observability options are clear errors", "[observability]") {
  RunOptions o = small_run("");
  o.waves = "/tmp/waves.txt";
  CHECK_THROWS_WITH(run_simulation(o), Catch::Contains("must end in .vcd or .fst"));
  TraceRecorderOptions t;
  t.waves_path = "/nonexistent-dir/x.vcd";
  CHECK_THROWS_WITH(TraceRecorder(t), Catch::Contains("/nonexistent-dir/x.vcd"));
}

TEST_CASE("Bad waves windows are clear errors", "[observability]") {
  RunOptions o = small_run("");
  o.timeline = "/tmp/ufs-obs-unused.json";
  o.waves_window = "5ms";
  CHECK_THROWS_WITH(run_simulation(o), Catch::Contains("FROM:TO"));
  o.waves_window = "5ms:1ms";
  CHECK_THROWS_WITH(run_simulation(o), Catch::Contains("ends before it starts"));
}

TEST_CASE("Log lines share one format and levels are set per component from the config", "[observability][log]") {
  ConfigTree tree;
  tree.load("test-small");
  tree.set_assignment("log.level=error");
  tree.set_assignment("log.components=fcc=debug, host=info");
  PlatformConfig c;
  c.bind(tree);
  tree.check_unknown_keys();
  c.log.apply();
  CHECK(log_enabled(LogLevel::Debug, LogComponent::Fcc));
  CHECK(!log_enabled(LogLevel::Trace, LogComponent::Fcc));
  CHECK(log_enabled(LogLevel::Info, LogComponent::Host));
  CHECK(!log_enabled(LogLevel::Debug, LogComponent::Host));
  CHECK(!log_enabled(LogLevel::Warning, LogComponent::Link));
  CHECK(log_enabled(LogLevel::Error, LogComponent::Link));

  std::ostringstream sink;
  set_log_sink(&sink);
  int evaluated = 0;
  UFS_LOG(Debug, Fcc, "ufs.fcc", "die " << 3 << ": suspended");
  UFS_LOG(Debug, Link, "ufs.link", "not shown " << ++evaluated);
  set_log_sink(nullptr);
  CHECK(sink.str() == "[debug 0.000us ufs.fcc] die 3: suspended\n");  // before sc_start: time 0
  CHECK(evaluated == 0);  // a disabled message is not even formatted

  ConfigTree bad;
  bad.load("test-small");
  bad.set_assignment("log.components=flash=debug");
  PlatformConfig c2;
  CHECK_THROWS_WITH(c2.bind(bad), Catch::Contains("log.components") && Catch::Contains("flash"));
  ConfigTree bad_level;
  bad_level.load("test-small");
  bad_level.set_assignment("log.level=loud");
  PlatformConfig c3;
  CHECK_THROWS_WITH(c3.bind(bad_level), Catch::Contains("log.level"));
  set_log_level(LogLevel::Warning);
}


// Issue 20 "Waves": the core's current handler is a wire per event kind; one runs at a time
// and together they are the core's busy wire.
TEST_CASE("Waves name the firmware handler the core runs: one at a time, together the core's busy time",
          "[observability]") {
  const std::string out = temp_dir("handler");
  RunOptions o = small_run(out);
  o.waves = "waves.vcd";
  const RunResult r = run_simulation(o);
  REQUIRE(r.mismatches == 0);
  const VcdInfo vcd = parse_vcd(read_file(out + "/waves.vcd"));
  REQUIRE(vcd.error.empty());
  const std::string scope = "ufs.cpu.handler.";
  for (const char* k : {"command", "flash_done", "data_out_done", "data_in_done"}) {
    INFO(k);
    const auto it = vcd.changes.find(scope + k);
    CHECK(it != vcd.changes.end());
    CHECK((it == vcd.changes.end() ? 0 : it->second) > 10);
  }
  // Replay every handler wire and the busy wire in time order: at most one handler is high,
  // and one is high exactly while the core is busy.
  std::map<uint64_t, std::map<std::string, uint64_t>> at;
  for (const auto& [name, steps] : vcd.values)
    if (name.rfind(scope, 0) == 0 || name == "ufs.cpu.busy")
      for (const auto& [t, v] : steps) at[t][name] = v;
  std::map<std::string, uint64_t> now;
  uint64_t several = 0, mismatched = 0, busy_ps = 0, handler_ps = 0, last = 0;
  for (const auto& [t, changes] : at) {
    uint64_t high = 0;
    for (const auto& [name, v] : now)
      if (name != "ufs.cpu.busy") high += v;
    if (now["ufs.cpu.busy"]) busy_ps += t - last;
    if (high) handler_ps += t - last;
    last = t;
    for (const auto& [name, v] : changes) now[name] = v;
    high = 0;
    for (const auto& [name, v] : now)
      if (name != "ufs.cpu.busy") high += v;
    several += high > 1;
    mismatched += (high > 0) != (now["ufs.cpu.busy"] > 0);
  }
  CHECK(several == 0);
  CHECK(mismatched == 0);
  CHECK(busy_ps > 0);
  CHECK(handler_ps == busy_ps);
}

#ifdef UFS_HAVE_ISS
namespace {
// (Only the ISS test reads region slices: without the core this helper would be unused.)
// A timeline's complete slices by thread name: (start, end) in us, and the slices' names.
struct ThreadSlices {
  std::vector<std::pair<double, double>> spans;
  std::map<std::string, uint64_t> names;
};
std::map<std::string, ThreadSlices> slices_by_thread(const std::string& path) {
  const nlohmann::json doc = nlohmann::json::parse(read_file(path));
  std::map<std::pair<int, int>, std::string> threads;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") threads[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
  std::map<std::string, ThreadSlices> out;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ThreadSlices& t = out[threads[{e["pid"].get<int>(), e["tid"].get<int>()}]];
    const double ts = e["ts"].get<double>();
    t.spans.emplace_back(ts, ts + e["dur"].get<double>());
    ++t.names[e["name"].get<std::string>()];
  }
  for (auto& [name, t] : out) std::sort(t.spans.begin(), t.spans.end());
  return out;
}
}  // namespace

// On the core the timeline also says which part of the firmware ran when: runs of the PC in
// one class's functions, inside the step that ran them.
TEST_CASE("ISS: the timeline names the firmware's code region the PC is in, inside the core's steps",
          "[observability][iss]") {
  const std::string out = temp_dir("regions");
  RunOptions o = small_run(out);
  o.sets = {"cpu.model=iss"};
  o.workload = "rw=randrw,rwmixread=60,bs=4k,iodepth=8,count=600,seed=5";
  o.timeline = "timeline.json";
  const RunResult r = run_simulation(o);
  REQUIRE(r.mismatches == 0);
  const auto threads = slices_by_thread(out + "/timeline.json");
  REQUIRE(threads.count("firmware") == 1);
  REQUIRE(threads.count("firmware code") == 1);
  const ThreadSlices& steps = threads.at("firmware");
  const ThreadSlices& code = threads.at("firmware code");
  INFO("regions: " << nlohmann::json(code.names).dump());
  CHECK(code.spans.size() > steps.spans.size());  // several regions a step
  for (const char* region : {"fw_entry", "DeviceFirmware", "ReadEngine", "WriteEngine", "TargetHal", "CommandTable"})
    CHECK(code.names.count(region) == 1);
  for (const auto& [name, n] : code.names) {  // classes, not functions or library code
    CHECK(name.find('(') == std::string::npos);
    CHECK(name.rfind("std::", 0) == std::string::npos);
  }
  // Each region slice lies inside one step; they never overlap; they cover most of the steps.
  const double eps = 1e-6;
  uint64_t outside = 0, overlaps = 0;
  double step_us = 0, code_us = 0;
  for (const auto& s : steps.spans) step_us += s.second - s.first;
  size_t j = 0;
  for (size_t i = 0; i < code.spans.size(); ++i) {
    const auto& c = code.spans[i];
    code_us += c.second - c.first;
    if (i && c.first < code.spans[i - 1].second - eps) ++overlaps;
    while (j < steps.spans.size() && steps.spans[j].second < c.first + eps &&
           !(steps.spans[j].first <= c.first + eps && c.second <= steps.spans[j].second + eps))
      ++j;
    if (j == steps.spans.size() || c.first < steps.spans[j].first - eps || c.second > steps.spans[j].second + eps)
      ++outside;
  }
  CHECK(outside == 0);
  CHECK(overlaps == 0);
  CHECK(code_us <= step_us + eps * double(code.spans.size()));
  CHECK(code_us > 0.8 * step_us);
}
#endif

}  // namespace observability_bench
