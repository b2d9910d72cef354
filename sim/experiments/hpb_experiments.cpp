// Studies of Host Performance Booster (seeds 001 and 003): HPB off vs on.
#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include "experiments/experiment.h"
#include "workload/app_switch_scenario.h"

namespace ufs {

namespace {

// The Linux HPB driver's cover letter (seed 001): iozone -r 4k -i2 -t 16 (16 threads of
// 4 KiB random reads, one outstanding each) over 1..32 GB files on a UFS 2.1 64 GB device,
// HPB off and on. The file is written first (precondition fill); then one unmeasured pass
// of the same reads warms what a long iozone run warms: the device's L2P SRAM, and with HPB
// on the host's entry cache (device control mode: the device recommends the sub-regions it
// misses, the host fetches them with READ BUFFER). The measured pass follows.
std::vector<ExperimentRow> linux_iozone(ExperimentContext& ctx) {
  struct Row { const char* range; double hpb_on, hpb_off; };
  const Row table[] = {{"1g", 294.8, 300.87}, {"4g", 293.51, 179.35}, {"8g", 294.85, 162.52},
                       {"16g", 293.45, 156.26}, {"32g", 277.4, 153.25}};
  std::vector<ExperimentRow> rows;
  double off_1g = 0, off_32g = 0, on_min = 1e9, on_max = 0;
  for (const Row& r : table) {
    const std::string range = r.range;
    const std::string reads = "rw=randread,bs=4k,iodepth=1,numjobs=16,size=" + range;
    const std::string label = std::string(r.range).substr(0, range.size() - 1) + " GB";
    for (const bool hpb : {false, true}) {
      ctx.submit(range + (hpb ? "_hpb_on" : "_hpb_off"),
                 {"--preset", "ufs21-64g", "--precondition-fill", range, "--precondition",
                  reads + ",count=150000,seed=7", "--workload", reads + ",count=60000,seed=8",
                  "--set", std::string("hpb.enabled=") + (hpb ? "true" : "false")},
                 [&, r, hpb, range, label](const nlohmann::json& s) {
        const double mb = op_value(s, "read", "mb_per_s");
        rows.push_back({hpb ? "HPB on" : "HPB off", label, hpb ? r.hpb_on : r.hpb_off, mb, "MB/s", 0.15});
        if (hpb) { on_min = std::min(on_min, mb); on_max = std::max(on_max, mb); }
        else if (range == "1g") off_1g = mb;
        else if (range == "32g") off_32g = mb;
      });
    }
  }
  ctx.wait();
  // The shape: HPB off falls to about half once the range outgrows the map cache; HPB on stays flat.
  rows.push_back({"HPB off 32 GB / 1 GB", "ratio", 153.25 / 300.87, off_1g > 0 ? off_32g / off_1g : 0, "", 0.15});
  rows.push_back({"HPB on min / max", "flatness", 277.4 / 294.85, on_max > 0 ? on_min / on_max : 0, "", 0.15});
  return rows;
}


// HotStorage'17 (seed 003) on its Galaxy S7's UFS 2.0 device (galaxy-s7 preset). The paper's
// host cache holds every entry of the 1 GiB range ("cache hit rate is 100% in the host-side
// L2P cache"): the host fetches them all at start (hpb.host.populate_mib), and a short
// unmeasured pass lets those READ BUFFERs finish before the measured one. The paper's
// prototype "returns updated L2P entries in a response packet for normal I/O": modelled by
// hpb.response_entries=1 (one entry per RESPONSE; the paper gives no number), so host writes
// do not dirty whole 4096-entry groups. HPB gain = throughput with HPB / without - 1, in percent.
std::vector<ExperimentRow> hotstorage17(ExperimentContext& ctx) {
  // Submits one load with HPB off and on; `into` gets the gain once both have run.
  auto gain = [&](const std::string& name, const std::string& spec, const char* op, double& into) {
    auto mb = std::make_shared<std::array<double, 2>>();
    for (const bool hpb : {false, true}) {
      ctx.submit(name + (hpb ? "_hpb_on" : "_hpb_off"),
                 {"--preset", "galaxy-s7", "--precondition-fill", "1g", "--precondition",
                  "rw=randread,bs=4k,iodepth=1,numjobs=4,size=1g,count=4000,seed=7", "--workload", spec,
                  "--set", std::string("hpb.enabled=") + (hpb ? "true" : "false"), "--set",
                  "hpb.host.populate_mib=1024", "--set", "hpb.response_entries=1"},
                 [mb, hpb, op = std::string(op), &into](const nlohmann::json& s) {
                   const auto& ops = s.at("ops");
                   for (const char* o : {"read", "write"})
                     if ((op == "all" || op == o) && ops.contains(o)) (*mb)[hpb] += ops.at(o).at("mb_per_s").get<double>();
                   if (hpb) into = (*mb)[0] > 0 ? 100.0 * ((*mb)[1] / (*mb)[0] - 1.0) : 0.0;
                 });
    }
  };
  // Every load is independent: one step, then the rows.
  const int thread_counts[] = {1, 2, 4, 8, 16};
  const int read_pcts[] = {10, 30, 50, 70, 90};
  const int chunk_kib[] = {4, 16, 64, 128, 256, 512};
  double random_gain[5] = {}, seq_gain = 0, write_gain = 0, mix_gain[5] = {}, chunk_gain[6] = {};
  // Random read, 4 KiB records over 1 GiB, 1..16 threads.
  for (int i = 0; i < 5; ++i) {
    const std::string t = std::to_string(thread_counts[i]);
    gain("randread_" + t + "t", "rw=randread,bs=4k,iodepth=1,numjobs=" + t + ",size=1g,count=30000,seed=8", "read",
         random_gain[i]);
  }
  // Sequential read and writes.
  gain("seqread", "rw=read,bs=128k,iodepth=1,numjobs=4,size=1g,count=4000,seed=8", "read", seq_gain);
  gain("randwrite", "rw=randwrite,bs=4k,iodepth=1,numjobs=4,size=1g,count=20000,seed=8", "write", write_gain);
  // Read/write mixes of 4 KiB random I/O, 8 threads.
  for (int i = 0; i < 5; ++i) {
    const std::string r = std::to_string(read_pcts[i]);
    gain("mix" + r, "rw=randrw,rwmixread=" + r + ",bs=4k,iodepth=1,numjobs=8,size=1g,count=20000,seed=8", "all",
         mix_gain[i]);
  }
  // Chunk sizes 4 KiB..512 KiB, 1 GiB range, 195 MB of reads, 8 threads.
  for (int i = 0; i < 6; ++i) {
    const std::string k = std::to_string(chunk_kib[i]);
    const uint64_t count = (195ull << 20) / (uint64_t(chunk_kib[i]) << 10);
    gain("chunk" + k + "k", "rw=randread,bs=" + k + "k,iodepth=1,numjobs=8,size=1g,count=" + std::to_string(count) +
                                ",seed=8", "read", chunk_gain[i]);
  }
  ctx.wait();

  std::vector<ExperimentRow> rows;
  // Random read: the paper's +59..67% (midpoint, 20% band).
  for (int i = 0; i < 5; ++i)
    rows.push_back({"random read gain", std::to_string(thread_counts[i]) + " threads", 63, random_gain[i], "%", 0.2});
  // Sequential read and writes: no gain published (shape only).
  rows.push_back({"sequential read gain", "128 KiB, 4 thr", 0, seq_gain, "%", 0});
  rows.push_back({"random write gain", "4 KiB, 4 thr", 0, write_gain, "%", 0});
  // Mixes: +8% at 10% reads up to +43%.
  double best_mix = -1e9;
  for (int i = 0; i < 5; ++i) {
    const int read_pct = read_pcts[i];
    best_mix = std::max(best_mix, mix_gain[i]);
    rows.push_back({"mixed gain", std::to_string(read_pct) + "% reads", read_pct == 10 ? 8.0 : kModelOnly, mix_gain[i],
                    "%", read_pct == 10 ? 1.0 : 0});
  }
  rows.push_back({"largest mixed gain", "over the mixes", 43, best_mix, "%", 0.3});
  // Chunks: the gain shrinks.
  for (int i = 0; i < 6; ++i)
    rows.push_back({"chunk read gain", std::to_string(chunk_kib[i]) + " KiB", kModelOnly, chunk_gain[i], "%", 0});
  rows.push_back({"gain shrinks 4 KiB -> 512 KiB", "yes=1", 1, chunk_gain[5] < chunk_gain[0] ? 1.0 : 0.0, "flag", 0.01});
  return rows;
}

// One panel per figure of hpb_mobile_trace(), the HPB modes its series, the traces on x.
std::vector<PlotPanel> hpb_mobile_trace_panels() {
  std::vector<PlotPanel> panels;
  for (const char* figure : {"read mean latency", "read p99 latency", "map page loads"})
    panels.push_back({figure, "trace", {figure + std::string(", HPB off"), figure + std::string(", device ctl"),
                                        figure + std::string(", host ctl")},
                      {"HPB off", "device control", "host control"}});
  for (const char* figure : {"map loads avoided", "HPB READs verified", "READ BUFFER traffic", "host memory for HPB (peak)"})
    panels.push_back({figure, "trace", {figure + std::string(", device ctl"), figure + std::string(", host ctl")},
                      {"device control", "host control"}});
  return panels;
}

// Issue 7 evidence 3: phone traces (MobileBlockIOTraces, Pixel 6a) replayed on ufs31 with
// HPB off, in device control mode and in host control mode: the install-time writes
// first (gaps cut to 1 ms), then the app run (gaps cut to 10 ms), as map-cache-sweep does.
// No published figure: what HPB buys on a real phone's reads, and what it costs the host.
std::vector<ExperimentRow> hpb_mobile_trace(ExperimentContext& ctx) {
  require_traces(phone_trace_files({"slideshow", "cod"}));
  std::vector<ExperimentRow> rows;
  double off_loads = 0;  // the HPB off run's, set by its callback before the app's other two run theirs
  for (const char* app : {"slideshow", "cod"}) {
    const std::vector<std::string> replay = phone_trace_args(app);
    for (const char* mode : {"off", "device", "host"}) {
      std::vector<std::string> args = {"--preset", "ufs31"};
      args.insert(args.end(), replay.begin(), replay.end());
      if (std::string(mode) == "off") args.insert(args.end(), {"--set", "hpb.enabled=false"});
      else args.insert(args.end(), {"--set", "hpb.enabled=true", "--set", std::string("hpb.control_mode=") + mode});
      ctx.submit(std::string(app) + "_" + mode, args,
                 [&rows, &off_loads, app, mode](const nlohmann::json& s) {
        // x: the trace; the HPB mode is the series (metric "..., HPB off": hpb_mobile_trace_panels()).
        const std::string x = app, m = std::string(", ") + (std::string(mode) == "off" ? "HPB off" : std::string(mode) + " ctl");
        const auto& read = s.at("ops").at("read");
        const double loads = s.at("ftl").at("map_cache").at("page_loads").get<double>();
        if (std::string(mode) == "off") off_loads = loads;
        rows.push_back({"read mean latency" + m, x, kModelOnly, read.at("mean").get<double>(), "us", 0});
        rows.push_back({"read p99 latency" + m, x, kModelOnly, read.at("p99").get<double>(), "us", 0});
        rows.push_back({"map page loads" + m, x, kModelOnly, loads, "", 0});
        if (std::string(mode) == "off") return;
        const auto& hpb = s.at("hpb");
        rows.push_back({"map loads avoided" + m, x, kModelOnly, off_loads - loads, "", 0});
        rows.push_back({"HPB READs verified" + m, x, kModelOnly, hpb.at("device").at("verified").get<double>(), "", 0});
        rows.push_back({"READ BUFFER traffic" + m, x, kModelOnly,
                        hpb.at("host").at("read_buffer_bytes").get<double>() / (1 << 20), "MiB", 0});
        rows.push_back({"host memory for HPB (peak)" + m, x, kModelOnly,
                        hpb.at("host").at("peak_memory_bytes").get<double>() / (1 << 20), "MiB", 0});
      });
    }
  }
  ctx.wait();
  return rows;
}

// Issue 7 evidence 4: the signing/encryption unit in the loop. HotStorage'17's 4-thread
// random read on galaxy-s7 with the Verilated RTL and with the C++ reference model: the
// same cycles, so the same results; the verification's share of the latency split.
std::vector<ExperimentRow> hpb_crypto_rtl(ExperimentContext& ctx) {
  std::vector<ExperimentRow> rows;
  double iops[2] = {0, 0}, mean[2] = {0, 0};
  // One run per step (run(), not submit()): its wall time is a figure here, so the two must
  // not share the machine's cores.
  for (const int rtl : {0, 1}) {
    const std::string model = rtl ? "rtl" : "cpp";
    const auto s = ctx.run("randread_" + model,
                           {"--preset", "galaxy-s7", "--precondition-fill", "1g", "--precondition",
                            "rw=randread,bs=4k,iodepth=1,numjobs=4,size=1g,count=4000,seed=7", "--workload",
                            "rw=randread,bs=4k,iodepth=1,numjobs=4,size=1g,count=30000,seed=8", "--set",
                            "hpb.enabled=true", "--set", "hpb.host.populate_mib=1024", "--set", "crypto.model=" + model});
    const auto& read = s.at("ops").at("read");
    const auto& split = read.at("latency_split");
    iops[rtl] = read.at("iops").get<double>();
    mean[rtl] = read.at("mean").get<double>();
    rows.push_back({"read IOPS", model, kModelOnly, iops[rtl], "", 0});
    rows.push_back({"read mean latency", model, kModelOnly, mean[rtl], "us", 0});
    rows.push_back({"  of which HPB verify", model, kModelOnly, split.at("hpb_verify").get<double>(), "us", 0});
    rows.push_back({"  of which NAND", model, kModelOnly, split.at("nand").get<double>(), "us", 0});
    rows.push_back({"  of which map load", model, kModelOnly, split.at("map_load").get<double>(), "us", 0});
    rows.push_back({"jobs verified", model, kModelOnly, s.at("crypto").at("jobs_verified").get<double>(), "", 0});
    rows.push_back({"wall time", model, kModelOnly, s.at("wall_seconds").get<double>(), "s", 0});
  }
  // The RTL and the C++ model take the same cycles per job: identical simulated results.
  rows.push_back({"RTL and C++ identical", "IOPS and mean", 1,
                  iops[0] == iops[1] && mean[0] == mean[1] ? 1.0 : 0.0, "flag", 0.01});
  return rows;
}

// HPBvalve (FAST'23, seed 000): apps launched in turn on a phone, built from the four
// recorded Pixel 6a sessions of MobileBlockIOTraces (workload/app_switch_scenario.h): a launch
// replays the first 3000 requests of the app's session (gaps cut to 2 ms), the app that
// was in the foreground before goes on with its session in the background meanwhile, then
// the phone idles 1 s. Twelve launches. The host memory model runs inside each simulation
// (host_memory.*: a 6 GB phone like the Pixel 6a, lmkd, working sets below are estimates),
// so apps killed, cold starts and the HPBvalve regulator's shrinking of the real HPB cache
// all happen in the run; launch time = cold-start cost + the launch reads' latencies.
// Configurations as in the seed: UFS (512 KiB of L2P SRAM, the seed's figure), UFS+HPB
// (Linux device control mode, 256 MiB preallocated), HPBvalve (hpb.host.policy=hpbvalve,
// up to 256 MiB, regulator), optimal (the whole map in device SRAM, no host memory).
//
// Two layouts of the apps' data: "fresh", the recorded LBAs (the first model), and "aged",
// where an aged file system would have put them (workload/fs_aging.h: the data of requests
// under 128 KiB, databases and small files, in fragments of 7 KB on average scattered over a
// 1.5 GB window per app, Ji et al.'s measurements of a one-year-old Nexus 5; large files keep
// their place): the paper measured phones in use. Aging cuts the recorded requests
// at fragment boundaries, so a launch issues more, smaller reads on both the aged UFS and
// the aged optimal device; what differs between them is the map pages those reads need.
std::vector<ExperimentRow> hpbvalve(ExperimentContext& ctx) {
  struct App { const char* name; const char* session; uint32_t working_set_mib; };
  // Resident sets (estimates: two 3D games, a gallery slideshow, a video editor) are chosen so
  // that the four apps just fit in the phone's memory without HPB (3300 of 3328 MiB above
  // lmkd's threshold): the seed's setting, a phone under memory pressure where HPB's host
  // memory decides whether an app survives in the background.
  constexpr int kApps = 4;
  const App apps[kApps] = {{"cod", "cod", 1300}, {"genshin", "genshin_impact", 1400},
                           {"slideshow", "slideshow", 250}, {"youcut", "you_cut", 350}};
  std::vector<std::string> names;
  for (const App& a : apps) names.push_back(std::string(a.session) + "_exec.csv.gz");
  const std::vector<std::string> paths = require_traces(names);
  AppSwitchScenario sc;
  for (int i = 0; i < kApps; ++i) sc.apps.push_back({apps[i].name, paths[size_t(i)]});
  sc.order = {0, 2, 3, 1, 2, 0, 3, 2, 1, 0, 3, 2};
  constexpr uint64_t kFilled = 112ull << 30;  // the preconditioned LBA range the data lives in
  struct Layout { const char* label; const char* run; bool aged; std::string trace; AppSwitchSummary sum; };
  Layout layouts[2] = {{"fresh", "", false, ctx.out_dir() + "/app_switch.csv", {}},
                       {"aged", "_aged", true, ctx.out_dir() + "/app_switch_aged.csv", {}}};
  for (Layout& l : layouts) {
    sc.aged = l.aged;
    sc.aging.device_bytes = kFilled;
    l.sum = write_app_switch_scenario(sc, l.trace);
    std::printf("note: %s scenario: %zu launches, %llu launch reads (most in one launch %llu) and %llu background "
                "reads, %.1f s; %llu recorded requests emitted as %llu\n",
                l.label, sc.order.size(), (unsigned long long)l.sum.launch_reads,
                (unsigned long long)l.sum.max_launch_reads, (unsigned long long)l.sum.background_reads, l.sum.duration_s,
                (unsigned long long)l.sum.recorded_requests, (unsigned long long)l.sum.emitted_requests);
  }
  std::string app_list;
  for (const App& a : apps) app_list += std::string(app_list.empty() ? "" : ",") + a.name + "=" + std::to_string(a.working_set_mib);

  struct Config { const char* label; std::vector<std::string> sets; };
  const Config configs[] = {
      {"UFS", {"hpb.enabled=false"}},
      {"UFS+HPB", {"hpb.enabled=true", "hpb.host.budget_mib=256"}},
      {"HPBvalve", {"hpb.enabled=true", "hpb.host.budget_mib=256", "hpb.host.policy=hpbvalve"}},
      {"optimal", {"hpb.enabled=false", "firmware.map_cache=false"}}};
  std::vector<ExperimentRow> rows;
  double launch_ms[2][4] = {}, killed[2][4] = {}, app_ms[2][4][kApps] = {};
  double ufs_map_hits[2] = {}, ufs_map_ms[2] = {};
  for (int l = 0; l < 2; ++l)
    for (int c = 0; c < 4; ++c) {
      // The fresh layout's launch is its 3000 requests (as the first model); aged, the most
      // reads one launch has after the cuts, so a launch is still the whole recorded start.
      const uint64_t launch_reads = layouts[l].aged ? layouts[l].sum.max_launch_reads : sc.launch_requests;
      std::vector<std::string> args = {"--preset", "ufs31", "--precondition-fill", "112g", "--no-check",
                                       "--workload", "trace:mobile:" + layouts[l].trace,
                                       "--set", "memory.l2p_sram_kib=512",
                                       "--set", "host_memory.enabled=true",
                                       "--set", "host_memory.apps=" + app_list,
                                       "--set", "host_memory.total_mib=6144",
                                       "--set", "host_memory.reserved_mib=2560",
                                       "--set", "host_memory.launch_reads=" + std::to_string(launch_reads)};
      for (const auto& set : configs[c].sets) args.insert(args.end(), {"--set", set});
      const std::string x = std::string(configs[c].label) + ", " + layouts[l].label;
      ctx.submit(std::string("valve_") + configs[c].label + layouts[l].run, args, [&, c, l, x](const nlohmann::json& s) {
        const auto& a = s.at("apps");
        if (c == 0) {
          ufs_map_hits[l] = 100.0 * s.at("ftl").at("map_cache").at("read_hit_ratio").get<double>();
          const auto& read = s.at("ops").at("read");
          ufs_map_ms[l] = read.at("latency_split").at("map_load").get<double>() / read.at("mean").get<double>() * 100.0;
        }
        // The per-app table: launch time, foreground L2P hit ratio, kills.
        for (int i = 0; i < kApps; ++i) {
          const auto& p = a.at("per_app").at(apps[i].name);
          app_ms[l][c][i] = p.at("mean_launch_ms").get<double>();
          const double reads = p.at("launch_reads").get<double>();
          rows.push_back({"launch time " + std::string(apps[i].name), x, kModelOnly, app_ms[l][c][i], "ms", 0});
          rows.push_back({"  L2P hit ratio " + std::string(apps[i].name), x, kModelOnly,
                          reads > 0 ? 100.0 * (1.0 - p.at("launch_map_load_reads").get<double>() / reads) : 100.0, "%", 0});
          rows.push_back({"  kills " + std::string(apps[i].name), x, kModelOnly, p.at("kills").get<double>(), "", 0});
        }
        launch_ms[l][c] = a.at("mean_launch_ms").get<double>();
        killed[l][c] = a.at("kills").get<double>();
        rows.push_back({"mean launch time", x, kModelOnly, launch_ms[l][c], "ms", 0});
        rows.push_back({"foreground L2P hit ratio", x, kModelOnly, 100.0 * a.at("launch_l2p_hit_ratio").get<double>(), "%", 0});
        rows.push_back({"  of launch reads sent as HPB READ", x, kModelOnly,
                        100.0 * a.at("launch_hpb_hit_ratio").get<double>(), "%", 0});
        rows.push_back({"apps killed", x, kModelOnly, killed[l][c], "", 0});
        rows.push_back({"cold launches", x, kModelOnly, a.at("cold_launches").get<double>(), "", 0});
        rows.push_back({"HPB memory given back by the regulator", x, kModelOnly,
                        a.at("hpb_bytes_reclaimed").get<double>() / (1 << 20), "MiB", 0});
        if (s.contains("hpb"))
          rows.push_back({"HPB host memory (peak)", x, kModelOnly,
                          s.at("hpb").at("host").at("peak_memory_bytes").get<double>() / (1 << 20), "MiB", 0});
        rows.push_back({"map loads", x, kModelOnly, s.at("ftl").at("map_cache").at("page_loads").get<double>(), "", 0});
      });
    }
  ctx.wait();
  std::printf("note: with 512 KiB of L2P SRAM (32 map pages of 16 MiB of LBAs) UFS hits the device's map cache for\n"
              "      %.1f%% of reads on the fresh layout, %.1f%% aged; map loads are %.1f%% / %.1f%% of the mean read\n"
              "      latency. HPBvalve's gain over UFS+HPB comes from the apps lmkd no longer kills (Linux's\n"
              "      preallocated pool tips them out) and from its foreground hits; each foreground miss costs a\n"
              "      signed 16 MiB sub-region fetch.\n",
              ufs_map_hits[0], ufs_map_hits[1], ufs_map_ms[0], ufs_map_ms[1]);
  // The study's choices against the seed's description.
  std::printf("note: as the seed: 512 KB device L2P cache, 256 MB Linux HPB pool; the seed's 9 apps (games, social,\n"
              "      tools) are 4 here: the recorded Pixel 6a sessions that exist (2 games, a gallery, a video editor).\n"
              "      The seed's device is a ULL SSD standing in for UFS on a Snapdragon 888 phone; here ufs31.\n\n");
  for (int l = 0; l < 2; ++l) {
    const double* ms = launch_ms[l];
    const std::string layout = layouts[l].label;
    auto cut = [&](int from, int to) { return ms[from] > 0 ? 100.0 * (1.0 - ms[to] / ms[from]) : 0; };
    // The seed's findings: optimal 40-50% below UFS and UFS+HPB; UFS+HPB hardly better than UFS;
    // HPBvalve up to 43% below UFS+HPB, near optimal; fewer apps killed.
    rows.push_back({"optimal launch time vs UFS", "reduction, " + layout, 45, cut(0, 3), "%", 0});
    rows.push_back({"optimal launch time vs UFS+HPB", "reduction, " + layout, 45, cut(1, 3), "%", 0});
    rows.push_back({"UFS+HPB launch time vs UFS", "reduction, " + layout, kModelOnly, cut(0, 1), "%", 0});
    double best = 0;
    for (int i = 0; i < kApps; ++i) {
      const double r = app_ms[l][1][i] > 0 ? 100.0 * (1.0 - app_ms[l][2][i] / app_ms[l][1][i]) : 0;
      rows.push_back({"HPBvalve launch time vs UFS+HPB", "reduction, " + std::string(apps[i].name) + ", " + layout,
                      kModelOnly, r, "%", 0});
      best = std::max(best, r);
    }
    rows.push_back({"HPBvalve launch time vs UFS+HPB", "reduction, mean, " + layout, kModelOnly, cut(1, 2), "%", 0});
    rows.push_back({"HPBvalve launch time vs UFS+HPB", "reduction, best app, " + layout, 43, best, "%", 0});
    rows.push_back({"HPBvalve launch time vs optimal", "excess, " + layout, kModelOnly, -cut(3, 2), "%", 0});
    rows.push_back({"HPBvalve kills fewer apps", "yes=1, " + layout, 1, killed[l][2] < killed[l][1] ? 1.0 : 0.0, "flag", 0});
  }
  return rows;
}

}  // namespace

std::vector<Experiment> make_hpb_experiments() {
  return {Experiment{"linux-iozone",
                     "Linux HPB driver cover letter (seed 001, ufshpb v5..v6.5 series): UFS 2.1 64 GB, "
                     "iozone -r 4k -i2 -t 16, random read MB/s with HPB on and off",
                     "4 KiB random reads, 16 threads, range 1/4/8/16/32 GB on ufs21-64g (1 MiB L2P SRAM covers 1 GiB): "
                     "HPB off falls once the range outgrows the map cache, HPB on stays flat",
                     linux_iozone,
                     "range of the reads (GB)",
                     {
                         {"random read, 16 threads", "range of the reads (GB)", {"HPB off", "HPB on"}, {"HPB off", "HPB on"}}
                     }},
          Experiment{"hotstorage17",
                     "Jeong et al., Improving flash storage performance by caching address mapping table in host "
                     "memory, HotStorage'17 (seed 003): Galaxy S7, UFS 2.0, tiobench",
                     "HPB gain on galaxy-s7 with every entry of the 1 GiB range in the host: 4 KiB random read with "
                     "1..16 threads (+59..67%), sequential read and writes (~0), read/write mixes (+8..43%), "
                     "chunk sizes 4 KiB..512 KiB (gain shrinks)",
                     hotstorage17,
                     "",
                     {},
                     "random read gain +73..80% above the published +59..67% band"},
          Experiment{"hpb-mobile-trace",
                     "model only (issue 7 evidence 3); traces: MobileBlockIOTraces, Pixel 6a UFS (SYSTOR'24)",
                     "slideshow and cod phone traces on ufs31 with HPB off, device control and host control: read "
                     "latency, map loads avoided, READ BUFFER traffic, host memory",
                     hpb_mobile_trace,
                     "trace",
                     hpb_mobile_trace_panels()},
          Experiment{"hpb-crypto-rtl",
                     "model only (issue 7 evidence 4): the Verilated HPB unit vs its C++ model (rtl/README.md)",
                     "hotstorage17's 4-thread 4 KiB random read on galaxy-s7 with crypto.model=rtl and =cpp: identical "
                     "results; HPB verify in the latency split",
                     hpb_crypto_rtl,
                     "HPB crypto model"},
          Experiment{"hpbvalve",
                     "Park et al., HPBvalve, FAST'23 (seed 000): foreground-aware HPB with a memory regulator",
                     "app launches on ufs31: UFS vs UFS+HPB (Linux device control, 256 MiB) vs HPBvalve vs ideal, on "
                     "the recorded (fresh) layout and an aged file system's (small files in 7 KB fragments over 1.5 GB, Ji et al. "
                     "2016): "
                     "launch time, foreground L2P hit ratio (SRAM or HPB) and HPB READ share, apps killed (host memory model in the run)",
                     hpbvalve,
                     "configuration, layout",
                     {
                         {"launch time per app", "configuration, layout", {"launch time cod", "launch time genshin", "launch time slideshow", "launch time youcut"}, {"cod", "genshin", "slideshow", "youcut"}},
                         {"L2P hit ratio per app", "configuration, layout", {"  L2P hit ratio cod", "  L2P hit ratio genshin", "  L2P hit ratio slideshow", "  L2P hit ratio youcut"}, {"cod", "genshin", "slideshow", "youcut"}}
                     }}};
}

}  // namespace ufs
