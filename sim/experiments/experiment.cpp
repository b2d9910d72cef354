#include "experiments/experiment.h"
#include <sys/wait.h>
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include "config/config_error.h"

namespace ufs {

std::vector<Experiment> make_datasheet_experiments();
std::vector<Experiment> make_atc08_experiments();
std::vector<Experiment> make_iiswc15_experiments();
std::vector<Experiment> make_ftl_experiments();
std::vector<Experiment> make_writebooster_experiments();
std::vector<Experiment> make_hpb_experiments();
std::vector<Experiment> make_energy_experiments();
std::vector<Experiment> make_firmware_cost_experiments();

const std::vector<Experiment>& experiments() {
  static const std::vector<Experiment> all = [] {
    std::vector<Experiment> v;
    for (auto& e : make_datasheet_experiments()) v.push_back(std::move(e));
    for (auto& e : make_atc08_experiments()) v.push_back(std::move(e));
    for (auto& e : make_iiswc15_experiments()) v.push_back(std::move(e));
    for (auto& e : make_ftl_experiments()) v.push_back(std::move(e));
    for (auto& e : make_writebooster_experiments()) v.push_back(std::move(e));
    for (auto& e : make_hpb_experiments()) v.push_back(std::move(e));
    for (auto& e : make_energy_experiments()) v.push_back(std::move(e));
    for (auto& e : make_firmware_cost_experiments()) v.push_back(std::move(e));
    return v;
  }();
  return all;
}

std::vector<std::string> trace_dirs() {
  if (const char* env = std::getenv("UFS_TRACE_DIR"); env && *env) return {env};
  std::string cache;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) cache = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) cache = std::string(home) + "/.cache";
  std::vector<std::string> dirs;
  if (!cache.empty()) dirs.push_back(cache + "/ufs-tlm/traces");
  dirs.push_back(shared_dir() + "/traces");
  return dirs;
}

std::vector<std::string> require_traces(const std::vector<std::string>& names) {
  const std::vector<std::string> dirs = trace_dirs();
  std::vector<std::string> paths, missing;
  for (const auto& name : names) {
    std::string found;
    for (const auto& d : dirs)
      if (found.empty() && access((d + "/" + name).c_str(), R_OK) == 0) found = d + "/" + name;
    if (found.empty()) missing.push_back(name);
    paths.push_back(found);
  }
  if (missing.empty()) return paths;
  std::string files, where;
  for (const auto& m : missing) files += " " + m;
  for (const auto& d : dirs) where += (where.empty() ? "" : ", ") + d;
  throw MissingInput("missing trace file(s)" + files + " (looked in " + where +
                     "); fetch them (SHA-256 checked) with: python3 " + UFS_SOURCE_DIR + "/sim/get_traces.py" + files +
                     " (add --from DIR to copy local files)");
}

std::vector<std::string> phone_trace_files(const std::vector<std::string>& apps) {
  std::vector<std::string> names;
  for (const auto& app : apps) names.insert(names.end(), {app + "_precond.csv.gz", app + "_exec.csv.gz"});
  return names;
}

std::vector<std::string> phone_trace_args(const std::string& app) {
  const std::vector<std::string> paths = require_traces(phone_trace_files({app}));
  return {"--precondition", "trace:mobile:" + paths[0] + ",idle_compress=1ms", "--workload",
          "trace:mobile:" + paths[1] + ",idle_compress=10ms"};
}

double op_value(const nlohmann::json& stats, const char* op, const char* key) {
  return stats.at("ops").at(op).at(key).get<double>();
}

std::string shared_dir() {
  if (const char* env = std::getenv("UFS_SHARED_DIR"); env && *env) return env;
  return std::string(UFS_SOURCE_DIR) + "/../shared";
}

int run_experiment(const std::string& name, const std::string& program, const std::string& out_dir,
                   const EngineOptions& engine) {
  const Experiment* e = nullptr;
  for (const auto& x : experiments())
    if (x.name == name) e = &x;
  if (!e) {
    std::string known;
    for (const auto& x : experiments()) known += (known.empty() ? "" : ", ") + x.name;
    throw ConfigError("unknown experiment '" + name + "' (known: " + known + ")");
  }
  const std::string dir = out_dir.empty() ? "runs/" + name : out_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw ConfigError("--out: cannot create " + dir + " (" + ec.message() + ")");
  std::printf("%s\n  source: %s\n  %s\n\n", e->name.c_str(), e->source.c_str(), e->summary.c_str());
  std::vector<ExperimentRow> rows;
  try {
    ExperimentContext ctx(program, dir, engine);
    rows = e->run(ctx);
    if (ctx.pending()) throw std::logic_error("experiment " + name + ": runs submitted and never waited for");
  } catch (const MissingInput& m) {
    throw MissingInput("experiment " + name + ": " + m.what());
  }

  std::printf("%-28s %-14s %12s %12s %9s  %s\n", "metric", "x", "published", "model", "diff", "verdict");
  int failures = 0;
  for (const auto& r : rows) {
    if (std::isnan(r.published)) {  // no published figure: the model's value alone
      std::printf("%-28s %-14s %12s %12.1f %9s  %s\n", (r.metric + " (" + r.unit + ")").c_str(), r.x.c_str(), "-",
                  r.model, "-", "model");
      continue;
    }
    const double diff = r.published != 0 ? (r.model - r.published) / r.published : 0.0;
    std::string verdict = "shape";
    if (r.tolerance > 0) {
      const bool ok = std::fabs(diff) <= r.tolerance;
      verdict = (ok ? "within " : "OUTSIDE ") + std::to_string(int(std::lround(r.tolerance * 100))) + "%";
      if (!ok) ++failures;
    }
    std::printf("%-28s %-14s %12.1f %12.1f %+8.1f%%  %s\n", (r.metric + " (" + r.unit + ")").c_str(), r.x.c_str(),
                r.published, r.model, diff * 100, verdict.c_str());
  }
  std::ofstream csv(dir + "/" + name + ".csv");
  write_study_csv(csv, name, rows, e->panels, e->x_label);
  csv.close();
  if (!csv) throw std::runtime_error("cannot write " + dir + "/" + name + ".csv");
  std::printf("\ntable: %s/%s.csv\n", dir.c_str(), name.c_str());
  const std::string plot = std::string(UFS_SOURCE_DIR) + "/sim/plot.py";
  // The plot is optional (matplotlib may not be installed): say why when there is none.
  if (FILE* p = popen(("python3 '" + plot + "' --experiment '" + dir + "/" + name + ".csv' 2>&1 >/dev/null").c_str(), "r")) {
    std::string why;
    char line[1024];
    while (std::fgets(line, sizeof line, p))
      if (why.empty()) why = line;
    if (pclose(p) == 0) std::printf("plot:  %s/%s.png\n", dir.c_str(), name.c_str());
    else std::printf("plot:  none (%s)\n", why.empty() ? "plot.py failed" : why.substr(0, why.find('\n')).c_str());
  }
  if (failures)
    std::printf("\n%d row(s) OUTSIDE their tolerance: exit status 1%s\n", failures,
                e->outside_tolerance.empty() ? "" : (" (known: " + e->outside_tolerance + ")").c_str());
  return failures ? 1 : 0;
}

}  // namespace ufs
