// The energy model's arithmetic (tlm/power/energy_model.h), no kernel: conservation (the
// components add up to the total), each component equal to its power state's time
// integral or its count times its energy, the derived figures, parameter checks.
#include <catch2/catch.hpp>
#include <string>
#include "power/energy_model.h"

using namespace ufs;

namespace {
// A window with something in every component, numbers picked by hand.
EnergyActivity busy_window() {
  EnergyActivity a;
  a.window_s = 0.5;
  a.dies = 8;
  a.nand_read_s = 0.40;
  a.nand_read_slc_s = 0.05;
  a.nand_program_s = 1.20;
  a.nand_program_slc_s = 0.30;
  a.nand_erase_s = 0.035;
  a.channel_bytes = 1'000'000'000;
  a.channel_bytes_to_dies = 400'000'000;
  a.cpu_busy_s = 0.3;
  a.cpu_clock_mhz = 600;
  a.buffer_bytes = 2'000'000'000;
  a.l2p_accesses = 100'000;
  a.sram_kib = 5120;
  a.crypto_cycles = 4'000'000;
  a.crypto_clock_mhz = 400;
  a.link_burst_s[0] = 0.2;
  a.link_burst_s[1] = 0.1;
  a.link_lanes[0] = 2;
  a.link_lanes[1] = 2;
  a.link_lane_rate_mbps[0] = 11660.8;
  a.link_lane_rate_mbps[1] = 11660.8;
  a.link_hibern8_s = 0.05;
  a.link_hibern8_entries = 3;
  a.ios = 10'000;
  a.bytes = 1'000'000'000;
  return a;
}
}  // namespace

TEST_CASE("Energy: the components add up to the total", "[energy]") {
  const EnergyModel model{EnergyParams{}};
  const EnergyActivity a = busy_window();
  const EnergyBreakdown b = model.breakdown(a);
  double sum = 0;
  for (int c = 0; c < EnergyBreakdown::kComponents; ++c) {
    CHECK(b.uj(c) >= 0);
    sum += b.uj(c);
  }
  CHECK(b.total_uj() == Approx(sum).epsilon(1e-12));
  CHECK(model.summary(a, b).total_uj == Approx(sum).epsilon(1e-12));
  // Every component has a block, and every one is non-zero in this window but SLEEP (the
  // link is in the fast power mode: STALL between bursts).
  for (int c = 0; c < EnergyBreakdown::kComponents; ++c) {
    INFO(EnergyBreakdown::name(c));
    CHECK(std::string(EnergyBreakdown::block(c)) != "?");
    CHECK((c == EnergyBreakdown::kLinkSleep ? b.uj(c) == 0 : b.uj(c) > 0));
  }
}

TEST_CASE("Energy: in the slow power mode the link bursts in PWM and SLEEPs between bursts", "[energy]") {
  const EnergyModel model{EnergyParams{}};
  EnergyActivity a = busy_window();
  a.link_pwm = true;
  a.link_lane_rate_mbps[0] = a.link_lane_rate_mbps[1] = 72.0;  // PWM-G4
  const EnergyBreakdown b = model.breakdown(a);
  // Burst: 1 mW per lane whatever the rate; SLEEP 50 uW per lane the rest outside Hibern8.
  CHECK(model.burst_mw_per_lane(72.0, true) == Approx(1.0));
  CHECK(b.uj(EnergyBreakdown::kLinkBurst) == Approx(1.0 * 2 * (0.2 + 0.1) * 1e3));
  CHECK(b.link_sleep_s[0] == Approx(0.5 - 0.2 - 0.05));
  CHECK(b.link_sleep_s[1] == Approx(0.5 - 0.1 - 0.05));
  CHECK(b.link_stall_s[0] == 0);
  CHECK(b.uj(EnergyBreakdown::kLinkStall) == 0);
  CHECK(b.uj(EnergyBreakdown::kLinkSleep) == Approx(0.050 * 2 * (0.25 + 0.35) * 1e3));
  CHECK(b.uj(EnergyBreakdown::kLinkHibern8) == Approx(0.010 * 4 * 0.05 * 1e3));
  double sum = 0;
  for (int c = 0; c < EnergyBreakdown::kComponents; ++c) sum += b.uj(c);
  CHECK(b.total_uj() == Approx(sum));
}

