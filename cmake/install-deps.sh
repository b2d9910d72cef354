#!/usr/bin/env bash
# Installs the Debian 12 packages ufs-tlm needs, only those that are missing.
# As root it runs apt-get; otherwise it names the packages to install.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config libsystemc-dev verilator
          catch2 nlohmann-json3-dev libcli11-dev zlib1g-dev python3 python3-matplotlib
          gtkwave)
# Sweeps and parallel studies run on Dask (sim/python/ufs_tlm); its tests use pytest.
packages+=(python3-distributed python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "ufs-tlm needs these Debian packages; run as root:" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 1
fi
