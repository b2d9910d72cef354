#!/usr/bin/env bash
# The README's entry point on a fresh Debian 12, where even make is missing:
#   ./make.sh run     installs what is missing, builds ufs-sim, runs the main job
#   ./make.sh test    installs what is missing, builds everything, runs every test
# It installs the core packages (cmake/install-deps.sh; as a normal user it prints the
# apt-get command for root), then hands the same arguments to make (Makefile).
set -euo pipefail
cd "$(dirname "$0")"
bash cmake/install-deps.sh core
exec make --no-print-directory "$@"
