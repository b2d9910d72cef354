// HPB crypto engine benchmark.
//   1. jobs per wall-clock second of the bare cores (batch path, no kernel),
//   2. jobs per wall-clock second of HpbCryptoEngine in the SystemC kernel,
//      crypto.model=rtl and cpp,
//   3. the simulated cost of publishing one sub-region's entries (E sign jobs
//      submitted at once, as the firmware does for a READ BUFFER), and of one
//      HPB READ verify, for each rounds-per-cycle setting.
// Usage: crypto_benchmark [--jobs N] [--entries E] [--clock-mhz F]
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
#include "crypto/hpb_crypto_engine.h"
#include "crypto/hpb_entry_codec.h"

using namespace ufs;
using namespace sc_core;
using wall_clock = std::chrono::steady_clock;

namespace {

uint64_t g_jobs = 200000;
uint32_t g_entries = 4096;
double g_clock_mhz = 400.0;
const uint32_t kRounds[] = {1, 2, 5, 10};

uint64_t mix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Half signs, half verifies of an entry signed just before.
std::vector<HpbCryptoJob> make_jobs(uint64_t n, const AesKey& key) {
  HpbEntryCodec codec(key);
  std::vector<HpbCryptoJob> jobs(n);
  uint64_t x = 1;
  for (uint64_t i = 0; i < n; ++i) {
    HpbCryptoJob& j = jobs[i];
    j.cookie = i;
    j.lba = mix(x) & ((1ull << 32) - 1);
    j.ppn = uint32_t(mix(x));
    j.generation = uint32_t(mix(x) & 15);
    if (i & 1) {
      j.kind = HpbCryptoJob::Verify;
      j.entry = codec.sign(j.lun, j.generation, j.lba, j.ppn);
    }
  }
  return jobs;
}

void bare_cores(const std::vector<HpbCryptoJob>& jobs, const AesKey& key) {
  std::printf("\n1. bare cores (batch path, back to back), %zu jobs\n", jobs.size());
  std::printf("   R  model  jobs/s(wall)  cycles/job\n");
  std::vector<HpbCoreResult> out(jobs.size());
  for (uint32_t r : kRounds)
    for (const char* model : {"cpp", "rtl"}) {
      auto core = make_hpb_crypto_core(model, r);
      core->load_key(key.data(), 0);
      const uint64_t c0 = core->cycle();
      const auto t0 = wall_clock::now();
      core->run_batch(jobs.data(), nullptr, jobs.size(), out.data());
      const double s = std::chrono::duration<double>(wall_clock::now() - t0).count();
      std::printf("  %2u  %-5s  %12.0f  %10.2f\n", r, model, jobs.size() / s,
                  double(core->cycle() - c0) / double(jobs.size()));
    }
}

struct BusStub : sc_module {
  tlm_utils::simple_initiator_socket<BusStub> socket;
  explicit BusStub(sc_module_name n) : sc_module(n), socket("socket") {}
};

struct Counter : HpbCryptoListener {
  uint64_t target = 0, done = 0;
  sc_event all_done;
  sc_time last;
  void crypto_done(const HpbCryptoResult&) override {
    last = sc_time_stamp();
    if (++done == target) all_done.notify(SC_ZERO_TIME);
  }
};

struct Bench : sc_module {
  struct Unit {
    std::unique_ptr<HpbCryptoEngine> engine;
    std::unique_ptr<BusStub> bus;
    Counter counter;
    uint32_t rounds;
    std::string model;
  };
  std::vector<std::unique_ptr<Unit>> units;
  std::vector<HpbCryptoJob> jobs;
  AesKey key;
  SC_HAS_PROCESS(Bench);
  explicit Bench(sc_module_name n) : sc_module(n) {
    for (uint32_t r : kRounds)
      for (const char* model : {"cpp", "rtl"}) {
        auto u = std::make_unique<Unit>();
        HpbCryptoParams p;
        p.model = model;
        p.rounds_per_cycle = r;
        p.clock_mhz = g_clock_mhz;
        const std::string name = std::string("crypto_") + model + "_r" + std::to_string(r);
        u->engine = std::make_unique<HpbCryptoEngine>(name.c_str(), p);
        u->bus = std::make_unique<BusStub>((name + "_bus").c_str());
        u->bus->socket.bind(u->engine->regs);
        u->engine->set_listener(&u->counter);
        u->rounds = r;
        u->model = model;
        units.push_back(std::move(u));
      }
    SC_THREAD(run);
  }

