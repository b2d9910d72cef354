// Energy parameters of each block (issue 22), bound as "<block>.energy" sections
// (nand.energy, fcc.energy, link.energy, cpu.energy, memory.energy, crypto.energy) and
// "power" (the supply the current figures refer to). They live beside the energy model
// rather than in each block's *_params.h: no timing model reads them.
//
// Each default names its source: "derived" where it is computed from a public figure (the
// computation is given), "estimate" with the reasoning where nothing public exists. The
// `energy` study prints the device-level figures these give beside the published ones;
// notes/22-s19.md lists what was searched and found.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct NandEnergyParams {
  // Currents of a NAND die's array operations and standby, drawn from the device's VCC rail
  // (power.vcc_v: a UFS 3.1 device feeds its NAND from VCC). Public NAND datasheets give ICC
  // per operation: Numonyx NAND01G-B2B (3 V, Table 23): IDD1 read / IDD2 program / IDD3 erase
  // 10 mA typ, 20 mA max, IDD5 standby 10 uA typ, 50 uA max; Samsung K9F5608U0C rev 2.0:
  // program/erase ICC2/ICC3 max raised 20 -> 25 mA; Samsung K9F2G08U0C rev 0.2: standby ISB2
  // max 80 uA. No 3D TLC die publishes its currents: we take the maxima of those planar parts
  // (a 3D die's larger array draws at least that much). The current, not the power, carries
  // over to the 2.5 V rail: a die regulates its internal supplies down from VCC, so it draws
  // the same current at any VCC above the regulators' dropout (the 1.8 V parts of the same
  // datasheet draw 15 mA max, not 20 x 3.3 / 1.8).
  //
  // Those parts' currents are a single plane's (the NAND01G-B2B and K9F5608U0C have one plane
  // per die). A multi-plane operation senses (read) or drives (program, erase) the array of
  // every plane in its group at once: the bit lines precharged and sensed, the dominant
  // part of a read's charge (FlashPower, Mohan et al., DATE 2010), are each plane's own. Each
  // plane beyond the first therefore draws multi_plane_share x the operation's current: 1.0
  // charges each plane as a single-plane operation (an upper bound: the charge pumps and
  // the die's logic are shared; no datasheet gives a multi-plane current to say by how much).
  // Cross-check: two-plane parts with multi-page read, Toshiba TC58NVG3S0FTA00 (8 Gb, 2011)
  // and TC58NVG1S3ETA00 (2 Gb, 2012), give read / program / erase 30 mA max and standby 50 uA
  // max per die, whatever the mode: 1.5x the single-plane 20 mA, i.e. a second plane at half
  // a plane's current if that maximum is a two-plane operation's. ufs31's sequential reads
  // sense 1.51 planes per read on average, so 20 mA per plane (share 1) draws 30 mA per read:
  // the same as those parts' maximum per die.
  double icc_read_ma = 20.0;    // Numonyx NAND01G-B2B IDD1 max
  double icc_program_ma = 25.0; // Samsung K9F5608U0C ICC2 max (rev 2.0)
  double icc_erase_ma = 25.0;   // Samsung K9F5608U0C ICC3 max (rev 2.0)
  double isb_ua = 50.0;         // Numonyx NAND01G-B2B IDD5 max (per die)
  double multi_plane_share = 1.0;  // each further plane as a single-plane operation (bit lines per plane)

  template <class B>
  void bind(B& b) {
    b("icc_read_ma", icc_read_ma, "mA", "array read current per die during tR, from VCC (Numonyx NAND01G-B2B IDD1 max)");
    b("icc_program_ma", icc_program_ma, "mA",
      "program current per die during tPROG, every page type and SLC, from VCC (Samsung K9F5608U0C ICC2 max)");
    b("icc_erase_ma", icc_erase_ma, "mA", "erase current per die during tBERS, from VCC (Samsung K9F5608U0C ICC3 max)");
    b("isb_ua", isb_ua, "uA", "standby current per die outside array operations, from VCC (Numonyx NAND01G-B2B IDD5 max)");
    b("multi_plane_share", multi_plane_share, "",
      "share of an operation's current each plane beyond the first of a multi-plane group draws (1 = each plane as a "
      "single-plane operation: its bit lines are its own; upper bound)");
  }
  std::string validate() const {
    if (!(icc_read_ma >= 0) || icc_read_ma > 10000) return "icc_read_ma: must be within 0..10000";
    if (!(icc_program_ma >= 0) || icc_program_ma > 10000) return "icc_program_ma: must be within 0..10000";
    if (!(icc_erase_ma >= 0) || icc_erase_ma > 10000) return "icc_erase_ma: must be within 0..10000";
    if (!(isb_ua >= 0) || isb_ua > 1e6) return "isb_ua: must be within 0..1000000";
    if (!(multi_plane_share >= 0) || multi_plane_share > 1) return "multi_plane_share: must be within 0..1";
    return "";
  }
};

