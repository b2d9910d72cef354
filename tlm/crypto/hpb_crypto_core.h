// One clock-level model of the HPB crypto unit, without SystemC: either the
// Verilated RTL (HpbCryptoRtlCore) or the C++ reference (HpbCryptoRefCore).
// Both give the same results and the same cycle numbers for the same calls.
//
// Cycles are absolute clock-edge indices of the unit's clock. A core remembers
// the next edge it has not evaluated yet (cycle()); calls may only move it
// forward. Idle stretches cost nothing: the core jumps over them.
//
// run() presents a job from edge max(arrival, cycle()) on (in_valid held
// high), lets it run, and returns when its result has appeared (out_ready is
// always high). The unit then rests on the edge after the result, which is
// also the first edge a next job can be accepted on; so a sequence of run()
// calls with early arrivals is exactly a back-to-back stream through the RTL.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include "hal/crypto_types.h"

namespace ufs {

struct HpbCoreResult {
  HpbCryptoResult result;  // result.cycles = done_cycle - arrival cycle
  uint64_t accept_cycle = 0;  // edge on which the unit took the job (in_valid && in_ready)
  uint64_t done_cycle = 0;    // edge after which out_valid is high with this result
};

class HpbCryptoCore {
 public:
  virtual ~HpbCryptoCore() = default;
  virtual const char* kind() const = 0;  // "rtl" or "cpp"
  virtual uint32_t rounds_per_cycle() const = 0;
  // Edges from the accepting edge to the result (2 * 10 / rounds_per_cycle).
  uint32_t latency_cycles() const { return 2 * (10 / rounds_per_cycle()); }
  // Next clock edge the unit has not evaluated yet.
  virtual uint64_t cycle() const = 0;

  // Register write on edge max(at_cycle, cycle()); returns that edge.
  virtual uint64_t write_reg(uint32_t offset, uint32_t value, uint64_t at_cycle) = 0;
  // Combinational register read of the current state.
  virtual uint32_t read_reg(uint32_t offset) = 0;

  virtual HpbCoreResult run(const HpbCryptoJob& job, uint64_t arrival_cycle) = 0;
  // The batch path: jobs in order, each arriving at arrivals[i] (or all at the
  // current cycle when arrivals is null, i.e. back to back).
  void run_batch(const HpbCryptoJob* jobs, const uint64_t* arrivals, size_t n,
                 HpbCoreResult* out) {
    const uint64_t now = cycle();
    for (size_t i = 0; i < n; ++i) out[i] = run(jobs[i], arrivals ? arrivals[i] : now);
  }

  // Waveform dump of the unit's signals (RTL only): edges whose time
  // (edge * period_ps) lies in [from_ps, to_ps] go to a VCD file whose time axis
  // is the platform's simulated time in ps. Returns false if not supported.
  virtual bool open_waves(const std::string& path, uint64_t period_ps, uint64_t from_ps,
                          uint64_t to_ps) {
    return false;
  }
  virtual void close_waves() {}

  // Convenience: what firmware does at power-up (write KEY0..3, commit).
  uint64_t load_key(const uint8_t key[16], uint64_t at_cycle);
};

// model: "rtl" or "cpp"; rounds_per_cycle: 1, 2, 5 or 10. Throws std::invalid_argument otherwise.
std::unique_ptr<HpbCryptoCore> make_hpb_crypto_core(const std::string& model,
                                                    uint32_t rounds_per_cycle);
bool hpb_crypto_rounds_supported(uint32_t rounds_per_cycle);

}  // namespace ufs
