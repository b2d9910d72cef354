// The map in NAND (issue 20): the map writer programs each map page's L2P entries with the page
// (the NAND model stores them) and the firmware keeps no whole map: its lookups find the write
// cache's entries, the SRAM frames, else the map page on NAND. firmware.map_verify keeps a
// whole-map shadow and checks every lookup against it, and every map page load: each loaded copy
// whose page has not changed since it was programmed equals the shadow entry for entry.
#include <catch2/catch.hpp>
#include <string>
#include <vector>
#include "platform/simulation.h"

using namespace ufs;

namespace map_in_nand_bench {

nlohmann::json run_verified(RunOptions o) {
  o.quiet = true;
  o.progress = false;
  o.preset = "test-small";
  o.sets.push_back("firmware.map_verify=true");
  const RunResult r = run_simulation(o);
  REQUIRE(r.mismatches == 0);
  const nlohmann::json& v = r.stats.at("ftl").at("map_cache").at("verify");
  INFO(v.dump(2));
  CHECK(v.at("mismatches").get<uint64_t>() == 0);
  CHECK_FALSE(v.contains("first_mismatch"));
  CHECK(v.at("lookup_mismatches").get<uint64_t>() == 0);
  CHECK_FALSE(v.contains("first_lookup_mismatch"));
  CHECK(v.at("lookups").get<uint64_t>() > 1000);
  return r.stats;
}

TEST_CASE("Map in NAND: map pages loaded with their entries equal the map, written by random writes through a small "
          "map cache",
          "[map_in_nand]") {
  RunOptions o;
  // Written at random through the write path with 2 map
  // pages of SRAM: pages evicted dirty go back with their entries; then read at random: every
  // load is compared with the map (or, a newer copy still programming, with what it was programmed as).
  o.precondition_workload = "rw=randwrite,bs=4k,iodepth=16,size=80m,count=20000,seed=1";
  o.workload = "rw=randread,bs=4k,iodepth=16,size=80m,count=4000,seed=2";
  o.sets = {"memory.l2p_sram_kib=32"};
  const nlohmann::json s = run_verified(o);
  const nlohmann::json& v = s.at("ftl").at("map_cache").at("verify");
  CHECK(v.at("equal").get<uint64_t>() > 1000);
  CHECK(v.at("entries").get<uint64_t>() > 1000 * 4096);
  CHECK(v.at("intact").get<uint64_t>() > 0);
  CHECK(v.at("older").get<uint64_t>() == 0);
  CHECK(v.at("no_entries").get<uint64_t>() == 0);
}

TEST_CASE("Map in NAND: entries stay right through GC of map blocks, trims and a backdoor fill",
          "[map_in_nand]") {
  RunOptions o;
  o.precondition_fill_bytes = 140ull << 20;
  o.precondition_workload = "rw=randtrim,bs=64k,iodepth=8,count=600,seed=13";
  o.workload = "rw=randrw,bs=8k,iodepth=16,count=12000,seed=14,fsync=64";
  o.sets = {"memory.l2p_sram_kib=16", "firmware.map_cache_policy=fifo"};
  const nlohmann::json s = run_verified(o);
  const nlohmann::json& v = s.at("ftl").at("map_cache").at("verify");
  CHECK(v.at("equal").get<uint64_t>() + v.at("intact").get<uint64_t>() > 100);
  CHECK(s.at("ftl").at("map_cache").at("relocations").get<uint64_t>() > 0);
}

TEST_CASE("Map in NAND: a backdoor fill's map pages carry their entries", "[map_in_nand]") {
  RunOptions o;
  // Only reads after the fill: every map page loaded is the copy the fill wrote, so each load
  // compares the whole page with the map.
  o.precondition_fill_bytes = 80ull << 20;
  o.workload = "rw=randread,bs=4k,iodepth=8,size=80m,count=3000,seed=5";
  o.sets = {"memory.l2p_sram_kib=16"};
  const nlohmann::json s = run_verified(o);
  const nlohmann::json& v = s.at("ftl").at("map_cache").at("verify");
  const uint64_t loads = s.at("ftl").at("map_cache").at("page_loads").get<uint64_t>();
  CHECK(loads > 100);
  CHECK(v.at("no_entries").get<uint64_t>() == 0);
  CHECK(v.at("equal").get<uint64_t>() == loads);
  CHECK(v.at("entries").get<uint64_t>() == loads * 4096);  // 16 KiB map pages
}

TEST_CASE("Map in NAND: mixed I/O with GC, HPB, WriteBooster and a power cut, every lookup the shadow's",
          "[map_in_nand][power-loss]") {
  RunOptions o;
  o.precondition_fill_bytes = 140ull << 20;  // nearly full: GC runs before the cut (at ~1 s)
  o.workload = "rw=randrw,rwmixread=30,bsrange=4k-32k,iodepth=8,numjobs=2,runtime=1500ms,seed=21,fsync=48";
  o.sets = {"memory.l2p_sram_kib=16", "nand.pages_per_block=144", "writebooster.enabled=true",
            "writebooster.buffer_mib=8", "hpb.enabled=true", "hpb.control_mode=host", "hpb.host.activation_reads=2",
            "hpb.max_active_regions=4", "fault.spo_at=random", "fault.seed=21"};
  const nlohmann::json s = run_verified(o);
  const nlohmann::json& m = s.at("ftl").at("map_cache");
  INFO(m.dump(2));
  CHECK(s.at("ftl").at("gc_victims").get<uint64_t>() > 0);
  CHECK(m.at("peeked_pages").get<uint64_t>() > 0);
  CHECK(m.at("page_writes").get<uint64_t>() > 0);
  CHECK(s.at("hpb").at("host").at("hpb_reads").get<uint64_t>() > 0);
  const nlohmann::json& pl = s.at("power_loss");
  INFO(pl.dump(2));
  CHECK(pl.at("lost").get<uint64_t>() == 0);
  CHECK(pl.at("wrong").get<uint64_t>() == 0);
  CHECK(pl.at("durable_blocks").get<uint64_t>() > 1000);
  // The recovered firmware's lookups (recovery's comparisons with the map pages, the read-back).
  CHECK(pl.at("map_lookups").get<uint64_t>() > 10000);
  CHECK(pl.at("map_lookup_mismatches").get<uint64_t>() == 0);
}

#ifdef UFS_HAVE_ISS
TEST_CASE("Map in NAND on the core: the entries cross in target RAM and equal the map", "[map_in_nand][iss]") {
  RunOptions o;
  o.precondition_workload = "rw=randwrite,bs=4k,iodepth=16,size=80m,count=6000,seed=1";
  o.workload = "rw=randread,bs=4k,iodepth=16,size=80m,count=1000,seed=2";
  o.sets = {"memory.l2p_sram_kib=32", "cpu.model=iss"};
  const nlohmann::json s = run_verified(o);
  const nlohmann::json& v = s.at("ftl").at("map_cache").at("verify");
  CHECK(v.at("equal").get<uint64_t>() + v.at("intact").get<uint64_t>() > 50);
}
#endif

}  // namespace map_in_nand_bench
