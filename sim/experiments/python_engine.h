// The Python front end (sim/python/ufs_tlm) seen from the C++ program: `ufs-sim sweep`
// hands its arguments to it, and studies run their simulations on its Dask engine
// (`ufs-sim experiment NAME --jobs N`). The package is used from the source tree (no
// install step); the interpreter is $UFS_PYTHON, else the one CMake found with
// dask.distributed and tomllib (Debian's /usr/bin/python3 with python3-distributed).
#pragma once
#include <string>
#include <vector>

namespace ufs {

// The interpreter the engine runs on.
std::string python_interpreter();

// True when that interpreter imports dask.distributed (checked once, in a child process).
bool python_engine_available();

// Replaces this process with `python -m ufs_tlm ARGS...` (PYTHONPATH gets the package,
// UFS_SIM this program), so Ctrl-C and the exit status are the Python program's own.
// Returns only when the exec fails (with errno set).
void exec_python_engine(const std::vector<std::string>& args);

// Runs `python -m ufs_tlm ARGS...` as a child and waits: its exit status, 128+signal
// when it was killed. The child dies with this process (no orphaned engine).
int run_python_engine(const std::vector<std::string>& args);

}  // namespace ufs
