// Hostile input and honest outputs (issue 17): every parameter has an upper bound and a
// bad value is refused naming the key; busy fractions never exceed 1; a run without host
// writes has no write amplification; stats.json reports the measured phase by default.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include "config/config_tree.h"
#include "platform/platform_config.h"
#include "platform/simulation.h"

using namespace ufs;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace hostile_input_bench {

namespace {

RunOptions quiet_options() {
  RunOptions o;
  o.quiet = true;
  o.progress = false;
  return o;
}

// The message binding `sets` on test-small throws ("" when it binds).
std::string bind_error(const std::vector<std::string>& sets, const std::string& preset = "test-small") {
  ConfigTree tree;
  tree.load(preset);
  for (const auto& s : sets) tree.set_assignment(s);
  PlatformConfig c;
  try {
    c.bind(tree);
    tree.check_unknown_keys();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Every busy fraction of one utilisation object is within [0, 1].
void check_fractions(const nlohmann::json& u, const std::string& what) {
  INFO(what << ": " << u.dump());
  for (const char* list : {"die_busy", "channel_busy"})
    for (const auto& v : u.at(list)) {
      CHECK(v.get<double>() >= 0.0);
      CHECK(v.get<double>() <= 1.0);
    }
  for (const char* one : {"cpu_busy", "link_host_to_device", "link_device_to_host"}) {
    CHECK(u.at(one).get<double>() >= 0.0);
    CHECK(u.at(one).get<double>() <= 1.0);
  }
}

}  // namespace

TEST_CASE("Every numeric parameter has an upper bound: its largest value is refused naming the key", "[config][bounds]") {
  ConfigTree probe;
  probe.load("test-small");
  PlatformConfig c;
  c.bind(probe);
  int checked = 0;
  for (const auto& p : probe.parameters()) {
    // Seeds are identifiers: every value is one.
    if (p.key == "cpu.rng_seed" || p.key == "nand.seed" || p.key == "fault.seed") continue;
    std::string huge;
    if (p.type == "u32") huge = "4294967295";
    else if (p.type == "u64") huge = "18446744073709551615";
    else if (p.type == "i64") huge = "9223372036854775807";
    else if (p.type == "double") huge = "1e300";
    else continue;
    INFO(p.key << " = " << huge);
    const std::string error = bind_error({p.key + "=" + huge});
    CHECK(error.find(p.key) != std::string::npos);
    ++checked;
  }
  CHECK(checked > 120);
}

TEST_CASE("Times, clocks and sizes out of range are refused as out of range", "[config][bounds]") {
  CHECK(bind_error({"nand.t_read_us=1e18"}).rfind("nand.t_read_us: \"1e18\" is out of range", 0) == 0);
  CHECK(bind_error({"fcc.ecc_decode_ns=1e30"}).rfind("fcc.ecc_decode_ns:", 0) == 0);
  CHECK(bind_error({"cpu.clock_mhz=1e-300"}).rfind("cpu.clock_mhz: \"1e-300\" is out of range (1..100000 MHz", 0) == 0);
  CHECK(bind_error({"host.completion_overhead_ns=9223372036854775807"}).rfind("host.completion_overhead_ns:", 0) == 0);
  CHECK(bind_error({"nand.t_read_us=-1"}).rfind("nand.t_read_us:", 0) == 0);
  // Inside the unit's range but beyond what NAND does.
  CHECK(bind_error({"nand.t_erase_us=2000000"}).rfind("nand.t_erase_us: must be at most 1000000 us", 0) == 0);
  CHECK(bind_error({"fcc.channels=99999999"}) == "fcc.channels: must be within 1..64");
  CHECK(bind_error({"nand.pages_per_block=99999999"}) == "nand.pages_per_block: must be within 1..8192");
}

TEST_CASE("A flash organisation too large for the simulator is refused before elaboration, naming its keys", "[config][bounds]") {
  const std::string e = bind_error({"fcc.channels=32", "fcc.ways_per_channel=32", "nand.dies_per_package=16",
                                    "nand.planes_per_die=16", "nand.blocks_per_plane=60000"});
  CHECK(e.rfind("the flash organisation needs about ", 0) == 0);
  CHECK(e.find("fcc.channels 32") != std::string::npos);
  CHECK(e.find("nand.blocks_per_plane 60000") != std::string::npos);
  CHECK(bind_error({}, "ufs31").empty());  // the largest preset fits
}

TEST_CASE("Messages blame the key the user set", "[config][messages]") {
  CHECK(bind_error({"nand.slc_mode=true"}).rfind("nand.slc_mode: SLC blocks have 32 pages (96 / 3)", 0) == 0);
  CHECK(bind_error({"firmware.program_pages=5"}).rfind("firmware.program_pages: 5 pages do not divide the block", 0) == 0);
  CHECK(bind_error({"memory.sram_clock_mhz=0"}).rfind("memory.sram_clock_mhz:", 0) == 0);
  CHECK(bind_error({"firmware.gc_stop_free_blocks=99999999"}).rfind("firmware.gc_stop_free_blocks: must be at most 1048576", 0) == 0);
  CHECK(bind_error({"firmware.gc_stop_free_blocks=7"}).rfind("firmware.gc_stop_free_blocks: 7 is more than a die's 6 spare blocks", 0) == 0);
  // The write cache is checked against the data buffer the configuration gives, whatever its size.
  CHECK(bind_error({"memory.data_buffer_kib=8192", "firmware.write_cache_kib=4096"}).empty());
  CHECK(bind_error({"memory.data_buffer_kib=8192", "firmware.write_cache_kib=8192"})
            .rfind("firmware.write_cache_kib: must be above 0 and below memory.data_buffer_kib (8192)", 0) == 0);
}

TEST_CASE("Busy fractions stay within 1 when the run ends with work booked ahead: power cut at 1 ns", "[stats][busy]") {
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.workload = "rw=randwrite,bs=4k,iodepth=8,count=200,seed=3";
  o.sets = {"fault.spo_at=1ns"};
  const RunResult r = run_simulation(o);
  check_fractions(r.stats.at("utilisation"), "measured");
  check_fractions(r.stats.at("utilisation_whole_run"), "whole run");
}

TEST_CASE("Busy fractions stay within 1: a smartphone stream played at once (scale=0)", "[stats][busy]") {
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.workload = "smartphone:music,scale=0,count=100,span=64m";
  const RunResult r = run_simulation(o);
  check_fractions(r.stats.at("utilisation"), "measured");
  check_fractions(r.stats.at("utilisation_whole_run"), "whole run");
}

TEST_CASE("Busy fractions stay within 1: a 2 GHz core leaves the dies programming at the end", "[stats][busy]") {
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.workload = "rw=randwrite,bs=16k,iodepth=32,count=3000,seed=5";
  o.sets = {"cpu.clock_mhz=2000"};
  const RunResult r = run_simulation(o);
  check_fractions(r.stats.at("utilisation"), "measured");
  check_fractions(r.stats.at("utilisation_whole_run"), "whole run");
}

TEST_CASE("stats.json: busy fractions and WAF of the measured phase, whole-run figures named apart", "[stats][measured]") {
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.precondition_fill_bytes = kFillWholeDevice;
  o.precondition_workload = "rw=randwrite,bs=4k,iodepth=32,count=40000,seed=1";
  o.workload = "rw=randread,bs=4k,iodepth=32,count=20000,seed=2";
  const RunResult r = run_simulation(o);
  const auto& s = r.stats;
  INFO(s.dump(2));
  // The measured phase only reads: no write amplification (null, not 0), whole-run one from the precondition.
  CHECK(s.at("ftl").at("write_amplification").is_null());
  CHECK(s.at("ftl").at("write_amplification_whole_run").get<double>() > 1.0);
  // Windows: the measured one is the measured phase's simulated time, the whole run's is longer.
  const double measured = s.at("utilisation_window_seconds").get<double>();
  CHECK(measured == Approx(s.at("simulated_seconds").get<double>()));
  CHECK(s.at("utilisation_whole_run").at("window_seconds").get<double>() > 1.5 * measured);
  // Busy time in the measured phase is part of the whole run's, which adds the precondition's programs.
  const double whole = s.at("utilisation_whole_run").at("window_seconds").get<double>();
  double measured_die_s = 0, whole_die_s = 0;
  for (const auto& v : s.at("utilisation").at("die_busy")) measured_die_s += v.get<double>() * measured;
  for (const auto& v : s.at("utilisation_whole_run").at("die_busy")) whole_die_s += v.get<double>() * whole;
  CHECK(whole_die_s > measured_die_s * 1.2);
  CHECK(s.at("utilisation").at("cpu_busy").get<double>() * measured <
        s.at("utilisation_whole_run").at("cpu_busy").get<double>() * whole);
  check_fractions(s.at("utilisation"), "measured");
  check_fractions(s.at("utilisation_whole_run"), "whole run");
}

}  // namespace hostile_input_bench
