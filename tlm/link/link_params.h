// Parameters of the UniPro / M-PHY link between host and device (UniproLink).
//
// Numbers used (MIPI M-PHY 4.1/5.0, UniPro 1.8/2.0, JESD220E/F):
//  - HS lane rates, rate series B: G1 1457.6, G2 2915.2, G3 5830.4, G4 11660.8, G5 23321.6 Mb/s;
//    rate series A: 1248, 2496, 4992, 9984, 19968 Mb/s.
//  - PWM (LS mode, UniPro SLOW power mode): PWM-G1 3-9 Mb/s, each gear doubling, to PWM-G7
//    192-576 Mb/s; the model runs a PWM gear at its top rate (9 x 2^(gear-1) Mb/s), 8b/10b.
//  - Line coding: 8b/10b through HS-G4 (10 line bits per byte), 128b/130b at HS-G5
//    (8.125 line bits per byte).
//  - UniPro framing: a UPIU is one L4 message (T_SDU), cut into L2 data frames carrying at most
//    272 bytes of it. Per frame the data link adds SOF + traffic class (1 symbol = 2 bytes), the
//    short L3 and L4 headers (1 byte each) and EOF (with the frame sequence number) + CRC-16
//    (2 + 2 bytes): 8 bytes per frame. Not modelled: AFC/NAC frames on the reverse direction,
//    skip/filler symbols, burst start (prepare/sync): fold them into upiu_latency_ns if needed.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct LinkParams {
  // UniPro power mode: "fast" (HS gears, M-PHY STALL between bursts) or "slow" (PWM gears,
  // SLEEP between bursts: a link kept at low speed to save power).
  std::string power_mode = "fast";
  uint32_t h2d_gear = 4;                 // host -> device HS gear (PWM gear in slow mode)
  uint32_t h2d_lanes = 2;
  uint32_t d2h_gear = 4;                 // device -> host HS gear
  uint32_t d2h_lanes = 2;
  std::string rate_series = "B";         // M-PHY HS rate series, "A" or "B"
  std::string line_coding = "auto";      // "auto" (8b10b to G4, 128b130b at G5), "8b10b", "128b130b"
  uint32_t frame_payload_bytes = 272;    // UPIU bytes per L2 frame
  uint32_t frame_overhead_bytes = 8;     // SOF+TC, L3+L4 headers, EOF+CRC per frame
  double upiu_latency_ns = 100.0;        // PHY/PA/DL pipeline, both ends: added to arrival, not busy time
  // Auto-hibernate (UFSHCI AHIT): with no request outstanding for hibernate_idle_us the link
  // enters Hibern8; the next UPIU waits hibernate_exit_us for it to wake. Linux's default
  // AHIT is 150 ms (drivers/ufs/core/ufshcd.c: "default auto-hibernate idle timer value to
  // 150 ms"); off here so runs without it stay as they were. The exit latency is an
  // estimate: PA_TActivate 6 x 100 us, the value Linux's MediaTek host driver programs for
  // Samsung devices (drivers/ufs/host/ufs-mediatek.c), the time a woken M-PHY needs before
  // the first burst.
  uint32_t hibernate_idle_us = 0;        // 0 = auto-hibernate off
  uint32_t hibernate_exit_us = 600;

  template <class B>
  void bind(B& b) {
    b("power_mode", power_mode, "", "fast (HS gears, STALL between bursts) or slow (PWM gears, SLEEP between bursts)");
    b("h2d_gear", h2d_gear, "", "host-to-device HS gear (1..5; PWM gear 1..7 in slow mode)");
    b("h2d_lanes", h2d_lanes, "lanes", "host-to-device lanes (1..4)");
    b("d2h_gear", d2h_gear, "", "device-to-host HS gear (1..5; PWM gear 1..7 in slow mode)");
    b("d2h_lanes", d2h_lanes, "lanes", "device-to-host lanes (1..4)");
    b("rate_series", rate_series, "", "M-PHY HS rate series: A or B");
    b("line_coding", line_coding, "", "auto (8b10b up to G4, 128b130b at G5), 8b10b or 128b130b");
    b("frame_payload_bytes", frame_payload_bytes, "bytes", "UPIU bytes carried per UniPro L2 frame");
    b("frame_overhead_bytes", frame_overhead_bytes, "bytes",
      "framing bytes per L2 frame (SOF+TC, L3/L4 headers, EOF+CRC)");
    b("upiu_latency_ns", upiu_latency_ns, "ns",
      "fixed PHY/PA/DL pipeline latency per UPIU (does not occupy the lane)");
    b("hibernate_idle_us", hibernate_idle_us, "us",
      "auto-hibernate: Hibern8 after this long with no request outstanding (0: off; Linux default 150000)");
    b("hibernate_exit_us", hibernate_exit_us, "us", "Hibern8 exit: the first UPIU after hibernation waits this long");
  }

  std::string validate() const {
    if (power_mode != "fast" && power_mode != "slow") return "power_mode: must be fast or slow";
    const uint32_t top = pwm() ? 7 : 5;
    if (h2d_gear < 1 || h2d_gear > top) return pwm() ? "h2d_gear: must be 1..7 (PWM)" : "h2d_gear: must be 1..5";
    if (d2h_gear < 1 || d2h_gear > top) return pwm() ? "d2h_gear: must be 1..7 (PWM)" : "d2h_gear: must be 1..5";
    if (h2d_lanes < 1 || h2d_lanes > 4) return "h2d_lanes: must be 1..4";
    if (d2h_lanes < 1 || d2h_lanes > 4) return "d2h_lanes: must be 1..4";
    if (rate_series != "A" && rate_series != "B") return "rate_series: must be A or B";
    if (line_coding != "auto" && line_coding != "8b10b" && line_coding != "128b130b")
      return "line_coding: must be auto, 8b10b or 128b130b";
    if (pwm() && line_coding == "128b130b") return "line_coding: PWM gears use 8b10b";
    // UniPro's L2 frames carry at most 272 bytes (DL_MTU); bounds with room for other links.
    if (frame_payload_bytes == 0 || frame_payload_bytes > 65536) return "frame_payload_bytes: must be within 1..65536";
    if (frame_overhead_bytes > 1024) return "frame_overhead_bytes: must be at most 1024";
    if (!(upiu_latency_ns >= 0.0)) return "upiu_latency_ns: must be >= 0";
    return "";
  }

  bool pwm() const { return power_mode == "slow"; }
  // A gear's lane rate in Mb/s in this power mode: HS (its rate series) or PWM.
  double lane_rate_mbps(uint32_t gear) const {
    if (!pwm()) return lane_rate_mbps(gear, rate_series);
    return gear >= 1 && gear <= 7 ? 9.0 * double(1u << (gear - 1)) : 0.0;
  }
  // M-PHY HS lane rate in Mb/s for a gear (1..5) and rate series ('A' or 'B').
  static double lane_rate_mbps(uint32_t gear, const std::string& series) {
    static const double kRateA[5] = {1248.0, 2496.0, 4992.0, 9984.0, 19968.0};
    static const double kRateB[5] = {1457.6, 2915.2, 5830.4, 11660.8, 23321.6};
    if (gear < 1 || gear > 5) return 0.0;
    return series == "A" ? kRateA[gear - 1] : kRateB[gear - 1];
  }
  // Line bits per payload byte for a gear under this coding setting.
  double line_bits_per_byte(uint32_t gear) const {
    const bool use_128b130b = line_coding == "128b130b" || (line_coding == "auto" && gear >= 5 && !pwm());
    return use_128b130b ? 8.0 * 130.0 / 128.0 : 10.0;
  }
};

}  // namespace ufs
