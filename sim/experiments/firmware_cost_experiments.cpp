// What the firmware costs on the controller's core (issue 20, calibration): the same
// ufs31 workloads with the firmware compiled for the host (cpu.model=native: its time the
// charge_cycles figures) and as firmware.elf executed on the emulated Arm core
// (cpu.model=iss, measured cost: executed instructions x cpu.cpi plus wait states).
// Per handler kind the native charge beside the instructions the core executed and the
// cycles it was charged (mean and max per entry), and the headline figures in both modes.
// Small counts (20,000 I/Os a run) so the eight runs take about a minute on the core.
#include <cmath>
#include <cstdio>
#include "experiments/experiment.h"

namespace ufs {

namespace {

const nlohmann::json* kind_stats(const nlohmann::json& stats, const char* kind) {
  const auto cpu = stats.find("cpu");
  if (cpu == stats.end() || !cpu->contains("iss")) return nullptr;
  const auto& events = cpu->at("iss").at("events");
  const auto k = events.find(kind);
  return k == events.end() ? nullptr : &*k;
}

double ios(const nlohmann::json& stats, const char* op) { return op_value(stats, op, "count"); }

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
  ctx.wait();
  auto at = [&](size_t job, size_t mode) -> const nlohmann::json& { return stats[mode * jobs.size() + job]; };

  const double cpi = at(0, 1).at("cpu").at("iss").at("cpi").get<double>();
  std::printf("note: ufs31, cpu.cpi=%g, measured cost (executed instructions x cpi + wait states);\n"
              "      native = the charge_cycles figures the firmware charged for the same entry (firmware_params.h,\n"
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
  std::printf("  (cpu.interrupt_cycles, charged by the core model per handler, come on top in both modes)\n\n");

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
                     "charged cycles (mean, max), the C library's byte loops' share; IOPS, core busy and HPB gain in "
                     "both modes",
                     firmware_cost,
                     "mode",
                     {
                         {"random IOPS", "mode", {"random read IOPS", "random write IOPS"}, {"read", "write"}},
                         {"HPB", "mode", {"HPB off IOPS", "HPB on IOPS"}, {"HPB off", "HPB on"}},
                     }}};
}

}  // namespace ufs
