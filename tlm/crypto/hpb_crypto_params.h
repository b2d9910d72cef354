// Parameters of the HPB crypto engine (config keys under "crypto.").
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct HpbCryptoParams {
  std::string model = "rtl";        // "rtl": Verilated RTL; "cpp": bit/cycle-exact C++ model (fast)
  double clock_mhz = 400.0;         // the unit's clock
  uint32_t rounds_per_cycle = 2;    // AES rounds per clock: 1, 2, 5 or 10 (area vs latency)
  uint32_t reg_access_cycles = 2;   // bus cycles (unit clock) charged per register access
  std::string waves_file;           // VCD of the unit's signals ("" = off; model=rtl only)
  double waves_from_us = 0.0;       // waves window start (simulated time)
  double waves_to_us = 1e9;         // waves window end

  template <class B>
  void bind(B& b) {
    b("model", model, "", "crypto unit model: rtl (Verilated) or cpp (reference, fast)");
    b("clock_mhz", clock_mhz, "MHz", "crypto unit clock frequency");
    b("rounds_per_cycle", rounds_per_cycle, "rounds",
      "AES-128 rounds per clock cycle (1, 2, 5, 10): job latency 20, 10, 4, 2 cycles");
    b("reg_access_cycles", reg_access_cycles, "cycles", "latency of one register access");
    b("waves_file", waves_file, "", "VCD file for the unit's internal signals (rtl model only)");
    b("waves_from_us", waves_from_us, "us", "start of the waves time window");
    b("waves_to_us", waves_to_us, "us", "end of the waves time window");
  }

  std::string validate() const {
    if (model != "rtl" && model != "cpp") return "model: must be rtl or cpp, not '" + model + "'";
    if (!(clock_mhz > 0.0) || clock_mhz > 1e6) return "clock_mhz: must be in (0, 1e6]";
    if (rounds_per_cycle != 1 && rounds_per_cycle != 2 && rounds_per_cycle != 5 &&
        rounds_per_cycle != 10)
      return "rounds_per_cycle: must be 1, 2, 5 or 10";
    if (!waves_file.empty() && model != "rtl") return "waves_file: needs model=rtl";
    if (waves_to_us < waves_from_us) return "waves_to_us: must not be before waves_from_us";
    return "";
  }
  // Clock period in whole picoseconds (the platform's time resolution).
  uint64_t period_ps() const { return uint64_t(1e6 / clock_mhz + 0.5); }
};

}  // namespace ufs
