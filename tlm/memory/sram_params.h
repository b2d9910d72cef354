#pragma once
#include <cstdint>
#include <string>

namespace ufs {

// On-chip SRAMs of the controller.
struct SramParams {
  uint32_t latency_cycles = 2;   // access latency of a single-port SRAM macro
  double clock_mhz = 400.0;      // SRAM clock (same domain as the interconnect)

  template <class B>
  void bind(B& b) {
    b("latency_cycles", latency_cycles, "cycles", "access latency per transaction");
    b("clock_mhz", clock_mhz, "MHz", "SRAM clock");
  }
  std::string validate() const { return clock_mhz > 0 ? "" : "clock_mhz: must be positive"; }
};

}  // namespace ufs
