// Grown bad blocks: program and erase failures injected into the NAND while a mixed
// random workload overwrites the small test device with GC running. The firmware
// retires every failing block (after moving its valid data out) and no block is lost.
// (Retired blocks come out of the spare: this small device has about 8 spare blocks per
// die, so the rates are low enough to leave it room; when the spare is gone it stops.)
#include <catch2/catch.hpp>
#include "platform/simulation.h"

using namespace ufs;

TEST_CASE("Program and erase failures retire blocks without losing data", "[system][badblock]") {
  RunOptions o;
  o.preset = "test-small";
  o.workload = "rw=randrw,rwmixread=40,bsrange=4k-32k,iodepth=8,numjobs=4,count=100000,seed=10";
  o.sets = {"nand.program_fail_probability=0.00003", "nand.erase_fail_probability=0.001"};
  o.quiet = true;
  o.progress = false;
  const RunResult r = run_simulation(o);
  INFO(r.stats["ftl"].dump(2));
  CHECK(r.mismatches == 0);
  CHECK(r.stats["scoreboard"]["checked_blocks"].get<uint64_t>() > 100000);
  CHECK(r.stats["ftl"]["program_failures"].get<uint64_t>() > 0);
  CHECK(r.stats["ftl"]["erase_failures"].get<uint64_t>() > 0);
  CHECK(r.stats["ftl"]["bad_blocks"].get<uint64_t>() >= r.stats["ftl"]["erase_failures"].get<uint64_t>());
  CHECK(r.stats["flash"]["rule_violations"].get<uint64_t>() == 0);
}
