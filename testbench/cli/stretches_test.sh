#!/bin/sh
# sim/stretches.py (issue 14 item 2's measure: stretches without a completion in 10 ms
# time-series bins). A synthetic timeseries.csv with known empty runs, one of them written as
# the output's two zero rows (its first and last interval): longest 30 ms, two of 20 ms or
# more, six empty intervals. A real run folder reads alike and adds the write figures. Bad
# input is one line and exit 2.
#   stretches_test.sh UFS_SIM STRETCHES_PY
set -u
sim=$1 stretches=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/synthetic"
cat >"$tmp/synthetic/timeseries.csv" <<'CSV'
time_s,read_iops,write_iops,read_mbps,write_mbps,mean_read_lat_us,mean_write_lat_us
0.01,100,0,0.4,0,50,
0.02,0,0,0,0,,
0.04,0,0,0,0,,
0.05,0,100,0,0.4,,900
0.06,0,0,0,0,,
0.07,100,100,0.4,0.4,50,900
0.08,0,0,0,0,,
0.09,0,0,0,0,,
0.1,100,0,0.4,0,50,
CSV
python3 "$stretches" "$tmp/synthetic" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err"; fail "synthetic run"; }
cat "$tmp/out"
grep -q 'longest stretch without a completion 30 ms, 2 of 20 ms or more, 6 empty 10 ms intervals$' "$tmp/out" ||
  fail "synthetic figures"
python3 "$stretches" --at-least 30 "$tmp/synthetic" | grep -q ', 1 of 30 ms or more,' || fail "--at-least 30"
# A real run folder: the same line and the measured phase's write figures.
"$sim" run --preset test-small --quiet --workload rw=randrw,rwmixread=70,count=2000,size=8m --out "$tmp/run" ||
  fail "ufs-sim run"
python3 "$stretches" "$tmp/run" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err"; fail "real run"; }
cat "$tmp/out"
grep -Eq 'longest stretch without a completion [0-9.]+ ms, [0-9]+ of 20 ms or more, [0-9]+ empty 10 ms intervals; write p99 [0-9.]+ ms, p99.9 [0-9.]+ ms, [0-9]+ IOPS; WAF [0-9.]+$' \
  "$tmp/out" || fail "real run line"
# Bad input: one line, exit 2.
mkdir "$tmp/bad"
printf 'time_s,read_iops,write_iops\n0.01,x,1\n' >"$tmp/bad/timeseries.csv"
for dir in /nonexistent "$tmp/bad"; do
  python3 "$stretches" "$dir" >"$tmp/out" 2>"$tmp/err"
  status=$?
  [ $status -eq 2 ] || fail "$dir: exit status $status, expected 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "$dir: expected one line on stderr"; }
done
grep -q 'line 2: malformed row' "$tmp/err" || { cat "$tmp/err"; fail "malformed row named"; }
python3 "$stretches" --at-least 0 "$tmp/synthetic" 2>/dev/null
[ $? -eq 2 ] || fail "--at-least 0 accepted"
echo "stretches.py: ok"
