#include "platform/simulation.h"
#include <sys/resource.h>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include "config/config_tree.h"
#include "debug_state.h"
#include "host/app_launch_tracker.h"
#include "output/progress_line.h"
#include "output/run_folder.h"
#include "platform/power_loss_recovery.h"
#include "platform/run_statistics.h"
#include "platform/ufs_platform.h"
#include "workload/spec_values.h"
#include "workload/workload_error.h"
#include "workload/workload_factory.h"

namespace ufs {

uint64_t peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return uint64_t(u.ru_maxrss);
}

namespace {

// sc_stop() once per run: a second call (a bad trace line stops the run, then the
// controller ends its phase) makes the kernel print warning W545 on stdout.
bool stop_requested = false;
void stop_simulation() {
  if (stop_requested) return;
  stop_requested = true;
  sc_core::sc_stop();
}

// Drives the phases: precondition workload, then the measured one.
class RunController : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RunController);
  RunController(sc_core::sc_module_name name, UfsPlatform& platform, RunStatistics& stats,
                std::vector<std::unique_ptr<RequestSubmitter>>& precondition,
                std::vector<std::unique_ptr<RequestSubmitter>>& measured, uint64_t runtime_ps,
                bool* deadline_passed, uint64_t* measured_base, uint64_t spo_ps = 0)
      : sc_core::sc_module(name), platform_(platform), stats_(stats), precondition_(precondition),
        measured_(measured), runtime_ps_(runtime_ps), deadline_passed_(deadline_passed),
        measured_base_(measured_base), spo_ps_(spo_ps) {
    SC_THREAD(run);
  }
  bool finished = false;
  uint64_t measure_start_ps = 0;
  uint64_t power_cut_ps = 0;   // when power was cut (0: it was not)
  uint64_t torn_pages = 0;

 private:
  void run() {
    HostDriver& host = platform_.host;
    if (!precondition_.empty()) {
      for (auto& s : precondition_) host.add_submitter(s.get());
      wait(sc_core::SC_ZERO_TIME);
      while (!host.done()) wait(host.done_event());
    }
    measure_start_ps = sc_core::sc_time_stamp().value();
    *measured_base_ = measure_start_ps;
    stats_.start_measurement(measure_start_ps);
    stats_.mark_firmware_start(platform_);
    stats_.mark_busy_start(platform_);
    platform_.firmware().reset_latency_split();
    for (auto& s : measured_) host.add_submitter(s.get());
    wait(sc_core::SC_ZERO_TIME);
    if (spo_ps_) {
      // Sudden power-off at that instant, whatever is in flight: nothing completes after it.
      const sc_core::sc_time spo(double(spo_ps_), sc_core::SC_PS);
      wait(spo);
      power_cut_ps = sc_core::sc_time_stamp().value();
      torn_pages = platform_.fcc.power_cut();
      finished = true;
      stop_simulation();
      return;
    }
    if (runtime_ps_) {
      // Stop issuing at the runtime; what is in flight completes.
      const sc_core::sc_time runtime(double(runtime_ps_), sc_core::SC_PS);
      wait(runtime, host.done_event());
      *deadline_passed_ = true;
    }
    while (!host.done()) wait(host.done_event());
    finished = true;
    stop_simulation();
  }

 private:
  UfsPlatform& platform_;
  RunStatistics& stats_;
  std::vector<std::unique_ptr<RequestSubmitter>>& precondition_;
  std::vector<std::unique_ptr<RequestSubmitter>>& measured_;
  uint64_t runtime_ps_;
  bool* deadline_passed_;
  uint64_t* measured_base_;
  uint64_t spo_ps_;
};

