// Energy parameters of each block (issue 22), bound as "<block>.energy" sections
// (nand.energy, fcc.energy, link.energy, cpu.energy, memory.energy, crypto.energy) and
// "power" (the supply the current figures refer to). They live beside the energy model
// rather than in each block's *_params.h: no timing model reads them.
//
// Each default names its source. Where no public figure exists the value is marked
// "estimate" with the reasoning; the `energy` study prints the device-level figures
// these give beside published ones.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct NandEnergyParams {
  // Currents of a NAND die's array operations and standby, at VCC. Public NAND datasheets
  // give ICC per operation: Numonyx NAND01G-B2B (3 V, Table 23): IDD1 read / IDD2 program /
  // IDD3 erase 10 mA typ, 20 mA max, IDD5 standby 10 uA typ, 50 uA max; Samsung K9F5608U0C
  // rev 2.0: program/erase ICC2/ICC3 max raised 20 -> 25 mA; Samsung K9F2G08U0C rev 0.2:
  // standby ISB2 max 80 uA. No 3D TLC die publishes its currents: we take the maxima of
  // those planar parts (a 3D die's larger array draws at least that much).
  double vcc_v = 3.3;           // the 3 V devices' supply (datasheet test condition)
  double icc_read_ma = 20.0;    // Numonyx NAND01G-B2B IDD1 max
  double icc_program_ma = 25.0; // Samsung K9F5608U0C ICC2 max (rev 2.0)
  double icc_erase_ma = 25.0;   // Samsung K9F5608U0C ICC3 max (rev 2.0)
  double isb_ua = 50.0;         // Numonyx NAND01G-B2B IDD5 max (per die)

  template <class B>
  void bind(B& b) {
    b("vcc_v", vcc_v, "V", "NAND core supply the currents are given at (datasheets' 3 V devices)");
    b("icc_read_ma", icc_read_ma, "mA", "array read current per die during tR (Numonyx NAND01G-B2B IDD1 max)");
    b("icc_program_ma", icc_program_ma, "mA",
      "program current per die during tPROG, every page type and SLC (Samsung K9F5608U0C ICC2 max)");
    b("icc_erase_ma", icc_erase_ma, "mA", "erase current per die during tBERS (Samsung K9F5608U0C ICC3 max)");
    b("isb_ua", isb_ua, "uA", "standby current per die outside array operations (Numonyx NAND01G-B2B IDD5 max)");
  }
  std::string validate() const {
    if (!(vcc_v > 0) || vcc_v > 12) return "vcc_v: must be within 0..12 V (excluded 0)";
    if (!(icc_read_ma >= 0) || icc_read_ma > 10000) return "icc_read_ma: must be within 0..10000";
    if (!(icc_program_ma >= 0) || icc_program_ma > 10000) return "icc_program_ma: must be within 0..10000";
    if (!(icc_erase_ma >= 0) || icc_erase_ma > 10000) return "icc_erase_ma: must be within 0..10000";
    if (!(isb_ua >= 0) || isb_ua > 1e6) return "isb_ua: must be within 0..1000000";
    return "";
  }
};

struct ChannelEnergyParams {
  // Estimate: NAND I/O switching energy C x VCCQ^2 per transition, 5 pF per DQ line (pin,
  // package and trace), VCCQ 1.2 V (Toggle DDR 4.0 / ONFI 4 NV-LPDDR4), half the 8 bits
  // toggling per byte, plus the strobe: 5e-12 x 1.44 x (4 + 1) ~ 36 pJ per byte; both ends.
  double io_pj_per_byte = 36.0;

  template <class B>
  void bind(B& b) {
    b("io_pj_per_byte", io_pj_per_byte, "pJ",
      "channel I/O energy per byte moved between controller and die (estimate: C V^2, 5 pF, 1.2 V)");
  }
  std::string validate() const {
    if (!(io_pj_per_byte >= 0) || io_pj_per_byte > 1e6) return "io_pj_per_byte: must be within 0..1000000";
    return "";
  }
};

struct LinkEnergyParams {
  // The device's end of the M-PHY link, per lane. The model's link states: HS burst while a
  // direction serialises, STALL between bursts (HS mode, nothing to send), Hibern8 under
  // auto-hibernate (link.hibernate_idle_us), each entry with its exit. PWM gears and SLEEP
  // are not modelled (the link stays in HS mode).
  // Estimates (MIPI publishes no power figures): a 28 nm-class M-PHY spends about 3 pJ
  // per bit per lane in burst (TX or RX), so burst power scales with the gear's lane rate
  // (HS-G4B 11.66 Gb/s: 35 mW per lane); STALL keeps the PLL locked and the lines
  // terminated: 2 mW per lane; Hibern8 leaves leakage and the squelch detector: 10 uW per lane;
  // an entry and exit relocks the PLL (exit 600 us in link.hibernate_exit_us) at STALL-like power.
  double burst_pj_per_bit = 3.0;
  double stall_mw_per_lane = 2.0;
  double hibern8_uw_per_lane = 10.0;
  double hibern8_transition_uj = 5.0;

