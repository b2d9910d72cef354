#include "power/energy_model.h"
#include <algorithm>

namespace ufs {

namespace {
const char* const kNames[EnergyBreakdown::kComponents] = {
    "nand_read", "nand_read_slc", "nand_program", "nand_program_slc", "nand_erase", "nand_standby", "channel_io", "ecc_decode", "ecc_encode",
    "link_burst", "link_stall", "link_sleep", "link_hibern8", "link_transitions", "cpu_active", "cpu_idle", "sram_buffer", "sram_l2p",
    "sram_leakage", "fabric", "crypto_active", "crypto_idle", "regulator_loss"};
const char* const kBlocks[EnergyBreakdown::kComponents] = {
    "nand", "nand", "nand", "nand", "nand", "nand", "channel", "ecc", "ecc", "link", "link", "link", "link", "link",
    "cpu", "cpu", "sram", "sram", "sram", "fabric", "crypto", "crypto", "regulator"};
// mW x s = mJ; x 1000 = uJ.
double uj_of(double mw, double seconds) { return mw * seconds * 1e3; }
}  // namespace

const char* EnergyBreakdown::name(int c) { return c >= 0 && c < kComponents ? kNames[c] : "?"; }
const char* EnergyBreakdown::block(int c) { return c >= 0 && c < kComponents ? kBlocks[c] : "?"; }
int EnergyBreakdown::rail(int c) { return c >= kNandRead && c <= kNandStandby ? kVcc : kVccq; }
const char* EnergyBreakdown::rail_name(int r) { return r == kVcc ? "vcc" : r == kVccq ? "vccq" : "?"; }
bool EnergyBreakdown::core_fed(int c) { return c >= kEccDecode && c <= kCryptoIdle; }

double EnergyBreakdown::total_uj() const {
  double sum = 0;
  for (double v : uj_) sum += v;
  return sum;
}

EnergyBreakdown EnergyModel::breakdown(const EnergyActivity& a) const {
  const EnergyParams& p = params_;
  EnergyBreakdown b;
  const double window = std::max(0.0, a.window_s);
  // NAND: each array operation draws its ICC from VCC for its array time, each plane of a
  // multi-plane group beyond the first multi_plane_share of it; a die outside its array
  // operations draws standby current. An operation is paid when its array phase is booked (a
  // program still in its tPROG at the window's end is counted whole).
  const double vcc = p.power.vcc_v;
  auto array_uj = [&](double ma, double die_s, double plane_s) {
    return uj_of(ma * vcc, die_s + p.nand.multi_plane_share * std::max(0.0, plane_s - die_s));
  };
  b.uj(EnergyBreakdown::kNandRead) = array_uj(p.nand.icc_read_ma, a.nand_read_s, a.nand_read_plane_s);
  b.uj(EnergyBreakdown::kNandReadSlc) = array_uj(p.nand.icc_read_ma, a.nand_read_slc_s, a.nand_read_slc_plane_s);
  b.uj(EnergyBreakdown::kNandProgram) = array_uj(p.nand.icc_program_ma, a.nand_program_s, a.nand_program_plane_s);
  b.uj(EnergyBreakdown::kNandProgramSlc) =
      array_uj(p.nand.icc_program_ma, a.nand_program_slc_s, a.nand_program_slc_plane_s);
  b.uj(EnergyBreakdown::kNandErase) = array_uj(p.nand.icc_erase_ma, a.nand_erase_s, a.nand_erase_plane_s);
  const double array_s = a.nand_read_s + a.nand_read_slc_s + a.nand_program_s + a.nand_program_slc_s + a.nand_erase_s;
  b.nand_standby_s = std::max(0.0, double(a.dies) * window - array_s);
  b.uj(EnergyBreakdown::kNandStandby) = uj_of(p.nand.isb_ua * 1e-3 * vcc, b.nand_standby_s);
  // pJ -> uJ: 1e-6.
  b.uj(EnergyBreakdown::kChannelIo) = p.channel.io_pj_per_byte * double(a.channel_bytes) * 1e-6;
  const uint64_t to_dies = std::min(a.channel_bytes_to_dies, a.channel_bytes);
  b.uj(EnergyBreakdown::kEccDecode) = p.channel.ecc_decode_pj_per_byte * double(a.channel_bytes - to_dies) * 1e-6;
  b.uj(EnergyBreakdown::kEccEncode) = p.channel.ecc_encode_pj_per_byte * double(to_dies) * 1e-6;
  // Link: per direction, its lanes in burst while serialising, in Hibern8 while hibernated
  // (both directions), otherwise in STALL (fast power mode) or SLEEP (slow: PWM gears).
  double burst_uj = 0, stall_uj = 0, sleep_uj = 0, hibern8_uj = 0;
  for (int d = 0; d < 2; ++d) {
    const double lanes = double(a.link_lanes[d]);
    const double burst = std::min(a.link_burst_s[d], window);
    const double between = std::max(0.0, window - burst - a.link_hibern8_s);
    (a.link_pwm ? b.link_sleep_s : b.link_stall_s)[d] = between;
    burst_uj += uj_of(burst_mw_per_lane(a.link_lane_rate_mbps[d], a.link_pwm) * lanes, burst);
    stall_uj += uj_of(p.link.stall_mw_per_lane * lanes, b.link_stall_s[d]);
    sleep_uj += uj_of(p.link.sleep_uw_per_lane * 1e-3 * lanes, b.link_sleep_s[d]);
    hibern8_uj += uj_of(p.link.hibern8_uw_per_lane * 1e-3 * lanes, a.link_hibern8_s);
  }
  b.uj(EnergyBreakdown::kLinkBurst) = burst_uj;
  b.uj(EnergyBreakdown::kLinkStall) = stall_uj;
  b.uj(EnergyBreakdown::kLinkSleep) = sleep_uj;
  b.uj(EnergyBreakdown::kLinkHibern8) = hibern8_uj;
  b.uj(EnergyBreakdown::kLinkTransitions) = p.link.hibern8_transition_uj * double(a.link_hibern8_entries);
  // Core: busy cycles at the clock; idle the rest of the window.
  const double cpu_busy = std::min(a.cpu_busy_s, window);
  b.cpu_idle_s = window - cpu_busy;
  b.uj(EnergyBreakdown::kCpuActive) = p.cpu.active_pj_per_cycle * cpu_busy * a.cpu_clock_mhz * 1e6 * 1e-6;
  b.uj(EnergyBreakdown::kCpuIdle) = uj_of(p.cpu.idle_mw, b.cpu_idle_s);
  b.uj(EnergyBreakdown::kSramBuffer) = p.sram.buffer_pj_per_byte * double(a.buffer_bytes) * 1e-6;
  b.uj(EnergyBreakdown::kSramL2p) = p.sram.l2p_pj_per_access * double(a.l2p_accesses) * 1e-6;
  b.uj(EnergyBreakdown::kSramLeakage) = uj_of(p.sram.leakage_uw_per_kib * 1e-3 * double(a.sram_kib), window);
  b.uj(EnergyBreakdown::kFabric) = p.sram.fabric_pj_per_byte * double(a.buffer_bytes) * 1e-6;
  b.crypto_busy_s = a.crypto_clock_mhz > 0 ? double(a.crypto_cycles) / (a.crypto_clock_mhz * 1e6) : 0.0;
  b.crypto_idle_s = std::max(0.0, window - b.crypto_busy_s);
  // A job's energy is its rounds' (busy cycles x rounds per cycle), whatever the variant.
  b.uj(EnergyBreakdown::kCryptoActive) =
      p.crypto.round_pj * double(a.crypto_cycles) * double(a.crypto_rounds_per_cycle) * 1e-6;
  b.uj(EnergyBreakdown::kCryptoIdle) = uj_of(p.crypto.idle_mw, b.crypto_idle_s);
  // The regulator from VCCQ down to core_v passes the core-fed components' current, so VCCQ
  // supplies vccq_v / core_v times their energy; the rest is lost in the regulator.
  double core_uj = 0;
  for (int c = 0; c < EnergyBreakdown::kComponents; ++c)
    if (EnergyBreakdown::core_fed(c)) core_uj += b.uj(c);
  b.uj(EnergyBreakdown::kRegulatorLoss) = core_uj * (p.power.vccq_v / p.power.core_v - 1.0);
  return b;
}

EnergySummary EnergyModel::summary(const EnergyActivity& a, const EnergyBreakdown& b) const {
  EnergySummary s;
  s.total_uj = b.total_uj();
  s.per_io_uj = a.ios ? s.total_uj / double(a.ios) : 0.0;
  s.per_byte_nj = a.bytes ? s.total_uj * 1e3 / double(a.bytes) : 0.0;
  if (a.window_s > 0) {
    s.mean_power_mw = s.total_uj * 1e-3 / a.window_s;
    // Each rail's current: its components' energy over its voltage and the window (uJ / V /
    // s = uA). The regulator loss is VCCQ's, so the core-fed components count at core_v.
    double rail_uj[EnergyBreakdown::kRails] = {0, 0};
    for (int c = 0; c < EnergyBreakdown::kComponents; ++c) rail_uj[EnergyBreakdown::rail(c)] += b.uj(c);
    s.rail_ma[EnergyBreakdown::kVcc] = rail_uj[EnergyBreakdown::kVcc] * 1e-3 / params_.power.vcc_v / a.window_s;
    s.rail_ma[EnergyBreakdown::kVccq] = rail_uj[EnergyBreakdown::kVccq] * 1e-3 / params_.power.vccq_v / a.window_s;
    s.mean_current_ma = s.rail_ma[EnergyBreakdown::kVcc] + s.rail_ma[EnergyBreakdown::kVccq];
    const double mb_per_s = double(a.bytes) / a.window_s / 1e6;
    s.mb_per_s_per_ma = s.mean_current_ma > 0 ? mb_per_s / s.mean_current_ma : 0.0;
  }
  return s;
}

}  // namespace ufs
