// Studies of the FTL itself: wear levelling (Agrawal et al. 2008) and write
// amplification in steady state.
#include <cmath>
#include <cstdio>
#include "experiments/experiment.h"

namespace ufs {

namespace {

double wear(const nlohmann::json& stats, const char* key) { return stats.at("ftl").at("wear").at(key).get<double>(); }
double ftl(const nlohmann::json& stats, const char* key) { return stats.at("ftl").at(key).get<double>(); }
// The measured phase's own counters (stats.json ftl.measured), as its write_amplification.
double measured(const nlohmann::json& stats, const char* key) {
  return stats.at("ftl").at("measured").at(key).get<double>();
}

// Agrawal et al. section 3.6 / table 7: greedy cleaning alone, + rate limiting, + cold-data
// migration, block lifetime 50 erase cycles, retirement age 85%, age variance 20%, on an
// IOzone-like load: the small test device is filled (cold data), then a 60 MiB file (40% of
// the LBAs) is rewritten at random in 16 KiB records, as IOzone's random-rewrite pass does.
// The run is long enough for the mean block to reach about half its lifetime.
std::vector<ExperimentRow> wear_levelling(ExperimentContext& ctx) {
  std::vector<ExperimentRow> rows;
  for (const char* policy : {"off", "rate-limit", "migration"}) {
    ctx.submit(std::string("wl_") + policy,
               {"--preset", "test-small", "--precondition-fill", "150m", "--workload",
                "rw=randwrite,bs=16k,size=60m,iodepth=8,count=100000,seed=1", "--set",
                "firmware.block_lifetime=50", "--set", std::string("firmware.wear_levelling=") + policy,
                "--set", "firmware.wl_retirement_age=0.85", "--set", "firmware.wl_age_variance=0.20"},
               [&rows, policy](const nlohmann::json& s) {
      const std::string x = policy == std::string("off") ? "greedy" : policy == std::string("rate-limit")
                                                                          ? "greedy+RL" : "greedy+RL+migr";
      // The paper: migration leaves no expired block; the others are compared in shape only.
      rows.push_back({"expired blocks", x, policy == std::string("migration") ? 0.0 : kModelOnly,
                      wear(s, "expired_blocks"), "blocks", 0});
      rows.push_back({"erase count mean", x, kModelOnly, wear(s, "erase_count_mean"), "cycles", 0});
      rows.push_back({"erase count stddev", x, kModelOnly, wear(s, "erase_count_stddev"), "cycles", 0});
      rows.push_back({"erase count max", x, kModelOnly, wear(s, "erase_count_max"), "cycles", 0});
      rows.push_back({"write amplification", x, kModelOnly, ftl(s, "write_amplification"), "", 0});
    });
  }
  ctx.wait();
  return rows;
}

// The gc-steady-state rows of one run.
void steady_state_rows(std::vector<ExperimentRow>& rows, const std::string& x, const nlohmann::json& s) {
  rows.push_back({"write amplification", x, kModelOnly, ftl(s, "write_amplification"), "", 0});
  rows.push_back({"GC victims", x, kModelOnly, measured(s, "gc_victims"), "blocks", 0});
  rows.push_back({"GC moved sectors", x, kModelOnly, measured(s, "gc_moved_sectors"), "sectors", 0});
  rows.push_back({"write throughput", x, kModelOnly, op_value(s, "write", "mb_per_s"), "MB/s", 0});
}

// Write amplification and GC in steady state, on ufs31 timing with a 1.2 GiB device
// (test-small with 128 blocks per plane, 20% spare; as `ufs-sim bench --write`): the
// device is filled, then overwritten twice in the same pattern (not measured: after one
// overwrite the victims still hold data from the sequential fill, so greedy's victims are
// not yet those of steady state), then measured. Sequential overwrites leave whole blocks invalid (WAF near 1); random
// ones leave every block partly valid (greedy at 20% spare: about 3).
std::vector<ExperimentRow> gc_steady_state(ExperimentContext& ctx) {
  std::vector<ExperimentRow> rows;
  const std::vector<std::pair<std::string, std::string>> loads = {
      {"random 4KiB", "rw=randwrite,bs=4k,iodepth=32,count=300000,seed="},
      {"sequential 512KiB", "rw=write,bs=512k,iodepth=32,count=2400,seed="}};
  // The precondition: the same pattern, twice as many requests (about two overwrites).
  const auto twice = [](const std::string& load) {
    const size_t at = load.find("count=") + 6, end = load.find(',', at);
    return load.substr(0, at) + std::to_string(2 * std::stoul(load.substr(at, end - at))) + load.substr(end);
  };
  for (const auto& [x, load] : loads) {
    ctx.submit(x[0] == 'r' ? "random" : "sequential",
               {"--preset", "test-small", "--set", "nand.blocks_per_plane=128", "--precondition-fill",
                "1200m", "--precondition", twice(load) + "1", "--workload", load + "2"},
               [&rows, x = x](const nlohmann::json& s) { steady_state_rows(rows, x, s); });
  }
  // The random load under the other victim policies (firmware.gc_victim; greedy above):
  // MQSim's randomized greedy (d = log2(128) = 7 candidates sampled) and FIFO (oldest block).
  for (const char* policy : {"randomized-greedy", "fifo"}) {
    const std::string load = loads[0].second;
    ctx.submit(std::string("random_") + policy,
               {"--preset", "test-small", "--set", "nand.blocks_per_plane=128", "--precondition-fill", "1200m",
                "--precondition", twice(load) + "1", "--workload", load + "2", "--set",
                std::string("firmware.gc_victim=") + policy},
               [&rows, x = loads[0].first + " " + policy](const nlohmann::json& s) { steady_state_rows(rows, x, s); });
  }
  ctx.wait();
  return rows;
}

// Issue 5 evidence 2: the L2P SRAM's size against a real phone's reads. A Pixel 6a trace
// (MobileBlockIOTraces, HPB off) is replayed on ufs31: the install-time writes first (idle
// gaps cut to 1 ms: they only place data and map pages), then the app run, open loop with
// idle gaps cut to 10 ms (the cache's state does not age). Every read whose map page is
// not in SRAM loads it from NAND first; the last column keeps the whole map in SRAM.
std::vector<ExperimentRow> map_cache_sweep(ExperimentContext& ctx) {
  require_traces(phone_trace_files({"slideshow", "cod"}));
  std::vector<ExperimentRow> rows;
  for (const char* app : {"slideshow", "cod"}) {
    std::vector<std::string> replay = phone_trace_args(app);
    replay.insert(replay.begin(), {"--preset", "ufs31"});
    for (uint32_t kib : {256u, 512u, 1024u, 2048u, 4096u, 0u}) {
      std::vector<std::string> args = replay;
      args.insert(args.end(), {"--set", kib ? "memory.l2p_sram_kib=" + std::to_string(kib) : "firmware.map_cache=false"});
      ctx.submit(std::string(app) + "_" + (kib ? std::to_string(kib) + "k" : "whole"), args,
                 [&rows, app, kib](const nlohmann::json& s) {
        const auto& m = s.at("ftl").at("map_cache");
        const std::string x = kib ? std::to_string(kib) + " KiB" : "whole map";
        rows.push_back({std::string(app) + " map read misses", x, kModelOnly,
                        100.0 * (1.0 - m.at("read_hit_ratio").get<double>()), "%", 0});
        rows.push_back({std::string(app) + " mean read latency", x, kModelOnly,
                        op_value(s, "read", "mean"), "us", 0});
        rows.push_back({std::string(app) + " p99 read latency", x, kModelOnly,
                        op_value(s, "read", "p99"), "us", 0});
      });
    }
    // The replacement policies (firmware.map_cache_policy; LRU above) at 1 MiB.
    for (const char* policy : {"fifo", "clock"}) {
      std::vector<std::string> args = replay;
      args.insert(args.end(), {"--set", "memory.l2p_sram_kib=1024", "--set",
                               std::string("firmware.map_cache_policy=") + policy});
      ctx.submit(std::string(app) + "_1024k_" + policy, args,
                 [&rows, app, policy](const nlohmann::json& s) {
        const std::string x = std::string("1024 KiB ") + policy;
        rows.push_back({std::string(app) + " map read misses", x, kModelOnly,
                        100.0 * (1.0 - s.at("ftl").at("map_cache").at("read_hit_ratio").get<double>()), "%", 0});
        rows.push_back({std::string(app) + " mean read latency", x, kModelOnly,
                        op_value(s, "read", "mean"), "us", 0});
      });
    }
  }
  ctx.wait();
  return rows;
}

// Issue 8 idle-time policies (seed 002, implication 2: most requests meet an idle device,
// so GC should hide in the gaps). Phone traces (MobileBlockIOTraces, Pixel 6a) replayed on
// the 1.2 GiB steady-state device of gc-steady-state (filled, then overwritten at random
// once), addresses folded onto it, gaps above 200 ms shortened to 200 ms. Threshold-only GC
// cleans when a die falls below gc_start_free_blocks, while the host waits; idle-time GC
// also cleans up to 16 free blocks per die once the device has had no command for 5 ms.
// GC victims and WAF are the replay's (stats.json's measured phase). The third run adds the
// link's auto-hibernate at Linux's 150 ms (link.hibernate_idle_us): the first request after a
// long gap waits for the wake-up (link.hibernate_exit_us).
std::vector<ExperimentRow> idle_gc(ExperimentContext& ctx) {
  std::vector<ExperimentRow> rows;
  const std::vector<std::string> device = {"--preset", "test-small", "--set", "nand.blocks_per_plane=128",
                                           "--precondition-fill", "1200m", "--precondition",
                                           "rw=randwrite,bs=4k,iodepth=32,count=300000,seed=1"};
  const std::vector<std::string> traces = require_traces({"cod_exec.csv.gz", "slideshow_exec.csv.gz"});
  for (size_t t = 0; t < traces.size(); ++t) {
    const std::string& trace = traces[t];
    const char* app = t == 0 ? "cod" : "slideshow";
    for (const int mode : {0, 1, 2}) {  // threshold GC, idle-time GC, idle-time GC + auto-hibernate
      const bool idle = mode > 0;
      std::vector<std::string> args = device;
      args.insert(args.end(), {"--workload", "trace:mobile:" + trace + ",fold=modulo,idle_compress=200ms", "--set",
                               std::string("firmware.bg_gc_idle_us=") + (idle ? "5000" : "0"), "--set",
                               "firmware.bg_gc_free_blocks=16", "--set",
                               std::string("link.hibernate_idle_us=") + (mode == 2 ? "150000" : "0")});
      ctx.submit(std::string(app) + (mode == 2 ? "_idle_gc_h8" : idle ? "_idle_gc" : "_threshold_gc"), args,
                 [&rows, app, mode, idle](const nlohmann::json& s) {
        const std::string x = mode == 2 ? "idle GC + H8" : idle ? "idle-time GC" : "threshold GC";
        const auto& r = s.at("ops").at("read");
        const auto& w = s.at("ops").at("write");
        const std::string a = std::string(app) + " ";
        rows.push_back({a + "read mean", x, kModelOnly, r.at("mean").get<double>(), "us", 0});
        rows.push_back({a + "read p99", x, kModelOnly, r.at("p99").get<double>(), "us", 0});
        rows.push_back({a + "write mean", x, kModelOnly, w.at("mean").get<double>(), "us", 0});
        rows.push_back({a + "write p99", x, kModelOnly, w.at("p99").get<double>(), "us", 0});
        rows.push_back({a + "foreground GC victims", x, kModelOnly, measured(s, "gc_victims") - measured(s, "bg_gc_victims"),
                        "blocks", 0});
        rows.push_back({a + "idle-time GC victims", x, kModelOnly, measured(s, "bg_gc_victims"), "blocks", 0});
        rows.push_back({a + "write amplification", x, kModelOnly, ftl(s, "write_amplification"), "", 0});
        rows.push_back({a + "link wake-ups", x, kModelOnly, s.at("link").at("hibernate_entries").get<double>(), "", 0});
      });
    }
  }
  ctx.wait();
  return rows;
}

}  // namespace

std::vector<Experiment> make_ftl_experiments() {
  return {Experiment{"wear-levelling",
                     "Agrawal et al., Design Tradeoffs for SSD Performance, USENIX ATC 2008, sec. 3.6 and table 7 "
                     "(lifetime 50 cycles, retirement age 85%, age variance 20%: migration leaves no expired block)",
                     "greedy vs + rate limiting vs + cold-data migration on an IOzone-like rewrite of a 40% hot file",
                     wear_levelling,
                     "wear levelling policy"},
          Experiment{"gc-steady-state", "model only (no published figure): write amplification by access pattern",
                     "WAF and GC counts in steady state, 4 KiB random vs 512 KiB sequential overwrites",
                     gc_steady_state,
                     "access pattern"},
          Experiment{"map-cache-sweep",
                     "model only (issue 5 evidence 2); traces: MobileBlockIOTraces, Pixel 6a UFS, HPB off (SYSTOR'24)",
                     "L2P SRAM map cache 256 KiB .. 4 MiB and whole map on the slideshow and cod phone traces: "
                     "map read miss ratio and read latency",
                     map_cache_sweep,
                     "L2P SRAM (replacement policy)",
                     {
                         {"map read misses", "L2P SRAM (replacement policy)", {"slideshow map read misses", "cod map read misses"}, {"slideshow", "cod"}},
                         {"mean read latency", "L2P SRAM (replacement policy)", {"slideshow mean read latency", "cod mean read latency"}, {"slideshow", "cod"}},
                         {"p99 read latency", "L2P SRAM (replacement policy)", {"slideshow p99 read latency", "cod p99 read latency"}, {"slideshow", "cod"}}
                     }},
          Experiment{"idle-gc",
                     "Zhou et al., IISWC 2015 (seed 002), implication 2: idle time should hide GC (no figure); "
                     "traces: MobileBlockIOTraces, Pixel 6a (SYSTOR'24)",
                     "foreground latency on phone traces at GC steady state: threshold-only GC vs idle-time GC",
                     idle_gc,
                     "GC policy",
                     {
                         {"read mean", "GC policy", {"cod read mean", "slideshow read mean"}, {"cod", "slideshow"}},
                         {"read p99", "GC policy", {"cod read p99", "slideshow read p99"}, {"cod", "slideshow"}},
                         {"write mean", "GC policy", {"cod write mean", "slideshow write mean"}, {"cod", "slideshow"}},
                         {"write p99", "GC policy", {"cod write p99", "slideshow write p99"}, {"cod", "slideshow"}},
                         {"foreground GC victims", "GC policy", {"cod foreground GC victims", "slideshow foreground GC victims"}, {"cod", "slideshow"}},
                         {"idle-time GC victims", "GC policy", {"cod idle-time GC victims", "slideshow idle-time GC victims"}, {"cod", "slideshow"}},
                         {"write amplification", "GC policy", {"cod write amplification", "slideshow write amplification"}, {"cod", "slideshow"}},
                         {"link wake-ups", "GC policy", {"cod link wake-ups", "slideshow link wake-ups"}, {"cod", "slideshow"}}
                     }}};
}

}  // namespace ufs
