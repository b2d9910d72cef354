// The garbage collector's parameters, wear levelling's among them: when a die's GC starts and
// stops, the victim policy, copy-back, its write-cache units, host pacing, idle-time GC, and
// the wear-levelling rules it applies. A part of FirmwareParams (FirmwareParams::gc), bound
// with the rest of the "firmware" section under the same keys (firmware.gc_victim, ...).
#pragma once
#include <cstdint>
#include <string>
#include "gc/victim_policy.h"

namespace ufs {

struct GcParams {
  uint32_t start_free_blocks = 3;    // per die: start GC when free blocks fall below this
  uint32_t stop_free_blocks = 3;     // per die: foreground GC cleans until this many free blocks (= start: no hysteresis)
  std::string victim = "greedy";     // a registered victim policy (gc/victim_policy.cpp)
  uint32_t victim_choices = 0;       // randomized-greedy: candidates sampled (d); 0: log2(blocks per plane), MQSim's
  bool copy_back = false;            // GC moves valid pages inside their plane (NAND copy-back)
  // Per die: GC's write-cache units sealed and not yet programmed, and its copy-backs in
  // flight (0: one per plane, a multi-plane program's worth, as the WriteBooster flush keeps).
  // A die programs one such group at a time, so more only parks moved data in the cache (or
  // copy-backs in the die's queue) while host I/O waits behind it. With gc_host_pacing, a die
  // whose GC is a block ahead of its need holds one.
  uint32_t units_per_die = 0;
  // Per die in foreground GC: host units placed as GC earns them (gc/host_pacing.h: the
  // die's room above block size x the fraction of its victim's valid data left), and host
  // data and map pages may use the room GC's victim does not need (the last free block, a
  // unit of GC's open block); false: host data takes the die's free blocks down to the last
  // one at full speed, then waits for whole victims. With gc_copy_back GC's room is its block
  // of every plane; with hybrid page size each pool's.
  bool host_pacing = true;
  uint32_t bg_idle_us = 0;           // background GC after this long without commands (0: off)
  uint32_t bg_free_blocks = 8;       // per die: background GC cleans until this many free blocks
  bool bg_map_writeback = false;     // with background GC: also write dirty map pages back in idle time

  // Wear levelling (Agrawal et al. 2008, section 3.6; see ftl/wear_leveller.h)
  std::string wear_levelling = "off";  // off (greedy only) | rate-limit | migration (rate limiting + cold-data migration)
  uint32_t block_lifetime = 0;       // erase cycles a block lasts (0: endurance not modelled)
  double wl_retirement_age = 0.85;   // migrate cold data into a block below this fraction of the mean remaining life
  double wl_age_variance = 0.20;     // rate-limit cleaning of blocks below (1 - this) of the mean remaining life

  template <class B>
  void bind(B& b) {
    b("gc_start_free_blocks", start_free_blocks, "blocks", "per die: GC starts below this many free blocks");
    b("gc_stop_free_blocks", stop_free_blocks, "blocks", "per die: foreground GC, once started, cleans until this many free blocks");
    b("gc_victim", victim, "", "victim choice: " + victim_policy_names());
    b("gc_victim_choices", victim_choices, "blocks",
      "randomized-greedy: candidates sampled per victim (d); 0: log2(blocks per plane), MQSim's default");
    b("gc_copy_back", copy_back, "",
      "GC moves a victim's valid pages inside their plane by NAND copy-back (data off the channel)");
    b("gc_units_per_die", units_per_die, "units",
      "per die: GC's write-cache units waiting to be programmed and copy-backs in flight at most (0: one per plane, a multi-plane program)");
    b("gc_host_pacing", host_pacing, "",
      "per die in foreground GC: host units placed as GC earns them; host data may use the room its victim does not need");
    b("bg_gc_idle_us", bg_idle_us, "us", "background GC starts after this long without host commands (0: off)");
    b("bg_gc_free_blocks", bg_free_blocks, "blocks", "per die: background GC cleans until this many free blocks");
    b("bg_map_writeback", bg_map_writeback, "",
      "at the background GC idle threshold also write every dirty map page back (later evictions are clean)");
    b("wear_levelling", wear_levelling, "", "off (greedy only) | rate-limit | migration (rate limiting + cold-data migration), Agrawal et al. 2008");
    b("block_lifetime", block_lifetime, "cycles", "erase cycles a block lasts, for wear levelling and expired-block counts (0: not modelled)");
    b("wl_retirement_age", wl_retirement_age, "fraction", "migrate cold data into a block whose remaining life is below this fraction of the mean");
    b("wl_age_variance", wl_age_variance, "fraction", "rate-limit cleaning a block whose remaining life is below (1 - this) of the mean");
  }
};

}  // namespace ufs