  template <class B>
  void bind(B& b) {
    b("burst_pj_per_bit", burst_pj_per_bit, "pJ",
      "HS burst energy per line bit per lane, device end (burst power = this x the gear's lane rate; estimate)");
    b("stall_mw_per_lane", stall_mw_per_lane, "mW", "STALL (HS mode, between bursts) power per lane (estimate)");
    b("hibern8_uw_per_lane", hibern8_uw_per_lane, "uW", "Hibern8 power per lane (estimate)");
    b("hibern8_transition_uj", hibern8_transition_uj, "uJ",
      "energy of one Hibern8 entry and exit, all lanes (estimate: PLL relock at STALL power)");
  }
  std::string validate() const {
    if (!(burst_pj_per_bit >= 0) || burst_pj_per_bit > 1e4) return "burst_pj_per_bit: must be within 0..10000";
    if (!(stall_mw_per_lane >= 0) || stall_mw_per_lane > 1e4) return "stall_mw_per_lane: must be within 0..10000";
    if (!(hibern8_uw_per_lane >= 0) || hibern8_uw_per_lane > 1e6) return "hibern8_uw_per_lane: must be within 0..1000000";
    if (!(hibern8_transition_uj >= 0) || hibern8_transition_uj > 1e6)
      return "hibern8_transition_uj: must be within 0..1000000";
    return "";
  }
};

struct CpuEnergyParams {
  // Estimates: ARM publishes no Cortex-R8 power figure. A real-time core of that class in
  // 28 nm: about 0.1 mW per MHz dynamic (100 pJ per active cycle) and, clock-gated in WFI
  // between events, about 2 mW of leakage and always-on logic.
  double active_pj_per_cycle = 100.0;
  double idle_mw = 2.0;

  template <class B>
  void bind(B& b) {
    b("active_pj_per_cycle", active_pj_per_cycle, "pJ", "core energy per active (busy) cycle (estimate)");
    b("idle_mw", idle_mw, "mW", "core power while idle between events (WFI, clock-gated; estimate)");
  }
  std::string validate() const {
    if (!(active_pj_per_cycle >= 0) || active_pj_per_cycle > 1e6) return "active_pj_per_cycle: must be within 0..1000000";
    if (!(idle_mw >= 0) || idle_mw > 1e5) return "idle_mw: must be within 0..100000";
    return "";
  }
};

struct SramEnergyParams {
  // Estimates (CACTI-class figures for multi-MiB SRAM macros in 28 nm): about 1 pJ per byte
  // read or written in the data buffer, 10 pJ per L2P SRAM access (one map entry, with
  // decode), 1 uW of leakage per KiB (4 MiB + 1 MiB: 5 mW).
  double buffer_pj_per_byte = 1.0;
  double l2p_pj_per_access = 10.0;
  double leakage_uw_per_kib = 1.0;

  template <class B>
  void bind(B& b) {
    b("buffer_pj_per_byte", buffer_pj_per_byte, "pJ", "data buffer energy per byte read or written (estimate)");
    b("l2p_pj_per_access", l2p_pj_per_access, "pJ", "L2P SRAM energy per access (estimate)");
    b("leakage_uw_per_kib", leakage_uw_per_kib, "uW", "SRAM leakage per KiB, both SRAMs (estimate)");
  }
  std::string validate() const {
    if (!(buffer_pj_per_byte >= 0) || buffer_pj_per_byte > 1e6) return "buffer_pj_per_byte: must be within 0..1000000";
    if (!(l2p_pj_per_access >= 0) || l2p_pj_per_access > 1e6) return "l2p_pj_per_access: must be within 0..1000000";
    if (!(leakage_uw_per_kib >= 0) || leakage_uw_per_kib > 1e6) return "leakage_uw_per_kib: must be within 0..1000000";
    return "";
  }
};

struct CryptoEnergyParams {
  // Estimates: an AES-128 datapath with its key schedule in 28 nm, about 50 pJ per busy
  // cycle (a round per cycle, crypto.rounds_per_cycle); so a job's energy follows the
  // variant's cycle count. Clock-gated when idle: 0.1 mW.
  double active_pj_per_cycle = 50.0;
  double idle_mw = 0.1;

  template <class B>
  void bind(B& b) {
    b("active_pj_per_cycle", active_pj_per_cycle, "pJ", "crypto unit energy per busy cycle (estimate)");
    b("idle_mw", idle_mw, "mW", "crypto unit power while idle (estimate)");
  }
  std::string validate() const {
    if (!(active_pj_per_cycle >= 0) || active_pj_per_cycle > 1e6) return "active_pj_per_cycle: must be within 0..1000000";
    if (!(idle_mw >= 0) || idle_mw > 1e5) return "idle_mw: must be within 0..100000";
    return "";
  }
};

struct PowerParams {
  // The supply the device's mean current is quoted at (throughput per mA). JESD220E (UFS
  // 3.1) gives VCC 2.4-2.7 V for the NAND (or 2.7-3.6 V), VCCQ 1.14-1.26 V and VCCQ2
  // 1.7-1.95 V for the controller and I/O; a vendor's "MB/s per mA" (Samsung UFS 4.0:
  // 6.0 MB/s per mA) names no rail: we quote the whole device's power over VCC, 2.5 V.
  double supply_v = 2.5;

  template <class B>
  void bind(B& b) {
    b("supply_v", supply_v, "V", "supply the mean current (and throughput per mA) is quoted at (JESD220E VCC)");
  }
  std::string validate() const {
    if (!(supply_v > 0) || supply_v > 12) return "supply_v: must be within 0..12 V (excluded 0)";
    return "";
  }
};

}  // namespace ufs
