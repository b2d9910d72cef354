// ufs-sim: the simulator's command line.
//   ufs-sim run --preset NAME --workload SPEC --out DIR [--set key=value ...]
//               [--waves waves.vcd|.fst] [--timeline timeline.json] [--waves-window FROM:TO]
//   ufs-sim bench            simulator speed on the ufs31 4 KiB random-read benchmark
//   ufs-sim params [--preset NAME] [--json]   every parameter: key, type, unit, value, meaning
//   ufs-sim sweep SPEC --out DIR     a design-space sweep on Dask (sim/python/ufs_tlm; --help there)
//   ufs-sim presets          the presets shipped in sim/presets
//   ufs-sim trace-stats SPEC statistics of a trace (or of a smartphone: generated stream)
// Bad input (config, workload, trace line, option) ends with a one-line error and exit status 2.
#include <CLI/CLI.hpp>
#include <systemc>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <iostream>
#include <thread>
#include "config/config_tree.h"
#include "experiments/experiment.h"
#include "experiments/python_engine.h"
#include "output/run_folder.h"
#include "platform/platform_config.h"
#include "platform/simulation.h"
#include "workload/spec_values.h"
#include "workload/trace_stats.h"
#include "workload/workload_error.h"

using namespace ufs;

// The kernel prints its banner at the first elaboration unless this is set; a static
// initialiser in the program runs before that.
static const int quiet_systemc_banner = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

namespace {

// Messages quote what the user gave (trace bytes, keys, file names): control characters
// and escape sequences are shown as \xNN so they cannot reach the terminal, and the line
// stays one line of bounded length.
std::string printable(const std::string& text) {
  constexpr size_t kMaxShown = 1000;
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
    if (out.size() >= kMaxShown) {
      out += "...";
      break;
    }
  }
  return out;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "ufs-sim: error: %s\n", printable(message).c_str());
  return 2;
}

// The few lines a user reads first; stats.json and summary.txt have the rest.
void print_summary(const RunResult& r, const std::string& out_dir) {
  const auto& s = r.stats;
  std::printf("%s: %s\n", s.value("preset", std::string()).c_str(), s.value("workload", std::string()).c_str());
  for (const auto& [op, o] : s["ops"].items())
    std::printf("  %-6s %9llu req  %9.0f IOPS  %8.1f MB/s  latency us: mean %.1f  p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f\n",
                op.c_str(), static_cast<unsigned long long>(o.value("count", 0ull)), o.value("iops", 0.0),
                o.value("mb_per_s", 0.0), o.value("mean", 0.0), o.value("p50", 0.0), o.value("p99", 0.0),
                o.value("p99_9", 0.0), o.value("max", 0.0));
  const auto& u = s["utilisation"];
  auto mean = [](const nlohmann::json& a) {
    double t = 0;
    for (const auto& v : a) t += v.get<double>();
    return a.empty() ? 0.0 : t / double(a.size());
  };
  std::printf("  busy: dies %.0f%%  channels %.0f%%  link h2d %.0f%% d2h %.0f%%  firmware core %.0f%%\n",
              100 * mean(u["die_busy"]), 100 * mean(u["channel_busy"]), 100 * u.value("link_host_to_device", 0.0),
              100 * u.value("link_device_to_host", 0.0), 100 * u.value("cpu_busy", 0.0));
  const auto& f = s["ftl"];
  const auto& waf = f["write_amplification"];  // null when the measured phase wrote nothing
  char waf_text[32] = "none (no writes)";
  if (waf.is_number()) std::snprintf(waf_text, sizeof waf_text, "%.2f", waf.get<double>());
  std::printf("  FTL: write amplification %s, GC victims %llu, erases %llu, check conditions %llu\n",
              waf_text, static_cast<unsigned long long>(f.value("gc_victims", 0ull)),
              static_cast<unsigned long long>(f.value("erases", 0ull)),
              static_cast<unsigned long long>(f.value("check_conditions", 0ull)));
  if (f.value("write_protected", false))
    std::printf("  device: out of spare blocks (grown bad blocks), read-only since; %llu writes, UNMAPs and "
                "syncs refused with DATA PROTECT / WRITE PROTECTED\n",
                static_cast<unsigned long long>(f.value("write_protect_rejects", 0ull)));
  if (s.contains("scoreboard"))
    std::printf("  data integrity: %llu blocks checked, %llu mismatches\n",
                static_cast<unsigned long long>(s["scoreboard"].value("checked_blocks", 0ull)),
                static_cast<unsigned long long>(s["scoreboard"].value("mismatches", 0ull)));
  std::printf("  simulated %.3f s in %.2f s wall clock (%.0f simulated I/Os per second), peak memory %.0f MiB\n",
              s.value("simulated_seconds", 0.0), r.wall_seconds, s.value("simulated_ios_per_wall_second", 0.0),
              s.value("peak_rss_mib", 0.0));
  if (!out_dir.empty()) std::printf("  run folder: %s (python3 sim/plot.py %s)\n", out_dir.c_str(), out_dir.c_str());
}

