#!/usr/bin/env bash
# cmake/build.sh BUILD_DIR JOBS [TARGET...]: cmake --build with one short line per step:
# ninja's status lines without CMake's CMakeFiles/<target>.dir/ paths and cut at 100
# columns (Verilator's generation steps list every output file: 2,000 characters);
# compiler messages pass unchanged. The exit status is the build's.
set -euo pipefail
dir=$1 jobs=$2
shift 2
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$dir" -j "$jobs" "${targets[@]}" 2>&1 |
  awk '/^\[[0-9]+\/[0-9]+\] / {
         gsub(/CMakeFiles\/[^ \/]+\.dir\//, "")
         sub(/ Building CXX object /, " compile ")
         sub(/ Building C object /, " compile ")
         sub(/ Linking CXX (executable|static library) /, " link ")
         sub(/\.o$/, "")
         if ((more = gsub(/, /, "&")) > 0) sub(/, .*/, " and " more " more files")
         if (length($0) > 100) $0 = substr($0, 1, 96) " ..."
       }
       { print; fflush() }'