  void run() {
    for (auto& u : units) u->engine->load_session_key(key);
    wait(1, SC_US);
    std::printf("\n2. HpbCryptoEngine in the SystemC kernel (bursts of 64 jobs), %zu jobs\n",
                jobs.size());
    std::printf("   R  model  jobs/s(wall)  simulated time\n");
    for (auto& u : units) {
      const sc_time s0 = sc_time_stamp();
      const auto t0 = wall_clock::now();
      for (std::size_t i = 0; i < jobs.size(); i += 64) {
        const std::size_t end = std::min(jobs.size(), i + 64);
        u->counter.target = u->counter.done + (end - i);
        for (std::size_t k = i; k < end; ++k) u->engine->submit(jobs[k]);
        wait(u->counter.all_done);
      }
      const double s = std::chrono::duration<double>(wall_clock::now() - t0).count();
      std::printf("  %2u  %-5s  %12.0f  %s\n", u->rounds, u->model.c_str(), jobs.size() / s,
                  (sc_time_stamp() - s0).to_string().c_str());
    }

    std::printf("\n3. simulated cost at %.0f MHz: publish one sub-region (%u sign jobs at once), "
                "one verify\n", g_clock_mhz, g_entries);
    std::printf("   R  latency  period  publish(cycles)  publish(us)  ns/entry  verify(ns)  "
                "rtl==cpp\n");
    for (std::size_t k = 0; k < units.size(); k += 2) {
      sc_time publish[2], verify[2];
      uint64_t cycles = 0;
      for (int m = 0; m < 2; ++m) {
        Unit& u = *units[k + std::size_t(m)];
        wait(1, SC_US);
        const sc_time start = sc_time_stamp();
        u.counter.target = u.counter.done + g_entries;
        for (uint32_t e = 0; e < g_entries; ++e) {
          HpbCryptoJob j;
          j.lba = 4096ull * 17 + e;
          j.ppn = 100000 + e;
          j.generation = 3;
          u.engine->submit(j);
        }
        wait(u.counter.all_done);
        publish[m] = u.counter.last - start;
        cycles = uint64_t(publish[m] / u.engine->clock_period() + 0.5);
        wait(1, SC_US);
        const sc_time vstart = sc_time_stamp();
        u.counter.target = u.counter.done + 1;
        HpbCryptoJob v;
        v.kind = HpbCryptoJob::Verify;
        u.engine->submit(v);
        wait(u.counter.all_done);
        verify[m] = u.counter.last - vstart;
      }
      const Unit& u = *units[k];
      std::printf("  %2u  %7u  %6u  %15llu  %11.2f  %8.2f  %10.2f  %s\n", u.rounds,
                  u.engine->latency_cycles(), u.engine->latency_cycles() + 1,
                  (unsigned long long)cycles, publish[0].to_seconds() * 1e6,
                  publish[0].to_seconds() * 1e9 / g_entries, verify[0].to_seconds() * 1e9,
                  publish[0] == publish[1] && verify[0] == verify[1] ? "yes" : "NO");
      if (!(publish[0] == publish[1] && verify[0] == verify[1])) failed = true;
    }
    sc_stop();
  }
  bool failed = false;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--jobs")) g_jobs = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--entries")) g_entries = uint32_t(std::strtoul(argv[i + 1], nullptr, 10));
    else if (!std::strcmp(argv[i], "--clock-mhz")) g_clock_mhz = std::strtod(argv[i + 1], nullptr);
    else {
      std::fprintf(stderr, "usage: %s [--jobs N] [--entries E] [--clock-mhz F]\n", argv[0]);
      return 2;
    }
  }
  const AesKey key = hpb_session_key_from_seed(2024);
  const auto jobs = make_jobs(g_jobs, key);
  bare_cores(jobs, key);
  Bench bench("bench");
  bench.jobs = jobs;
  bench.key = key;
  sc_start();
  return bench.failed ? 1 : 0;
}
