#!/usr/bin/env bash
# Trace inputs of the studies: sim/get_traces.py keeps only files whose SHA-256 matches its
# manifest (a local source stands in for the internet), ufs-sim looks where get_traces.py
# puts them, and a study whose traces are missing exits 2 naming them and the command.
# Usage: traces_test.sh PATH/TO/ufs-sim PATH/TO/sim/get_traces.py
set -u
sim="$1" get="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check NAME CONDITION-STATUS DETAIL
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1: $3"; failures=$((failures + 1)); fi
}
unset UFS_TRACE_DIR XDG_CACHE_HOME
export UFS_SHARED_DIR="$tmp/no-shared"  # the program's shared-folder fallback points at an empty temporary folder: the test makes its own inputs

# A manifest of two small files, with a local source holding them.
mkdir -p "$tmp/src"
printf 'proces,device,rw_flag,sector,size,timestamp\napp,8,R,100,8,0.5\n' > "$tmp/src/a_exec.csv"
printf 'other bytes\n' > "$tmp/src/b.trace"
{
  echo "# test manifest"
  echo "a_exec.csv $(sha256sum < "$tmp/src/a_exec.csv" | cut -d' ' -f1) https://example.invalid/a_exec.csv"
  echo "b.trace $(sha256sum < "$tmp/src/b.trace" | cut -d' ' -f1) https://example.invalid/b.trace"
} > "$tmp/manifest"

out=$(python3 "$get" --manifest "$tmp/manifest" --from "$tmp/src" --dir "$tmp/cache" 2>&1); st=$?
cmp -s "$tmp/src/a_exec.csv" "$tmp/cache/a_exec.csv" && cmp -s "$tmp/src/b.trace" "$tmp/cache/b.trace"
check "fetch from a local source" $((st + $?)) "status $st: $out"
out=$(python3 "$get" --manifest "$tmp/manifest" --from "$tmp/nowhere" --dir "$tmp/cache" a_exec 2>&1); st=$?
grep -q "already in" <<<"$out"; check "a cached file with the right hash is kept" $((st + $?)) "status $st: $out"

# A source whose bytes differ from the manifest's hash: exit 1, named, nothing kept.
mkdir -p "$tmp/bad"
printf 'tampered\n' > "$tmp/bad/b.trace"
out=$(python3 "$get" --manifest "$tmp/manifest" --from "$tmp/bad" --dir "$tmp/cache2" b.trace 2>&1); st=$?
[ "$st" -eq 1 ] && grep -q "b.trace: SHA-256" <<<"$out" && [ -z "$(ls -A "$tmp/cache2")" ]
check "a file with the wrong hash is refused" $? "status $st, cache: $(ls -A "$tmp/cache2"), output: $out"
# A cached file that changed is fetched again.
printf 'tampered\n' > "$tmp/cache/b.trace"
out=$(python3 "$get" --manifest "$tmp/manifest" --from "$tmp/src" --dir "$tmp/cache" b.trace 2>&1); st=$?
cmp -s "$tmp/src/b.trace" "$tmp/cache/b.trace"; check "a changed cached file is replaced" $((st + $?)) "$out"
# A missing source file: exit 1, named.
out=$(python3 "$get" --manifest "$tmp/manifest" --from "$tmp/bad" --dir "$tmp/cache3" a_exec 2>&1); st=$?
[ "$st" -eq 1 ] && grep -q "a_exec.csv: cannot fetch" <<<"$out"; check "a missing source file is an error" $? "status $st: $out"
out=$(python3 "$get" --manifest "$tmp/manifest" --dir "$tmp/cache" nosuch 2>&1); st=$?
[ "$st" -eq 2 ] && grep -q "no trace named nosuch" <<<"$out"; check "an unknown name exits 2" $? "status $st: $out"
echo "a_exec.csv 1234 https://example.invalid/a" > "$tmp/broken-manifest"
out=$(python3 "$get" --manifest "$tmp/broken-manifest" --dir "$tmp/cache" 2>&1); st=$?
[ "$st" -ne 0 ] && grep -q "broken-manifest:1" <<<"$out"; check "a malformed manifest line is named" $? "status $st: $out"

# The project's manifest: every study input, each with a hash and an https source.
out=$(python3 "$get" --list --dir "$tmp/empty" 2>&1); st=$?
n=$(grep -cE ' missing +https://' <<<"$out")
[ "$st" -eq 0 ] && [ "$n" -eq 9 ]; check "the manifest lists the 9 trace files" $? "status $st, $n entries: $out"

# ufs-sim and get_traces.py agree on the cache: XDG_CACHE_HOME/ufs-tlm/traces.
mkdir -p "$tmp/phone"
: > "$tmp/phone/slideshow_precond.csv.gz"
: > "$tmp/phone/slideshow_exec.csv.gz"
printf 'slideshow_precond.csv.gz %s x\nslideshow_exec.csv.gz %s x\n' "$(sha256sum < /dev/null | cut -d' ' -f1)" \
  "$(sha256sum < /dev/null | cut -d' ' -f1)" > "$tmp/phone-manifest"
XDG_CACHE_HOME="$tmp/xdg" python3 "$get" --manifest "$tmp/phone-manifest" --from "$tmp/phone" >/dev/null 2>&1
[ -f "$tmp/xdg/ufs-tlm/traces/slideshow_exec.csv.gz" ]; check "get_traces.py fills XDG_CACHE_HOME/ufs-tlm/traces" $? ""

# A study with missing traces: exit 2 before any run, one line naming exactly what is
# missing (slideshow is in the cache, cod is not) and the command that fetches it.
study() {  # study NAME -> sets out, st
  out=$(cd "$tmp" && XDG_CACHE_HOME="$tmp/xdg" "$sim" experiment "$1" --out "$tmp/runs-$1" 2>&1 >/dev/null); st=$?
}
study hpb-mobile-trace
[ "$st" -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "cod_precond.csv.gz cod_exec.csv.gz" <<<"$out" &&
  ! grep -q "slideshow" <<<"$out" && grep -q "get_traces.py cod_precond.csv.gz cod_exec.csv.gz" <<<"$out" &&
  grep -q "$tmp/xdg/ufs-tlm/traces" <<<"$out" && [ ! -d "$tmp/runs-hpb-mobile-trace/slideshow_off" ]
check "hpb-mobile-trace without cod's traces" $? "status $st: $out"
for s in map-cache-sweep idle-gc hpbvalve disksim-validation; do
  study "$s"
  [ "$st" -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "experiment $s: missing trace file" <<<"$out" &&
    grep -q "get_traces.py" <<<"$out"
  check "$s without its traces" $? "status $st: $out"
done
# UFS_TRACE_DIR, when set, is the only place looked at.
out=$(cd "$tmp" && UFS_TRACE_DIR="$tmp/phone" XDG_CACHE_HOME="$tmp/xdg" "$sim" experiment idle-gc --out "$tmp/r" 2>&1 >/dev/null); st=$?
[ "$st" -eq 2 ] && grep -q "(looked in $tmp/phone)" <<<"$out"; check "UFS_TRACE_DIR alone" $? "status $st: $out"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
