// Energy and power (issue 22) on ufs31: the device-level figures the energy model gives
// beside the published ones, and what the seeds' choices cost in energy beside their
// latency (HPB off vs on, WriteBooster on vs off, idle-time GC and auto-hibernate on a phone
// trace).
//
// Published figures (sources in notes/22-s19.md): Samsung's UFS 4.0 announcement (May 2022):
// sequential read at 6.0 MB/s per mA, "46% more power efficient than UFS 3.1", so a UFS 3.1
// device (ufs31's class) reads about 6.0 / 1.46 = 4.1 MB/s per mA; the rail is not named:
// the model quotes the sum of its rails' mean currents (ICC + ICCQ, power.vcc_v and
// power.vccq_v) and prints the other readings beside it. UFS 3.1 sequential read / write
// 2100 / 1200 MB/s (the same announcement's comparison). Weaker, printed as notes: a trade
// overview (icDirectory 2024): UFS 3.1 active 1.5-2.5 W, idle "a few mW to ~100 mW", deep
// sleep below 10 mW; an eMMC 4.5 under 250 mW peak at ~70 MB/s (Li et al., FAST'14).
//
// The phone trace (MobileBlockIOTraces, Pixel 6a: slideshow_exec.csv.gz) is read from the
// trace folders (experiment.h: trace_dirs); a missing file stops the study before any run
// with the command that fetches it (python3 sim/get_traces.py slideshow_exec.csv.gz).
#include <cstdio>
#include "experiments/experiment.h"

