// The firmware's RAM against the controller's SRAM (issue 20): stats.json's firmware_ram
// names each bounded table, their sum fits memory.firmware_sram_kib, the map cache's frames
// are the L2P SRAM's, and a run whose tables do not fit stops at start naming the key.
#include <catch2/catch.hpp>
#include <string>
#include <vector>
#include "config/config_error.h"
#include "platform/simulation.h"

using namespace ufs;

namespace firmware_ram_bench {

nlohmann::json run_ram(const std::string& workload, std::vector<std::string> sets = {}, uint64_t fill = 0,
                       const std::string& preset = "test-small") {
  RunOptions o;
  o.quiet = true;
  o.progress = false;
  o.preset = preset;
  o.workload = workload;
  o.sets = std::move(sets);
  o.precondition_fill_bytes = fill;
  const RunResult r = run_simulation(o);
  REQUIRE(r.mismatches == 0);
  return r.stats.at("firmware_ram");
}

double table_sum(const nlohmann::json& ram) {
  double sum = 0;
  for (const auto& t : ram.at("tables").items()) sum += t.value().get<double>();
  return sum;
}

TEST_CASE("stats.json firmware_ram: the tables by name add up and fit the SRAM, the cache's frames are the L2P SRAM",
          "[stats][firmware_ram]") {
  const nlohmann::json ram = run_ram("rw=randwrite,bs=4k,iodepth=8,count=2000,seed=3");
  INFO(ram.dump(2));
  const double tables = ram.at("tables_kib").get<double>();
  CHECK(table_sum(ram) == Approx(tables));
  CHECK(ram.at("sram_kib").get<double>() == 24576);  // ufs31's, which test-small keeps
  CHECK(ram.at("sram_used").get<double>() == Approx(tables / 24576));
  CHECK(tables < 24576);
  // test-small: 4 dies x 2 planes x 16 blocks of 96 pages x 4 sectors: 128 blocks x 6 words.
  CHECK(ram.at("tables").at("validity bitmaps").get<double>() == Approx(128 * 6 * 8 / 1024.0));
  CHECK(ram.at("tables").at("block table").get<double>() > 128 * 16 / 1024.0);
  CHECK(ram.at("tables").at("map directory").get<double>() > 0);
  CHECK(ram.at("tables").at("write cache").get<double>() > 0);
  CHECK_FALSE(ram.at("tables").contains("hpb regions"));
  // 1 MiB of L2P SRAM holds 64 map pages of 16 KiB: all of it.
  CHECK(ram.at("l2p_sram_kib").get<double>() == 1024);
  CHECK(ram.at("map_cache_kib").get<double>() == 1024);
  // No whole map (issue 20: the map pages on NAND hold the entries); the frames a write-back holds
  // and the loads' buffers are tables. Apart: power-loss recovery's tables (transient), whose
  // replay table is at most the L2P SRAM's size.
  CHECK(ram.at("map_shadow_kib").get<double>() == 0);
  CHECK(ram.at("tables").at("map write-back buffers").get<double>() > 0);
  CHECK(ram.at("recovery_scan_kib").get<double>() > 960);   // ten map pages' replay table of 96 KiB
  CHECK(ram.at("recovery_scan_kib").get<double>() < 1024 + 128);
}

// Power-loss recovery rebuilds the map from the map pages on NAND and replays only the data
// newer than their copies (ftl/recovery.h): its RAM is per block and per map page, not per LBA.
// ufs31 (512 GB, 125 M LBAs): the OOB scan's per-LBA tables took 2,443,287 KiB (2.3 GiB).
TEST_CASE("firmware_ram: power-loss recovery's tables on ufs31 are a few MiB and not per LBA", "[stats][firmware_ram][recovery]") {
  const nlohmann::json ram = run_ram("rw=randread,bs=4k,count=10,seed=3", {}, 0, "ufs31");
  INFO(ram.dump(2));
  const double kib = ram.at("recovery_scan_kib").get<double>();
  CHECK(kib < 4096);
  // The replay table (ten map pages of 4096 entries, 24 B each: the 1 MiB L2P SRAM's worth)
  // and per map page (30,518 of them) and per block.
  CHECK(kib > 960 + 30518 * 32 / 1024.0);
}

// One run per test case: the SystemC kernel elaborates once per process.
TEST_CASE("stats.json firmware_ram: HPB's region tables count", "[stats][firmware_ram]") {
  const nlohmann::json hpb = run_ram("rw=randread,bs=4k,iodepth=8,count=200,seed=3",
                                     {"hpb.enabled=true", "crypto.model=cpp"}, 64ull << 20);
  INFO(hpb.dump(2));
  CHECK(hpb.at("tables").at("hpb regions").get<double>() > 0);
  CHECK_FALSE(hpb.at("tables").contains("hpb updated entries"));  // JEDEC HPB: no entries tracked
  CHECK(table_sum(hpb) == Approx(hpb.at("tables_kib").get<double>()));
}

// HotStorage'17's updated entries (hpb.response_entries): the table of tracked changes is
// sized at start from hpb.response_delta_entries (hpb/hpb_change_table.h) and counts.
TEST_CASE("stats.json firmware_ram: HPB's updated-entry table counts, as sized from response_delta_entries",
          "[stats][firmware_ram]") {
  const nlohmann::json hpb =
      run_ram("rw=randrw,bs=4k,iodepth=8,count=400,seed=3",
              {"hpb.enabled=true", "crypto.model=cpp", "hpb.response_entries=1", "hpb.response_delta_entries=1000"},
              64ull << 20);
  INFO(hpb.dump(2));
  // 1,000 entries of 12 B, an index of 2,048 slots of 4 B, 4 B for each of test-small's
  // sub-regions (16 MiB each: fewer than 64).
  const double kib = hpb.at("tables").at("hpb updated entries").get<double>();
  CHECK(kib >= (1000 * 12 + 2048 * 4) / 1024.0);
  CHECK(kib < (1000 * 12 + 2048 * 4 + 64 * 4) / 1024.0);
  CHECK(hpb.at("tables").contains("hpb regions"));
  CHECK(table_sum(hpb) == Approx(hpb.at("tables_kib").get<double>()));
}

TEST_CASE("stats.json firmware_ram: without the map cache no directory and no frames (the whole map resident)",
          "[stats][firmware_ram]") {
  const nlohmann::json resident = run_ram("rw=randwrite,bs=4k,iodepth=8,count=200,seed=3", {"firmware.map_cache=false"});
  INFO(resident.dump(2));
  CHECK_FALSE(resident.at("tables").contains("map directory"));
  CHECK(resident.at("map_cache_kib").get<double>() == 0);
  CHECK(resident.at("map_shadow_kib").get<double>() > 0);
}

TEST_CASE("firmware_ram: tables fit one KiB more SRAM than they need", "[stats][firmware_ram]") {
  // test-small: 37 KiB of tables (the map directory with the frames' tables and the 16 KiB peek
  // buffer) and 288 KiB of map write-back buffers (6 units x 3 pages x 16 KiB).
  const nlohmann::json ram = run_ram("rw=randread,count=10", {"memory.firmware_sram_kib=327"});
  CHECK(ram.at("tables_kib").get<double>() > 325);
  CHECK(ram.at("sram_used").get<double>() <= 1.0);
}

#ifdef UFS_HAVE_ISS
TEST_CASE("firmware_ram on the core: the heap's high-water mark holds the tables", "[stats][firmware_ram][iss]") {
  const nlohmann::json ram = run_ram("rw=randwrite,bs=4k,iodepth=8,count=200,seed=3", {"cpu.model=iss"});
  INFO(ram.dump(2));
  // The bitmaps are 64-bit words on either core; the target's other tables are no larger than the host's.
  CHECK(ram.at("iss_heap_kib").get<double>() > ram.at("tables").at("validity bitmaps").get<double>());
  CHECK(ram.at("iss_heap_kib").get<double>() < 8 * ram.at("tables_kib").get<double>() + 1024);
  CHECK_FALSE(ram.contains("map_shadow_kib"));  // the heap on the core holds it
}
#endif

TEST_CASE("firmware_ram: tables that do not fit memory.firmware_sram_kib stop the run at start, naming the key and "
          "the tables",
          "[stats][firmware_ram]") {
  RunOptions o;
  o.quiet = true;
  o.progress = false;
  o.preset = "test-small";
  o.workload = "rw=randread,count=10";
  o.sets = {"memory.firmware_sram_kib=16"};
  std::string message;
  try {
    run_simulation(o);
  } catch (const ConfigError& e) {
    message = e.what();
  }
  INFO(message);
  CHECK(message.rfind("memory.firmware_sram_kib: 16 KiB of SRAM cannot hold the firmware's tables: they need ", 0) == 0);
  CHECK(message.find("validity bitmaps 6 KiB") != std::string::npos);
  CHECK(message.find('\n') == std::string::npos);
}

}  // namespace firmware_ram_bench
