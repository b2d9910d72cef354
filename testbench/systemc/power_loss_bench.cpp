// Sudden power-off of the whole system: a mixed random workload with SYNCHRONIZE
// CACHE (or FUA) and GC running on the small test preset, power cut at a random
// instant (fault.spo_at=random), a fresh firmware recovers from the NAND alone and
// every LBA the run touched is read back against what the scoreboard recorded as
// durable. One cut per process (SystemC elaborates once), so one per test case.
#include <catch2/catch.hpp>
#include "platform/simulation.h"

using namespace ufs;

namespace {
RunResult cut_power(uint32_t seed, const std::string& sync) {
  RunOptions o;
  o.preset = "test-small";
  o.precondition_fill_bytes = 150ull << 20;  // nearly full (about 153 MiB exported): GC runs early
  o.workload = "rw=randrw,rwmixread=30,bsrange=4k-32k,iodepth=8,numjobs=4,runtime=1500ms,seed=" +
               std::to_string(seed) + "," + sync;
  o.sets = {"fault.spo_at=random", "fault.seed=" + std::to_string(seed)};
  o.quiet = true;
  o.progress = false;
  return run_simulation(o);
}

void check_recovered(const RunResult& r) {
  INFO(r.stats["power_loss"].dump(2));
  const auto& pl = r.stats["power_loss"];
  CHECK(pl["lost"].get<uint64_t>() == 0);
  CHECK(pl["wrong"].get<uint64_t>() == 0);
  CHECK(r.mismatches == 0);
  CHECK(pl["durable_blocks"].get<uint64_t>() > 1000);
  CHECK(pl["checked_blocks"].get<uint64_t>() >= pl["durable_blocks"].get<uint64_t>());
  CHECK(pl["recovery_ms"].get<double>() > 0.0);
  CHECK(pl["recovery_page_reads"].get<uint64_t>() > 0);
  CHECK(r.stats["ftl"]["gc_victims"].get<uint64_t>() > 0);  // GC was running when power went
  CHECK(r.stats["flash"]["rule_violations"].get<uint64_t>() == 0);
}
}  // namespace

TEST_CASE("Power cut at a random instant (seed 1) with fsync: no durable block lost", "[system][power-loss]") {
  check_recovered(cut_power(1, "fsync=32"));
}
TEST_CASE("Power cut at a random instant (seed 2) with fsync: no durable block lost", "[system][power-loss]") {
  check_recovered(cut_power(2, "fsync=32"));
}
TEST_CASE("Power cut at a random instant (seed 3) with fsync: no durable block lost", "[system][power-loss]") {
  check_recovered(cut_power(3, "fsync=8"));
}
TEST_CASE("Power cut at a random instant (seed 4) with fsync: no durable block lost", "[system][power-loss]") {
  check_recovered(cut_power(4, "fsync=64"));
}
TEST_CASE("Power cut at a random instant (seed 5) with FUA writes: no durable block lost", "[system][power-loss]") {
  check_recovered(cut_power(5, "fua=1"));
}
TEST_CASE("Power cut at a random instant (seed 6) with FUA writes: no durable block lost", "[system][power-loss]") {
  check_recovered(cut_power(6, "fua=1"));
}

TEST_CASE("fault.spo_at=random without a runtime is a configuration error", "[system][power-loss][errors]") {
  RunOptions o;
  o.preset = "test-small";
  o.workload = "rw=randwrite,count=100";
  o.sets = {"fault.spo_at=random"};
  o.quiet = true;
  o.progress = false;
  CHECK_THROWS_WITH(run_simulation(o), Catch::Contains("fault.spo_at"));
}
