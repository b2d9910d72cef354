#!/bin/sh
# sim/compare_runs.py on any two run folders (issue 17: a write-only run crashed it with
# "compare_runs: 'read'"): a write-only run beside a read-only one on another configuration
# shows every op, WAF ("none" for the read-only run), GC, busy fractions and the
# configuration keys that differ; bad input is one line and exit 2.
#   compare_runs_test.sh UFS_SIM COMPARE_RUNS_PY
set -u
sim=$1 compare=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$sim" run --preset test-small --quiet --workload rw=randwrite,count=500,size=8m --out "$tmp/writes" || fail "write run"
"$sim" run --preset test-small --quiet --precondition-fill 8m --set fcc.channels=1 \
    --workload rw=randread,count=500,size=8m --out "$tmp/reads" || fail "read run"
python3 "$compare" "$tmp/writes" "$tmp/reads" >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status -eq 0 ] || { cat "$tmp/out" "$tmp/err"; fail "exit status $status"; }
cat "$tmp/out"
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "stderr not empty"; }
grep -Eq '^write: count +500 +- *$' "$tmp/out" || fail "write count row"
grep -Eq '^read: count +- +500 *$' "$tmp/out" || fail "read count row"
grep -Eq '^read: mean latency \(us\) +- +[0-9.]+ *$' "$tmp/out" || fail "read latency row"
grep -Eq '^write amplification +[0-9.]+ +none *$' "$tmp/out" || fail "WAF row (none for the read-only run)"
grep -Eq '^GC victims +[0-9,]+ +[0-9,]+ *$' "$tmp/out" || fail "GC row"
grep -Eq '^dies busy \(mean\) +[0-9]+% +[0-9]+% *$' "$tmp/out" || fail "die busy row"
grep -Eq '^firmware core busy +[0-9]+% +[0-9]+% *$' "$tmp/out" || fail "core busy row"
grep -q '^configuration keys that differ:' "$tmp/out" || fail "config section"
grep -Eq '^fcc\.channels +2 +1 *$' "$tmp/out" || fail "fcc.channels differs"
[ "$(grep -c '^nand\.' "$tmp/out")" -eq 0 ] || fail "keys that are equal listed"
grep -q '^reads vs writes: no op ran in both$' "$tmp/out" || fail "closing line"
# The same run twice: same configuration; the closing line compares op by op.
cp -r "$tmp/reads" "$tmp/reads-again"
python3 "$compare" "$tmp/reads" "$tmp/writes" "$tmp/reads-again" >"$tmp/out3" || fail "three runs"
grep -Eq '^reads-again vs reads: throughput \+0\.0%, mean latency \+0\.0%$' "$tmp/out3" || { cat "$tmp/out3"; fail "three runs closing line"; }
# Bad input: one line naming the file, exit 2.
mkdir "$tmp/empty"
echo '{"ops": ' >"$tmp/empty/stats.json"
for args in "$tmp/writes /nonexistent/b" "$tmp/writes $tmp/empty" "$tmp/writes"; do
  python3 "$compare" $args >"$tmp/out" 2>"$tmp/err"
  status=$?
  [ $status -eq 2 ] || fail "$args: exit $status"
  [ -s "$tmp/out" ] && fail "$args: stdout not empty"
  case "$args" in *" "*) [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "$args: not one line"; }
                        grep -q 'stats.json' "$tmp/err" || fail "$args: names no file" ;; esac
done
echo PASS
