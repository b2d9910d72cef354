#include "experiments/python_engine.h"
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>

namespace ufs {

namespace {

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "ufs-sim";
  buf[n] = '\0';
  return buf;
}

// The package from the source tree first, then whatever the user had.
void set_engine_environment() {
  std::string path = std::string(UFS_SOURCE_DIR) + "/sim/python";
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += std::string(":") + old;
  setenv("PYTHONPATH", path.c_str(), 1);
  // Workers run the binary at this path: the same on every machine of a cluster (README).
  setenv("UFS_SIM", self_path().c_str(), 1);
}

std::vector<char*> argv_of(std::vector<std::string>& words) {
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

std::string python_interpreter() {
  if (const char* env = std::getenv("UFS_PYTHON"); env && *env) return env;
  return UFS_PYTHON;
}

bool python_engine_available() {
  static const bool available = [] {
    const pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
      const std::string py = python_interpreter();
      std::vector<std::string> words = {py, "-c", "import tomllib, distributed"};
      auto argv = argv_of(words);
      if (freopen("/dev/null", "w", stderr) == nullptr) _exit(127);
      execvp(py.c_str(), argv.data());
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }();
  return available;
}

void exec_python_engine(const std::vector<std::string>& args) {
  set_engine_environment();
  std::vector<std::string> words = {python_interpreter(), "-m", "ufs_tlm"};
  words.insert(words.end(), args.begin(), args.end());
  auto argv = argv_of(words);
  execvp(words[0].c_str(), argv.data());
}

int run_python_engine(const std::vector<std::string>& args) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    // If this program dies (killed, or a terminal's Ctrl-C), the engine stops its points.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);
    exec_python_engine(args);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

}  // namespace ufs
