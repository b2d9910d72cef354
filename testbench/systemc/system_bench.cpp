// Whole-system tests: host -> link -> host interface -> firmware -> flash demux
// -> NAND and back, on the small test preset, with the scoreboard on.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include "platform/simulation.h"
#include "platform/ufs_platform.h"
#include "config/config_tree.h"

using namespace ufs;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace system_bench {

namespace {
// A run that prints nothing (the test reads its statistics).
RunOptions quiet_options() {
  RunOptions o;
  o.quiet = true;
  o.progress = false;
  return o;
}
}  // namespace

TEST_CASE("200K mixed random I/Os overwrite a small device several times with 0 mismatches", "[system][gc]") {
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.workload = "rw=randrw,rwmixread=50,bsrange=4k-32k,iodepth=8,numjobs=4,count=200000,seed=11";
  const RunResult r = run_simulation(o);
  INFO(r.stats.dump(2));
  CHECK(r.mismatches == 0);
  CHECK(r.stats["scoreboard"]["checked_blocks"].get<uint64_t>() > 200000);
  const uint64_t written = r.stats["ftl"]["host_write_blocks"].get<uint64_t>();
  const uint64_t capacity = r.stats["ftl"]["logical_blocks"].get<uint64_t>();
  CHECK(written > 3 * capacity);  // overwritten several times
  CHECK(r.stats["ftl"]["gc_victims"].get<uint64_t>() > 100);
  CHECK(r.stats["ftl"]["erases"].get<uint64_t>() > 100);
  CHECK(r.stats["ftl"]["write_amplification"].get<double>() > 1.0);
  CHECK(r.stats["flash"]["rule_violations"].get<uint64_t>() == 0);
  CHECK(r.stats["errors"].get<uint64_t>() == 0);
}

namespace {
PlatformConfig small_config() {
  ConfigTree tree;
  tree.load("test-small");
  PlatformConfig c;
  c.bind(tree);
  return c;
}
RawCommand cdb_command(std::initializer_list<uint8_t> bytes, DataDirection dir, uint32_t length) {
  RawCommand c;
  size_t i = 0;
  for (uint8_t b : bytes) c.command.cdb[i++] = b;
  c.command.direction = dir;
  c.command.expected_length = length;
  return c;
}
}  // namespace

TEST_CASE("Bad commands get CHECK CONDITION ILLEGAL REQUEST and the device goes on serving", "[system][errors]") {
  UfsPlatform p("ufs", small_config());
  const uint64_t cap = p.firmware().logical_blocks();
  std::vector<RawResult> results;
  auto keep = [&](const RawResult& r) { results.push_back(r); };
  p.host.submit_raw(cdb_command({0xEE}, DataDirection::None, 0), keep);                         // unknown opcode
  p.host.submit_raw(cdb_command({0x28, 0, uint8_t(cap >> 24), uint8_t(cap >> 16), uint8_t(cap >> 8), uint8_t(cap), 0, 0, 1},
                                DataDirection::Read, 4096), keep);                             // LBA out of range
  p.host.submit_raw(cdb_command({0x28, 0, 0, 0, 0, 0, 0, 0, 0}, DataDirection::Read, 0), keep);  // zero length
  p.host.submit_raw(cdb_command({0x28, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF}, DataDirection::Read, 65535u * 4096), keep);  // oversized
  p.host.submit_raw(cdb_command({0x00}, DataDirection::None, 0), keep);                         // TEST UNIT READY
  p.host.submit_raw(cdb_command({0x12, 0, 0, 0, 36, 0}, DataDirection::Read, 36), keep);         // INQUIRY
  p.host.submit_raw(cdb_command({0x25}, DataDirection::Read, 8), keep);                         // READ CAPACITY(10)
  sc_core::sc_start();
  REQUIRE(results.size() == 7);
  int illegal = 0, good = 0;
  for (const auto& r : results) {
    if (r.response.status == scsi_status::kCheckCondition) {
      CHECK(r.response.sense_key == sense_key::kIllegalRequest);
      CHECK((r.response.asc == asc::kInvalidOpcode || r.response.asc == asc::kLbaOutOfRange ||
             r.response.asc == asc::kInvalidFieldInCdb));
      ++illegal;
    } else {
      CHECK(r.response.status == scsi_status::kGood);
      ++good;
    }
  }
  CHECK(illegal == 4);
  CHECK(good == 3);
  bool saw_capacity = false;
  for (const auto& r : results)
    if (r.data_in_bytes == 8) {
      const uint64_t last = uint64_t(r.data_in[0]) << 24 | r.data_in[1] << 16 | r.data_in[2] << 8 | r.data_in[3];
      CHECK(last == cap - 1);
      saw_capacity = true;
    }
  CHECK(saw_capacity);
}

TEST_CASE("Sequential read and write on the default preset land near the published device", "[system][ufs31]") {
  // A short run: the published figures are checked by `ufs-sim experiment ufs31-validation`.
  RunOptions o = quiet_options();
  o.preset = "ufs31";
  o.workload = "rw=read,bs=512k,iodepth=32,numjobs=1,size=1g,count=2000";
  o.precondition_fill_bytes = 1ull << 30;
  const RunResult r = run_simulation(o);
  CHECK(r.mismatches == 0);
  const double mbps = r.stats["ops"]["read"]["mb_per_s"].get<double>();
  CHECK(mbps > 2100 * 0.85);
  CHECK(mbps < 2100 * 1.15);
}

TEST_CASE("The firmware loads its session key into the crypto engine over the bus and jobs reach it", "[system][crypto]") {
  UfsPlatform p("ufs", small_config());
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
  CHECK(p.firmware().stats().session_keys_loaded == 1);
  CHECK((p.crypto.peek_register(hpb_crypto_reg::kStatus) & hpb_crypto_reg::kStatusKeyValid) != 0);
  HpbCryptoJob sign;
  sign.kind = HpbCryptoJob::Sign;
  sign.lba = 1234;
  sign.ppn = 0xABCDE;
  p.crypto.submit(sign);
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
  CHECK(p.crypto.jobs_signed() == 1);
  CHECK(p.firmware().stats().crypto_results == 1);
  CHECK(p.firmware().stats().crypto_rejected == 0);
}

TEST_CASE("Hybrid page size: mixed I/O on 4 KiB- and 8 KiB-page blocks with GC and 0 mismatches", "[system][hybrid]") {
  // The IISWC'15 HPS eMMC shrunk to 64 MiB (16 + 8 blocks of 64 pages per plane), overwritten
  // by random reads and writes of 4-36 KiB: both pools fill and GC runs on real dies.
  RunOptions o = quiet_options();
  o.preset = "iiswc15-emmc-hps";
  o.workload = "rw=randrw,rwmixread=30,bsrange=4k-36k,iodepth=8,count=20000,size=40m,seed=3";
  o.sets = {"nand.blocks_per_plane=24", "nand.hybrid_small_blocks_per_plane=16", "nand.pages_per_block=64",
            "firmware.over_provisioning=0.25"};
  const RunResult r = run_simulation(o);
  INFO(r.stats["ftl"].dump(2));
  CHECK(r.mismatches == 0);
  CHECK(r.stats["scoreboard"]["checked_blocks"].get<uint64_t>() > 20000);
  const auto& ftl = r.stats["ftl"];
  CHECK(ftl["host_write_blocks"].get<uint64_t>() > 2 * ftl["logical_blocks"].get<uint64_t>());
  CHECK(ftl["gc_victims"].get<uint64_t>() > 100);
  CHECK(ftl["host_page_sectors"].get<uint64_t>() == ftl["host_program_sectors"].get<uint64_t>());  // no padding
  CHECK(r.stats["flash"]["rule_violations"].get<uint64_t>() == 0);
  CHECK(r.stats["errors"].get<uint64_t>() == 0);
}

TEST_CASE("WriteBooster: SLC buffer writes, idle flushes and GC on real dies with 0 mismatches", "[system][writebooster]") {
  // Random mixed I/O with think time: the buffer fills, idle gaps flush it into TLC, the
  // device is overwritten (GC runs); every SLC block is accessed in SLC mode by the dies.
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.workload = "rw=randrw,rwmixread=50,bsrange=4k-64k,iodepth=4,count=30000,seed=5,thinktime=400";
  o.sets = {"nand.pages_per_block=144", "writebooster.enabled=true", "writebooster.buffer_mib=8",
            "writebooster.idle_flush_us=100"};
  const RunResult r = run_simulation(o);
  INFO(r.stats["writebooster"].dump(2));
  CHECK(r.mismatches == 0);
  CHECK(r.stats["scoreboard"]["checked_blocks"].get<uint64_t>() > 100000);
  const auto& wb = r.stats["writebooster"];
  CHECK(wb["slc_blocks"].get<uint64_t>() == 12);
  CHECK(wb["slc_write_bytes"].get<uint64_t>() > 100ull << 20);
  CHECK(wb["tlc_write_bytes"].get<uint64_t>() > 0);  // bursts that outran the buffer
  CHECK(wb["flushed_bytes"].get<uint64_t>() > 100ull << 20);
  CHECK(wb["idle_flushes"].get<uint64_t>() > 100);
  CHECK(r.stats["ftl"]["gc_victims"].get<uint64_t>() > 0);
  CHECK(r.stats["flash"]["rule_violations"].get<uint64_t>() == 0);
  CHECK(r.stats["errors"].get<uint64_t>() == 0);
}

// The flagship case of `make run`, scaled down: random reads over a range four times what
// the L2P SRAM covers (256 KiB of map cache = 256 MiB of LBAs), warmed by one unmeasured
// pass. Without HPB about 3 in 4 reads would load a map page from NAND; HPB must turn
// most of them into verified HPB READs. The crypto engine's results reach the firmware
// through its completion FIFO, so signing thousands of entries for READ BUFFER costs far
// fewer interrupts than entries. (One simulation per process: the HPB-off side of the
// comparison is `make run` and the linux-iozone study.)
TEST_CASE("HPB READ replaces map loads for random reads beyond the map cache, and crypto results are coalesced",
          "[system][hpb]") {
  RunOptions o = quiet_options();
  o.preset = "ufs31";
  o.sets = {"memory.l2p_sram_kib=256", "hpb.enabled=true", "crypto.model=cpp"};
  o.precondition_fill_bytes = 1ull << 30;
  o.precondition_workload = "rw=randread,bs=4k,iodepth=32,size=1g,count=30000,seed=1";
  o.workload = "rw=randread,bs=4k,iodepth=32,size=1g,count=20000,seed=2";
  const RunResult r = run_simulation(o);
  INFO(r.stats["hpb"].dump(2));
  CHECK(r.mismatches == 0);
  const auto& dev = r.stats["hpb"]["device"];
  const uint64_t reads = 50000;
  CHECK(dev["verified"].get<uint64_t>() > reads / 2);
  CHECK(dev["rejected_forged"].get<uint64_t>() == 0);
  CHECK(r.stats["ftl"]["map_cache"]["page_loads"].get<uint64_t>() < reads / 4);
  const auto& crypto = r.stats["crypto"];
  CHECK(crypto["completion_interrupts"].get<uint64_t>() * 4 <
        crypto["jobs_signed"].get<uint64_t>() + crypto["jobs_verified"].get<uint64_t>());
}

// A mobile trace's process names are its streams in stats.json (the reader learns them
// as it reads, so the names are taken after the run).
TEST_CASE("A replayed mobile trace's streams carry its process names in the statistics", "[system][trace]") {
  const std::string path = "system_bench_streams.csv";
  {
    std::ofstream out(path);
    out << "proces,device,rw_flag,sector,size,timestamp\n";
    for (int i = 0; i < 50; ++i)
      out << (i % 2 ? "browser" : "camera-bg") << ",0," << (i % 2 ? "R" : "W") << "," << i * 64 << ",8,"
          << 0.001 * i << "\n";
  }
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.workload = "trace:mobile:" + path;
  o.precondition_fill_bytes = 1 << 20;
  const RunResult r = run_simulation(o);
  std::remove(path.c_str());
  INFO(r.stats["streams"].dump(2));
  CHECK(r.mismatches == 0);
  REQUIRE(r.stats["streams"].contains("browser"));
  REQUIRE(r.stats["streams"].contains("camera-bg"));
  CHECK(r.stats["streams"]["browser"]["count"].get<uint64_t>() == 25);
}

// Apps in a run (host_memory.enabled) with HPBvalve: launches are counted per app from the
// streams, the foreground's launch reads become HPB READs once their sub-regions are
// cached, and the regulator gives HPB memory back when a third app does not fit.
TEST_CASE("App switches in a run: launches, HPBvalve hits and the regulator with 0 mismatches",
          "[system][apps][hpbvalve]") {
  const std::string path = "system_bench_apps.csv";
  {
    // Three apps, each reading three times through its own 100 HPB sub-regions (16 MiB
    // each: 100 x 32 KiB = 3.1 MiB of host entries per app), launched twice (a b c a b c),
    // with a background writer for the previous app. A launch's 300 reads come 1 ms apart
    // (300 ms, an app cold start's order): the device reads the 409,600 entries of an app's
    // sub-regions into sign batches, 90 cycles an entry and 860 a 512-entry batch
    // (hpb.cycles_sign_entry / cycles_sign_batch, measured on the core), 62 ms of its 600 MHz
    // core, so HPBvalve's loads arrive within a launch of that length.
    std::ofstream out(path);
    out << "proces,device,rw_flag,sector,size,timestamp\n";
    const char* const apps[] = {"a", "b", "c"};
    double t = 0.001;
    for (int launch = 0; launch < 6; ++launch) {
      const int app = launch % 3;
      for (int i = 0; i < 300; ++i) {
        const uint64_t block = (uint64_t(app) * 100 + uint64_t(i % 100)) * 4096 + (uint64_t(i) * 7) % 4096;
        out << apps[app] << ",0,R," << block * 8 << ",8," << t << "\n";
        if (launch > 0 && i % 10 == 0)
          out << apps[(launch + 2) % 3] << "-bg,0,W," << (uint64_t((launch + 2) % 3) * 100 * 4096 + 3000 + i) * 8 << ",8,"
              << t << "\n";
        t += 0.001;
      }
      t += 0.5;
    }
  }
  RunOptions o = quiet_options();
  o.preset = "ufs31";
  o.sets = {"hpb.enabled=true", "hpb.host.policy=hpbvalve", "crypto.model=cpp", "host_memory.enabled=true",
            // 5 MiB above the apps and lmkd's threshold: one app's entries fit, two do not.
            "host_memory.apps=a=300,b=300,c=300", "host_memory.total_mib=1005", "host_memory.reserved_mib=0",
            "host_memory.lmk_minfree_mib=100", "host_memory.launch_reads=300"};
  o.workload = "trace:mobile:" + path;
  o.precondition_fill_bytes = 5ull << 30;
  const RunResult r = run_simulation(o);
  std::remove(path.c_str());
  INFO(r.stats["apps"].dump(2));
  CHECK(r.mismatches == 0);
  const auto& a = r.stats["apps"];
  CHECK(a["launches"].get<uint64_t>() == 6);
  CHECK(a["per_app"]["a"]["launches"].get<uint64_t>() == 2);
  CHECK(a["launch_reads"].get<uint64_t>() == 1800);
  CHECK(a["cold_launches"].get<uint64_t>() == 3);  // first launches only: nobody is killed
  CHECK(a["kills"].get<uint64_t>() == 0);
  CHECK(a["kills_avoided"].get<uint64_t>() >= 1);
  CHECK(a["hpb_bytes_reclaimed"].get<uint64_t>() > 0);
  CHECK(a["launch_hpb_hit_ratio"].get<double>() > 0.3);
  // L2P hits (SRAM or a verified HPB entry) and misses both happen: each app reads 100 map
  // pages' worth of LBAs, more than the 64 map pages of this device's 1 MiB of L2P SRAM.
  CHECK(a["launch_l2p_hit_ratio"].get<double>() > 0.3);
  CHECK(a["launch_l2p_hit_ratio"].get<double>() < 0.9);
  CHECK(a["mean_launch_ms"].get<double>() > 0);
}

// hpb.response_entries (HotStorage'17's prototype) under a random read/write mix: written
// blocks' new entries reach the host in RESPONSEs, HPB READs keep being verified, and the
// scoreboard sees every block right.
TEST_CASE("HPB with updated entries in responses under a read/write mix: entries come back, 0 mismatches",
          "[system][hpb]") {
  RunOptions o = quiet_options();
  o.preset = "ufs31";
  o.sets = {"memory.l2p_sram_kib=256", "hpb.enabled=true", "crypto.model=cpp", "hpb.host.populate_mib=1024",
            "hpb.response_entries=1"};
  o.precondition_fill_bytes = 1ull << 30;
  o.precondition_workload = "rw=randread,bs=4k,iodepth=1,numjobs=4,size=1g,count=4000,seed=7";
  o.workload = "rw=randrw,rwmixread=50,bs=4k,iodepth=1,numjobs=8,size=1g,count=10000,seed=8";
  const RunResult r = run_simulation(o);
  INFO(r.stats["hpb"].dump(2));
  CHECK(r.mismatches == 0);
  const auto& dev = r.stats["hpb"]["device"];
  CHECK(dev["response_entries_sent"].get<uint64_t>() > 1000);
  CHECK(r.stats["hpb"]["host"]["response_entries_used"].get<uint64_t>() > 1000);
  CHECK(dev["verified"].get<uint64_t>() > 3 * dev["rejected_dirty"].get<uint64_t>());
}

// End of life: program failures retire blocks until the spare is gone and GC cannot make a
// free block. The device turns read-only: later writes, UNMAPs and syncs get CHECK CONDITION
// DATA PROTECT / WRITE PROTECTED, reads go on, nothing acknowledged is lost, the run ends.
TEST_CASE("Spare blocks used up by grown bad blocks: the device turns read-only, 0 mismatches",
          "[system][errors][gc]") {
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.sets = {"nand.program_fail_probability=0.002"};
  o.workload = "rw=randrw,bs=4k,iodepth=32,count=300000,fua=1,seed=3";
  const RunResult r = run_simulation(o);
  INFO(r.stats["ftl"].dump(2));
  CHECK(r.mismatches == 0);
  CHECK(r.stats["ftl"]["write_protected"].get<bool>());
  CHECK(r.stats["ftl"]["write_protect_rejects"].get<uint64_t>() > 1000);
  CHECK(r.stats["scoreboard"]["checked_blocks"].get<uint64_t>() > 100000);
  CHECK(r.stats["ops"]["read"]["count"].get<uint64_t>() > 100000);
}

namespace {
// The longest run of 10 ms time-series bins without a completion (the CSV writes a run of
// empty bins as its first and last row), in ms.
double longest_silence_ms(const std::string& csv_path) {
  std::ifstream in(csv_path);
  std::string line;
  std::getline(in, line);  // header
  double longest = 0, start = -1, last = -1;
  while (std::getline(in, line)) {
    double t = 0, r = 0, w = 0;
    if (std::sscanf(line.c_str(), "%lf,%lf,%lf", &t, &r, &w) != 3) continue;
    if (r + w == 0) {
      if (start < 0) start = t;
      last = t;
      longest = std::max(longest, (last - start) * 1000.0 + 10.0);
    } else {
      start = -1;
    }
  }
  return longest;
}

// Issue 14 item 2 at GC steady state with little spare (10%, small blocks, as ufs31's 7%
// leaves its victims mostly valid): host units took a die's free blocks at full speed down
// to the one GC keeps, then waited, all at once, for the many victims it takes to free one;
// every tag held a write and no command completed for up to 110 ms. With
// firmware.gc_host_pacing, host units go to a die in foreground GC as its GC earns them and
// take the room its victim does not need (the last free block, a unit of GC's block): no
// 10 ms interval goes without a completion. (One simulation per process: a test case each.)
void gc_steady_little_spare(bool paced) {
  RunOptions o = quiet_options();
  o.preset = "test-small";
  o.sets = {"nand.blocks_per_plane=64", "nand.pages_per_block=48", "firmware.over_provisioning=0.10",
            "firmware.stripe_order=plane-first",
            paced ? "firmware.gc_host_pacing=true" : "firmware.gc_host_pacing=false"};
  o.precondition_fill_bytes = kFillWholeDevice;
  o.precondition_workload = "rw=randwrite,bs=4k,iodepth=32,count=88000,seed=1";  // about one overwrite
  o.workload = "rw=randrw,rwmixread=70,bs=4k,iodepth=32,count=30000,seed=2";
  char dir[] = "/tmp/ufs-gc-pace-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  o.out_dir = dir;
  const RunResult r = run_simulation(o);
  INFO(r.stats.dump(2));
  CHECK(r.mismatches == 0);
  CHECK(r.stats["errors"].get<uint64_t>() == 0);
  CHECK(r.stats["ftl"]["measured"]["gc_victims"].get<uint64_t>() > 100);  // at GC steady state
  const double silence = longest_silence_ms(std::string(dir) + "/timeseries.csv");
  std::filesystem::remove_all(dir);
  INFO("longest stretch without a completion: " << silence << " ms");
  if (paced) CHECK(silence < 20.0);
  else CHECK(silence >= 40.0);  // the stall pacing removes (80 ms and more before GC stopped padding victims' last units)
}
}  // namespace

TEST_CASE("GC steady state with little spare: host writes at full speed leave 40 ms without a completion",
          "[system][gc]") {
  gc_steady_little_spare(false);
}

TEST_CASE("GC steady state with little spare: paced host writes leave no 20 ms without a completion",
          "[system][gc]") {
  gc_steady_little_spare(true);
}

// Issue 14 item 2 on ufs31 (session 23): ufs31's timing, 64 blocks of 48 pages per plane, 7%
// spare, WriteBooster off, filled, random overwrites, then 70/30 at QD32. A victim holds ~90% of
// its sectors; the padding of its last unit took a third of what it gave back (host units got
// one slot per GC block: WAF exactly 16.00), and host units no die would take filled the write
// cache until every unit freed went to GC: 124 empty 10 ms intervals, 20 ms without a completion
// (at 12bbb68). With a victim's last unit taking the next victim's sectors: no empty interval,
// WAF 8.9. (Host data leaving GC its working set of the cache matters on the 128-block repro in
// README, too slow for a test: 2/1/2 stretches of 20 ms -> 0 over 300K requests.)
TEST_CASE("GC steady state on ufs31 timing with 7% spare: no 20 ms without a completion, no padding", "[system][gc]") {
  RunOptions o = quiet_options();
  o.preset = "ufs31";
  o.sets = {"nand.blocks_per_plane=64", "nand.pages_per_block=48", "writebooster.enabled=false"};
  o.precondition_fill_bytes = kFillWholeDevice;
  o.precondition_workload = "rw=randwrite,bs=4k,iodepth=32,count=200000,seed=1";
  o.workload = "rw=randrw,rwmixread=70,bs=4k,iodepth=32,count=100000,seed=2";
  char dir[] = "/tmp/ufs-gc-ufs31-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  o.out_dir = dir;
  const RunResult r = run_simulation(o);
  CHECK(r.mismatches == 0);
  CHECK(r.stats["errors"].get<uint64_t>() == 0);
  CHECK(r.stats["ftl"]["measured"]["gc_victims"].get<uint64_t>() > 1000);  // at GC steady state
  CHECK(r.stats["ftl"]["measured"]["padding_sectors"].get<uint64_t>() == 0);
  const double waf = r.stats["ftl"]["write_amplification"].get<double>();
  const double silence = longest_silence_ms(std::string(dir) + "/timeseries.csv");
  std::filesystem::remove_all(dir);
  INFO("longest stretch without a completion: " << silence << " ms, WAF " << waf);
  CHECK(silence < 20.0);
  CHECK(waf < 12.0);
}

// Issue 14 (session 22): GC host pacing with hybrid page size, per pool. The IISWC'15 eMMC
// with hybrid page size shrunk (as golden case iiswc15-hybrid-page-size-gc, twice the
// requests): its large-page pool stays at its share, so GC cleans large-page victims 94%
// valid while most small-page blocks are free. Measured over both pools the die's room never
// fell below the victim's need: nothing was paced (0 waits) and host units took the large
// pool's room at full speed, then waited for whole victims (write p99 1.46 s); per pool they
// go at the victim's pace (405 ms).
TEST_CASE("GC pacing with hybrid page size: a pool's host units go at its victim's pace", "[system][gc][hybrid]") {
  RunOptions o = quiet_options();
  o.preset = "iiswc15-emmc-hps";
  o.sets = {"nand.blocks_per_plane=64", "nand.hybrid_small_blocks_per_plane=32"};
  o.precondition_fill_bytes = 2ull << 30;
  o.workload = "rw=randrw,rwmixread=40,bsrange=4k-64k,iodepth=8,count=12800,seed=16,size=2g";
  const RunResult r = run_simulation(o);
  INFO(r.stats["ftl"].dump(2));
  CHECK(r.mismatches == 0);
  CHECK(r.stats["errors"].get<uint64_t>() == 0);
  CHECK(r.stats["ftl"]["gc_victims"].get<uint64_t>() > 100);
  CHECK(r.stats["ftl"]["gc_host_pacing_waits"].get<uint64_t>() > 0);
  CHECK(r.stats["ops"]["write"]["p99"].get<double>() < 800e3);  // us
  CHECK(r.stats["ftl"]["write_amplification"].get<double>() < 6.0);
}

}  // namespace system_bench
