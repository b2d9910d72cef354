#!/usr/bin/env bash
# A newcomer's first ten minutes, repeatable: a bare Debian 12 (debootstrap minbase) with
# only git added, the repository cloned, the README's two commands (./make.sh run,
# ./make.sh test), twice:
#   root   root clones and runs both commands (they install what is missing)
#   user   a normal user clones and runs ./make.sh run: it must stop and print the
#          apt-get command; root runs exactly that command; the user runs both commands
# It also prints the install footprint (packages, download, installed size) of the core,
# extras and opt-in iss sets on the fresh root. Not part of CI: it downloads ~130 MB of packages and
# builds twice from scratch (no ccache).
#
#   sudo .ci/fresh-debian.sh [--scenario root|user|footprint]... [--workdir DIR] [--mirror URL]
#
# Needs root (debootstrap, chroot, mounts) and a reachable Debian mirror; installs
# debootstrap when missing. Clones the commit checked out here (HEAD). Logs and a summary
# go to DIR (default /var/tmp/ufs-tlm-fresh-debian); the roots stay there for inspection.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
workdir=/var/tmp/ufs-tlm-fresh-debian
mirror=http://deb.debian.org/debian
scenarios=()
while [ $# -gt 0 ]; do
  case "$1" in
    --scenario) scenarios+=("$2"); shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    --mirror) mirror=$2; shift 2 ;;
    *) echo "fresh-debian.sh: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ ${#scenarios[@]} -gt 0 ] || scenarios=(footprint root user)
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian.sh: error: run as root (debootstrap, chroot)" >&2; exit 2; }
mkdir -p "$workdir"
summary="$workdir/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
TIMEFORMAT='%R s wall, %U s user + %S s sys'

command -v debootstrap >/dev/null || apt-get install -y --no-install-recommends debootstrap

# The pristine minbase root, made once and copied for each scenario.
base="$workdir/base"
if [ ! -f "$base/.complete" ]; then
  rm -rf "$base"
  echo "debootstrap --variant=minbase bookworm $base $mirror (log: $workdir/debootstrap.log)"
  debootstrap --variant=minbase bookworm "$base" "$mirror" >"$workdir/debootstrap.log" 2>&1
  touch "$base/.complete"
fi
# The repository as a user would clone it: a bare copy of this one inside each root.
rm -rf "$workdir/ufs-tlm.git"
git clone -q --bare "$repo" "$workdir/ufs-tlm.git"
head_commit=$(git -C "$repo" rev-parse HEAD)

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT

fresh_root() {  # fresh_root NAME: sets root to a copy of base with /proc, /sys, /dev, DNS and git
  root="$workdir/$1"
  for m in proc sys dev/shm dev/pts dev; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf "$root"
  cp -a "$base" "$root"
  mount -t proc proc "$root/proc" && mounted+=("$root/proc")
  mount -t sysfs sysfs "$root/sys" && mounted+=("$root/sys")
  mount --bind /dev "$root/dev" && mounted+=("$root/dev")
  mount --bind /dev/pts "$root/dev/pts" && mounted+=("$root/dev/pts")
  # A real system's /dev/shm is a tmpfs anyone may write (mode 1777); the bind of /dev shows
  # only the directory under it, root's, where a normal user's Python cannot make the
  # semaphores Dask's worker processes need (PermissionError in multiprocessing's SemLock).
  mount -t tmpfs -o mode=1777 shm "$root/dev/shm" && mounted+=("$root/dev/shm")
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  cp -a "$workdir/ufs-tlm.git" "$root/srv/ufs-tlm.git"
  echo "$1: git for the clone (apt-get install git)"
  chroot "$root" sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends git >/dev/null'
}

as_root() { chroot "$1" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb LANG=C.UTF-8 bash -c "$2"; }
as_user() { chroot --userspec=newcomer:newcomer "$1" env -i HOME=/home/newcomer USER=newcomer \
              PATH=/usr/local/bin:/usr/bin:/bin TERM=dumb LANG=C.UTF-8 bash -c "cd && $2"; }

step() {  # step ROOT WHO NAME COMMAND: runs it, logs its output, notes status, time and lines
  local root=$1 who=$2 name=$3 cmd=$4 log="$workdir/$3.log" status t
  echo "== $name: $cmd"
  set +e
  t=$( { time "as_$who" "$root" "$cmd" >"$log" 2>&1; } 2>&1 ); status=$?
  set -e
  # time's own line follows the command's status when the command fails: keep the last line.
  note "$name: exit $status, $(tail -n 1 <<<"$t"), $(wc -l <"$log") output lines (longest $(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$log") chars), log $log"
  return $status
}

footprint() {  # footprint ROOT PACKAGES...: what apt would install (nothing is installed)
  local root=$1 out
  shift
  out=$(chroot "$root" apt-get install --no-install-recommends --assume-no "$@" 2>&1 || true)
  echo "$(grep -oP '\d+(?= newly installed)' <<<"$out") packages, $(grep -oP 'Need to get \K.*(?= of archives)' <<<"$out") download, $(grep -oP 'After this operation, \K[^ ]+ [^ ]+' <<<"$out") installed"
}

note "fresh-debian.sh $(date -u +%FT%TZ) commit $head_commit"
for s in "${scenarios[@]}"; do
  case "$s" in
    footprint)
      fresh_root root-footprint
      core=$(bash "$repo/cmake/install-deps.sh" core --list)
      extras=$(bash "$repo/cmake/install-deps.sh" extras --list)
      note "footprint core ($core): $(footprint "$root" $core)"
      note "footprint core+extras: $(footprint "$root" $core $extras)"
      iss=$(bash "$repo/cmake/install-deps.sh" iss --list)  # opt-in: cpu.model=iss (make deps-iss)
      note "footprint iss ($iss): $(footprint "$root" $iss)"
      ;;
    root)
      fresh_root root-as-root
      step "$root" root root-clone "git clone -q /srv/ufs-tlm.git ufs-tlm"
      step "$root" root root-run "cd ufs-tlm && ./make.sh run" || true
      step "$root" root root-test "cd ufs-tlm && ./make.sh test" || true
      ;;
    user)
      fresh_root root-as-user
      chroot "$root" useradd -m -s /bin/bash newcomer
      # git refuses a local repository owned by someone else: the user's own copy stands
      # for the server the README's clone URL points at.
      chroot "$root" chown -R newcomer:newcomer /srv/ufs-tlm.git
      step "$root" user user-clone "git clone -q /srv/ufs-tlm.git ufs-tlm"
      if step "$root" user user-run-before-install "cd ufs-tlm && ./make.sh run"; then
        note "user: FAIL ./make.sh run succeeded without the packages"
      else
        # The command the message tells root to run, run as it is printed.
        cmd=$(grep -m1 '^  apt-get ' "$workdir/user-run-before-install.log" | sed 's/^  //')
        note "user: printed command: $cmd"
        [ -n "$cmd" ] && step "$root" root user-root-installs "$cmd" || true
        step "$root" user user-run "cd ufs-tlm && ./make.sh run" || true
        step "$root" user user-test "cd ufs-tlm && ./make.sh test" || true
      fi
      ;;
    *) echo "fresh-debian.sh: error: unknown scenario '$s' (footprint, root, user)" >&2; exit 2 ;;
  esac
  cleanup
  mounted=()
done
note "summary: $summary"
