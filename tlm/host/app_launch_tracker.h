// Apps on the phone during a run: the host memory model (host_memory_model.h) bound to
// the workload's streams and, when HPB is on, to the host HPB cache.
//
// A stream named like an app (host_memory.apps) is that app in the foreground; a stream
// named APP + background_suffix is APP working in the background; other streams are the
// system (not counted). The first request of a foreground stream while another app is
// in the foreground is a foreground switch: the memory model brings the app up (a cold
// start when it had been killed or never ran), lmkd may kill others, and the HPB policy
// learns the new foreground app. The app's next launch_reads reads are its launch.
// Launch time = the cold-start cost + the sum of the launch reads' latencies (a launch's
// reads largely wait for each other; an open-loop trace replay would hide that).
// HPB memory counts against the phone's memory: Linux preallocates its pool (the whole
// budget), HPBvalve holds what it caches and its regulator gives it back under pressure.
//
// Plain C++ (no kernel): the HostDriver calls it; times are picoseconds.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "host/block_request.h"
#include "host/host_memory_model.h"
#include "host/host_observer.h"

namespace ufs {

class HpbHostCache;

class AppLaunchTracker {
 public:
  using StreamName = std::function<std::string(uint32_t stream)>;

  struct AppStats {
    std::string name;
    uint64_t launches = 0, cold_launches = 0, kills = 0;
    uint64_t launch_ps = 0;       // summed launch time (cold cost + launch read latencies)
    uint64_t cold_ps = 0;         // the cold-start part of it
    uint64_t launch_reads = 0;    // launch reads completed
    uint64_t hpb_reads = 0;       // of them sent as HPB READ
    uint64_t map_load_reads = 0;  // of them that waited for a map page load in the device (L2P miss)
  };
  // Asks the device whether the command of this tag waited for a map page load (the
  // simulator's view into the device, for statistics only); unset: not counted.
  using MapProbe = std::function<bool(uint8_t tag)>;
  void set_map_probe(MapProbe probe) { map_probe_ = std::move(probe); }

  // hpb: the host HPB cache (nullptr when HPB is off); hpb_preallocated: its budget counts
  // in full from the start (Linux's mempool); regulator: HPBvalve's HPB regulator.
  AppLaunchTracker(const HostMemoryParams& params, StreamName stream_name, HpbHostCache* hpb,
                   bool hpb_preallocated, bool regulator);

  // Before a request is issued: foreground switches happen here. Returns the app the
  // request belongs to and whether it is the foreground app's (for the HPB policy).
  struct Role { uint32_t app; bool foreground; bool known; };
  Role on_issue(const BlockRequest& request, uint64_t now_ps);
  // A request completed; hpb_read: it went out as HPB READ.
  void on_complete(const IoRecord& record, bool hpb_read, uint64_t now_ps);
  // End of the run: an unfinished launch is counted as it stands.
  void finish();

  const std::vector<AppStats>& apps() const;
  const HostMemoryModel& memory() const { return memory_; }
  uint64_t hpb_counted_bytes() const { return memory_.hpb_bytes(); }

 private:
  static constexpr int32_t kUnresolved = -2, kSystem = -1;
  static constexpr int32_t kBackgroundBit = 1 << 30;
  int32_t role_of(uint32_t stream);
  void switch_to(uint32_t app, uint64_t now_ps);
  void close_launch();
  void sync_hpb_memory(uint64_t now_ps);

  HostMemoryParams params_;
  StreamName stream_name_;
  HpbHostCache* hpb_;
  bool hpb_preallocated_;
  HostMemoryModel memory_;
  std::vector<std::string> names_;
  std::vector<int32_t> roles_;  // per stream: app, app | kBackgroundBit, kSystem, kUnresolved
  mutable std::vector<AppStats> stats_;
  uint32_t foreground_ = HostMemoryModel::kNoApp;
  struct Launch {
    bool open = false;
    uint32_t app = 0;
    uint64_t start_ps = 0, cold_ps = 0, latency_ps = 0;
    uint32_t reads = 0, hpb_reads = 0, map_load_reads = 0;
  } launch_;
  MapProbe map_probe_;
  uint64_t last_hpb_bytes_ = ~0ull;
};

}  // namespace ufs
