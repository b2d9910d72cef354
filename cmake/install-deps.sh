#!/usr/bin/env bash
# Installs the Debian 12 packages ufs-tlm needs, only those that are missing.
#   cmake/install-deps.sh          core: what build, run and test use (make included)
#   cmake/install-deps.sh extras   plots (sim/plot.py: matplotlib, ~500 MB with its
#                                  dependencies) and the wave viewer (GTKWave, vcd2fst)
#   cmake/install-deps.sh iss      the firmware's Arm cross build and the Unicorn CPU
#                                  emulator for cpu.model=iss (1.87 GB installed)
#   cmake/install-deps.sh SET --list   the set's package names, installed or not
# As root it runs apt-get and says what it is doing; otherwise it prints the command to
# run as root and exits 1.
set -euo pipefail
case "${1:-core}" in
  core)
    what="build, run and test"
    # python3-distributed (Dask) and python3-pytest: sweeps and parallel studies in
    # sim/python and their tests (issue 15); 25 packages, 5 MB.
    packages=(g++ make cmake ninja-build pkg-config libsystemc-dev verilator catch2 nlohmann-json3-dev
              libcli11-dev zlib1g-dev python3 python3-distributed python3-pytest) ;;
  extras)
    what="plots and the wave viewer"
    packages=(python3-matplotlib gtkwave) ;;
  iss)
    # Opt-in, not core (issue 19's light install): 7 packages, 293 MB to download, 1.87 GB
    # installed (libstdc++ and picolibc for every Arm multilib: Debian has no per-core
    # split; newlib's would be 2.3 GB). Configure again afterwards to build firmware.elf.
    what="the firmware's Arm build and cpu.model=iss"
    # gdb-multiarch: the debugger on the core's GDB remote port (cpu.gdb_port; its test drives it).
    packages=(gcc-arm-none-eabi libstdc++-arm-none-eabi-picolibc libunicorn-dev gdb-multiarch) ;;
  *) echo "install-deps.sh: error: unknown set '$1' (core, extras or iss)" >&2; exit 2 ;;
esac
if [ "${2:-}" = "--list" ]; then echo "${packages[*]}"; exit 0; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "ufs-tlm needs these Debian packages for $what; as root run:" >&2
  echo "  apt-get update && $command" >&2
  exit 1
fi

say() { echo "ufs-tlm: $*"; }
export DEBIAN_FRONTEND=noninteractive
say "installing what $what need: ${missing[*]}"
say "apt-get update (package lists)"
apt-get update -qq
# The size first (no download), then apt's own progress reported every 10%: dlstatus and
# pmstatus lines on APT::Status-Fd. apt's full output goes to a log shown on failure.
uris=$(apt-get install -qq --print-uris --no-install-recommends "${missing[@]}")
say "$(awk '/^'\''/ { n++; bytes += $3 } END { printf "%d packages to download, %.0f MB", n, bytes / 1e6 }' <<<"$uris")"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
apt-get install -y --no-install-recommends -o APT::Status-Fd=3 "${missing[@]}" 3>&1 >"$log" 2>&1 |
  awk -F: '$1 == "dlstatus" || $1 == "pmstatus" {
             step = ($1 == "dlstatus") ? "downloading" : "installing"
             tenth = int($3 / 10)
             if (step != last || tenth > shown) {
               printf "ufs-tlm:   %s %3d%%  %s\n", step, tenth * 10, $4; fflush()
               last = step; shown = tenth
             }
           }'
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  tail -n 20 "$log" >&2
  echo "install-deps.sh: error: apt-get install failed (status $status): $command" >&2
  exit 1
fi
say "installed: ${missing[*]}"