// fault.spo_at: when to cut power, in ps after the measured phase starts (0: never).
uint64_t power_off_time(const FaultParams& f, uint64_t runtime_ps) {
  if (f.spo_at.empty()) return 0;
  uint64_t window = 0;
  if (f.spo_at == "random") {
    if (!runtime_ps) throw ConfigError("fault.spo_at: 'random' needs a workload with runtime= (or use random:TIME)");
    window = runtime_ps;
  } else if (f.spo_at.rfind("random:", 0) == 0) {
    window = parse_duration_ps("fault.spo_at", f.spo_at.substr(7), kPsPerUs);
  } else {
    const uint64_t at = parse_duration_ps("fault.spo_at", f.spo_at, kPsPerUs);
    if (at == 0) throw ConfigError("fault.spo_at: must be after the start of the measured phase");
    return at;
  }
  if (window < 2) throw ConfigError("fault.spo_at: the random window is empty");
  std::mt19937_64 rng(f.seed);
  return 1 + rng() % (window - 1);
}

// Wraps a workload's submitter for the run: ends it at a deadline (workload `runtime=`:
// the program knows simulated time, the workload does not), and turns a bad trace line
// met during the simulation into a clean stop with the reader's message.
// Like the Linux block layer, it also splits a request longer than the device's maximum
// transfer length (from its Block Limits) into several, each completing on its own.
class DeadlineSubmitter : public RequestSubmitter {
 public:
  DeadlineSubmitter(std::unique_ptr<RequestSubmitter> inner, const bool* passed, std::string* error,
                    uint32_t max_blocks, const uint64_t* time_base)
      : inner_(std::move(inner)), passed_(passed), error_(error), max_blocks_(max_blocks), time_base_(time_base) {}
  bool next(BlockRequest& out) override {
    if (*passed_ || !error_->empty()) return false;
    if (rest_.blocks == 0) {
      try {
        if (!inner_->next(rest_)) return false;
        // A trace's times count from its phase's start (after any precondition phase).
        if (inner_->timed()) rest_.arrival_ps += *time_base_;
      } catch (const WorkloadError& e) {
        *error_ = e.what();
        stop_simulation();
        return false;
      }
      if (rest_.op == BlockOp::Flush || rest_.blocks <= max_blocks_) {
        out = rest_;
        rest_.blocks = 0;
        return true;
      }
    }
    out = rest_;
    out.blocks = std::min(rest_.blocks, max_blocks_);
    rest_.lba += out.blocks;
    rest_.blocks -= out.blocks;
    return true;
  }
  uint32_t max_outstanding() const override { return inner_->max_outstanding(); }
  bool timed() const override { return inner_->timed(); }
  std::string stream_name(uint32_t s) const override { return inner_->stream_name(s); }
  std::string warning() const override { return inner_->warning(); }

 private:
  std::unique_ptr<RequestSubmitter> inner_;
  const bool* passed_;
  std::string* error_;
  uint32_t max_blocks_;
  const uint64_t* time_base_;
  BlockRequest rest_{BlockOp::Read, 0, 0};  // the part of a long request still to issue
};

// --waves / --timeline / --waves-window as the recorder's options.
TraceRecorderOptions trace_options(const RunOptions& o) {
  TraceRecorderOptions t;
  auto place = [&o](const std::string& file) {
    if (file.empty() || file.front() == '/' || o.out_dir.empty()) return file;
    return RunFolder(o.out_dir).file(file);  // creates the folder
  };
  t.waves_path = place(o.waves);
  t.timeline_path = place(o.timeline);
  if (!o.waves_window.empty()) {
    const size_t colon = o.waves_window.find(':');
    if (colon == std::string::npos)
      throw ConfigError("--waves-window: '" + o.waves_window + "' is not FROM:TO (e.g. 0:20ms)");
    const std::string from = o.waves_window.substr(0, colon), to = o.waves_window.substr(colon + 1);
    if (!from.empty()) t.window_from_ps = parse_duration_ps("--waves-window", from, kPsPerUs);
    if (!to.empty()) t.window_to_ps = parse_duration_ps("--waves-window", to, kPsPerUs);
    if (t.window_to_ps <= t.window_from_ps)
      throw ConfigError("--waves-window: '" + o.waves_window + "' ends before it starts");
  }
  return t;
}

