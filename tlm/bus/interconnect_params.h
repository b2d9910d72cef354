#pragma once
#include <cstdint>
#include <string>

namespace ufs {

// On-chip interconnect (an AXI-class crossbar): each target port serialises
// its transfers; transfers to different targets run in parallel.
struct InterconnectParams {
  double clock_mhz = 400.0;         // typical mobile-SoC-class controller fabric clock
  uint32_t width_bytes = 16;        // 128-bit data path (AXI4 128-bit is common)
  uint32_t arbitration_cycles = 2;  // address phase + arbitration per transaction

  template <class B>
  void bind(B& b) {
    b("clock_mhz", clock_mhz, "MHz", "interconnect clock");
    b("width_bytes", width_bytes, "B", "data path width per beat");
    b("arbitration_cycles", arbitration_cycles, "cycles", "address phase and arbitration per transaction");
  }
  std::string validate() const {
    if (clock_mhz <= 0) return "clock_mhz: must be positive";
    if (width_bytes == 0 || width_bytes > 1024) return "width_bytes: must be within 1..1024";
    return "";
  }
};

}  // namespace ufs