namespace ufs {

namespace {

double energy(const nlohmann::json& stats, const char* key) { return stats.at("energy").at(key).get<double>(); }
double rail_ma(const nlohmann::json& stats, const char* rail) {
  return stats.at("energy").at("rails").at(rail).at("mean_current_ma").get<double>();
}
double mean_latency(const nlohmann::json& stats, const char* op) { return op_value(stats, op, "mean"); }
// Throughput per mA with the whole power drawn at one voltage (the other readings of
// "MB/s per mA": everything at VCC, or everything at VCCQ).
double mb_per_s_per_ma_at(const nlohmann::json& stats, double volts) {
  const double ma = energy(stats, "mean_power_mw") / volts;
  return ma > 0 ? op_value(stats, "read", "mb_per_s") / ma : 0.0;
}

// The phone-trace runs: the idle-gc study's 1.2 GiB steady-state device (filled, then
// overwritten at random once), the slideshow app run replayed on it with gaps above 200 ms
// cut to 200 ms, under each idle-time policy.
struct IdlePolicyRun {
  const char* name;
  const char* x;
  bool idle_gc;
  bool hibernate;
};
const IdlePolicyRun kIdlePolicyRuns[] = {{"trace_threshold_gc", "threshold GC", false, false},
                                 {"trace_idle_gc", "idle-time GC", true, false},
                                 {"trace_h8", "threshold GC + H8", false, true},
                                 {"trace_idle_gc_h8", "idle GC + H8", true, true}};

std::vector<ExperimentRow> energy_study(ExperimentContext& ctx) {
  const std::vector<std::string> trace = require_traces({"slideshow_exec.csv.gz"});
  nlohmann::json seq_read, seq_write, idle_awake, idle_hibern8, idle_slow, hpb_off, hpb_on, wb_on, wb_off;
  nlohmann::json traced[std::size(kIdlePolicyRuns)];
  auto run = [&](const std::string& name, std::vector<std::string> args, nlohmann::json& into) {
    std::vector<std::string> a = {"--preset", "ufs31", "--no-check"};
    a.insert(a.end(), args.begin(), args.end());
    ctx.submit(name, a, into);
  };
  // Sequential read and write of 1 GB in 512 KiB requests at QD8 (the read over filled LBAs).
  run("seq_read", {"--precondition-fill", "1g", "--workload", "rw=read,bs=512k,iodepth=8,size=1g,count=2000,seed=1"},
      seq_read);
  run("seq_write", {"--workload", "rw=write,bs=512k,iodepth=8,size=1g,count=2000,seed=1"}, seq_write);
  // A nearly idle device: two 4 KiB reads a second for 10 s, the link awake (STALL between
  // bursts) or in Hibern8 after Linux's default auto-hibernate idle time (150 ms).
  const std::vector<std::string> idle = {"--precondition-fill", "64m", "--workload",
                                         "rw=randread,bs=4k,iodepth=1,size=64m,count=20,rate_iops=2,seed=1"};
  run("idle_awake", idle, idle_awake);
  std::vector<std::string> idle_h8 = idle;
  idle_h8.insert(idle_h8.end(), {"--set", "link.hibernate_idle_us=150000"});
  run("idle_hibern8", idle_h8, idle_hibern8);
  // The same with the link in the slow power mode (PWM-G4, 72 Mb/s per lane), SLEEP between
  // bursts instead of STALL.
  std::vector<std::string> idle_pwm = idle;
  idle_pwm.insert(idle_pwm.end(), {"--set", "link.power_mode=slow"});
  run("idle_slow", idle_pwm, idle_slow);
  // HPB off vs on: 4 KiB random reads over 1 GiB with 128 KiB of L2P SRAM (128 MiB covered),
  // after 20,000 unmeasured reads that warm the map cache and HPB's regions.
  std::vector<std::string> hpb = {"--precondition-fill", "1g", "--precondition",
                                  "rw=randread,bs=4k,iodepth=32,size=1g,count=20000,seed=7", "--workload",
                                  "rw=randread,bs=4k,iodepth=32,size=1g,count=30000,seed=8", "--set",
                                  "memory.l2p_sram_kib=128", "--set", "crypto.model=cpp"};
  run("hpb_off", hpb, hpb_off);
  hpb.insert(hpb.end(), {"--set", "hpb.enabled=true"});
  run("hpb_on", hpb, hpb_on);
  // WriteBooster on vs off: 256 MiB of 128 KiB writes at QD8 (fits ufs31's 4 GiB buffer).
  const std::string wbw = "rw=write,bs=128k,iodepth=8,size=256m,count=2048,seed=3";
  run("wb_on", {"--workload", wbw, "--set", "writebooster.enabled=true"}, wb_on);
  run("wb_off", {"--workload", wbw, "--set", "writebooster.enabled=false"}, wb_off);
  // Idle-time GC (5 ms idle, up to 16 free blocks per die) and auto-hibernate (150 ms) on the
  // phone trace, as the idle-gc study replays it (ufs31 NAND timing on test-small's controller).
  for (size_t m = 0; m < std::size(kIdlePolicyRuns); ++m) {
    const IdlePolicyRun& t = kIdlePolicyRuns[m];
    ctx.submit(t.name,
               {"--preset", "test-small", "--no-check", "--set", "nand.blocks_per_plane=128", "--precondition-fill",
                "1200m", "--precondition", "rw=randwrite,bs=4k,iodepth=32,count=300000,seed=1", "--workload",
                "trace:mobile:" + trace[0] + ",fold=modulo,idle_compress=200ms", "--set",
                std::string("firmware.bg_gc_idle_us=") + (t.idle_gc ? "5000" : "0"), "--set",
                "firmware.bg_gc_free_blocks=16", "--set",
                std::string("link.hibernate_idle_us=") + (t.hibernate ? "150000" : "0")},
               traced[m]);
  }
  ctx.wait();

  std::printf("note: published: Samsung UFS 4.0 reads sequentially at 6.0 MB/s per mA, 46%% better than UFS 3.1 (so\n"
              "      about 4.1 MB/s per mA for UFS 3.1, ufs31's class); the rail is not named. The model's row adds its\n"
              "      rails' mean currents: VCC %.1f V (NAND) %.0f mA + VCCQ %.1f V (controller, NAND I/O, M-PHY) %.0f mA.\n"
              "      Other readings of the same run: all %.0f mW at VCC %.2f MB/s per mA, all at VCCQ %.2f.\n",
              seq_read.at("energy").at("rails").at("vcc").at("v").get<double>(), rail_ma(seq_read, "vcc"),
              seq_read.at("energy").at("rails").at("vccq").at("v").get<double>(), rail_ma(seq_read, "vccq"),
              energy(seq_read, "mean_power_mw"),
              mb_per_s_per_ma_at(seq_read, seq_read.at("energy").at("rails").at("vcc").at("v").get<double>()),
              mb_per_s_per_ma_at(seq_read, seq_read.at("energy").at("rails").at("vccq").at("v").get<double>()));
  std::printf("note: weaker published figures: a trade overview (icDirectory 2024) gives UFS 3.1 sequential transfers\n"
              "      1.5-2.5 W, idle a few mW to ~100 mW, deep sleep below 10 mW; an eMMC 4.5 drew under 250 mW peak\n"
              "      at ~70 MB/s (Li et al., FAST'14). Model: seq read %.0f mW, seq write %.0f mW, nearly idle %.1f mW\n"
              "      (link awake) / %.1f mW (auto-hibernate).\n",
              energy(seq_read, "mean_power_mw"), energy(seq_write, "mean_power_mw"),
              energy(idle_awake, "mean_power_mw"), energy(idle_hibern8, "mean_power_mw"));
  std::printf("note: parameters and their sources: tlm/power/energy_params.h (NAND currents from datasheets, each\n"
              "      plane of a multi-plane group at a single plane's current; ECC decoding, core, SRAM, the fabric's\n"
              "      wires, the M-PHY's burst and Hibern8 derived from published figures; ECC encoding, STALL, channel\n"
              "      I/O, idle and leakage estimates). Energy per GB = J per GB of host data. Phone trace: slideshow\n"
              "      (MobileBlockIOTraces, Pixel 6a), gaps above 200 ms cut to 200 ms, so its mean power is over the\n"
              "      compressed time.\n");
  // The gap on the one published energy figure, and why it stays: the defaults are sourced,
  // not tuned to it.
  {
    const double mbps = op_value(seq_read, "read", "mb_per_s");
    const double ma = energy(seq_read, "mean_current_ma");
    const double published = 6.0 / 1.46;
    std::printf("note: seq read: the model draws %.0f mA for %.0f MB/s (%.2f MB/s per mA); ~%.1f MB/s per mA would\n"
                "      need %.0f mA, %.0f mA more. Not tuned away: every default is sourced or an estimate with its\n"
                "      reasoning. What the sources leave open: no 3D TLC die publishes its currents (the NAND's %.0f mA\n"
                "      are 2007-era planar parts' maxima; ONFI 5.0 allows up to 100 mA per active LUN), the controller's\n"
                "      clock tree and always-on logic have no public figure (not modelled), STALL and channel I/O are\n"
                "      estimates, and Samsung's 'per mA' names no rail (all power at VCCQ would read %.2f).\n",
                ma, mbps, ma > 0 ? mbps / ma : 0.0, published, mbps / published, mbps / published - ma,
                rail_ma(seq_read, "vcc"),
                mb_per_s_per_ma_at(seq_read, seq_read.at("energy").at("rails").at("vccq").at("v").get<double>()));
  }
  for (const auto* s : {&seq_read, &seq_write, &idle_hibern8, &hpb_on, &traced[0]}) {
    const auto& b = s->at("energy").at("blocks");
    std::printf("note: blocks (uJ):");
    for (const auto& [k, v] : b.items()) std::printf(" %s %.0f", k.c_str(), v.get<double>());
    std::printf("\n");
  }
  std::vector<ExperimentRow> rows;
  rows.push_back({"seq read MB/s per mA", "512KiB QD8", 6.0 / 1.46, energy(seq_read, "mb_per_s_per_ma"), "MB/s/mA", 0});
  rows.push_back({"seq read MB/s", "512KiB QD8", 2100, op_value(seq_read, "read", "mb_per_s"), "MB/s", 0});
  rows.push_back({"seq write MB/s", "512KiB QD8", 1200, op_value(seq_write, "write", "mb_per_s"), "MB/s", 0});
  rows.push_back({"seq read power", "512KiB QD8", kModelOnly, energy(seq_read, "mean_power_mw"), "mW", 0});
  rows.push_back({"seq read VCC current", "512KiB QD8", kModelOnly, rail_ma(seq_read, "vcc"), "mA", 0});
  rows.push_back({"seq read VCCQ current", "512KiB QD8", kModelOnly, rail_ma(seq_read, "vccq"), "mA", 0});
  rows.push_back({"seq write MB/s per mA", "512KiB QD8", kModelOnly, energy(seq_write, "mb_per_s_per_ma"), "MB/s/mA", 0});
  rows.push_back({"seq write power", "512KiB QD8", kModelOnly, energy(seq_write, "mean_power_mw"), "mW", 0});
  rows.push_back({"idle power, link awake", "2 reads/s", kModelOnly, energy(idle_awake, "mean_power_mw"), "mW", 0});
  rows.push_back({"idle power, auto-hibernate", "2 reads/s", kModelOnly, energy(idle_hibern8, "mean_power_mw"), "mW", 0});
  rows.push_back({"idle power, PWM + SLEEP", "2 reads/s", kModelOnly, energy(idle_slow, "mean_power_mw"), "mW", 0});
  rows.push_back({"idle read mean, link awake", "2 reads/s", kModelOnly, mean_latency(idle_awake, "read"), "us", 0});
  rows.push_back({"idle read mean, auto-hibernate", "2 reads/s", kModelOnly, mean_latency(idle_hibern8, "read"), "us", 0});
  rows.push_back({"idle read mean, PWM + SLEEP", "2 reads/s", kModelOnly, mean_latency(idle_slow, "read"), "us", 0});
  rows.push_back({"energy per GB, HPB off", "4KiB rand read QD32", kModelOnly, energy(hpb_off, "per_byte_nj"), "J/GB", 0});
  rows.push_back({"energy per GB, HPB on", "4KiB rand read QD32", kModelOnly, energy(hpb_on, "per_byte_nj"), "J/GB", 0});
  rows.push_back({"mean power, HPB off", "4KiB rand read QD32", kModelOnly, energy(hpb_off, "mean_power_mw"), "mW", 0});
  rows.push_back({"mean power, HPB on", "4KiB rand read QD32", kModelOnly, energy(hpb_on, "mean_power_mw"), "mW", 0});
  rows.push_back({"mean latency, HPB off", "4KiB rand read QD32", kModelOnly, mean_latency(hpb_off, "read"), "us", 0});
  rows.push_back({"mean latency, HPB on", "4KiB rand read QD32", kModelOnly, mean_latency(hpb_on, "read"), "us", 0});
  rows.push_back({"energy per GB, WB on", "128KiB seq write QD8", kModelOnly, energy(wb_on, "per_byte_nj"), "J/GB", 0});
  rows.push_back({"energy per GB, WB off", "128KiB seq write QD8", kModelOnly, energy(wb_off, "per_byte_nj"), "J/GB", 0});
  rows.push_back({"mean power, WB on", "128KiB seq write QD8", kModelOnly, energy(wb_on, "mean_power_mw"), "mW", 0});
  rows.push_back({"mean power, WB off", "128KiB seq write QD8", kModelOnly, energy(wb_off, "mean_power_mw"), "mW", 0});
  rows.push_back({"mean latency, WB on", "128KiB seq write QD8", kModelOnly, mean_latency(wb_on, "write"), "us", 0});
  rows.push_back({"mean latency, WB off", "128KiB seq write QD8", kModelOnly, mean_latency(wb_off, "write"), "us", 0});
  for (size_t m = 0; m < std::size(kIdlePolicyRuns); ++m) {
    const nlohmann::json& s = traced[m];
    const std::string x = kIdlePolicyRuns[m].x;
    rows.push_back({"phone trace energy per GB", x, kModelOnly, energy(s, "per_byte_nj"), "J/GB", 0});
    rows.push_back({"phone trace mean power", x, kModelOnly, energy(s, "mean_power_mw"), "mW", 0});
    rows.push_back({"phone trace read mean", x, kModelOnly, mean_latency(s, "read"), "us", 0});
    rows.push_back({"phone trace write mean", x, kModelOnly, mean_latency(s, "write"), "us", 0});
    rows.push_back({"phone trace write p99", x, kModelOnly, op_value(s, "write", "p99"), "us", 0});
    rows.push_back({"phone trace link energy", x, kModelOnly, s.at("energy").at("blocks").at("link").get<double>() * 1e-3,
                    "mJ", 0});
    rows.push_back({"phone trace NAND energy", x, kModelOnly, s.at("energy").at("blocks").at("nand").get<double>() * 1e-3,
                    "mJ", 0});
  }
  return rows;
}

}  // namespace

std::vector<Experiment> make_energy_experiments() {
  const std::string x = "workload";
  return {Experiment{"energy",
                     "Samsung UFS 4.0 announcement (May 2022): sequential read 6.0 MB/s per mA, 46% better than UFS 3.1 "
                     "(so ~4.1 for UFS 3.1), UFS 3.1 2100/1200 MB/s; energy model parameters and sources: "
                     "tlm/power/energy_params.h; trace: MobileBlockIOTraces slideshow (Pixel 6a)",
                     "device power and throughput per mA (ICC + ICCQ) on ufs31 (sequential read/write, idle with the "
                     "link awake, auto-hibernating or in PWM with SLEEP); energy per GB, mean power and latency with HPB off/on, WriteBooster "
                     "on/off, and threshold vs idle-time GC with and without auto-hibernate on a phone trace",
                     energy_study,
                     x,
                     {
                         {"energy per GB, HPB", x, {"energy per GB, HPB off", "energy per GB, HPB on"}, {"HPB off", "HPB on"}},
                         {"mean power, HPB", x, {"mean power, HPB off", "mean power, HPB on"}, {"HPB off", "HPB on"}},
                         {"energy per GB, WriteBooster", x, {"energy per GB, WB on", "energy per GB, WB off"}, {"WB on", "WB off"}},
                         {"mean power, WriteBooster", x, {"mean power, WB on", "mean power, WB off"}, {"WB on", "WB off"}},
                         {"idle power", x, {"idle power, link awake", "idle power, auto-hibernate", "idle power, PWM + SLEEP"},
                          {"awake", "auto-hibernate", "PWM + SLEEP"}},
                         {"phone trace: energy per GB", "idle-time policy", {"phone trace energy per GB"}, {"slideshow"}},
                         {"phone trace: mean power", "idle-time policy", {"phone trace mean power"}, {"slideshow"}},
                         {"phone trace: write mean", "idle-time policy", {"phone trace write mean"}, {"slideshow"}},
                     }}};
}

}  // namespace ufs
