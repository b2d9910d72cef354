// One simulation run from options to a run folder: configuration, platform,
// precondition (functional fill and/or a precondition workload), the measured
// workload, statistics. SystemC elaborates once per process, so a process runs
// one simulation; studies that compare runs start one process per run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace ufs {

constexpr uint64_t kFillWholeDevice = ~0ull;

struct RunOptions {
  std::string preset = "ufs31";
  std::vector<std::string> sets;          // --set key=value
  std::string workload;                   // synthetic spec or trace:FORMAT:PATH[,opts]
  std::string precondition_workload;      // played before the measured workload (not measured)
  uint64_t precondition_fill_bytes = 0;   // functional fill of LBA [0, bytes) before the run (kFillWholeDevice: all)
  bool check_data = true;                 // scoreboard on
  std::string out_dir;                    // empty: no run folder
  bool progress = true;                   // progress line on a terminal
  bool force_progress = false;            // progress line even when stderr is no terminal
  bool quiet = false;                     // no summary on stdout
  // Observability (off when empty). Relative file names go inside out_dir when it is given.
  std::string waves;                      // --waves FILE.vcd | FILE.fst
  std::string timeline;                   // --timeline FILE.json (Chrome / Perfetto trace events)
  std::string waves_window;               // --waves-window FROM:TO, e.g. 0:20ms (waves and timeline)
};

struct RunResult {
  nlohmann::json stats;
  uint64_t mismatches = 0;
  double wall_seconds = 0;
  uint64_t peak_rss_kib = 0;
};

// Throws ConfigError / WorkloadError (exit status 2 in the program) on bad input.
RunResult run_simulation(const RunOptions& options);

// Peak resident set size of this process so far.
uint64_t peak_rss_kib();

}  // namespace ufs
