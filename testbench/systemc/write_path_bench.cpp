// Sequential writes on the default preset (ufs31) through the whole system: TLC-direct
// (WriteBooster off) the dies bind at their word-line program time, with the SLC buffer
// (as the device ships) the firmware core binds, and with a faster core the buffer's own
// limit shows: two-plane SLC programs on every die. Each figure is checked against what the
// preset's parameters give, so removing the mechanism (a fast TLC program, WriteBooster off
// by default, single-plane SLC programs) fails a case. One simulation per process.
#include <catch2/catch.hpp>
#include "config/config_tree.h"
#include "platform/platform_config.h"
#include "platform/simulation.h"

using namespace ufs;

namespace {
RunResult sequential_writes(std::vector<std::string> sets) {
  RunOptions o;
  o.preset = "ufs31";
  o.precondition_fill_bytes = 1ull << 30;
  o.workload = "rw=write,bs=512k,iodepth=32,size=1g,count=1000";  // 500 MiB
  o.sets = std::move(sets);
  o.quiet = true;
  o.progress = false;
  return run_simulation(o);
}

double write_mb_s(const RunResult& r) { return r.stats["ops"]["write"]["mb_per_s"].get<double>(); }

// Bytes per second the dies sustain when each programs `bytes_per_plane` on both planes at
// once in `array_us`, plus the data-in of those bytes (with spare) on its channel.
double die_bound(const PlatformConfig& c, double bytes_per_plane, double array_us) {
  const double dies = double(c.fcc.channels) * c.fcc.ways_per_channel * c.nand.dies_per_package;
  const double planes = c.nand.planes_per_die, page = c.nand.page_bytes;
  const double bus_bytes_per_s = double(c.fcc.bus_mt_s) * 1e6 * c.fcc.bus_width_bits / 8;
  const double data_in_us = planes * bytes_per_plane * (page + c.nand.spare_bytes_per_page) / page / bus_bytes_per_s * 1e6;
  return dies * planes * bytes_per_plane / ((array_us + data_in_us) * 1e-6) / 1e6;  // MB/s
}

PlatformConfig ufs31() {
  ConfigTree tree;
  tree.load("ufs31");
  PlatformConfig c;
  c.bind(tree);
  return c;
}

// The dies' TLC-direct rate: a word line (program_pages pages per plane) per t_prog_us.
double tlc_bound(const PlatformConfig& c) {
  return die_bound(c, double(c.nand.page_bytes) * c.firmware.program_pages, c.nand.t_prog_us);
}
}  // namespace

TEST_CASE("TLC-direct sequential writes on ufs31 are bound by the word-line program time (eUFS 3.0: 410 MB/s)",
          "[system][write-path]") {
  const RunResult r = sequential_writes({"writebooster.enabled=false"});
  CHECK(r.mismatches == 0);
  CHECK(r.stats["flash"]["rule_violations"].get<uint64_t>() == 0);
  const double bound = tlc_bound(ufs31());
  const double mbps = write_mb_s(r);
  INFO("model " << mbps << " MB/s, dies' TLC bound " << bound << " MB/s");
  CHECK(mbps <= bound * 1.01);
  CHECK(mbps > bound * 0.9);                          // the dies bind
  CHECK(mbps == Approx(410).epsilon(0.15));           // Samsung's eUFS 3.0, the calibration
}

TEST_CASE("With WriteBooster (on by default) the same writes reach the published 1200 MB/s, over 2.5x TLC-direct",
          "[system][write-path][writebooster]") {
  const RunResult r = sequential_writes({});
  CHECK(r.mismatches == 0);
  CHECK(r.stats["writebooster"]["slc_write_bytes"].get<uint64_t>() > 450ull << 20);  // some still in the cache
  CHECK(r.stats["writebooster"]["tlc_write_bytes"].get<uint64_t>() == 0);
  const double tlc = tlc_bound(ufs31());
  const double mbps = write_mb_s(r);
  INFO("model " << mbps << " MB/s, dies' TLC bound " << tlc << " MB/s");
  CHECK(mbps == Approx(1200).epsilon(0.15));
  CHECK(mbps > 2.5 * tlc);
}

TEST_CASE("With a 1.2 GHz core the SLC buffer's writes reach the dies' two-plane SLC rate", "[system][write-path][writebooster]") {
  const RunResult r = sequential_writes({"cpu.clock_mhz=1200"});
  CHECK(r.mismatches == 0);
  CHECK(r.stats["flash"]["rule_violations"].get<uint64_t>() == 0);
  const PlatformConfig c = ufs31();
  // An SLC program unit: program_pages pages of one plane, one t_prog_slc_us each.
  const double pages = c.firmware.program_pages;
  const double bound = die_bound(c, double(c.nand.page_bytes) * pages, pages * c.nand.t_prog_slc_us);
  const double mbps = write_mb_s(r);
  INFO("model " << mbps << " MB/s, dies' two-plane SLC bound " << bound << " MB/s");
  CHECK(mbps <= bound * 1.01);
  CHECK(mbps > bound * 0.85);  // single-plane SLC programs would give about half
}
