// cpu.model=iss on the platform: what the core model charges on top of the firmware's
// entries (FirmwareCpu's interrupt_cycles per event, crypto_result_cycles per result).
// With measured cost the core executes that dispatch itself, so nothing may come on top;
// with native cost the ISS must charge exactly what the native mode does.
#include <catch2/catch.hpp>
#include <cmath>
#include "platform/simulation.h"

#ifdef UFS_HAVE_ISS

using namespace ufs;

namespace iss_cost_bench {

namespace {
constexpr uint64_t kInterrupt = 150, kCryptoResult = 20;

// test-small with HPB on (READ BUFFER signs, HPB READs verify: crypto results arrive) and
// reads and writes mixed; the core's cost as `cost` says.
RunResult run_on_core(const std::string& cost) {
  RunOptions o;
  o.quiet = true;
  o.progress = false;
  o.preset = "test-small";
  o.sets = {"cpu.model=iss", "cpu.iss_cost=" + cost, "hpb.enabled=true", "crypto.model=cpp",
            "cpu.interrupt_cycles=" + std::to_string(kInterrupt),
            "cpu.crypto_result_cycles=" + std::to_string(kCryptoResult)};
  o.precondition_fill_bytes = 64ull << 20;
  o.precondition_workload = "rw=randread,bs=4k,iodepth=8,size=64m,count=3000,seed=1";
  o.workload = "rw=randrw,bs=4k,iodepth=8,size=64m,count=2000,seed=2";
  return run_simulation(o);
}

struct Entries {
  double cycles = 0;        // charged by the firmware's entries, all kinds
  uint64_t events = 0;      // handler entries the core model dispatches one interrupt for
  uint64_t results = 0;     // crypto results (one entry each)
};

Entries entries_of(const nlohmann::json& iss) {
  Entries e;
  for (const auto& [kind, k] : iss.at("events").items()) {
    const uint64_t n = k.at("entries").get<uint64_t>();
    e.cycles += k.at("cycles_mean").get<double>() * double(n);
    if (kind == "crypto_done") e.results += n;
    else if (kind == "command" || kind == "flash_complete" || kind == "data_out_done" || kind == "data_in_done" ||
             kind == "timer" || kind == "power_up")
      e.events += n;
  }
  return e;
}
}  // namespace

TEST_CASE("ISS measured cost: the core charges what the firmware executed, no interrupt or crypto result "
          "constants on top",
          "[system][iss]") {
  const RunResult r = run_on_core("measured");
  const nlohmann::json& iss = r.stats.at("cpu").at("iss");
  INFO(iss.dump(2));
  CHECK(r.mismatches == 0);
  const Entries e = entries_of(iss);
  REQUIRE(e.results > 300);  // crypto results (READ BUFFER's sign batches, HPB READs' verifies) and events
  REQUIRE(e.events > 5000);
  const double core = iss.at("core_cycles").get<double>();
  // cycles_mean x entries gives each kind's total back to within rounding.
  CHECK(std::abs(core - e.cycles) < 1.0 * double(iss.at("events").size()));
}

TEST_CASE("ISS native cost: the core model's interrupt and crypto result constants come on top, as in the "
          "native mode",
          "[system][iss]") {
  const RunResult r = run_on_core("native");
  const nlohmann::json& iss = r.stats.at("cpu").at("iss");
  INFO(iss.dump(2));
  CHECK(r.mismatches == 0);
  const Entries e = entries_of(iss);
  REQUIRE(e.results > 300);
  const uint64_t interrupts = r.stats.at("crypto").at("completion_interrupts").get<uint64_t>();
  REQUIRE(interrupts > 0);
  const double on_top = double(kInterrupt * (e.events + interrupts) + kCryptoResult * e.results);
  const double core = iss.at("core_cycles").get<double>();
  CHECK(std::abs(core - (e.cycles + on_top)) < 1.0 * double(iss.at("events").size()));
}

}  // namespace iss_cost_bench

#endif  // UFS_HAVE_ISS