// stats.json "apps": launches per app and the phone's memory (host_memory.enabled).
nlohmann::json app_launch_json(const AppLaunchTracker& apps) {
  nlohmann::json j, per_app = nlohmann::json::object();
  uint64_t launches = 0, launch_ps = 0, reads = 0, hpb_reads = 0, map_loads = 0;
  for (const auto& a : apps.apps()) {
    per_app[a.name] = {{"launches", a.launches},
                       {"cold_launches", a.cold_launches},
                       {"kills", a.kills},
                       {"mean_launch_ms", a.launches ? double(a.launch_ps) / double(a.launches) * 1e-9 : 0.0},
                       {"cold_start_ms", double(a.cold_ps) * 1e-9},
                       {"launch_reads", a.launch_reads},
                       {"launch_hpb_reads", a.hpb_reads},
                       {"launch_map_load_reads", a.map_load_reads}};
    launches += a.launches;
    launch_ps += a.launch_ps;
    reads += a.launch_reads;
    hpb_reads += a.hpb_reads;
    map_loads += a.map_load_reads;
  }
  const auto& m = apps.memory().stats();
  j["per_app"] = per_app;
  j["launches"] = launches;
  j["mean_launch_ms"] = launches ? double(launch_ps) / double(launches) * 1e-9 : 0.0;
  j["launch_reads"] = reads;
  j["launch_hpb_hit_ratio"] = reads ? double(hpb_reads) / double(reads) : 0.0;
  // Foreground L2P hit ratio: launch reads whose mapping the device had without a map
  // page load (in its SRAM, or from a verified HPB entry).
  j["launch_l2p_hit_ratio"] = reads ? 1.0 - double(map_loads) / double(reads) : 1.0;
  j["cold_launches"] = m.cold_launches;
  j["kills"] = m.kills;
  j["kills_avoided"] = m.kills_avoided;
  j["hpb_bytes_reclaimed"] = m.hpb_bytes_reclaimed;
  j["regulator_ms"] = double(m.regulator_time_ps) * 1e-9;
  j["hpb_bytes_counted_at_end"] = apps.hpb_counted_bytes();
  return j;
}

}  // namespace