struct ChannelEnergyParams {
  // Channel I/O (the NAND bus, at VCCQ): switching energy C x VCCQ^2 per transition, 5 pF per
  // DQ line (pin, package and trace; estimate), VCCQ 1.2 V (Toggle DDR 4.0 / ONFI 4
  // NV-LPDDR4), half the 8 bits toggling per byte, plus the strobe: 5e-12 x 1.44 x (4 + 1)
  // ~ 36 pJ per byte; both ends.
  double io_pj_per_byte = 36.0;
  // The flash controller's ECC engine, per byte through it: decoded on the bytes out of the
  // dies (reads), encoded on the bytes into them (programs); the channels' bytes, so spare
  // and parity bytes count too. Decoder: published decoders for NAND in 65 nm: 3.43 pJ/bit at
  // 13.2 Gb/s (SBC-BCH for mobile storage, IEEE TCAS-I 66(11), 2019) and 2.74 pJ/bit at
  // 17.7 Gb/s (concatenated BCH, Lee et al., JSSC 48(10), 2013). UFS 3.1 controllers decode
  // LDPC, costlier per bit than BCH in the same node, and are built in a smaller one: the two
  // roughly offset, so we take the mobile-storage decoder's 3.43 pJ/bit as it stands, 27.4 pJ
  // per byte. Encoder: a parallel LFSR computing the parity, the same kind of circuit as the
  // decoder's first stage (syndromes); the decoder's other two stages dominate it (the Chien
  // search alone is over 60% of a parallel BCH decoder's logic: Zhang et al., IEEE NAS 2015;
  // the key-equation solver and syndromes share the rest). We take the encoder as half of that
  // rest, 20% of the decoder: 0.69 pJ/bit, 5.5 pJ per byte (estimate bounded by that breakdown;
  // no encoder energy is published).
  double ecc_decode_pj_per_byte = 27.4;
  double ecc_encode_pj_per_byte = 5.5;

  template <class B>
  void bind(B& b) {
    b("io_pj_per_byte", io_pj_per_byte, "pJ",
      "channel I/O energy per byte moved between controller and die (estimate: C V^2, 5 pF, 1.2 V)");
    b("ecc_decode_pj_per_byte", ecc_decode_pj_per_byte, "pJ",
      "ECC decoder energy per channel byte out of the dies (3.43 pJ/bit: SBC-BCH decoder for mobile storage, TCAS-I 2019)");
    b("ecc_encode_pj_per_byte", ecc_encode_pj_per_byte, "pJ",
      "ECC encoder energy per channel byte into the dies (estimate: 20% of the decoder; the Chien search is over 60% of "
      "a BCH decoder, NAS 2015)");
  }
  std::string validate() const {
    if (!(io_pj_per_byte >= 0) || io_pj_per_byte > 1e6) return "io_pj_per_byte: must be within 0..1000000";
    if (!(ecc_decode_pj_per_byte >= 0) || ecc_decode_pj_per_byte > 1e6)
      return "ecc_decode_pj_per_byte: must be within 0..1000000";
    if (!(ecc_encode_pj_per_byte >= 0) || ecc_encode_pj_per_byte > 1e6)
      return "ecc_encode_pj_per_byte: must be within 0..1000000";
    return "";
  }
};

