// How a study runs its simulations (one `ufs-sim run` process each: SystemC elaborates
// once per process). A study declares the independent runs of one step with submit() and
// collects them with wait(): with one job they run one after another; with more (or a
// Dask scheduler) the whole step goes to the Python front end's engine (sim/python/ufs_tlm,
// the same one `ufs-sim sweep` uses) and runs in parallel. Either way each run's `done`
// callback gets its stats.json after the step, in submission order, so a study computes
// and prints exactly the same rows as serially. A step that needs the results of an
// earlier one (a size measured first) is a second submit()/wait() round, or run().
#pragma once
#include <functional>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace ufs {

struct EngineOptions {
  unsigned jobs = 1;        // simulations at once on this machine (1: one after another, no engine)
  std::string scheduler;    // tcp://HOST:PORT of a running Dask scheduler: its workers run them
  double point_timeout_s = 0;  // a run taking longer fails (0: no limit)
};

class ExperimentContext {
 public:
  using Done = std::function<void(const nlohmann::json& stats)>;

  ExperimentContext(std::string program, std::string out_dir, EngineOptions engine = {});

  // Declares `ufs-sim run ARGS` into out_dir/<name>; `done` gets its stats.json at wait().
  // Runs submitted before one wait() must not depend on each other.
  void submit(const std::string& name, std::vector<std::string> args, Done done);
  // The same, storing the stats.json into `into` (which must outlive wait()).
  void submit(const std::string& name, std::vector<std::string> args, nlohmann::json& into);
  // Runs every submitted run, then calls their callbacks in submission order. A failed run
  // throws, naming it and carrying the simulator's error.
  void wait();
  // One run now (submit + wait): for a step that depends on an earlier result.
  nlohmann::json run(const std::string& name, const std::vector<std::string>& args);

  const std::string& out_dir() const { return out_dir_; }
  bool uses_engine() const { return engine_.jobs > 1 || !engine_.scheduler.empty(); }
  size_t pending() const { return pending_.size(); }

 private:
  struct Pending {
    std::string name;
    std::vector<std::string> args;
    Done done;
  };
  nlohmann::json read_stats(const std::string& name) const;
  void run_here(const Pending& p) const;
  void run_on_engine(const std::vector<Pending>& step);

  std::string program_;
  std::string out_dir_;
  EngineOptions engine_;
  std::vector<Pending> pending_;
  int steps_ = 0;
};

}  // namespace ufs