RunResult run_simulation(const RunOptions& o) {
  const auto wall_start = std::chrono::steady_clock::now();
  stop_requested = false;
  ConfigTree tree;
  tree.load(o.preset);
  for (const auto& s : o.sets) tree.set_assignment(s);
  PlatformConfig config;
  config.bind(tree);
  tree.check_unknown_keys();
  const bool observe = !o.waves.empty() || !o.timeline.empty();
  const TraceRecorderOptions trace_opts = observe ? trace_options(o) : TraceRecorderOptions();

  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  auto platform = std::make_unique<UfsPlatform>("ufs", config);
  // Every model reads sim_now() and notifies the controller through the wheel, so the wheel
  // may run ahead of the kernel (UFS_NO_RUN_AHEAD=1 keeps it in step, for comparisons).
  platform->wheel.set_run_ahead(!std::getenv("UFS_NO_RUN_AHEAD"));
  const uint64_t capacity = platform->firmware().logical_blocks();

  if (o.precondition_fill_bytes) {
    const uint64_t blocks = o.precondition_fill_bytes == kFillWholeDevice ? capacity : o.precondition_fill_bytes / kSectorBytes;
    if (blocks > capacity)
      throw ConfigError("precondition fill of " + std::to_string(o.precondition_fill_bytes) +
                        " bytes exceeds the device's " + std::to_string(capacity * kSectorBytes) + " bytes");
    platform->precondition_firmware(0, blocks);
  }

  std::vector<std::unique_ptr<RequestSubmitter>> precondition, measured;
  bool deadline = false, no_deadline = false;
  const uint64_t zero_base = 0;
  uint64_t measured_base = 0;  // set when the measured phase starts
  std::string workload_error;
  if (!o.precondition_workload.empty())
    for (auto& s : make_workload(o.precondition_workload, capacity))
      precondition.push_back(std::make_unique<DeadlineSubmitter>(std::move(s), &no_deadline, &workload_error,
                                                                 config.firmware.max_transfer_blocks, &zero_base));
  WorkloadPlan plan = make_workload_plan(o.workload, capacity);
  RunStatistics stats(o.check_data);
  std::vector<std::string> names;
  for (auto& s : plan.submitters) {
    for (uint32_t i = 0; i < 64; ++i) names.push_back(s->stream_name(i));
    break;
  }
  stats.set_stream_names(names);  // stats.json's streams by name (trace process, smartphone app)
  for (auto& s : plan.submitters)
    measured.push_back(std::make_unique<DeadlineSubmitter>(std::move(s), &deadline, &workload_error,
                                                          config.firmware.max_transfer_blocks, &measured_base));
  if (o.precondition_fill_bytes && stats.scoreboard())
    stats.scoreboard()->mark_preconditioned(0, o.precondition_fill_bytes == kFillWholeDevice
                                                   ? capacity : o.precondition_fill_bytes / kSectorBytes);
  const uint64_t spo_ps = power_off_time(config.fault, plan.runtime_ps);
  if (spo_ps && stats.scoreboard()) stats.scoreboard()->track_durability();
  platform->host.set_observer(&stats);
  std::unique_ptr<AppLaunchTracker> apps;
  if (config.host_memory.enabled) {
    RequestSubmitter* names_from = measured.empty() ? nullptr : measured.front().get();
    auto stream_name = [names_from](uint32_t s) { return names_from ? names_from->stream_name(s) : std::string(); };
    HpbHostCache* hpb = platform->hpb_host();
    const bool valve = hpb && hpb->policy().name() == std::string("hpbvalve");
    // Linux's ufshpb preallocates its pool; HPBvalve allocates as it caches and regulates.
    apps = std::make_unique<AppLaunchTracker>(config.host_memory, stream_name, hpb, !valve, valve);
    const DeviceFirmware& fw = platform->firmware();
    apps->set_map_probe([&fw](uint8_t tag) { return fw.latency_split().waited_for_map(tag); });
    platform->host.set_app_tracker(apps.get());
  }
  if (observe) {
    platform->enable_trace(trace_opts, names);
    stats.trace_power(platform->trace(), std::string(platform->name()) + ".energy");
  }

  RunController controller("controller", *platform, stats, precondition, measured, plan.runtime_ps, &deadline,
                            &measured_base, spo_ps);
  ProgressLine progress(o.force_progress ? ProgressLine::Mode::Always
                        : o.progress ? ProgressLine::Mode::Auto : ProgressLine::Mode::Never);
  if (progress.enabled()) {
    const sc_core::sc_time step(1, sc_core::SC_MS);
    while (!controller.finished && sc_core::sc_get_status() != sc_core::SC_STOPPED) {
      sc_core::sc_start(step);
      progress.update(sc_core::sc_time_stamp().to_seconds(), stats.completed(), plan.expected_requests);
      if (!sc_core::sc_pending_activity()) break;
    }
    progress.finish(sc_core::sc_time_stamp().to_seconds(), stats.completed(), plan.expected_requests);
  } else {
    sc_core::sc_start();
  }

  if (!workload_error.empty()) throw WorkloadError(workload_error);
  // Parameters and workloads are bounded so that this cannot happen; should it still, the
  // figures would be nonsense (64-bit picoseconds saturate), so the run fails instead.
  if (sc_core::sc_time_stamp().value() > kMaxSimulatedPs)
    throw std::runtime_error("simulated time passed 100 days (" + sc_core::sc_time_stamp().to_string() +
                             "): the configuration or workload is out of scale");
  if (!controller.finished)
    throw std::runtime_error("simulation stalled at " + sc_core::sc_time_stamp().to_string() + " with " +
                             std::to_string(platform->host.outstanding()) +
                             " commands outstanding; firmware state:\n" +
                             (platform->on_iss() ? std::string("(on the ISS: not readable from the host)")
                                                 : debug_state(platform->firmware())));

  const uint64_t end_ps = sc_core::sc_time_stamp().value();
  stats.finish_energy_series(*platform, end_ps);  // before the waves close: the power's last span
  for (const std::string& problem : platform->finish_trace())
    std::fprintf(stderr, "ufs-sim: warning: %s\n", problem.c_str());
  for (const auto* phase : {&precondition, &measured})
    for (const auto& s : *phase)
      if (const std::string w = s->warning(); !w.empty()) std::fprintf(stderr, "ufs-sim: warning: %s\n", w.c_str());

  // A trace names its streams (process names) as its lines are read: ask again now.
  if (!measured.empty()) {
    std::vector<std::string> final_names;
    for (uint32_t i = 0; i < 64; ++i) final_names.push_back(measured.front()->stream_name(i));
    stats.set_stream_names(std::move(final_names));
  }
  if (apps) apps->finish();
  RunResult result;
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result.stats = stats.to_json(*platform, end_ps, result.wall_seconds);
  if (apps) result.stats["apps"] = app_launch_json(*apps);
  result.peak_rss_kib = peak_rss_kib();
  result.stats["peak_rss_mib"] = double(result.peak_rss_kib) / 1024.0;
  result.stats["preset"] = o.preset;
  result.stats["workload"] = o.workload;
  result.mismatches = stats.scoreboard() ? stats.scoreboard()->mismatches() : 0;
  if (controller.power_cut_ps) {
    // Power comes back: a fresh firmware recovers from the NAND alone, then every LBA the
    // run touched is read back and checked against what was acknowledged as durable.
    PowerLossRecovery recovery(platform->fcc, config);
    const PowerLossReport rep = recovery.run(stats.scoreboard());
    result.stats["power_loss"] = {
        {"spo_at_ms", double(controller.power_cut_ps) * 1e-9},
        {"torn_pages", controller.torn_pages},
        {"recovery_ms", double(rep.recovery_ps) * 1e-9},
        {"recovery_page_reads", rep.recovery_page_reads},
        {"recovery_scan_reads", rep.scan_reads},
        {"recovery_replay_reads", rep.replay_reads},
        {"recovery_map_loads", rep.map_loads},
        {"recovery_check_reads", rep.check_reads},
        {"replayed_map_pages", rep.replayed_map_pages},
        {"gone_entries", rep.gone_entries},
        {"map_pages_without_entries", rep.no_entries},
        {"recovered_lbas", rep.recovered_lbas},
        {"checked_blocks", rep.checked_blocks},
        {"durable_blocks", rep.durable_blocks},
        {"lost", rep.lost},
        {"wrong", rep.wrong},
        {"first_problem", rep.first_problem}};
    if (rep.map_verified) {
      result.stats["power_loss"]["map_lookups"] = rep.map_lookups;
      result.stats["power_loss"]["map_lookup_mismatches"] = rep.map_lookup_mismatches;
      if (rep.map_lookup_mismatches) result.stats["power_loss"]["map_first_mismatch"] = rep.map_first_mismatch;
    }
    result.mismatches += rep.lost + rep.wrong;
    if (!o.quiet)
      std::printf("power loss at %.3f ms: %llu torn pages; recovery %.3f ms (%llu page reads, %llu LBAs); "
                  "checked %llu blocks (%llu durable): %llu lost, %llu wrong\n",
                  double(controller.power_cut_ps) * 1e-9, (unsigned long long)controller.torn_pages,
                  double(rep.recovery_ps) * 1e-9, (unsigned long long)rep.recovery_page_reads,
                  (unsigned long long)rep.recovered_lbas, (unsigned long long)rep.checked_blocks,
                  (unsigned long long)rep.durable_blocks, (unsigned long long)rep.lost, (unsigned long long)rep.wrong);
    if (!rep.first_problem.empty()) std::fprintf(stderr, "ufs-sim: after the power loss: %s\n", rep.first_problem.c_str());
  }
  if (!o.out_dir.empty()) {
    RunFolder folder(o.out_dir);
    folder.write_config(tree.effective_config_json());
    folder.write_stats(result.stats);
    for (int op = 0; op < 4; ++op) {
      const LatencyHistogram& h = stats.latency(BlockOp(op));
      static const char* names4[] = {"read", "write", "flush", "unmap"};
      if (!h.empty()) folder.write_latency_cdf(names4[op], h, 1e-6);
    }
    folder.write_time_series(stats.time_series(), end_ps - controller.measure_start_ps);
    folder.write_summary(result.stats);
  }
  return result;
}

}  // namespace ufs