struct LinkEnergyParams {
  // The device's end of the M-PHY link, per lane. The model's link states: HS burst while a
  // direction serialises, STALL between bursts (HS mode, nothing to send), Hibern8 under
  // auto-hibernate (link.hibernate_idle_us), each entry with its exit. In the slow power
  // mode (link.power_mode, PWM gears) a lane bursts in PWM and SLEEPs between bursts.
  // No M-PHY power per lane is published (searched: Synopsys, Arasan, Cadence pages give the
  // states, not figures); the nearest published PHY is a mobile-targeted PCIe one, whose lane
  // is one TX and one RX (an M-PHY lane is one direction, TX at one end, RX at the other):
  // Synopsys' low-power PCIe 3.0 PHY for mobile draws "as low as 50 mW per lane at 8 GT/s"
  // active and "less than 10 mW per lane" in standby (SemiWiki, E. Esteve, 2015-05-24), and
  // PCIe L1.2 brings a lane's idle power from 15-20 mW to 10 uW (Synopsys press release,
  // 2012-07-09). Burst: 50 mW / 2 directions / 8 Gb/s = 3.1 pJ per bit per direction
  // (derived), so burst power scales with the gear's lane rate (HS-G4B 11.66 Gb/s: 36 mW per
  // lane). STALL keeps the PLL locked and the lines terminated ("the lowest power consumption
  // of all ACTIVATED states" of HS mode, Synopsys/MIPI): 2 mW per lane (estimate, below the
  // PCIe PHY's standby bound of 10 mW per TX+RX pair, 5 mW per direction). Hibern8 leaves
  // leakage and the squelch detector: 10 uW per lane, PCIe L1.2's figure (derived). One entry
  // and exit spends the exit time (PA_TActivate,
  // link.hibernate_exit_us 600 us) relocking the PLL at STALL power on all four lanes:
  // 4 x 2 mW x 600 us = 4.8 uJ. PWM: the low-speed driver and receiver need no PLL (the
  // bit clock is in the pulse widths) and run at most 576 Mb/s: 1 mW per lane in a PWM
  // burst whatever the gear (estimate); SLEEP, the LS mode's saving state, keeps the line
  // biased and the squelch awake without a PLL: 50 uW per lane (estimate, between STALL and
  // Hibern8). The power of this block is drawn from VCCQ through the core regulator
  // (power.core_v): the host's M-PHY runs on 0.88 V (Linux DTS vdda-phy).
  double burst_pj_per_bit = 3.1;
  double stall_mw_per_lane = 2.0;
  double hibern8_uw_per_lane = 10.0;
  double hibern8_transition_uj = 4.8;
  double pwm_burst_mw_per_lane = 1.0;
  double sleep_uw_per_lane = 50.0;

  template <class B>
  void bind(B& b) {
    b("burst_pj_per_bit", burst_pj_per_bit, "pJ",
      "HS burst energy per line bit per lane, device end (burst power = this x the gear's lane rate; derived: mobile PCIe "
      "3.0 PHY 50 mW per TX+RX lane at 8 GT/s)");
    b("stall_mw_per_lane", stall_mw_per_lane, "mW",
      "STALL (HS mode, between bursts) power per lane (estimate, below a mobile PCIe PHY's standby 5 mW per direction)");
    b("hibern8_uw_per_lane", hibern8_uw_per_lane, "uW", "Hibern8 power per lane (derived: PCIe L1.2 10 uW per lane)");
    b("hibern8_transition_uj", hibern8_transition_uj, "uJ",
      "energy of one Hibern8 entry and exit, all lanes (estimate: 4 lanes at STALL power for the 600 us exit)");
    b("pwm_burst_mw_per_lane", pwm_burst_mw_per_lane, "mW", "PWM burst power per lane, slow power mode (estimate)");
    b("sleep_uw_per_lane", sleep_uw_per_lane, "uW", "SLEEP (PWM mode, between bursts) power per lane (estimate)");
  }
  std::string validate() const {
    if (!(burst_pj_per_bit >= 0) || burst_pj_per_bit > 1e4) return "burst_pj_per_bit: must be within 0..10000";
    if (!(stall_mw_per_lane >= 0) || stall_mw_per_lane > 1e4) return "stall_mw_per_lane: must be within 0..10000";
    if (!(hibern8_uw_per_lane >= 0) || hibern8_uw_per_lane > 1e6) return "hibern8_uw_per_lane: must be within 0..1000000";
    if (!(hibern8_transition_uj >= 0) || hibern8_transition_uj > 1e6)
      return "hibern8_transition_uj: must be within 0..1000000";
    if (!(pwm_burst_mw_per_lane >= 0) || pwm_burst_mw_per_lane > 1e4) return "pwm_burst_mw_per_lane: must be within 0..10000";
    if (!(sleep_uw_per_lane >= 0) || sleep_uw_per_lane > 1e6) return "sleep_uw_per_lane: must be within 0..1000000";
    return "";
  }
};