TEST_CASE("Energy: each component is its power state's time integral or its count times its energy", "[energy]") {
  EnergyParams p;
  const EnergyModel model{p};
  const EnergyActivity a = busy_window();
  const EnergyBreakdown b = model.breakdown(a);
  // NAND: ICC x VCC x array time (mA x V x s = mJ; uJ = 1e3 x that), VCC the 2.5 V rail.
  CHECK(b.uj(EnergyBreakdown::kNandRead) == Approx(20.0 * 2.5 * 0.40 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kNandReadSlc) == Approx(20.0 * 2.5 * 0.05 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kNandProgram) == Approx(25.0 * 2.5 * 1.20 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kNandProgramSlc) == Approx(25.0 * 2.5 * 0.30 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kNandErase) == Approx(25.0 * 2.5 * 0.035 * 1e3));
  // Standby: the dies' time outside array operations.
  const double standby = 8 * 0.5 - (0.40 + 0.05 + 1.20 + 0.30 + 0.035);
  CHECK(b.nand_standby_s == Approx(standby));
  CHECK(b.uj(EnergyBreakdown::kNandStandby) == Approx(0.050 * 2.5 * standby * 1e3));
  CHECK(b.uj(EnergyBreakdown::kChannelIo) == Approx(36.0 * 1e9 * 1e-6));
  // ECC: the bytes out of the dies decoded, those into them encoded.
  CHECK(b.uj(EnergyBreakdown::kEccDecode) == Approx(27.4 * 6e8 * 1e-6));
  CHECK(b.uj(EnergyBreakdown::kEccEncode) == Approx(5.5 * 4e8 * 1e-6));
  // Link: burst power per lane = pJ/bit x lane rate; STALL the rest of the window outside Hibern8.
  const double burst_mw = 3.1 * 11660.8 * 1e-3;
  CHECK(model.burst_mw_per_lane(11660.8) == Approx(burst_mw));
  CHECK(b.uj(EnergyBreakdown::kLinkBurst) == Approx(burst_mw * 2 * (0.2 + 0.1) * 1e3));
  CHECK(b.link_stall_s[0] == Approx(0.5 - 0.2 - 0.05));
  CHECK(b.link_stall_s[1] == Approx(0.5 - 0.1 - 0.05));
  CHECK(b.uj(EnergyBreakdown::kLinkStall) == Approx(2.0 * 2 * (0.25 + 0.35) * 1e3));
  CHECK(b.uj(EnergyBreakdown::kLinkHibern8) == Approx(0.010 * 4 * 0.05 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kLinkTransitions) == Approx(3 * 4.8));
  // Core: pJ per cycle x busy cycles; idle power the rest.
  CHECK(b.uj(EnergyBreakdown::kCpuActive) == Approx(100.0 * 0.3 * 600e6 * 1e-6));
  CHECK(b.cpu_idle_s == Approx(0.2));
  CHECK(b.uj(EnergyBreakdown::kCpuIdle) == Approx(2.0 * 0.2 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kSramBuffer) == Approx(1.0 * 2e9 * 1e-6));
  CHECK(b.uj(EnergyBreakdown::kSramL2p) == Approx(10.0 * 1e5 * 1e-6));
  CHECK(b.uj(EnergyBreakdown::kSramLeakage) == Approx(1e-3 * 5120 * 0.5 * 1e3));
  // Fabric: each buffer byte's trip between the buffer and a DMA engine.
  CHECK(b.uj(EnergyBreakdown::kFabric) == Approx(2.8 * 2e9 * 1e-6));
  CHECK(b.crypto_busy_s == Approx(0.01));
  CHECK(b.uj(EnergyBreakdown::kCryptoActive) == Approx(50.0 * 4e6 * 1e-6));
  CHECK(b.uj(EnergyBreakdown::kCryptoIdle) == Approx(0.1 * 0.49 * 1e3));
  // The regulator: the core-fed blocks (ECC, link, core, SRAM, crypto) draw their current
  // from VCCQ 1.2 V at 0.9 V, so it loses 1.2 / 0.9 - 1 = 1/3 of their energy.
  double core_fed = 0;
  for (int c = EnergyBreakdown::kEccDecode; c <= EnergyBreakdown::kCryptoIdle; ++c) core_fed += b.uj(c);
  CHECK(b.uj(EnergyBreakdown::kRegulatorLoss) == Approx(core_fed / 3.0));
}

