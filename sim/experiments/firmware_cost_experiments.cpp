// What the firmware costs on the controller's core (issue 20, calibration): the same
// ufs31 workloads with the firmware compiled for the host (cpu.model=native: its time the
// charge_cycles figures) and as firmware.elf executed on the emulated Arm core
// (cpu.model=iss, measured cost: executed instructions x cpu.cpi plus wait states).
// Per handler kind the native charge beside the instructions the core executed and the
// cycles it was charged (mean and max per entry), and the headline figures in both modes.
// Then the native table derived from the core: profile runs on the core with every
// constant a marker attribute each executed instruction to the charge_cycles call before
// it (stats.json cpu.iss.charge_sites), and each constant's cycles are its sites'
// instructions per call x cpu.cpi plus wait states. Small counts (20,000 I/Os a run): 13
// runs, about 50 CPU-seconds (a minute and a half of wall time with 2 jobs on a busy machine).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include "experiments/experiment.h"

namespace ufs {

namespace {

#ifdef UFS_HAVE_ISS
const nlohmann::json* kind_stats(const nlohmann::json& stats, const char* kind) {
  const auto cpu = stats.find("cpu");
  if (cpu == stats.end() || !cpu->contains("iss")) return nullptr;
  const auto& events = cpu->at("iss").at("events");
  const auto k = events.find(kind);
  return k == events.end() ? nullptr : &*k;
}

double ios(const nlohmann::json& stats, const char* op) { return op_value(stats, op, "count"); }

// The native table: every charge_cycles constant of the firmware. For the derivation the
// profile runs set each to a marker, so the figure a charge site charged names its constant
// (measured cost does not use the figures: the profile runs time exactly as the plain ISS
// runs). Marker of constant i: (i + 1) << 20, except cycles_cache_insert, 1: the write
// engine's charge of transfer_setup + n x cache_insert decodes as its constant and n.
struct Constant {
  const char* key;  // --set key
  const char* what;
};
const Constant kConstants[] = {
    {"firmware.cycles_command_decode", "command decode and dispatch"},
    {"firmware.cycles_map_lookup", "L2P lookup per block"},
    {"firmware.cycles_map_update", "L2P update per block"},
    {"firmware.cycles_flash_submit", "one flash operation built and queued"},
    {"firmware.cycles_flash_complete", "one flash completion"},
    {"firmware.cycles_transfer_setup", "one host DMA programmed"},
    {"firmware.cycles_transfer_done", "one host DMA completion"},
    {"firmware.cycles_response", "RESPONSE UPIU"},
    {"firmware.cycles_write_command", "write command admission"},
    {"firmware.cycles_gc_per_sector", "GC per valid sector moved"},
    {"firmware.cycles_map_miss", "map cache miss"},
    {"hpb.cycles_hpb_read", "HPB READ"},
    {"hpb.cycles_sign_entry", "READ BUFFER entry signed (its map read, its batch item)"},
    {"hpb.cycles_sign_batch", "sign batch handed to the crypto engine"},
    {"hpb.cycles_update_entry", "updated entry for a response (queued, checked)"},
    {"hpb.cycles_dirty_mark", "sub-region marked dirty"},
    {"firmware.cycles_cache_insert", "block placed in the write cache"},
};
constexpr size_t kConstantCount = sizeof kConstants / sizeof kConstants[0];
constexpr size_t kInsert = kConstantCount - 1;
uint64_t marker(size_t i) { return i == kInsert ? 1 : uint64_t(i + 1) << 20; }
std::vector<std::string> marker_args() {
  std::vector<std::string> a;
  for (size_t i = 0; i < kConstantCount; ++i) a.insert(a.end(), {"--set", std::string(kConstants[i].key) + "=" + std::to_string(marker(i))});
  return a;
}

// What each constant's charge sites ran, summed over the profile runs.
struct Derived {
  double calls = 0, instructions = 0, memmove = 0, loops = 0, hal_calls = 0, sram = 0;
  double blocks = 0;  // cache inserts charged with the set-up (the write engine's site)
  std::string sites;  // functions, for the table's "from"
};

// Adds one profile run's charge sites to `d` (index: constant). A site that charged a
// constant plus n cache inserts (the write engine's DMA set-up) goes to transfer_setup
// with its n inserts counted, and is split after all runs are in.
// hpb_only: only the HPB constants' sites count (the updated-entries profile: its writes go
// through the write path the write profile measures).
void add_sites(const nlohmann::json& stats, std::vector<Derived>& d, Derived& inserts_with_setup,
               std::map<std::string, std::pair<double, double>>& unknown, bool hpb_only = false) {
  for (const auto& site : stats.at("cpu").at("iss").at("charge_sites")) {
    const uint64_t v = site.at("charged").get<uint64_t>();
    const double calls = site.at("calls").get<double>();
    const size_t i = size_t(v >> 20);
    const uint64_t n = v & 0xfffff;
    if (hpb_only && (i == 0 || i > kConstantCount - 1 || std::string(kConstants[i - 1].key).rfind("hpb.", 0) != 0))
      continue;
    if (v == 0 || i == 0 || i > kConstantCount - 1) {  // charged nothing, or a multiple (recovery)
      auto& u = unknown[site.at("event").get<std::string>()];
      u.first += calls;
      u.second += calls * site.at("instructions_mean").get<double>();
      continue;
    }
    Derived& t = n ? inserts_with_setup : d[i - 1];
    t.calls += calls;
    t.instructions += calls * site.at("instructions_mean").get<double>();
    t.memmove += calls * site.at("memmove_instructions_mean").get<double>();
    t.loops += calls * site.at("byte_loop_instructions_mean").get<double>();
    t.hal_calls += calls * site.at("hal_calls_mean").get<double>();
    t.sram += calls * site.at("sram_accesses_mean").get<double>();
    if (n) t.blocks += calls * double(n);
    std::string f = site.at("function").get<std::string>();
    f = f.substr(0, f.find('('));
    if (f.rfind("ufs::", 0) == 0) f = f.substr(5);
    if (t.sites.find(f) == std::string::npos) t.sites += (t.sites.empty() ? "" : ", ") + f;
  }
}

#endif

std::vector<ExperimentRow> firmware_cost(ExperimentContext& ctx) {
#ifndef UFS_HAVE_ISS
  (void)ctx;
  throw MissingInput("it runs the firmware on the Arm core (cpu.model=iss), which this build leaves out: install the "
                     "cross compiler and Unicorn with `make deps-iss`, then configure and build again");
#else
  // Each workload as ufs31-datasheet runs it (4 KiB random at QD32 over a 1 GiB file the
  // 1 MiB L2P SRAM covers), 20,000 I/Os after a 1 GiB fill; HPB off/on as the energy study
  // (128 KiB of L2P SRAM over 1 GiB, so reads miss the map cache; 10,000 unmeasured reads
  // warm the cache and HPB's regions, then 20,000 measured).
  struct Job {
    const char* name;
    const char* x;
    std::vector<std::string> args;
  };
  const std::vector<std::string> fill = {"--preset", "ufs31", "--no-check", "--precondition-fill", "1g"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> a = fill;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  const std::vector<std::string> hpb = {"--precondition", "rw=randread,bs=4k,iodepth=32,size=1g,count=10000,seed=7",
                                        "--workload",     "rw=randread,bs=4k,iodepth=32,size=1g,count=20000,seed=8",
                                        "--set",          "memory.l2p_sram_kib=128",
                                        "--set",          "crypto.model=cpp"};
  std::vector<std::string> hpb_on = hpb;
  hpb_on.insert(hpb_on.end(), {"--set", "hpb.enabled=true"});
  const std::vector<Job> jobs = {
      {"read", "4KiB rand read", with({"--workload", "rw=randread,bs=4k,iodepth=32,size=1g,count=20000,seed=5"})},
      {"write", "4KiB rand write", with({"--workload", "rw=randwrite,bs=4k,iodepth=32,size=1g,count=20000,seed=5"})},
      {"hpb_off", "HPB off", with(hpb)},
      {"hpb_on", "HPB on", with(hpb_on)},
  };
  const char* modes[] = {"native", "iss"};
  std::vector<nlohmann::json> stats(jobs.size() * 2);
  for (size_t m = 0; m < 2; ++m)
    for (size_t j = 0; j < jobs.size(); ++j) {
      std::vector<std::string> a = jobs[j].args;
      a.insert(a.end(), {"--set", std::string("cpu.model=") + modes[m]});
      ctx.submit(std::string(jobs[j].name) + "_" + modes[m], a, stats[m * jobs.size() + j]);
    }
  // The profile runs: the same on the core with every constant a marker (add_sites), GC on
  // test-small (random overwrites of a small, full device), the one place
  // cycles_gc_per_sector is charged, and HPB with updated entries in responses (the other
  // place entries are signed).
  std::vector<nlohmann::json> profiles(jobs.size() + 2);
  for (size_t j = 0; j < jobs.size(); ++j) {
    std::vector<std::string> a = jobs[j].args;
    a.insert(a.end(), {"--set", "cpu.model=iss"});
    for (const auto& m : marker_args()) a.push_back(m);
    ctx.submit(std::string(jobs[j].name) + "_profile", a, profiles[j]);
  }
  {
    std::vector<std::string> a = {"--preset", "test-small", "--no-check", "--precondition-fill", "120m", "--workload",
                                  "rw=randwrite,bs=4k,iodepth=32,count=20000,seed=5", "--set", "cpu.model=iss"};
    for (const auto& m : marker_args()) a.push_back(m);
    ctx.submit("gc_profile", a, profiles[jobs.size()]);
  }
  {  // HPB's updated entries in responses (hotstorage17's hpb.response_entries): host writes
     // into published sub-regions, each programmed entry signed in its handler's batch
    std::vector<std::string> a = with(hpb_on);
    const auto w = std::find(a.begin(), a.end(), "--workload");
    *(w + 1) = "rw=randrw,rwmixread=50,bs=4k,iodepth=32,size=1g,count=20000,seed=8";
    a.insert(a.end(), {"--set", "hpb.response_entries=1", "--set", "cpu.model=iss"});
    for (const auto& m : marker_args()) a.push_back(m);
    ctx.submit("hpb_updates_profile", a, profiles[jobs.size() + 1]);
  }
  ctx.wait();
  auto at = [&](size_t job, size_t mode) -> const nlohmann::json& { return stats[mode * jobs.size() + job]; };

  const double cpi = at(0, 1).at("cpu").at("iss").at("cpi").get<double>();
  std::printf("note: ufs31, cpu.cpi=%g, measured cost (executed instructions x cpi + wait states);\n"
              "      native = the charge_cycles figures the firmware charged for the same entry (firmware_cycles.h,\n"
              "      ufs31's overrides); per entry of each handler kind, 20,000 I/Os a run (HPB: after 10,000 warm-up reads).\n"
              "      loops: instructions of the C library's byte loops (picolibc's memcpy/memmove/memset, byte by byte),\n"
              "      of which memmove's (std::vector insert/erase: the L2P map's runs).\n",
              cpi);
  std::printf("\n  %-16s %-14s %8s %9s %10s %10s %10s %10s %10s %10s\n", "workload", "handler", "entries", "native",
              "instr", "instr max", "cycles", "cycles max", "loops", "memmove");
  std::vector<ExperimentRow> rows;
  const char* kinds[] = {"command",     "data_out_done", "data_in_done", "flash_complete",
                         "crypto_done", "timer",         "power_up"};
  for (size_t j : {size_t(0), size_t(1), size_t(3)}) {
    const nlohmann::json& s = at(j, 1);
    const double n_ios = ios(s, j == 1 ? "write" : "read");
    double instr_io = 0, native_io = 0, cycles_io = 0;
    for (const char* kind : kinds) {
      const nlohmann::json* k = kind_stats(s, kind);
      if (!k) continue;
      const double entries = k->at("entries").get<double>();
      const double native = k->at("native_cycles_mean").get<double>();
      const double instr = k->at("instructions_mean").get<double>();
      const double cycles = k->at("cycles_mean").get<double>();
      std::printf("  %-16s %-14s %8.0f %9.0f %10.0f %10.0f %10.0f %10.0f %10.0f %10.0f\n", jobs[j].x, kind, entries,
                  native, instr, k->at("instructions_max").get<double>(), cycles, k->at("cycles_max").get<double>(),
                  k->at("byte_loop_instructions_mean").get<double>(), k->at("memmove_instructions_mean").get<double>());
      instr_io += instr * entries;
      native_io += native * entries;
      cycles_io += cycles * entries;
      const std::string x = jobs[j].x;
      rows.push_back({std::string(kind) + ": native charge", x, kModelOnly, native, "cycles", 0});
      rows.push_back({std::string(kind) + ": instructions", x, kModelOnly, instr, "instr", 0});
      rows.push_back({std::string(kind) + ": instructions max", x, kModelOnly, k->at("instructions_max").get<double>(),
                      "instr", 0});
      rows.push_back({std::string(kind) + ": cycles", x, kModelOnly, cycles, "cycles", 0});
      rows.push_back({std::string(kind) + ": cycles max", x, kModelOnly, k->at("cycles_max").get<double>(), "cycles", 0});
      rows.push_back({std::string(kind) + ": byte-loop instructions", x, kModelOnly,
                      k->at("byte_loop_instructions_mean").get<double>(), "instr", 0});
    }
    // The HPB run's entries include its 10,000 warm-up reads: per I/O over all 30,000.
    const double all_ios = j == 3 ? n_ios * 1.5 : n_ios;
    std::printf("  %-16s %-14s %8s %9.0f %10.0f %10s %10.0f\n", jobs[j].x, "per I/O", "", native_io / all_ios,
                instr_io / all_ios, "", cycles_io / all_ios);
    rows.push_back({"per I/O: native charge", jobs[j].x, kModelOnly, native_io / all_ios, "cycles", 0});
    rows.push_back({"per I/O: instructions", jobs[j].x, kModelOnly, instr_io / all_ios, "instr", 0});
    rows.push_back({"per I/O: cycles", jobs[j].x, kModelOnly, cycles_io / all_ios, "cycles", 0});
  }
  std::printf("  (native: cpu.interrupt_cycles per event and crypto_result_cycles per result come on top, charged by\n"
              "   the core model; on the core the dispatch is executed: its cycles are in the entry's)\n\n");

  // ---- the native table derived from the profile runs
  // A constant's cycles: its sites' instructions per call x cpu.cpi, plus the wait states of
  // their HAL calls and heap accesses, without memmove's (the L2P map's compact runs, the
  // host's memory saving: a DRAM-less controller updates a dense map page in SRAM with a
  // store). Each segment runs from a charge to the next, so the table charges what the core
  // executed, handler by handler; cache_insert is the DMA set-up site's rest after
  // transfer_setup's own sites' mean, per block.
  const nlohmann::json& iss = at(0, 1).at("cpu").at("iss");
  const double mailbox_wait = iss.at("mailbox_wait_cycles").get<double>();
  const double sram_wait = iss.at("sram_wait_cycles").get<double>();
  std::vector<Derived> d(kConstantCount);
  Derived setup_inserts;
  std::map<std::string, std::pair<double, double>> unknown;  // event: entries, instructions
  for (size_t j = 0; j < profiles.size(); ++j) add_sites(profiles[j], d, setup_inserts, unknown, j == profiles.size() - 1);
  for (size_t j = 0; j < jobs.size(); ++j)  // markers change no timing: the same run
    if (op_value(profiles[j], j == 1 ? "write" : "read", "iops") != op_value(at(j, 1), j == 1 ? "write" : "read", "iops"))
      std::printf("note: %s: the marker run's IOPS differ from the ISS run's (the figures should not matter)\n", jobs[j].name);
  auto per_call = [&](const Derived& t, double instructions) {
    return t.calls ? (cpi * instructions + mailbox_wait * t.hal_calls + sram_wait * t.sram) / t.calls : 0.0;
  };
  std::vector<double> cycles(kConstantCount, 0);
  for (size_t i = 0; i < kInsert; ++i) cycles[i] = per_call(d[i], d[i].instructions - d[i].memmove);
  // The DMA set-up with inserts: its transfer_setup part at the pure sites' mean.
  const size_t setup = 5;
  if (setup_inserts.blocks > 0) {
    const double whole = per_call(setup_inserts, setup_inserts.instructions - setup_inserts.memmove) * setup_inserts.calls;
    cycles[kInsert] = std::max(0.0, (whole - cycles[setup] * setup_inserts.calls) / setup_inserts.blocks);
    d[kInsert].calls = setup_inserts.blocks;
    d[kInsert].instructions = setup_inserts.instructions - setup_inserts.calls * (d[setup].calls ? (d[setup].instructions - d[setup].memmove) / d[setup].calls : 0);
    d[kInsert].memmove = setup_inserts.memmove;
    d[kInsert].sites = setup_inserts.sites;
  }
  std::printf("native table derived from the core (cpu.cpi=%g, %g wait cycles a HAL call, %g a heap access; memmove left out;\n"
              "  calls: over the profile runs, ufs31 read/write/HPB off/HPB on, GC on test-small, and for the hpb.*\n"
              "  constants HPB with updated entries in responses (50%% writes, hpb.response_entries=1)):\n",
              cpi, mailbox_wait, sram_wait);
  std::printf("  %-32s %10s %10s %10s %9s  %s\n", "constant", "calls", "instr/call", "memmove", "derived", "charged in");
  for (size_t i = 0; i < kConstantCount; ++i) {
    const Derived& t = d[i];
    const double instr = t.calls ? (t.instructions - t.memmove) / t.calls : 0;
    std::printf("  %-32s %10.0f %10.0f %10.0f %9.0f  %s\n", kConstants[i].key, t.calls, instr,
                t.calls ? t.memmove / t.calls : 0, cycles[i], t.calls ? t.sites.c_str() : "(not charged in these runs)");
    if (t.calls) rows.push_back({std::string("derived ") + kConstants[i].key, "cycles", kModelOnly, std::round(cycles[i]), "cycles", 0});
  }
  for (const auto& [event, u] : unknown)  // (the native mode charges them cpu.interrupt_cycles / crypto_result_cycles only)
    std::printf("  no constant: %.0f %s entries charged nothing, %.0f instructions each\n", u.first, event.c_str(),
                u.second / u.first);
  std::printf("\n");

  // Headline figures in both modes (published: ufs31-datasheet's; shape only here, the
  // datasheet study holds the tolerance).
  for (size_t m = 0; m < 2; ++m) {
    const std::string x = modes[m];
    rows.push_back({"random read IOPS", x, 100000, op_value(at(0, m), "read", "iops"), "IOPS", 0});
    rows.push_back({"random write IOPS", x, 70000, op_value(at(1, m), "write", "iops"), "IOPS", 0});
    rows.push_back({"core busy, random read", x, kModelOnly,
                    100 * at(0, m).at("utilisation").at("cpu_busy").get<double>(), "%", 0});
    rows.push_back({"core busy, random write", x, kModelOnly,
                    100 * at(1, m).at("utilisation").at("cpu_busy").get<double>(), "%", 0});
    const double off = op_value(at(2, m), "read", "iops"), on = op_value(at(3, m), "read", "iops");
    rows.push_back({"HPB off IOPS", x, kModelOnly, off, "IOPS", 0});
    rows.push_back({"HPB on IOPS", x, kModelOnly, on, "IOPS", 0});
    rows.push_back({"HPB gain", x, kModelOnly, 100 * (on / off - 1), "%", 0});
  }
  return rows;
#endif
}

}  // namespace

std::vector<Experiment> make_firmware_cost_experiments() {
  return {Experiment{"firmware-cost",
                     "model only (issue 20 calibration): the firmware on the emulated Cortex-R core (cpu.model=iss) vs "
                     "its native charge_cycles figures; needs `make deps-iss`",
                     "ufs31 4 KiB random read and write at QD32 and HPB off/on (128 KiB L2P SRAM), 20,000 I/Os each, "
                     "native and on the core: per handler kind the native charge beside the executed instructions and "
                     "charged cycles (mean, max), the C library's byte loops' share; the native cost table derived from "
                     "the core (each charge_cycles constant: its call sites' instructions x cpu.cpi + wait states); "
                     "IOPS, core busy and HPB gain in both modes",
                     firmware_cost,
                     "mode",
                     {
                         {"random IOPS", "mode", {"random read IOPS", "random write IOPS"}, {"read", "write"}},
                         {"HPB", "mode", {"HPB off IOPS", "HPB on IOPS"}, {"HPB off", "HPB on"}},
                     }}};
}

}  // namespace ufs
