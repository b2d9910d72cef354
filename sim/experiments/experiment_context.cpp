#include "experiments/experiment_context.h"
#include <sys/wait.h>
#include <unistd.h>
#include <climits>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include "experiments/python_engine.h"

namespace ufs {

namespace {

// The engine's workers run the binary by its real path (/proc/self/exe means nothing there).
std::string real_program(const std::string& program) {
  char buf[PATH_MAX];
  return realpath(program.c_str(), buf) ? std::string(buf) : program;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

ExperimentContext::ExperimentContext(std::string program, std::string out_dir, EngineOptions engine)
    : program_(std::move(program)), out_dir_(std::move(out_dir)), engine_(std::move(engine)) {
  // Absolute: run folders and the traces a study writes there are named to the engine's
  // workers, whose working directory may be another.
  if (!out_dir_.empty() && out_dir_[0] != '/') {
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd)) out_dir_ = std::string(cwd) + "/" + out_dir_;
  }
}

void ExperimentContext::submit(const std::string& name, std::vector<std::string> args, Done done) {
  for (const auto& p : pending_)
    if (p.name == name) throw std::logic_error("experiment: run '" + name + "' submitted twice in one step");
  pending_.push_back({name, std::move(args), std::move(done)});
}

void ExperimentContext::submit(const std::string& name, std::vector<std::string> args, nlohmann::json& into) {
  submit(name, std::move(args), [&into](const nlohmann::json& s) { into = s; });
}

nlohmann::json ExperimentContext::run(const std::string& name, const std::vector<std::string>& args) {
  nlohmann::json stats;
  submit(name, args, [&stats](const nlohmann::json& s) { stats = s; });
  wait();
  return stats;
}

void ExperimentContext::wait() {
  std::vector<Pending> step;
  step.swap(pending_);
  if (step.empty()) return;
  ++steps_;
  // A step of one run gains nothing from the engine but its start-up time.
  if (uses_engine() && (step.size() > 1 || !engine_.scheduler.empty())) {
    run_on_engine(step);
    for (const auto& p : step) p.done(read_stats(p.name));
    return;
  }
  for (const auto& p : step) {
    run_here(p);
    p.done(read_stats(p.name));
  }
}

nlohmann::json ExperimentContext::read_stats(const std::string& name) const {
  const std::string path = out_dir_ + "/" + name + "/stats.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("experiment: run '" + name + "' left no " + path);
  return nlohmann::json::parse(in);
}

void ExperimentContext::run_here(const Pending& p) const {
  const std::string dir = out_dir_ + "/" + p.name;
  std::vector<std::string> argv_s = {program_, "run", "--quiet", "--out", dir};
  argv_s.insert(argv_s.end(), p.args.begin(), p.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fprintf(stderr, "  running %s ...\n", p.name.c_str());
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("experiment: cannot start a simulation process");
  if (pid == 0) {
    execv(program_.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("experiment: run '" + p.name + "' failed (see the message above)");
}

// The step as a batch file for `python -m ufs_tlm batch`; the engine writes each run's
// folder where a serial run would have put it and a result file naming failures.
void ExperimentContext::run_on_engine(const std::vector<Pending>& step) {
  const std::string dir = out_dir_ + "/engine";
  if (system(("mkdir -p '" + dir + "'").c_str()) != 0) throw std::runtime_error("cannot create " + dir);
  const std::string batch = dir + "/step" + std::to_string(steps_) + ".json";
  const std::string result = dir + "/step" + std::to_string(steps_) + "-result.json";
  nlohmann::json doc = {{"sim", real_program(program_)}, {"runs", nlohmann::json::array()}};
  for (const auto& p : step) doc["runs"].push_back({{"name", p.name}, {"out", out_dir_ + "/" + p.name}, {"args", p.args}});
  std::ofstream(batch) << doc.dump(1) << "\n";
  std::remove(result.c_str());

  std::vector<std::string> args = {"batch", batch, "--result", result};
  if (!engine_.scheduler.empty()) args.insert(args.end(), {"--scheduler", engine_.scheduler});
  else args.insert(args.end(), {"--jobs", std::to_string(engine_.jobs)});
  if (engine_.point_timeout_s > 0) args.insert(args.end(), {"--point-timeout", number(engine_.point_timeout_s)});
  std::fprintf(stderr, "  running %zu simulations on the engine (%s) ...\n", step.size(),
               engine_.scheduler.empty() ? (std::to_string(engine_.jobs) + " jobs").c_str() : engine_.scheduler.c_str());
  const int status = run_python_engine(args);

  std::ifstream in(result);
  if (!in)
    throw std::runtime_error("experiment: the engine (" + python_interpreter() + " -m ufs_tlm batch) stopped with status " +
                             std::to_string(status) + " before it finished the runs");
  const nlohmann::json outcome = nlohmann::json::parse(in);
  std::set<std::string> ok;
  for (const auto& r : outcome.at("runs")) {
    if (r.value("status", "") == "ok") {
      ok.insert(r.at("name").get<std::string>());
      continue;
    }
    throw std::runtime_error("experiment: run '" + r.at("name").get<std::string>() +
                             "' failed: " + r.value("error", std::string("no error given")));
  }
  for (const auto& p : step)
    if (!ok.count(p.name)) throw std::runtime_error("experiment: run '" + p.name + "' was not run (interrupted)");
}

}  // namespace ufs