int run_command(RunOptions o, const std::string& fill, bool fill_given) {
  if (fill_given) {
    o.precondition_fill_bytes = parse_size("--precondition-fill", fill);
    // The fill writes whole 4 KiB logical blocks: a size that is not one would be rounded silently.
    if (o.precondition_fill_bytes == 0 || o.precondition_fill_bytes % kSectorBytes != 0)
      throw ConfigError("--precondition-fill: '" + fill + "' is not a positive multiple of 4 KiB");
  }
  const RunResult r = run_simulation(o);
  if (!o.quiet) print_summary(r, o.out_dir);
  if (r.mismatches) {
    std::fprintf(stderr, "ufs-sim: data integrity: %llu mismatches (first: %s)\n",
                 static_cast<unsigned long long>(r.mismatches),
                 r.stats["scoreboard"].value("first_mismatch", std::string()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  // `sweep` belongs to the Python front end: everything after the word is its own command line.
  if (argc > 1 && std::string(argv[1]) == "sweep") {
    exec_python_engine(std::vector<std::string>(argv + 1, argv + argc));
    return fail("sweep: cannot start " + python_interpreter() + " (set UFS_PYTHON to a Python 3 with dask.distributed)");
  }
  CLI::App app{"ufs-sim: a SystemC/TLM-2.0 model of a UFS device and its host"};
  app.require_subcommand(1);

  RunOptions run;
  std::string fill;
  auto* run_cmd = app.add_subcommand("run", "simulate a workload on a preset");
  run_cmd->add_option("--preset", run.preset, "preset name (sim/presets) or JSON file")->capture_default_str();
  run_cmd->add_option("--workload", run.workload, "synthetic spec (rw=randread,bs=4k,...), trace:FORMAT:PATH or smartphone:APP")
      ->required();
  run_cmd->add_option("--out", run.out_dir, "run folder for stats.json, CSVs, config.json");
  run_cmd->add_option("--set", run.sets, "override a parameter: key=value (repeatable)");
  run_cmd->add_option("--precondition-fill", fill, "functionally write LBA [0, SIZE) before the run (e.g. 8g)");
  run_cmd->add_option("--precondition", run.precondition_workload, "workload played before the measured one");
  bool no_check = false;
  run_cmd->add_flag("--no-check", no_check, "turn the data-integrity scoreboard off");
  run_cmd->add_flag("--quiet", run.quiet, "no summary on stdout");
  run_cmd->add_flag("--progress", run.force_progress, "progress line on stderr even when it is no terminal");
  run_cmd->add_option("--waves", run.waves,
                      "device-level waves: FILE.vcd or FILE.fst (dies, channels, link, queues, L2P counters, device power); "
                      "relative names go in --out");
  run_cmd->add_option("--timeline", run.timeline,
                      "transaction timeline FILE.json (Chrome trace events: open in ui.perfetto.dev); "
                      "relative names go in --out");
  run_cmd->add_option("--waves-window", run.waves_window,
                      "record only simulated time FROM:TO (e.g. 0:20ms; bare numbers are us) in waves and timeline");
  std::string rtl_waves;
  run_cmd->add_option("--rtl-waves", rtl_waves,
                      "VCD of the crypto unit's internal signals (crypto.model=rtl; window: crypto.waves_from_us/_to_us)");

  int64_t bench_ios = 500000;  // signed, so that -1 is refused instead of wrapping to 2^64 - 1
  std::string bench_preset = "ufs31";
  std::vector<std::string> bench_sets;
  auto* bench_cmd = app.add_subcommand("bench", "simulator speed: 4 KiB random reads at QD32 over 8 GiB written beforehand");
  bench_cmd->add_option("--ios", bench_ios, "reads to simulate")->capture_default_str();
  bench_cmd->add_option("--preset", bench_preset, "preset")->capture_default_str();
  bench_cmd->add_option("--set", bench_sets, "override a parameter: key=value (repeatable)");
  std::string bench_out;
  bench_cmd->add_option("--out", bench_out, "run folder for stats.json, CSVs, config.json (to compare runs)");
  bool bench_write = false;
  bench_cmd->add_flag("--write", bench_write,
                      "4 KiB random writes at QD32 in steady state with GC instead (default: test-small with 128 "
                      "blocks per plane, filled whole, then overwritten at random as long as measured)");

  std::string params_preset = "ufs31";
  std::vector<std::string> params_sets;
  auto* params_cmd = app.add_subcommand("params", "list every parameter with its unit, value and meaning");
  params_cmd->add_option("--preset", params_preset, "preset")->capture_default_str();
  params_cmd->add_option("--set", params_sets, "override a parameter: key=value (repeatable)");
  bool params_json = false;
  params_cmd->add_flag("--json", params_json,
                       "as a JSON array of {key, type, unit, value, default, meaning, origin} (the Python front end's input)");

  auto* presets_cmd = app.add_subcommand("presets", "list the presets");
  // Listed for --help only: handled above, before parsing.
  app.add_subcommand("sweep", "a design-space sweep on Dask: ufs-sim sweep SPEC.toml --out DIR [--jobs N] "
                              "[--scheduler tcp://HOST:PORT] (ufs-sim sweep --help)");

  std::string experiment_name, experiment_out;
  bool experiment_list = false;
  auto* experiment_cmd = app.add_subcommand("experiment", "run a study: published figures beside the model's");
  experiment_cmd->add_option("name", experiment_name, "study name (see --list)");
  experiment_cmd->add_option("--out", experiment_out, "folder for the runs, CSV and plot (default runs/NAME)");
  experiment_cmd->add_flag("--list", experiment_list, "name every study with its source");
  EngineOptions engine;
  experiment_cmd->add_option("--jobs", engine.jobs,
                             "simulations at once on the Dask engine (default: one per core; 1: one after another, "
                             "no engine)")->check(CLI::PositiveNumber);
  experiment_cmd->add_option("--scheduler", engine.scheduler,
                             "run the simulations on this Dask scheduler's workers (tcp://HOST:PORT)");
  experiment_cmd->add_option("--point-timeout", engine.point_timeout_s, "seconds a simulation may take on the engine")
      ->check(CLI::PositiveNumber);

  std::string trace_spec;
  auto* stats_cmd = app.add_subcommand("trace-stats", "statistics of a trace or generated stream (mix, sizes, footprint, locality)");
  stats_cmd->add_option("spec", trace_spec, "trace:FORMAT:PATH[,options] or smartphone:APP[,options]")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Name the command the error is about: "spec is required" alone does not say whose.
    const std::string first = argc > 1 ? argv[1] : "";
    bool known = false;
    std::string commands;
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      known = known || sub->get_name() == first;
      commands += (commands.empty() ? "" : ", ") + sub->get_name();
    }
    if (!first.empty() && first[0] != '-' && !known)
      return fail("unknown command '" + first + "' (" + commands + ")");
    return fail((known ? first + ": " : std::string()) + e.what() + " (ufs-sim " + (known ? first + " " : "") +
                "--help)");
  }

  try {
    if (*bench_cmd && bench_cmd->count("--ios") && (bench_ios < 1 || bench_ios > 1000000000))
      return fail("--ios: " + std::to_string(bench_ios) + " is out of range (1..1000000000)");
    if (*run_cmd) {
      if (run_cmd->count("--precondition") && run.precondition_workload.empty())
        return fail("--precondition: empty workload spec");
      run.check_data = !no_check;
      if (!rtl_waves.empty()) run.sets.push_back("crypto.waves_file=" + rtl_waves);
      return run_command(run, fill, run_cmd->count("--precondition-fill") > 0);
    }
    if (*bench_cmd && bench_write) {
      RunOptions o;
      // Default: ufs31 timing on a 1.2 GiB device (test-small with 128 blocks per plane, 20%
      // spare): small enough to fill and overwrite, dies large enough that GC's per-die free
      // block thresholds do not eat the spare.
      o.preset = bench_cmd->count("--preset") ? bench_preset : "test-small";
      if (!bench_cmd->count("--preset")) o.sets.push_back("nand.blocks_per_plane=128");
      o.sets.insert(o.sets.end(), bench_sets.begin(), bench_sets.end());
      const uint64_t ios = bench_cmd->count("--ios") ? bench_ios : 400000;
      o.precondition_fill_bytes = kFillWholeDevice;
      o.precondition_workload = "rw=randwrite,bs=4k,iodepth=32,numjobs=1,seed=7,count=" + std::to_string(ios);
      o.workload = "rw=randwrite,bs=4k,iodepth=32,numjobs=1,seed=8,count=" + std::to_string(ios);
      o.check_data = false;
      o.quiet = true;
      o.out_dir = bench_out;
      const RunResult r = run_simulation(o);
      const auto& f = r.stats["ftl"];
      std::printf("benchmark: %llu x 4 KiB random write, QD32, steady state (device filled, then %llu random writes), "
                  "preset %s\n", static_cast<unsigned long long>(ios), static_cast<unsigned long long>(ios),
                  o.preset.c_str());
      std::printf("  simulated: %.1f ms, %.0f IOPS, write amplification %.2f, %llu GC victims\n",
                  r.stats["simulated_seconds"].get<double>() * 1e3, r.stats["iops"].get<double>(),
                  f["write_amplification"].get<double>(), static_cast<unsigned long long>(f["gc_victims"].get<uint64_t>()));
      std::printf("  wall clock: %.2f s (including elaboration, fill and the precondition writes)\n", r.wall_seconds);
      std::printf("  speed: %.0f simulated I/Os per wall-clock second\n", double(2 * ios) / r.wall_seconds);
      std::printf("  peak memory: %.1f MiB\n", double(r.peak_rss_kib) / 1024.0);
      return 0;
    }
    if (*bench_cmd) {
      RunOptions o;
      o.preset = bench_preset;
      o.sets = bench_sets;
      o.workload = "rw=randread,bs=4k,iodepth=32,numjobs=1,size=8g,count=" + std::to_string(bench_ios);
      o.precondition_fill_bytes = 8ull << 30;
      o.check_data = false;
      o.quiet = true;
      o.out_dir = bench_out;
      const RunResult r = run_simulation(o);
      std::printf("benchmark: %llu x 4 KiB random read, QD32, 8 GiB preconditioned range, preset %s\n",
                  static_cast<unsigned long long>(bench_ios), bench_preset.c_str());
      std::printf("  simulated: %.1f ms, %.0f IOPS\n", r.stats["simulated_seconds"].get<double>() * 1e3,
                  r.stats["iops"].get<double>());
      std::printf("  wall clock: %.2f s (including elaboration and precondition)\n", r.wall_seconds);
      std::printf("  speed: %.0f simulated I/Os per wall-clock second\n", double(bench_ios) / r.wall_seconds);
      std::printf("  peak memory: %.1f MiB\n", double(r.peak_rss_kib) / 1024.0);
      return 0;
    }
    if (*params_cmd) {
      ConfigTree tree;
      tree.load(params_preset);
      for (const auto& s : params_sets) tree.set_assignment(s);
      PlatformConfig config;
      config.bind(tree);
      tree.check_unknown_keys();
      if (!params_json) {
        std::cout << tree.describe_parameters();
        return 0;
      }
      nlohmann::json table = nlohmann::json::array();
      for (const auto& p : tree.parameters())
        table.push_back({{"key", p.key}, {"type", p.type}, {"unit", p.unit}, {"value", p.value},
                         {"default", p.default_value}, {"meaning", p.meaning}, {"origin", p.origin}});
      std::cout << table.dump(1) << "\n";
      return 0;
    }
    if (*presets_cmd) {
      ConfigTree tree;
      for (const auto& p : tree.list_presets()) std::cout << p << "\n";
      return 0;
    }
    if (*experiment_cmd) {
      if (experiment_list || experiment_name.empty()) {
        for (const auto& e : experiments()) {
          std::printf("%-22s %s\n%-22s   source: %s\n", e.name.c_str(), e.summary.c_str(), "", e.source.c_str());
          // A study whose rows the model is known to miss exits 1: say so before it runs.
          if (!e.outside_tolerance.empty())
            std::printf("%-22s   exits 1: outside tolerance: %s\n", "", e.outside_tolerance.c_str());
        }
        return experiment_list ? 0 : fail("experiment: name a study (ufs-sim experiment --list)");
      }
      if (!experiment_cmd->count("--jobs")) engine.jobs = std::max(1u, std::thread::hardware_concurrency());
      if (engine.jobs > 1 || !engine.scheduler.empty()) {
        if (!python_engine_available()) {
          if (experiment_cmd->count("--jobs") || !engine.scheduler.empty())
            return fail("experiment: " + python_interpreter() + " cannot import dask.distributed (apt-get install "
                        "python3-distributed, or set UFS_PYTHON)");
          std::fprintf(stderr, "note: %s has no dask.distributed: the simulations run one after another\n",
                       python_interpreter().c_str());
          engine.jobs = 1;
        }
      }
      return run_experiment(experiment_name, "/proc/self/exe", experiment_out, engine);
    }
    if (*stats_cmd) {
      std::cout << format_trace_stats(compute_trace_stats(trace_spec));
      return 0;
    }
  } catch (const ConfigError& e) {
    return fail(e.what());
  } catch (const WorkloadError& e) {
    return fail(e.what());
  } catch (const RunFolderError& e) {
    return fail(e.what());
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  return 0;
}
