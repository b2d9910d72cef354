// Studies that reproduce published figures. Each study runs one or more
// simulations (one `ufs-sim run` process each: SystemC elaborates once per
// process), then prints the published figure beside the model's with the
// relative difference, and writes an experiment CSV (study,metric,x,published,model,
// unit) that sim/plot.py turns into a plot.
#pragma once
#include <functional>
#include <limits>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace ufs {

// Published value of a row the paper gives no figure for: printed as "-", empty in the CSV.
constexpr double kModelOnly = std::numeric_limits<double>::quiet_NaN();

struct ExperimentRow {
  std::string metric;
  std::string x;
  double published = 0;
  double model = 0;
  std::string unit;
  double tolerance = 0;  // relative band the project accepts (0 = shape only)
};

class ExperimentContext {
 public:
  ExperimentContext(std::string program, std::string out_dir) : program_(std::move(program)), out_dir_(std::move(out_dir)) {}
  // Runs `ufs-sim run` with these arguments into out_dir/<name>; returns its stats.json.
  nlohmann::json run(const std::string& name, const std::vector<std::string>& args) const;
  const std::string& out_dir() const { return out_dir_; }

 private:
  std::string program_;
  std::string out_dir_;
};

struct Experiment {
  std::string name;
  std::string source;   // the publication the figures come from
  std::string summary;
  std::function<std::vector<ExperimentRow>(const ExperimentContext&)> run;
};

const std::vector<Experiment>& experiments();

// A run's per-op figure: stats.json ops.<op>.<key> (e.g. "read", "mb_per_s").
double op_value(const nlohmann::json& stats, const char* op, const char* key);

// shared/ (traces, references) lives beside the repository; UFS_SHARED_DIR overrides.
std::string shared_dir();

// A phone trace of shared/traces (MobileBlockIOTraces: APP_precond.csv.gz, the install-time
// writes, and APP_exec.csv.gz, the app run) as `ufs-sim run` arguments: the install phase
// as precondition (gaps cut to 1 ms: it only places data and map pages), the run as the
// measured workload (gaps cut to 10 ms). Empty, with a note on stderr, when they are missing.
std::vector<std::string> phone_trace_args(const std::string& app);

// Runs one study: prints the table, writes <out>/<name>.csv and (when Python with
// matplotlib is there) the plot. Returns 0 when every row with a tolerance is inside it.
int run_experiment(const std::string& name, const std::string& program, const std::string& out_dir);

}  // namespace ufs