struct CpuEnergyParams {
  // ARM publishes no Cortex-R8 power figure. Public reference: a Cortex-A5, a single-issue
  // 8-stage core of the Cortex-R5's class, draws < 0.08 mW/MHz dynamic in TSMC 40GPLUS
  // (lowRISC/rocket README, ARM's figure beside Rocket's 0.034 mW/MHz). A Cortex-R8 has about
  // twice that logic (dual issue, 11 stages: ~0.16 mW/MHz in 40 nm); a 28 nm controller
  // scales it by ~0.65 (capacitance and 0.9 V instead of 1.0 V squared): ~0.1 mW/MHz, 100 pJ
  // per active cycle (derived). Idle (WFI, clock-gated) leaves leakage and always-on logic:
  // 2 mW (estimate: nothing public).
  double active_pj_per_cycle = 100.0;
  double idle_mw = 2.0;

  template <class B>
  void bind(B& b) {
    b("active_pj_per_cycle", active_pj_per_cycle, "pJ", "core energy per active (busy) cycle (derived: Cortex-A5 < 0.08 mW/MHz in 40 nm, scaled)");
    b("idle_mw", idle_mw, "mW", "core power while idle between events (WFI, clock-gated; estimate)");
  }
  std::string validate() const {
    if (!(active_pj_per_cycle >= 0) || active_pj_per_cycle > 1e6) return "active_pj_per_cycle: must be within 0..1000000";
    if (!(idle_mw >= 0) || idle_mw > 1e5) return "idle_mw: must be within 0..100000";
    return "";
  }
};

struct SramEnergyParams {
  // Horowitz, "Computing's Energy Problem" (ISSCC 2014), 45 nm: a 32-bit read of an 8 KB
  // SRAM ~5 pJ, 1.25 pJ per byte. The data buffer is banks of that order read and written in
  // wide words; at 28 nm (~0.65x) about 0.8 pJ per byte: 1 pJ per byte (derived, rounded up).
  // The L2P SRAM is one large array: a map entry's access with its decode and longer bit
  // lines costs more, 10 pJ (twice the 8 KB figure; derived). Leakage of multi-MiB SRAM in a
  // low-power 28 nm process: 1 uW per KiB (estimate: 4 MiB + 1 MiB, 5 mW; nothing public for
  // a UFS controller).
  //
  // The controller's data path beyond the SRAM: every byte read from or written to the data
  // buffer crosses the controller's fabric between the buffer and the engine at the other end
  // (UniPro's transfer engine and its DMA on the host side, the NAND controller's DMA and
  // channel sequencer on the flash side). Full-swing on-chip wires cost 310 fJ per bit per mm
  // at 1.2 V (130 nm, 2 mm lines: survey table, "A Survey Addressing On-Chip Interconnect:
  // Energy and Reliability Considerations", ISRN Electronics 2012, Table 1); a wire's
  // capacitance per mm barely scales with the node, so at the logic's 0.9 V: x (0.9/1.2)^2 =
  // 174 fJ per bit per mm (derived). A crossing of 2 mm, across a mobile controller's die
  // (estimate): 0.35 pJ per bit, 2.8 pJ per byte.
  double buffer_pj_per_byte = 1.0;
  double l2p_pj_per_access = 10.0;
  double leakage_uw_per_kib = 1.0;
  double fabric_pj_per_byte = 2.8;

  template <class B>
  void bind(B& b) {
    b("buffer_pj_per_byte", buffer_pj_per_byte, "pJ", "data buffer energy per byte read or written (derived: Horowitz ISSCC 2014, 8 KB SRAM, scaled)");
    b("l2p_pj_per_access", l2p_pj_per_access, "pJ", "L2P SRAM energy per access (derived: twice the 8 KB SRAM word, Horowitz ISSCC 2014)");
    b("leakage_uw_per_kib", leakage_uw_per_kib, "uW", "SRAM leakage per KiB, both SRAMs (estimate)");
    b("fabric_pj_per_byte", fabric_pj_per_byte, "pJ",
      "controller fabric energy per data buffer byte read or written, its trip between the buffer and UniPro's or the "
      "NAND controller's DMA (derived: full-swing wires 310 fJ/bit/mm at 1.2 V, ISRN Electronics 2012, at 0.9 V, over "
      "2 mm: estimate)");
  }
  std::string validate() const {
    if (!(buffer_pj_per_byte >= 0) || buffer_pj_per_byte > 1e6) return "buffer_pj_per_byte: must be within 0..1000000";
    if (!(l2p_pj_per_access >= 0) || l2p_pj_per_access > 1e6) return "l2p_pj_per_access: must be within 0..1000000";
    if (!(leakage_uw_per_kib >= 0) || leakage_uw_per_kib > 1e6) return "leakage_uw_per_kib: must be within 0..1000000";
    if (!(fabric_pj_per_byte >= 0) || fabric_pj_per_byte > 1e6) return "fabric_pj_per_byte: must be within 0..1000000";
    return "";
  }
};