TEST_CASE("Energy: each plane of a multi-plane operation beyond the first draws multi_plane_share of its current",
          "[energy]") {
  EnergyParams p;
  EnergyActivity a = busy_window();
  // Half the reads' array time was two-plane groups, the programs all two-plane, erases single.
  a.nand_read_plane_s = 0.40 * 1.5;
  a.nand_program_plane_s = 1.20 * 2;
  a.nand_erase_plane_s = 0.035;
  const EnergyBreakdown full = EnergyModel(p).breakdown(a);
  CHECK(full.uj(EnergyBreakdown::kNandRead) == Approx(20.0 * 2.5 * 0.60 * 1e3));
  CHECK(full.uj(EnergyBreakdown::kNandProgram) == Approx(25.0 * 2.5 * 2.40 * 1e3));
  CHECK(full.uj(EnergyBreakdown::kNandErase) == Approx(25.0 * 2.5 * 0.035 * 1e3));
  // Plane-seconds not given (0) count as single-plane.
  CHECK(full.uj(EnergyBreakdown::kNandReadSlc) == Approx(20.0 * 2.5 * 0.05 * 1e3));
  // Standby is the dies' time outside array phases: planes do not change it.
  CHECK(full.nand_standby_s == Approx(8 * 0.5 - (0.40 + 0.05 + 1.20 + 0.30 + 0.035)));
  p.nand.multi_plane_share = 0.25;
  const EnergyBreakdown quarter = EnergyModel(p).breakdown(a);
  CHECK(quarter.uj(EnergyBreakdown::kNandRead) == Approx(20.0 * 2.5 * (0.40 + 0.25 * 0.20) * 1e3));
  CHECK(quarter.uj(EnergyBreakdown::kNandProgram) == Approx(25.0 * 2.5 * (1.20 + 0.25 * 1.20) * 1e3));
  p.nand.multi_plane_share = 0;
  const EnergyBreakdown none = EnergyModel(p).breakdown(a);
  CHECK(none.uj(EnergyBreakdown::kNandRead) == Approx(20.0 * 2.5 * 0.40 * 1e3));
}

