// The device's energy over a window of simulated time (issue 22), from what the blocks
// count: array time per NAND operation, bytes on the channels, the core's and the crypto
// unit's busy time, SRAM traffic, the link's time in each power state. Plain C++ (no
// SystemC): the platform's collector (sim/platform/energy_collector) fills the activity;
// unit tests fill it by hand.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include "power/energy_params.h"

namespace ufs {

struct EnergyParams {
  NandEnergyParams nand;
  ChannelEnergyParams channel;
  LinkEnergyParams link;
  CpuEnergyParams cpu;
  SramEnergyParams sram;
  CryptoEnergyParams crypto;
  PowerParams power;
};

// What happened in the window. Times in seconds; array times summed over dies.
struct EnergyActivity {
  double window_s = 0;
  uint32_t dies = 0;
  double nand_read_s = 0;      // tR of native (MLC/TLC) blocks, each page type by its own tR
  double nand_read_slc_s = 0;  // tR of blocks operated as SLC
  double nand_program_s = 0;   // tPROG of native blocks
  double nand_program_slc_s = 0;
  double nand_erase_s = 0;     // tBERS
  // The same array times counted once per plane of each multi-plane group (plane-seconds);
  // a value below its die time (e.g. 0: not given) counts as the die time (single-plane).
  double nand_read_plane_s = 0, nand_read_slc_plane_s = 0, nand_program_plane_s = 0, nand_program_slc_plane_s = 0,
         nand_erase_plane_s = 0;
  uint64_t channel_bytes = 0;
  uint64_t channel_bytes_to_dies = 0;  // of channel_bytes, program data-in (encoded); the rest decoded
  double cpu_busy_s = 0;
  double cpu_clock_mhz = 0;
  uint64_t buffer_bytes = 0;   // data buffer bytes read + written
  uint64_t l2p_accesses = 0;
  uint64_t sram_kib = 0;       // data buffer + L2P SRAM
  uint64_t crypto_cycles = 0;  // busy cycles of the crypto unit
  double crypto_clock_mhz = 0;
  uint32_t crypto_rounds_per_cycle = 1;  // AES rounds a busy cycle computes (crypto.rounds_per_cycle)
  // Link, device end: per direction (0 host->device, the device receives; 1 device->host)
  double link_burst_s[2] = {0, 0};
  uint32_t link_lanes[2] = {0, 0};
  double link_lane_rate_mbps[2] = {0, 0};  // the direction's gear and rate series
  bool link_pwm = false;                   // slow power mode: PWM bursts, SLEEP between them
  double link_hibern8_s = 0;               // both directions
  uint64_t link_hibern8_entries = 0;
  // What the window served (per I/O and per byte figures).
  uint64_t ios = 0;
  uint64_t bytes = 0;
};

class EnergyBreakdown {
 public:
  enum Component : int {
    kNandRead, kNandReadSlc, kNandProgram, kNandProgramSlc, kNandErase, kNandStandby, kChannelIo, kEccDecode,
    kEccEncode, kLinkBurst,
    kLinkStall, kLinkSleep, kLinkHibern8, kLinkTransitions, kCpuActive, kCpuIdle, kSramBuffer, kSramL2p, kSramLeakage,
    kFabric, kCryptoActive, kCryptoIdle, kRegulatorLoss,
    kComponents
  };
  // The supply rails (power.vcc_v, power.vccq_v).
  enum Rail : int { kVcc, kVccq, kRails };
  static const char* name(int c);
  // The block a component belongs to (nand, channel, ecc, link, cpu, sram, fabric, crypto, regulator).
  static const char* block(int c);
  // The rail a component draws from: the NAND's from VCC, the rest from VCCQ.
  static int rail(int c);
  static const char* rail_name(int r);
  // Whether a component's logic runs at power.core_v behind the regulator from VCCQ.
  static bool core_fed(int c);

  double uj(int c) const { return uj_[size_t(c)]; }
  double& uj(int c) { return uj_[size_t(c)]; }
  double total_uj() const;
  // Power-state times behind the time-based components (seconds).
  double nand_standby_s = 0;     // die-seconds outside array operations
  double link_stall_s[2] = {0, 0};  // HS mode's time between bursts
  double link_sleep_s[2] = {0, 0};  // PWM mode's
  double cpu_idle_s = 0, crypto_busy_s = 0, crypto_idle_s = 0;

 private:
  std::array<double, kComponents> uj_{};
};

// Derived figures of one window.
struct EnergySummary {
  double total_uj = 0;
  double per_io_uj = 0;        // 0 without I/Os
  double per_byte_nj = 0;      // 0 without bytes
  double mean_power_mw = 0;
  double rail_ma[EnergyBreakdown::kRails] = {0, 0};  // each rail's mean current
  double mean_current_ma = 0;  // the rails' currents added up
  double mb_per_s_per_ma = 0;  // bytes / window (MB/s) over that current
};

class EnergyModel {
 public:
  explicit EnergyModel(const EnergyParams& params) : params_(params) {}
  const EnergyParams& params() const { return params_; }
  EnergyBreakdown breakdown(const EnergyActivity& a) const;
  EnergySummary summary(const EnergyActivity& a, const EnergyBreakdown& b) const;
  // Power (mW) of each link lane in HS burst at a lane rate (PWM bursts: a fixed power).
  double burst_mw_per_lane(double lane_rate_mbps, bool pwm = false) const {
    return pwm ? params_.link.pwm_burst_mw_per_lane : params_.link.burst_pj_per_bit * lane_rate_mbps * 1e-3;
  }

 private:
  EnergyParams params_;
};

}  // namespace ufs
