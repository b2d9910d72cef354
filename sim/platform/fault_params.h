// Fault injection of a run: sudden power-off (SPO). Bound to the "fault" section.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct FaultParams {
  // "" (off), a time into the measured phase ("35ms", "2s"), "random" (uniform within
  // the workload's runtime=) or "random:DURATION" (uniform within that much time).
  std::string spo_at;
  uint64_t seed = 1;  // of the random instant

  template <class B>
  void bind(B& b) {
    b("spo_at", spo_at, "",
      "sudden power-off at this time into the measured phase: TIME, random (within runtime=) or random:TIME; "
      "then recovery from the NAND and a check of every durable block");
    b("seed", seed, "", "seed of the random power-off instant");
  }
  // The time syntax is checked where the run starts (it needs the workload's runtime).
  std::string validate() const {
    if (!spo_at.empty() && !(spo_at[0] >= '0' && spo_at[0] <= '9') && spo_at != "random" && spo_at.rfind("random:", 0) != 0)
      return "spo_at: '" + spo_at + "' is not a time, random or random:TIME";
    return "";
  }
};

}  // namespace ufs
