// Studies that reproduce published figures. Each study runs one or more
// simulations (one `ufs-sim run` process each: SystemC elaborates once per
// process), then prints the published figure beside the model's with the
// relative difference, and writes an experiment CSV (study,metric,x,published,model,
// unit, ...: output/study_table.h) that sim/plot.py turns into a plot.
#pragma once
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "experiments/experiment_context.h"
#include "output/study_table.h"

namespace ufs {

struct Experiment {
  std::string name;
  std::string source;   // the publication the figures come from
  std::string summary;
  std::function<std::vector<ExperimentRow>(ExperimentContext&)> run;
  // The plot (sim/plot.py): the x axis's name for metrics in no panel, and the panels that
  // put compared series (HPB on vs off) in one.
  std::string x_label = {};
  std::vector<PlotPanel> panels = {};
  // Rows the model is known to miss: the study then exits 1 (printed by --list; README).
  std::string outside_tolerance = {};
};

const std::vector<Experiment>& experiments();

// A run's per-op figure: stats.json ops.<op>.<key> (e.g. "read", "mb_per_s").
double op_value(const nlohmann::json& stats, const char* op, const char* key);

// shared/ (traces, references) lives beside the repository; UFS_SHARED_DIR overrides.
std::string shared_dir();

// Folders holding the studies' trace files (sim/traces.sha256 names them): $UFS_TRACE_DIR
// alone when set; else the cache sim/get_traces.py fills ($XDG_CACHE_HOME, or ~/.cache,
// then /ufs-tlm/traces), then shared_dir()/traces (the development machine's copies).
std::vector<std::string> trace_dirs();

// A study's inputs are missing: the message names every missing file and the command
// that fetches them (ufs-sim prints it and exits with status 2).
class MissingInput : public std::runtime_error {
 public:
  explicit MissingInput(const std::string& what) : std::runtime_error(what) {}
};

// The paths of these trace files, in the order given; throws MissingInput naming all the
// missing ones. Studies call it before their first run, so nothing half-runs.
std::vector<std::string> require_traces(const std::vector<std::string>& names);

// A phone trace (MobileBlockIOTraces: APP_precond.csv.gz, the install-time writes, and
// APP_exec.csv.gz, the app run) as `ufs-sim run` arguments: the install phase as
// precondition (gaps cut to 1 ms: it only places data and map pages), the run as the
// measured workload (gaps cut to 10 ms). Throws MissingInput when a file is missing.
std::vector<std::string> phone_trace_args(const std::string& app);
// The file names of these apps' phone traces (both phases), for require_traces.
std::vector<std::string> phone_trace_files(const std::vector<std::string>& apps);

// Runs one study: prints the table, writes <out>/<name>.csv and (when Python with
// matplotlib is there) the plot. Returns 0 when every row with a tolerance is inside it.
// `engine` says where its simulations run (experiment_context.h).
int run_experiment(const std::string& name, const std::string& program, const std::string& out_dir,
                   const EngineOptions& engine = {});

}  // namespace ufs
