// Reads the blocks' counters and busy / power-state times for the energy model
// (tlm/power/energy_model.h): a snapshot at a moment, and the activity between two.
// The energy of the measured phase is the model applied to (start, end).
#pragma once
#include <cstdint>
#include <vector>
#include <nlohmann/json.hpp>
#include "power/energy_model.h"

namespace ufs {

class UfsPlatform;

// Every counter the model reads, as cumulative values at a moment.
struct EnergyCounters {
  uint64_t at_ps = 0;
  double array_s[5] = {0, 0, 0, 0, 0};  // ArrayLedger::ArrayKind
  double array_plane_s[5] = {0, 0, 0, 0, 0};
  uint64_t array_ops[5] = {0, 0, 0, 0, 0};
  uint64_t channel_bytes = 0;
  uint64_t channel_bytes_to_dies = 0;
  double cpu_busy_s = 0;
  uint64_t buffer_bytes = 0;
  uint64_t l2p_accesses = 0;
  uint64_t crypto_cycles = 0;
  uint64_t crypto_jobs = 0;
  double link_burst_s[2] = {0, 0};
  double link_hibern8_s = 0;
  uint64_t link_hibern8_entries = 0;
};

class EnergyCollector {
 public:
  static EnergyCounters sample(const UfsPlatform& platform, uint64_t at_ps);
  // The activity of [from, to) with the platform's constant parts (dies, lanes, clocks, SRAM sizes).
  static EnergyActivity activity(const UfsPlatform& platform, const EnergyCounters& from, const EnergyCounters& to,
                                 uint64_t ios, uint64_t bytes);
  // stats.json's energy section of [from, to).
  static nlohmann::json to_json(const UfsPlatform& platform, const EnergyCounters& from, const EnergyCounters& to,
                                uint64_t ios, uint64_t bytes);
};

}  // namespace ufs
