#pragma once
#include <cstdint>
#include <string>

namespace ufs {

// The controller core that runs the firmware.
struct CpuParams {
  double clock_mhz = 800.0;          // Cortex-R8-class real-time core (ARM lists up to 1.5 GHz; UFS controllers run slower)
  uint32_t interrupt_cycles = 150;   // exception entry/exit and dispatch per event
  // The crypto engine posts results to a completion FIFO and raises one interrupt while
  // the FIFO is non-empty (the usual completion-queue design, cf. UFSHCI's UTRLCNR/CQ):
  // one handler drains every result there, paying this per result popped.
  uint32_t crypto_result_cycles = 20;
  uint64_t rng_seed = 0x5eed;        // the controller's random number generator (session keys)

  template <class B>
  void bind(B& b) {
    b("clock_mhz", clock_mhz, "MHz", "firmware core clock");
    b("interrupt_cycles", interrupt_cycles, "cycles", "interrupt entry, dispatch and exit per event");
    b("crypto_result_cycles", crypto_result_cycles, "cycles",
      "pop and dispatch one crypto result from the completion FIFO (one interrupt drains the FIFO)");
    b("rng_seed", rng_seed, "", "seed of the controller's hardware random number generator (HPB session keys)");
  }
  std::string validate() const {
    if (!(clock_mhz > 0)) return "clock_mhz: must be positive";
    return "";
  }
};

}  // namespace ufs
