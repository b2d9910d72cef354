// The host's memory as Android manages it, for HPB studies: apps keep their
// working sets resident while alive, the HPB host cache holds L2P entries in the
// same memory, and the low-memory killer (lmkd) kills the least recently used
// background app when free memory falls below its threshold. With the HPB
// regulator on (HPBvalve, FAST'23, seed 000), lmkd first asks the regulator:
// when the app it is about to kill was used recently, HPB memory is freed
// instead and the app lives; otherwise the kill goes ahead.
//
// Plain C++ (no kernel): the host driver and the study call it at app switches
// and when the HPB cache grows; times are picoseconds of simulated time.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ufs {

struct HostMemoryParams {
  // In a run (section "host_memory"): off unless enabled; apps and their working sets
  // come from `apps`; a workload stream named like an app is that app in the foreground,
  // one named app + background_suffix is the same app working in the background.
  bool enabled = false;
  std::string apps;                       // "name=MiB,name=MiB,..." (working sets)
  std::string background_suffix = "-bg";
  uint32_t launch_reads = 1500;           // reads after a foreground switch that make up the launch
  uint64_t total_mib = 8192;            // DRAM of the phone
  uint64_t reserved_mib = 3072;         // kernel, system server, SurfaceFlinger, caches lmkd never frees
  uint64_t lmk_minfree_mib = 256;       // lmkd kills while free memory is below this
  bool hpb_regulator = false;           // HPBvalve: free HPB memory instead of killing a recently used app
  uint64_t regulator_recent_ms = 60'000;  // "recently used": within the last minute
  uint64_t regulator_cost_us = 1'800;     // regulator work inside lmkd (seed 000: about 1.8 ms)
  uint64_t cold_launch_ms = 300;          // process creation, class loading, first frame of a cold start, beyond its reads

  template <class B>
  void bind(B& b) {
    b("enabled", enabled, "", "model the phone's memory, app switches and launches in the run (stats.json \"apps\")");
    b("apps", apps, "", "apps and their resident working sets: \"name=MiB,name=MiB\" (stream names select them)");
    b("background_suffix", background_suffix, "", "a stream named APP + this suffix is APP running in the background");
    b("launch_reads", launch_reads, "reads", "reads after a foreground switch that make up the app's launch");
    b("total_mib", total_mib, "MiB", "host DRAM");
    b("reserved_mib", reserved_mib, "MiB", "memory lmkd never frees (kernel, system services)");
    b("lmk_minfree_mib", lmk_minfree_mib, "MiB", "lmkd kills background apps while free memory is below this");
    b("hpb_regulator", hpb_regulator, "", "HPBvalve regulator: shrink HPB instead of killing a recently used app (always on with hpb.host.policy=hpbvalve)");
    b("regulator_recent_ms", regulator_recent_ms, "ms", "an app used within this long is spared by the regulator");
    b("regulator_cost_us", regulator_cost_us, "us", "regulator work added to an lmkd pass that consults it");
    b("cold_launch_ms", cold_launch_ms, "ms", "extra launch time of an app that was killed or never started");
  }
  std::string validate() const;
  // `apps` parsed: (name, working set MiB); throws std::invalid_argument naming the problem.
  std::vector<std::pair<std::string, uint64_t>> app_list() const;
};

class HostMemoryModel {
 public:
  // HPB memory the model may ask back: returns the bytes actually freed (<= wanted).
  using HpbShrink = std::function<uint64_t(uint64_t wanted_bytes)>;

  struct Stats {
    uint64_t launches = 0;
    uint64_t cold_launches = 0;        // app was killed earlier or never ran
    uint64_t kills = 0;                // apps killed by lmkd
    uint64_t kills_avoided = 0;        // kills the regulator prevented by shrinking HPB
    uint64_t hpb_bytes_reclaimed = 0;  // HPB memory the regulator freed
    uint64_t regulator_time_ps = 0;    // time the regulator added to lmkd passes
  };

  explicit HostMemoryModel(const HostMemoryParams& params);

  // Apps are registered once with their resident working set.
  uint32_t add_app(const std::string& name, uint64_t working_set_mib);
  uint32_t app_count() const { return uint32_t(apps_.size()); }
  const std::string& app_name(uint32_t app) const { return apps_[app].name; }

  void set_hpb_shrink(HpbShrink shrink) { shrink_ = std::move(shrink); }

  // The user brings `app` to the foreground at `now_ps`. Returns the launch's extra
  // cost in ps (cold start when the app was not alive, else 0). Memory pressure is
  // resolved before returning (other apps may be killed).
  uint64_t bring_to_foreground(uint32_t app, uint64_t now_ps);

  // The HPB cache now holds this many bytes of host memory; lmkd runs if that
  // pushes free memory under its threshold.
  void set_hpb_bytes(uint64_t bytes, uint64_t now_ps);

  bool alive(uint32_t app) const { return apps_[app].alive; }
  bool was_killed(uint32_t app) const { return apps_[app].kills > 0; }
  uint32_t foreground() const { return foreground_; }
  uint64_t free_bytes() const;
  uint64_t hpb_bytes() const { return hpb_bytes_; }
  // Largest HPB size that leaves every alive app resident above the lmkd threshold.
  uint64_t hpb_headroom_bytes() const;
  const Stats& stats() const { return stats_; }
  uint64_t kills_of(uint32_t app) const { return apps_[app].kills; }

  static constexpr uint32_t kNoApp = ~0u;

 private:
  struct App {
    std::string name;
    uint64_t working_set = 0;  // bytes
    bool alive = false;
    uint64_t last_used_ps = 0;
    uint64_t kills = 0;
  };
  void relieve_pressure(uint64_t now_ps);
  uint64_t used_bytes() const;

  HostMemoryParams params_;
  std::vector<App> apps_;
  uint32_t foreground_ = kNoApp;
  uint64_t hpb_bytes_ = 0;
  HpbShrink shrink_;
  Stats stats_;
};

}  // namespace ufs
