// The timeline's links from a command to the NAND work done for it: every command has an
// id (args.cmd) on its host slice, the firmware steps and flash ops working for it carry
// the same id, and a flow arrow (trace-event "s"/"f" pair) goes from the command's slice
// to each of its NAND array slices. Checked against what the NAND itself says: a data
// page read names the LBA it holds (args.lba, from the page's OOB), which must be the
// LBA its command asked for. And the run's end: what is still in flight is on the
// timeline too.
#include <catch2/catch.hpp>
#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "platform/simulation.h"

using namespace ufs;
// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace timeline_links_bench {

namespace fs = std::filesystem;

namespace {

struct Slice {
  std::string name, process;
  int pid = 0, tid = 0;
  double ts = 0, dur = 0;
  nlohmann::json args;
  bool holds(int p, int t, double at) const { return p == pid && t == tid && at >= ts && at <= ts + dur; }
};

struct Flow {
  int pid = 0, tid = 0;
  double ts = 0;
  uint64_t cmd = 0;
  std::string bp;
};

// The timeline's slices (with their process names) and flow ends by flow id.
struct Timeline {
  std::vector<Slice> slices;
  std::map<uint64_t, Flow> starts, ends;

  explicit Timeline(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json doc = nlohmann::json::parse(text.str());
    std::map<int, std::string> processes;
    for (const auto& e : doc.at("traceEvents"))
      if (e["ph"] == "M" && e["name"] == "process_name") processes[e["pid"]] = e["args"]["name"];
    for (const auto& e : doc.at("traceEvents")) {
      const std::string ph = e["ph"];
      if (ph == "X") {
        Slice s;
        s.name = e["name"];
        s.pid = e["pid"];
        s.tid = e["tid"];
        s.process = processes[s.pid];
        s.ts = e["ts"];
        s.dur = e["dur"];
        if (e.contains("args")) s.args = e["args"];
        slices.push_back(std::move(s));
      } else if (ph == "s" || ph == "f") {
        Flow f;
        f.pid = e["pid"];
        f.tid = e["tid"];
        f.ts = e["ts"];
        f.cmd = e["args"]["cmd"];
        if (e.contains("bp")) f.bp = e["bp"];
        REQUIRE(e["cat"] == "command");
        (ph == "s" ? starts : ends)[e["id"].get<uint64_t>()] = f;
      }
    }
  }
  // The slice a flow end binds to: the one on its track that holds its time.
  const Slice* at(const Flow& f, const std::string& process) const {
    for (const Slice& s : slices)
      if (s.process == process && s.holds(f.pid, f.tid, f.ts)) return &s;
    return nullptr;
  }
};

uint64_t arg(const Slice& s, const char* key) { return s.args.contains(key) ? s.args[key].get<uint64_t>() : 0; }

std::string temp_dir(const std::string& tag) {
  const fs::path p = fs::temp_directory_path() / ("ufs-links-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

// A run on the small preset with a timeline t.json in `out`.
RunOptions timeline_run(const std::string& out, const std::string& workload) {
  RunOptions o;
  o.preset = "test-small";
  o.workload = workload;
  o.out_dir = out;
  o.timeline = "t.json";
  o.quiet = true;
  o.progress = false;
  return o;
}

}  // namespace

TEST_CASE("Timeline: 5,000 random reads each link to exactly their own NAND reads and map loads", "[observability]") {
  const std::string out = temp_dir("reads");
  RunOptions o = timeline_run(out, "rw=randread,bs=4k,iodepth=32,count=5000,seed=11");
  // One op per array slice (no multi-plane groups), so a slice's lba is its op's; a map
  // cache far smaller than the map, so map loads are shared by commands waiting together.
  o.sets = {"fcc.multi_plane=false", "memory.l2p_sram_kib=48"};
  o.precondition_fill_bytes = kFillWholeDevice;
  const RunResult r = run_simulation(o);
  REQUIRE(r.mismatches == 0);
  const Timeline t(out + "/t.json");

  std::map<uint64_t, const Slice*> commands;  // cmd -> host slice
  std::vector<const Slice*> data_reads, map_reads;
  for (const Slice& s : t.slices) {
    if (s.process.rfind("host stream", 0) == 0 && s.name == "read") {
      REQUIRE(arg(s, "cmd") != 0);
      CHECK(commands.emplace(arg(s, "cmd"), &s).second);  // ids are unique
    }
    if (s.process == "NAND dies" && s.name == "read") (s.args.contains("lba") ? data_reads : map_reads).push_back(&s);
  }
  REQUIRE(commands.size() == 5000);
  INFO(data_reads.size() << " data page reads, " << map_reads.size() << " map page reads");
  CHECK(data_reads.size() == 5000);  // every LBA is on flash: one page read per command
  CHECK(map_reads.size() > 100);     // the workload exercises shared map loads

  // Each data read works for the command that asked for its LBA, and only one read does.
  std::map<uint64_t, int> reads_of;
  uint64_t wrong_lba = 0, unlinked = 0;
  for (const Slice* s : data_reads) {
    const auto c = commands.find(arg(*s, "cmd"));
    if (c == commands.end()) {
      ++unlinked;
      continue;
    }
    ++reads_of[c->first];
    if (arg(*c->second, "lba") != arg(*s, "lba")) ++wrong_lba;
  }
  CHECK(unlinked == 0);
  CHECK(wrong_lba == 0);
  uint64_t not_one = 0;
  for (const auto& [cmd, host] : commands) not_one += reads_of[cmd] != 1;
  CHECK(not_one == 0);
  // A map load works for a command in flight while it runs (the one whose lookup started it).
  uint64_t map_misplaced = 0;
  for (const Slice* s : map_reads) {
    const auto c = commands.find(arg(*s, "cmd"));
    if (c == commands.end() || s->ts < c->second->ts || s->ts > c->second->ts + c->second->dur) ++map_misplaced;
  }
  CHECK(map_misplaced == 0);

  // One flow arrow per NAND op: from its command's host slice to its array slice.
  CHECK(t.starts.size() == data_reads.size() + map_reads.size());
  CHECK(t.ends.size() == t.starts.size());
  uint64_t bad_arrows = 0;
  std::set<const Slice*> targets;
  for (const auto& [id, start] : t.starts) {
    const auto end = t.ends.find(id);
    bool ok = end != t.ends.end() && end->second.cmd == start.cmd && end->second.bp == "e";
    const auto c = commands.find(start.cmd);
    ok = ok && c != commands.end() && c->second->holds(start.pid, start.tid, start.ts);
    const Slice* to = ok ? t.at(end->second, "NAND dies") : nullptr;
    ok = ok && to && arg(*to, "cmd") == start.cmd && targets.insert(to).second;
    bad_arrows += !ok;
  }
  CHECK(bad_arrows == 0);
  fs::remove_all(out);
}

TEST_CASE("Timeline: programs still in flight when the run ends are on it, linked to their commands",
          "[observability]") {
  const std::string out = temp_dir("end");
  // Ends with programs under way.
  const RunResult r = run_simulation(timeline_run(out, "rw=randwrite,bs=16k,iodepth=32,runtime=3ms,seed=4"));
  REQUIRE(r.mismatches == 0);
  const Timeline t(out + "/t.json");

  std::map<uint64_t, const Slice*> commands;
  double last_command_end = 0;
  uint64_t programs_done = 0;
  std::vector<const Slice*> in_flight;
  for (const Slice& s : t.slices) {
    if (s.process.rfind("host stream", 0) == 0) {
      commands[arg(s, "cmd")] = &s;
      last_command_end = std::max(last_command_end, s.ts + s.dur);
    }
    if (s.process != "NAND dies" || s.name.rfind("program", 0) != 0) continue;
    if (arg(s, "in_flight")) in_flight.push_back(&s);
    else if (s.name != "program (resumed)") programs_done += arg(s, "planes");
  }
  // The programs the NAND completed are the slices that ended; the rest are in flight.
  CHECK(programs_done == r.stats["flash"]["programs"].get<uint64_t>());
  REQUIRE(!in_flight.empty());
  std::set<std::pair<int, int>> dies;
  for (const Slice* s : in_flight) {
    CHECK(dies.insert({s->pid, s->tid}).second);  // one group in flight per die
    CHECK(s->ts + s->dur >= last_command_end);    // booked to end after the run's last command
    CHECK(commands.count(arg(*s, "cmd")) == 1);   // a write's data filled it
  }
  // Each of them has its arrow from its command.
  uint64_t arrows = 0;
  for (const auto& [id, end] : t.ends) {
    const Slice* to = t.at(end, "NAND dies");
    if (to && arg(*to, "in_flight")) {
      ++arrows;
      const Slice* from = commands.at(end.cmd);
      CHECK(from->holds(t.starts.at(id).pid, t.starts.at(id).tid, t.starts.at(id).ts));
    }
  }
  CHECK(arrows >= in_flight.size());
  fs::remove_all(out);
}

}  // namespace timeline_links_bench
