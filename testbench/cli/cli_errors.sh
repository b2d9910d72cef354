#!/usr/bin/env bash
# Bad input to ufs-sim: each case must end with exit status 2 and a one-line
# error naming the problem, never a crash. Usage: cli_errors.sh PATH/TO/ufs-sim
set -u
sim="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
cases=0
expect() {  # expect NAME PATTERN -- ARGS...
  cases=$((cases + 1))
  local name="$1" pattern="$2"; shift 3
  local out status
  out=$("$sim" "$@" 2>&1 >/dev/null); status=$?
  if [ "$status" -ne 2 ] || ! grep -q -- "$pattern" <<<"$out" || [ "$(grep -c 'error' <<<"$out")" -ne 1 ]; then
    echo "FAIL $name: status $status, stderr: $out"; failures=$((failures + 1))
  else
    echo "ok   $name: $out"
  fi
}
printf '{ "base": "test-small", "fcc": { "channels": 2, } }\n' > "$tmp/broken.json"
printf 'proces,device,rw_flag,sector,size,timestamp\napp,8,R,100,8,0.5\napp,8,Q,100,8,0.6\n' > "$tmp/bad.csv"
expect unknown-key "unknown key 'fcc.chanels'" -- run --preset test-small --set fcc.chanels=4 --workload rw=randread,count=10
expect zero-channels "fcc.channels" -- run --preset test-small --set fcc.channels=0 --workload rw=randread,count=10
expect ill-typed "expected" -- run --preset test-small --set fcc.channels=four --workload rw=randread,count=10
expect malformed-json "parse error" -- run --preset "$tmp/broken.json" --workload rw=randread,count=10
expect missing-preset "nosuchpreset" -- run --preset nosuchpreset --workload rw=randread,count=10
expect bad-workload-key "bsz" -- run --preset test-small --workload rw=randread,bsz=4k
expect read-area-below-a-segment "read_segment_blocks (32)" -- run --preset test-small --set memory.data_buffer_kib=576 --set firmware.write_cache_kib=512 --workload rw=randread,count=10
# The firmware's tables (block table, validity bitmaps, map directory: 17 KiB on test-small) in too little SRAM.
expect firmware-sram-too-small "memory.firmware_sram_kib: 8 KiB of SRAM cannot hold the firmware's tables: they need" -- run --preset test-small --set memory.firmware_sram_kib=8 --workload rw=randread,count=10
expect beyond-capacity "exceeds" -- run --preset test-small --workload rw=randread,size=10t
expect bad-trace-line "bad.csv:3" -- run --preset test-small --workload "trace:mobile:$tmp/bad.csv"
expect bad-option "no-such-option" -- run --preset test-small --workload rw=randread,count=10 --no-such-option
expect unknown-experiment "unknown experiment" -- experiment nosuchstudy
expect bad-spo-time "fault.spo_at" -- run --preset test-small --set fault.spo_at=soon --workload rw=randwrite,count=10
expect spo-random-no-runtime "needs a workload with runtime" -- run --preset test-small --set fault.spo_at=random --workload rw=randwrite,count=10
expect unknown-smartphone-app "unknown app 'tiktok'" -- run --preset test-small --workload smartphone:tiktok
expect bad-smartphone-option "unknown key 'speed'" -- trace-stats smartphone:music,speed=2
expect smartphone-beyond-capacity "exceeds the device" -- run --preset test-small --workload smartphone:music
expect logical-page-vs-block "logical_page_kib: must divide the block" -- run --preset test-small --set firmware.logical_page_kib=8192 --workload rw=randwrite,count=10
expect bad-stripe-order "stripe_order" -- run --preset test-small --set firmware.stripe_order=diagonal --workload rw=randwrite,count=10
expect copy-back-needs-page-units "gc_copy_back: needs write units of one page" -- run --preset test-small --set firmware.gc_copy_back=true --workload rw=randwrite,count=10
expect bad-host-memory-apps "host_memory.apps: 'chrome' is not name=MiB" -- run --preset test-small --set host_memory.enabled=true --set host_memory.apps=chrome --workload rw=randread,count=10
expect host-memory-no-apps "host_memory.apps: name at least one app" -- run --preset test-small --set host_memory.enabled=true --workload rw=randread,count=10
expect bad-hpb-host-policy "hpb.host.policy: must be auto, device, host or hpbvalve" -- run --preset test-small --set hpb.host.policy=lru --workload rw=randread,count=10
expect poll-below-command "status_poll_ns" -- run --preset test-small --set fcc.status_poll_ns=10 --workload rw=randwrite,count=10
expect wb-hibernate-is-the-links "hibernate_idle_us" -- run --preset test-small --set writebooster.hibernate_idle_us=10000 --workload rw=randwrite,count=10
expect wb-buffer-type "writebooster.buffer_type" -- run --preset test-small --set writebooster.buffer_type=both --workload rw=randwrite,count=10
expect wb-buffer-too-big "writebooster.buffer_mib" -- run --preset test-small --set writebooster.enabled=true --set writebooster.buffer_mib=100000 --set nand.pages_per_block=144 --workload rw=randwrite,count=10
expect wb-unit-vs-slc-block "must divide an SLC block" -- run --preset test-small --set writebooster.enabled=true --set writebooster.buffer_mib=8 --workload rw=randwrite,count=10
expect hybrid-page-size "nand.hybrid_large_page_bytes: must be a multiple of page_bytes" -- run --preset iiswc15-emmc-hps --set nand.hybrid_large_page_bytes=6144 --workload rw=randwrite,count=10
expect hybrid-needs-one-page-units "firmware.program_pages: must be 1 with hybrid page size" -- run --preset iiswc15-emmc-hps --set firmware.program_pages=2 --workload rw=randwrite,count=10
echo "$((cases - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
