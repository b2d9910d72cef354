// Host-side HPB (the UFS driver's HPB module, drivers/ufs/core/ufshpb.c): host memory
// budget, policy, thresholds and the host costs of HPB. Bound to "hpb.host".
#pragma once
#include <cstdint>
#include <string>
#include <utility>

namespace ufs {

struct HpbHostParams {
  std::string policy = "auto";          // auto (the device's bHPBControl) | device | host | hpbvalve
  uint32_t budget_mib = 256;            // host memory for cached entries (8 B per 4 KiB block)
  uint32_t lookup_ns = 200;             // host CPU per HPB READ: region/sub-region lookup, dirty check, entry copy
  uint32_t map_copy_mb_per_s = 4000;    // host copy of READ BUFFER data into the cache (entries usable after it)
  uint32_t map_requests_in_flight = 1;  // READ BUFFERs outstanding at once (Linux THROTTLE_MAP_REQ_DEFAULT)
  uint32_t idle_outstanding = 256;      // issue a READ BUFFER only when at most this many commands are outstanding
  uint32_t activation_reads = 8;        // host control: reads of a sub-region before it is activated
  uint32_t eviction_enter_reads = 256;  // host control: reads a region needs to evict another
  uint32_t eviction_exit_reads = 128;   // host control: a region with more reads is not evicted
  uint32_t read_timeout_ms = 1000;      // host control: a region's read counter resets after this long
  uint32_t read_timeout_expiries = 100; // host control: resets before an idle region is inactivated
  uint32_t populate_mib = 0;            // at start: fetch the sub-regions of LBA [0, this) (boot-time population)
  uint32_t valve_profile_kib = 1024;    // HPBvalve: bound of an app's launch profile, in entry bytes (FAST'23: 1 MB)
  uint32_t valve_launch_reads = 2048;   // HPBvalve: reads after a foreground switch that make up the launch

  template <class B>
  void bind(B& b) {
    b("policy", policy, "",
      "host HPB policy: auto (follow the device's bHPBControl), device or host control mode, hpbvalve (FAST'23)");
    b("budget_mib", budget_mib, "MiB", "host memory for cached HPB entries (8 bytes per 4 KiB block)");
    b("lookup_ns", lookup_ns, "ns", "host CPU time per HPB READ built (lookup, dirty check, entry copy)");
    b("map_copy_mb_per_s", map_copy_mb_per_s, "MB/s", "host copy bandwidth of READ BUFFER data into the map cache");
    b("map_requests_in_flight", map_requests_in_flight, "commands", "READ BUFFER commands outstanding at once");
    b("idle_outstanding", idle_outstanding, "commands",
      "issue READ BUFFER only when at most this many commands are outstanding (0 = idle device only)");
    b("activation_reads", activation_reads, "reads", "host control mode: reads of a sub-region before activation");
    b("eviction_enter_reads", eviction_enter_reads, "reads", "host control mode: reads a region needs to evict another");
    b("eviction_exit_reads", eviction_exit_reads, "reads", "host control mode: regions with more reads are kept");
    b("read_timeout_ms", read_timeout_ms, "ms", "host control mode: read counter reset period of a region");
    b("read_timeout_expiries", read_timeout_expiries, "", "host control mode: resets before an idle region is dropped");
    b("populate_mib", populate_mib, "MiB", "at start, fetch the entries of LBA [0, this) (boot-time population)");
    b("valve_profile_kib", valve_profile_kib, "KiB", "HPBvalve: launch profile bound per app, in entry bytes (seed 000: 1 MB)");
    b("valve_launch_reads", valve_launch_reads, "reads", "HPBvalve: reads after a foreground switch recorded as the launch");
  }

  std::string validate() const {
    if (policy != "auto" && policy != "device" && policy != "host" && policy != "hpbvalve")
      return "policy: must be auto, device, host or hpbvalve";
    if (valve_profile_kib == 0) return "valve_profile_kib: must be at least 1";
    if (lookup_ns > 1000000) return "lookup_ns: must be at most 1000000 ns (1 ms of host CPU per HPB READ)";
    if (budget_mib == 0) return "budget_mib: must be at least 1";
    if (map_copy_mb_per_s == 0) return "map_copy_mb_per_s: must be at least 1";
    if (map_requests_in_flight == 0 || map_requests_in_flight > 256)
      return "map_requests_in_flight: must be within 1..256 (task tags)";
    if (idle_outstanding > 256) return "idle_outstanding: must be at most 256 (task tags)";
    // Read counters: a billion reads of one region is beyond any run this model makes.
    for (const auto& [name, n] : {std::pair<const char*, uint32_t>{"activation_reads", activation_reads},
                                  {"eviction_enter_reads", eviction_enter_reads},
                                  {"eviction_exit_reads", eviction_exit_reads},
                                  {"read_timeout_expiries", read_timeout_expiries},
                                  {"valve_launch_reads", valve_launch_reads}})
      if (n > 1000000000u) return std::string(name) + ": must be at most 1000000000";
    if (eviction_exit_reads > eviction_enter_reads) return "eviction_exit_reads: must not exceed eviction_enter_reads";
    if (read_timeout_ms == 0) return "read_timeout_ms: must be at least 1";
    return "";
  }
};

}  // namespace ufs