struct CryptoEnergyParams {
  // An AES-128 datapath with its key schedule computing crypto.rounds_per_cycle rounds per
  // clock (1, 2, 5 or 10: the variants trade area for latency). A job's energy is its rounds':
  // an unrolled variant switches the same round logic in fewer cycles, so it draws more power
  // for less time, the same energy per job. Public bounds: AES-128 on an Altera FPGA, 6.5 Gb/s
  // at 130 mW, ~20 pJ per bit (Farmani & Bahar, Majlesi J. EE 6(4), 2012); an ASIC spends an
  // order of magnitude less than an FPGA on the same logic (Kuon & Rose, "Measuring the gap
  // between FPGAs and ASICs", 2007): ~2 pJ per bit. 50 pJ per round is ~550 pJ per 11-round
  // block, 4.3 pJ per bit: within 2x of that (estimate). Clock-gated when idle: 0.1 mW
  // (estimate).
  double round_pj = 50.0;
  double idle_mw = 0.1;

  template <class B>
  void bind(B& b) {
    b("round_pj", round_pj, "pJ",
      "crypto unit energy per AES round computed, whatever the rounds per cycle (estimate, within 2x of an FPGA AES "
      "figure / 10)");
    b("idle_mw", idle_mw, "mW", "crypto unit power while idle (estimate)");
  }
  std::string validate() const {
    if (!(round_pj >= 0) || round_pj > 1e6) return "round_pj: must be within 0..1000000";
    if (!(idle_mw >= 0) || idle_mw > 1e5) return "idle_mw: must be within 0..100000";
    return "";
  }
};

struct PowerParams {
  // The device's supply rails and where each component draws from (issue 22). A UFS 3.1
  // device has two: VCC 2.4-2.7 V for the NAND and VCCQ 1.14-1.26 V for the controller,
  // its I/O and the M-PHY (Micron MTFC256GAVATTC UFS 3.1 datasheet: VCC, VCCQ; no VCCQ2;
  // UFS 2.1 parts had VCCQ2 1.7-1.95 V for the PHY). The controller's logic (core, SRAM,
  // crypto, ECC, M-PHY) runs at core_v behind a linear regulator from VCCQ: it draws the
  // same current from VCCQ as its logic does at core_v, so VCCQ supplies (vccq_v / core_v) x
  // its power and the difference is the regulator's loss (a component of its own). NAND I/O
  // runs at VCCQ directly. Throughput per mA is quoted over the sum of the rails' mean
  // currents (ICC + ICCQ): datasheets give current per rail, and a vendor's single "mA"
  // (Samsung UFS 4.0: 6.0 MB/s per mA) names no rail, so the whole device's current is the
  // reading that needs no guess at which rail was meant.
  double vcc_v = 2.5;   // Micron MTFC256GAVATTC: VCC 2.4-2.7 V (UFS 3.1), nominal
  double vccq_v = 1.2;  // Micron MTFC256GAVATTC: VCCQ 1.14-1.26 V, nominal
  double core_v = 0.9;  // estimate: 28 nm logic nominal; the host's M-PHY runs on 0.88 V (Linux DTS vdda-phy)

  template <class B>
  void bind(B& b) {
    b("vcc_v", vcc_v, "V", "VCC rail (NAND), UFS 3.1 2.4-2.7 V (Micron MTFC256GAVATTC)");
    b("vccq_v", vccq_v, "V", "VCCQ rail (controller, NAND I/O, M-PHY), UFS 3.1 1.14-1.26 V (Micron MTFC256GAVATTC)");
    b("core_v", core_v, "V",
      "controller logic voltage behind a linear regulator from VCCQ (it draws its current from VCCQ; estimate)");
  }
  std::string validate() const {
    if (!(vcc_v > 0) || vcc_v > 12) return "vcc_v: must be within 0..12 V (excluded 0)";
    if (!(vccq_v > 0) || vccq_v > 12) return "vccq_v: must be within 0..12 V (excluded 0)";
    if (!(core_v > 0) || core_v > vccq_v) return "core_v: must be within 0..vccq_v (excluded 0)";
    return "";
  }
};

}  // namespace ufs