TEST_CASE("Energy: a crypto job costs its rounds whatever the variant's rounds per cycle", "[energy]") {
  const EnergyModel model{EnergyParams{}};
  // 1000 jobs of 20 rounds (two AES-128 blocks): 20,000 cycles at one round per cycle,
  // 2,000 at ten (fully unrolled). Same energy, drawn in a tenth of the time.
  EnergyActivity one = busy_window(), ten = busy_window();
  one.crypto_cycles = 20'000;
  one.crypto_rounds_per_cycle = 1;
  ten.crypto_cycles = 2'000;
  ten.crypto_rounds_per_cycle = 10;
  const EnergyBreakdown b1 = model.breakdown(one), b10 = model.breakdown(ten);
  CHECK(b1.uj(EnergyBreakdown::kCryptoActive) == Approx(50.0 * 20'000 * 1e-6));
  CHECK(b10.uj(EnergyBreakdown::kCryptoActive) == Approx(b1.uj(EnergyBreakdown::kCryptoActive)));
  CHECK(b10.crypto_busy_s == Approx(b1.crypto_busy_s / 10));
  CHECK(b10.uj(EnergyBreakdown::kCryptoIdle) > b1.uj(EnergyBreakdown::kCryptoIdle));  // idle longer
}

TEST_CASE("Energy: the rails' currents times their voltages give the total, the NAND's current does not depend on VCC",
          "[energy]") {
  EnergyParams p;
  const EnergyActivity a = busy_window();
  const EnergyModel model{p};
  const EnergyBreakdown b = model.breakdown(a);
  const EnergySummary s = model.summary(a, b);
  // Conservation over the rails: (ICC x VCC + ICCQ x VCCQ) x window = the total energy.
  CHECK((s.rail_ma[EnergyBreakdown::kVcc] * 2.5 + s.rail_ma[EnergyBreakdown::kVccq] * 1.2) * 0.5 * 1e3 ==
        Approx(b.total_uj()));
  CHECK(s.mean_current_ma == Approx(s.rail_ma[EnergyBreakdown::kVcc] + s.rail_ma[EnergyBreakdown::kVccq]));
  // VCC's current is the dies' ICC averaged over the window: read 20 mA for 0.45 die-s,
  // program and erase 25 mA for 1.535 die-s, standby 50 uA the rest, over 0.5 s.
  const double standby = 8 * 0.5 - (0.40 + 0.05 + 1.20 + 0.30 + 0.035);
  CHECK(s.rail_ma[EnergyBreakdown::kVcc] == Approx((20.0 * 0.45 + 25.0 * 1.535 + 0.05 * standby) / 0.5));
  // VCCQ: the channel I/O at 1.2 V, the core-fed blocks' own current at 0.9 V.
  double core_fed = 0;
  for (int c = EnergyBreakdown::kEccDecode; c <= EnergyBreakdown::kCryptoIdle; ++c) core_fed += b.uj(c);
  CHECK(s.rail_ma[EnergyBreakdown::kVccq] ==
        Approx((b.uj(EnergyBreakdown::kChannelIo) / 1.2 + core_fed / 0.9) * 1e-3 / 0.5));
  // Another VCC: the same current, the power in proportion.
  p.power.vcc_v = 2.7;
  const EnergyModel at27{p};
  const EnergyBreakdown b27 = at27.breakdown(a);
  const EnergySummary s27 = at27.summary(a, b27);
  CHECK(s27.rail_ma[EnergyBreakdown::kVcc] == Approx(s.rail_ma[EnergyBreakdown::kVcc]));
  CHECK(b27.uj(EnergyBreakdown::kNandProgram) == Approx(b.uj(EnergyBreakdown::kNandProgram) * 2.7 / 2.5));
  CHECK(s27.rail_ma[EnergyBreakdown::kVccq] == Approx(s.rail_ma[EnergyBreakdown::kVccq]));
  for (int c = 0; c < EnergyBreakdown::kComponents; ++c) {
    INFO(EnergyBreakdown::name(c));
    CHECK(std::string(EnergyBreakdown::rail_name(EnergyBreakdown::rail(c))) != "?");
  }
}

TEST_CASE("Energy: a parameter scales its own component only", "[energy]") {
  EnergyParams p;
  const EnergyActivity a = busy_window();
  const EnergyBreakdown base = EnergyModel(p).breakdown(a);
  p.nand.icc_program_ma *= 2;
  const EnergyBreakdown doubled = EnergyModel(p).breakdown(a);
  for (int c = 0; c < EnergyBreakdown::kComponents; ++c) {
    INFO(EnergyBreakdown::name(c));
    const bool program = c == EnergyBreakdown::kNandProgram || c == EnergyBreakdown::kNandProgramSlc;
    CHECK(doubled.uj(c) == Approx(program ? 2 * base.uj(c) : base.uj(c)));
  }
}

TEST_CASE("Energy: per I/O, per byte, mean power and throughput per mA", "[energy]") {
  EnergyParams p;
  p.power.vcc_v = 2.0;
  const EnergyModel model{p};
  const EnergyActivity a = busy_window();
  const EnergyBreakdown b = model.breakdown(a);
  const EnergySummary s = model.summary(a, b);
  CHECK(s.per_io_uj == Approx(b.total_uj() / 10'000));
  CHECK(s.per_byte_nj == Approx(b.total_uj() * 1e3 / 1e9));
  CHECK(s.mean_power_mw == Approx(b.total_uj() * 1e-3 / 0.5));
  CHECK(s.mean_current_ma == Approx(s.rail_ma[EnergyBreakdown::kVcc] + s.rail_ma[EnergyBreakdown::kVccq]));
  CHECK(s.mean_current_ma > s.mean_power_mw / 2.0);  // VCCQ's share is drawn at 1.2 V, below VCC
  CHECK(s.mb_per_s_per_ma == Approx((1e9 / 0.5 / 1e6) / s.mean_current_ma));
}

TEST_CASE("Energy: an empty window costs nothing and divides by nothing", "[energy]") {
  const EnergyModel model{EnergyParams{}};
  EnergyActivity a;
  const EnergyBreakdown b = model.breakdown(a);
  const EnergySummary s = model.summary(a, b);
  CHECK(b.total_uj() == 0);
  CHECK(s.per_io_uj == 0);
  CHECK(s.per_byte_nj == 0);
  CHECK(s.mean_power_mw == 0);
  CHECK(s.mb_per_s_per_ma == 0);
}

TEST_CASE("Energy: an idle window is standby, STALL or Hibern8, idle core and leakage", "[energy]") {
  const EnergyModel model{EnergyParams{}};
  EnergyActivity a;
  a.window_s = 2.0;
  a.dies = 4;
  a.link_lanes[0] = a.link_lanes[1] = 2;
  a.link_hibern8_s = 1.5;
  a.link_hibern8_entries = 1;
  a.sram_kib = 1024;
  const EnergyBreakdown b = model.breakdown(a);
  CHECK(b.nand_standby_s == Approx(8.0));
  CHECK(b.link_stall_s[0] == Approx(0.5));
  CHECK(b.uj(EnergyBreakdown::kLinkHibern8) == Approx(0.010 * 4 * 1.5 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kCpuIdle) == Approx(2.0 * 2.0 * 1e3));
  CHECK(b.uj(EnergyBreakdown::kCpuActive) == 0);
  CHECK(b.uj(EnergyBreakdown::kNandRead) == 0);
}

TEST_CASE("Energy parameters: bad values are named by their key", "[energy]") {
  NandEnergyParams nand;
  nand.icc_read_ma = -1;
  CHECK(nand.validate().rfind("icc_read_ma:", 0) == 0);
  nand = NandEnergyParams{};
  nand.isb_ua = 2e6;
  CHECK(nand.validate().rfind("isb_ua:", 0) == 0);
  LinkEnergyParams link;
  link.burst_pj_per_bit = 1e9;
  CHECK(link.validate().rfind("burst_pj_per_bit:", 0) == 0);
  link = LinkEnergyParams{};
  link.sleep_uw_per_lane = -1;
  CHECK(link.validate().rfind("sleep_uw_per_lane:", 0) == 0);
  CpuEnergyParams cpu;
  cpu.idle_mw = -0.5;
  CHECK(cpu.validate().rfind("idle_mw:", 0) == 0);
  SramEnergyParams sram;
  sram.l2p_pj_per_access = -1;
  CHECK(sram.validate().rfind("l2p_pj_per_access:", 0) == 0);
  CryptoEnergyParams crypto;
  crypto.round_pj = -1;
  CHECK(crypto.validate().rfind("round_pj:", 0) == 0);
  sram = SramEnergyParams{};
  sram.fabric_pj_per_byte = 2e6;
  CHECK(sram.validate().rfind("fabric_pj_per_byte:", 0) == 0);
  ChannelEnergyParams channel;
  channel.io_pj_per_byte = -3;
  CHECK(channel.validate().rfind("io_pj_per_byte:", 0) == 0);
  channel = ChannelEnergyParams{};
  channel.ecc_decode_pj_per_byte = -1;
  CHECK(channel.validate().rfind("ecc_decode_pj_per_byte:", 0) == 0);
  channel = ChannelEnergyParams{};
  channel.ecc_encode_pj_per_byte = 2e6;
  CHECK(channel.validate().rfind("ecc_encode_pj_per_byte:", 0) == 0);
  nand = NandEnergyParams{};
  nand.multi_plane_share = 1.5;
  CHECK(nand.validate().rfind("multi_plane_share:", 0) == 0);
  PowerParams power;
  power.vcc_v = 0;
  CHECK(power.validate().rfind("vcc_v:", 0) == 0);
  power = PowerParams{};
  power.vccq_v = -1;
  CHECK(power.validate().rfind("vccq_v:", 0) == 0);
  power = PowerParams{};
  power.core_v = 1.5;  // above VCCQ: a linear regulator cannot
  CHECK(power.validate().rfind("core_v:", 0) == 0);
  // Defaults are valid.
  CHECK(NandEnergyParams{}.validate().empty());
  CHECK(LinkEnergyParams{}.validate().empty());
  CHECK(PowerParams{}.validate().empty());
}
