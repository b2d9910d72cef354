#!/usr/bin/env python3
"""Hostile input for ufs-sim: generates bad presets, --set values, workload specs, trace
files and command-line options, runs each, and checks the promise of the README: every bad
input ends with ONE line on stderr naming the problem and exit status 2, nothing on stdout,
no raw control characters echoed to the terminal; never a crash, a hang or a silent run.

    hostile_inputs.py UFS_SIM [--sample N] [--only CLASS] [--timeout S] [--mem-gib G] [--list] [--verbose]

--sample N runs N cases spread evenly over every class (the test suite does this; no time
limit there); without it every case runs (offline: pass --timeout, a hang is then counted).
Each case is classified as
    ok          exit 2, one line "ufs-sim: error: ..." naming what the case expects
    crash       killed by a signal, or an exit status other than 0, 1, 2
    hang        still running after --timeout seconds
    multi-line  exit 2, but not exactly one stderr line / something on stdout / raw control bytes
    wrong-message  exit 2 and one line, but the line does not name the expected key or problem
    accepted    exit 0 or 1: the bad input was not refused
The exit status is 0 only when every case is ok. The generator is deterministic.
"""
import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile

RUN = ["run", "--preset", "test-small", "--quiet", "--no-check"]
SMALL = "rw=randread,count=10"


class Case:
    def __init__(self, cls, name, args, expect, files=None):
        self.cls = cls          # preset | set | workload | trace | cli
        self.name = name
        self.args = args        # argv after the program; "{tmp}" is replaced by the case folder
        self.expect = expect    # substring the error line must contain
        self.files = files or {}  # name -> bytes, written into the case folder


def params(sim):
    """Every parameter as (key, type, unit) from `ufs-sim params`."""
    out = subprocess.run([sim, "params", "--preset", "test-small"], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines()[1:]:
        cells = line.split()
        if len(cells) >= 3:
            rows.append((cells[0], cells[1], cells[2]))
    return rows


def preset_cases():
    cases = []

    def preset(name, text, expect):
        data = text if isinstance(text, bytes) else text.encode()
        cases.append(Case("preset", name, ["run", "--preset", "{tmp}/p.json", "--workload", SMALL, "--quiet",
                                           "--no-check"], expect, {"p.json": data}))

    base = '"base": "test-small", '
    preset("deep-object-20000", '{"a":' * 20000 + "1" + "}" * 20000, "nest")
    preset("deep-array-100000", '{"a":' + "[" * 100000 + "]" * 100000 + "}", "nest")
    preset("deep-object-100", '{' + base + '"fcc":' + '{"a":' * 100 + "1" + "}" * 101, "nest")
    preset("empty-object-for-number", '{' + base + '"fcc": {"channels": {}}}', "fcc.channels")
    preset("empty-object-unknown-key", '{' + base + '"nosuchsection": {}}', "nosuchsection")
    preset("empty-object-nested-unknown", '{' + base + '"fcc": {"nosuchkey": {}}}', "fcc.nosuchkey")
    preset("object-for-number", '{' + base + '"fcc": {"channels": {"x": 1}}}', "fcc.channels")
    preset("array-for-number", '{' + base + '"fcc": {"channels": [2]}}', "fcc.channels")
    preset("null-for-number", '{' + base + '"fcc": {"channels": null}}', "fcc.channels")
    preset("string-for-number", '{' + base + '"fcc": {"channels": "two"}}', "fcc.channels")
    preset("bool-for-number", '{' + base + '"fcc": {"channels": true}}', "fcc.channels")
    preset("number-for-bool", '{' + base + '"fcc": {"cache_read": 1}}', "fcc.cache_read")
    preset("number-for-string", '{' + base + '"nand": {"cell_type": 3}}', "nand.cell_type")
    preset("float-for-integer", '{' + base + '"fcc": {"channels": 2.5}}', "fcc.channels")
    preset("negative-for-unsigned", '{' + base + '"fcc": {"channels": -2}}', "fcc.channels")
    preset("number-overflow", '{' + base + '"nand": {"t_read_us": 1e400}}', "p.json")
    preset("huge-u64", '{' + base + '"host": {"completion_overhead_ns": 18446744073709551615}}',
           "host.completion_overhead_ns")
    preset("duplicate-key", '{' + base + '"fcc": {"channels": 2, "channels": 4}}', "channels")
    preset("duplicate-section", '{' + base + '"fcc": {"channels": 2}, "fcc": {"ways_per_channel": 1}}', "fcc")
    preset("top-level-array", "[]", "object")
    preset("top-level-number", "1", "object")
    preset("top-level-string", '"x"', "object")
    preset("top-level-null", "null", "object")
    preset("empty-file", "", "p.json")
    preset("whitespace-only", "   \n\n  ", "p.json")
    preset("trailing-comma", '{' + base + '"fcc": {"channels": 2,}}', "p.json")
    preset("trailing-garbage", '{' + base.rstrip(", ") + '} x', "p.json")
    preset("base-missing", '{"base": "nosuchpreset"}', "nosuchpreset")
    preset("base-not-string", '{"base": 3}', "base")
    preset("base-empty", '{"base": ""}', "base")
    preset("base-self", '{"base": "p.json"}', "cycle")
    preset("invalid-utf8-value", b'{"base": "test-small", "nand": {"cell_type": "\xff\xfe"}}', "p.json")
    preset("invalid-utf8-key", b'{"base": "test-small", "\xff": 1}', "p.json")
    preset("control-chars-in-key", '{' + base + '"fcc\\u001b]0;PWNED\\u0007": 1}', "fcc")
    preset("control-chars-in-value", '{' + base + '"nand": {"cell_type": "x\\u001b[31mred"}}', "nand.cell_type")
    preset("space-in-key", '{' + base + '"fcc": {"chan nels": 2}}', "chan nels")
    preset("empty-key", '{' + base + '"": 1}', "key")
    preset("unknown-key", '{' + base + '"fcc": {"chanels": 2}}', "fcc.chanels")
    preset("doc-key-not-string", '{' + base + '"_comment": 3}', "_comment")
    preset("enum-unknown", '{' + base + '"nand": {"cell_type": "qlc"}}', "nand.cell_type")
    preset("huge-string", '{' + base + '"log": {"components": "' + "x" * 1000000 + '"}}', "log.components")
    preset("huge-geometry", '{' + base + '"fcc": {"channels": 99999999}}', "fcc.channels")
    preset("nan-literal", '{' + base + '"nand": {"t_read_us": NaN}}', "p.json")
    preset("infinity-literal", '{' + base + '"nand": {"t_read_us": Infinity}}', "p.json")
    preset("big-file", '{' + base + '"_comment": "' + "x" * (17 << 20) + '"}', "p.json")
    cases.append(Case("preset", "dev-zero", ["run", "--preset", "/dev/zero", "--workload", SMALL, "--quiet"],
                      "/dev/zero"))
    cases.append(Case("preset", "dev-null", ["run", "--preset", "/dev/null", "--workload", SMALL, "--quiet"],
                      "/dev/null"))
    cases.append(Case("preset", "directory", ["run", "--preset", "{tmp}/", "--workload", SMALL, "--quiet"], "{tmp}"))
    cases.append(Case("preset", "directory-json", ["run", "--preset", "{tmp}/d.json", "--workload", SMALL, "--quiet"],
                      "d.json", {"d.json/x": b"{}"}))
    cases.append(Case("preset", "missing-file", ["run", "--preset", "{tmp}/none.json", "--workload", SMALL, "--quiet"],
                      "none.json"))
    cases.append(Case("preset", "params-deep", ["params", "--preset", "{tmp}/p.json"], "nest",
                      {"p.json": ('{"a":' * 50000 + "1" + "}" * 50000).encode()}))
    return cases


SEEDS = {"cpu.rng_seed", "nand.seed", "fault.seed"}  # identifiers: any value is a seed

# Values of string keys that no model takes.
BAD_STRINGS = {
    "link.rate_series": ["C", ""], "link.line_coding": ["64b66b"], "nand.cell_type": ["qlc", ""],
    "nand.bad_block_list": ["1:2", "0:0:99999999", "a:b:c", "0:9:0"], "fcc.gang_mode": ["sideways"],
    "firmware.stripe_order": ["diagonal"], "firmware.lba_mapping": ["hashed"], "firmware.map_cache_policy": ["arc"],
    "firmware.gc_victim": ["oldest"], "firmware.wear_levelling": ["magic"], "crypto.model": ["vhdl"],
    "hpb.control_mode": ["both"], "writebooster.buffer_type": ["both"], "hpb.host.policy": ["lru"],
    "host_memory.apps": ["chrome", "a=", "=5", "a=-1", "a=1e30"], "log.level": ["loud"],
    "log.components": ["fcc", "fcc=loud", "disk=debug"], "fault.spo_at": ["soon", "-1ms", "random:", "99999h", "1e30s"],
}


def set_cases(sim):
    cases = []

    def bad_set(name, assignment, expect, extra=None):
        cases.append(Case("set", name, RUN + ["--set", assignment] + (extra or []) + ["--workload", SMALL], expect))

    for key, typ, unit in params(sim):
        if key in SEEDS:
            continue
        if typ in ("u32", "u64", "i64"):
            top = {"u32": "4294967295", "u64": "18446744073709551615", "i64": "9223372036854775807"}[typ]
            bad_set(f"{key}=max", f"{key}={top}", key)
            bad_set(f"{key}=-1", f"{key}=-1", key)
            bad_set(f"{key}=1.5", f"{key}=1.5", key)
            bad_set(f"{key}=junk", f"{key}=12ab", key)
            bad_set(f"{key}=empty", f"{key}=", key)
            bad_set(f"{key}=overflow", f"{key}=99999999999999999999999", key)
        elif typ == "double":
            for v in ("1e300", "1e18", "-1", "nan", "inf", "-inf", "1e999", "", "1,5", "0x"):
                bad_set(f"{key}={v or 'empty'}", f"{key}={v}", key)
            if unit == "MHz":
                bad_set(f"{key}=1e-300", f"{key}=1e-300", key)
                bad_set(f"{key}=0", f"{key}=0", key)
        elif typ == "bool":
            for v in ("maybe", "2", "", "yes please"):
                bad_set(f"{key}={v or 'empty'}", f"{key}={v}", key)
        elif typ == "string":
            for v in BAD_STRINGS.get(key, []):
                bad_set(f"{key}={v or 'empty'}", f"{key}={v}", key)
    # Found by hand (issue 17): each names the key the user set.
    bad_set("slc_mode-on-tlc-unit", "nand.slc_mode=true", "nand.slc_mode")
    bad_set("program_pages-5", "firmware.program_pages=5", "firmware.program_pages")
    bad_set("sram-clock-0", "memory.sram_clock_mhz=0", "memory.sram_clock_mhz")
    bad_set("gc-stop-huge", "firmware.gc_stop_free_blocks=99999999", "firmware.gc_stop_free_blocks")
    bad_set("gc-start-huge", "firmware.gc_start_free_blocks=99999999", "firmware.gc_start_free_blocks")
    bad_set("bg-gc-free-huge", "firmware.bg_gc_free_blocks=99999999", "firmware.bg_gc_free_blocks",
            ["--set", "firmware.bg_gc_idle_us=1000"])
    bad_set("write-cache-above-buffer", "firmware.write_cache_kib=8192", "firmware.write_cache_kib")
    for key in ("fcc.channels", "fcc.ways_per_channel", "nand.dies_per_package", "nand.planes_per_die",
                "nand.blocks_per_plane", "nand.pages_per_block"):
        bad_set(f"{key}=99999999", f"{key}=99999999", key)
    # Geometry that is plausible key by key but too large for the simulator as a whole.
    cases.append(Case("set", "footprint", RUN + ["--set", "fcc.channels=32", "--set", "fcc.ways_per_channel=32",
                                                 "--set", "nand.dies_per_package=16", "--set", "nand.planes_per_die=16",
                                                 "--set", "nand.blocks_per_plane=60000", "--workload", SMALL],
                      "memory"))
    for assignment, expect in (("=4", "--set"), ("fcc.=3", "--set"), (".x=1", "--set"), ("a b=1", "--set"),
                               ("fcc.channels", "--set"), ("fcc..channels=2", "--set"), ("nosuch=1", "nosuch"),
                               ("fcc=2", "fcc"), ("fcc.channels.x=2", "fcc.channels"),
                               ("fcc.channels\x1b]0;PWNED\x07=2", "fcc.channels")):
        bad_set(f"assignment {assignment!r}", assignment, expect)
    return cases


def workload_cases():
    cases = []

    def wl(spec, expect, name=None):
        cases.append(Case("workload", name or f"workload {spec!r}", RUN + ["--workload", spec], expect))

    for spec, expect in [
            ("", "workload"), (",", "workload"), ("count=0", "count"), ("runtime=0", "runtime"),
            ("rw=randread,count=0", "count"), ("rw=randread,runtime=0", "runtime"), ("rw=", "rw"),
            ("rw=randwrite,count=-1", "count"), ("count=1e3", "count"), ("count=99999999999999999999999", "count"),
            ("bs=0", "bs"), ("bs=3k", "bs"), ("bs=-4k", "bs"), ("bs=1t", "1 TiB"), ("bs=4k,bsrange=4k-8k", "bs"),
            ("bsrange=8k-4k", "bsrange"), ("bsrange=4k", "bsrange"), ("size=0", "size"), ("size=0%", "size"),
            ("size=101%", "size"), ("size=10t", "exceeds"), ("size=nan%", "size"), ("iodepth=0", "iodepth"),
            ("iodepth=99999999", "iodepth"), ("numjobs=0", "numjobs"), ("numjobs=99999999", "numjobs"),
            ("offset=1t", "offset"), ("offset=3k", "offset"), ("offset=100%", "offset"),
            ("thinktime=1e15", "thinktime"), ("thinktime=-1", "thinktime"), ("thinktime=99999h", "thinktime"),
            ("rate_iops=0", "rate_iops"), ("rate_iops=nan", "rate_iops"), ("rate_iops=-5", "rate_iops"),
            ("rate_iops=1e-300", "rate_iops"), ("rate_iops=1e300", "rate_iops"), ("arrival=poisson", "arrival"),
            ("arrival=burst,rate_iops=10", "arrival"), ("rwmixread=101", "rwmixread"), ("rwmixread=-1", "rwmixread"),
            ("rwmixread=50,rwmixwrite=50", "rwmix"), ("random_distribution=zipf:0", "random_distribution"),
            ("random_distribution=zipf:nan", "random_distribution"),
            ("random_distribution=zipf:1e308", "random_distribution"),
            ("random_distribution=pareto", "random_distribution"), ("seed=-1", "seed"), ("fsync=-1", "fsync"),
            ("align=3k", "align"), ("runtime=1e15s", "runtime"), ("runtime=99999h", "runtime"),
            ("runtime=-1s", "runtime"), ("runtime=5parsecs", "runtime"), ("rw=sideways", "rw"), ("bsz=4k", "bsz"),
            ("count=1,count=2", "count"), ("rw=randread,,count=5", "empty option"), ("count", "count"),
            ("=5", "workload"), ("fua=2", "fua"), ("count=10\x1b]0;PWNED\x07", "count"),
            ("smartphone:", "smartphone"), ("smartphone:tiktok", "tiktok"), ("smartphone:music,count=0", "count"),
            ("smartphone:music,scale=-1", "scale"), ("smartphone:music,scale=nan", "scale"),
            ("smartphone:music,scale=1e308", "scale"), ("smartphone:music,qd=0", "qd"),
            ("smartphone:music,span=0", "span"), ("smartphone:music,span=1t", "span"),
            ("smartphone:music,offset=1t", "offset"), ("smartphone:music,prefill=2", "prefill"),
            ("smartphone:music+", "smartphone"), ("smartphone:+", "smartphone"),
            ("smartphone:music,speed=2", "speed"), ("trace:", "trace"), ("trace:mobile:", "trace"),
            ("trace:bogus:/dev/null", "bogus"), ("trace:mobile:/nonexistent/x.csv", "x.csv")]:
        wl(spec, expect)
    # CLI options around the workload.
    cli = []

    def cmd(name, args, expect):
        cli.append(Case("cli", name, args, expect))

    cmd("precondition-fill 3", RUN + ["--workload", SMALL, "--precondition-fill", "3"], "--precondition-fill")
    cmd("precondition-fill -1", RUN + ["--workload", SMALL, "--precondition-fill", "-1"], "--precondition-fill")
    cmd("precondition-fill 1t", RUN + ["--workload", SMALL, "--precondition-fill", "1t"], "precondition")
    cmd("precondition-fill junk", RUN + ["--workload", SMALL, "--precondition-fill", "lots"], "--precondition-fill")
    cmd("precondition-fill 0", RUN + ["--workload", SMALL, "--precondition-fill", "0"], "--precondition-fill")
    cmd("precondition count=0", RUN + ["--workload", SMALL, "--precondition", "rw=randwrite,count=0"], "count")
    cmd("precondition empty", RUN + ["--workload", SMALL, "--precondition", ""], "precondition")
    cmd("bench --ios 0", ["bench", "--ios", "0"], "--ios")
    cmd("bench --ios -1", ["bench", "--ios", "-1"], "--ios")
    cmd("bench --ios 1e3", ["bench", "--ios", "1e3"], "--ios")
    cmd("bench --ios huge", ["bench", "--ios", "99999999999999999999"], "--ios")
    cmd("bench --write --ios 0", ["bench", "--write", "--ios", "0"], "--ios")
    cmd("waves-window backwards", RUN + ["--workload", SMALL, "--waves-window", "5ms:1ms", "--timeline", "t.json"],
        "--waves-window")
    cmd("waves-window junk", RUN + ["--workload", SMALL, "--waves-window", "x:y", "--timeline", "t.json"],
        "--waves-window")
    cmd("waves bad extension", RUN + ["--workload", SMALL, "--waves", "{tmp}/w.txt"], "w.txt")
    cmd("out under a file", RUN + ["--workload", SMALL, "--out", "/dev/null/run"], "/dev/null/run")
    cmd("timeline unwritable", RUN + ["--workload", SMALL, "--timeline", "/proc/nonexistent/t.json"], "t.json")
    cmd("experiment unknown", ["experiment", "nosuchstudy"], "nosuchstudy")
    cmd("trace-stats empty", ["trace-stats", "trace:mobile:{tmp}/e.csv"], "e.csv")
    cli[-1].files = {"e.csv": b""}
    cmd("trace-stats dev-zero", ["trace-stats", "trace:mobile:/dev/zero"], "/dev/zero")
    cmd("params huge", ["params", "--set", "fcc.channels=99999999"], "fcc.channels")
    return cases + cli


# One valid line per format (with its header where the format has one), used to build bad files.
FORMATS = {
    "mobile": ("proces,device,rw_flag,sector,size,timestamp\n", "app-1,8,R,{lba},8,{t}\n"),
    "blkparse": ("", "  8,0    3        {n}     {t}   697  Q   R {lba} + 8 [app]\n"),
    "fio": ("fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n", "/dev/sdb read {lba}000 4096\n"),
    "msr": ("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n",
            "12816637200306{n:04d},wdev,0,Read,{lba}000,4096,3985\n"),
    "disksim": ("", "{t} 0 {lba} 8 1\n"),
    "mqsim": ("", "{n}000 0 {lba} 8 1\n"),
}


def good_lines(fmt, count=3):
    head, line = FORMATS[fmt]
    return head + "".join(line.format(n=i + 1, lba=8 * (i + 1), t=f"{i + 1}.000001") for i in range(count))


def trace_cases():
    cases = []

    def tr(fmt, name, data, expect, options="", cls="trace"):
        fname = "t.gz" if name.startswith("gz") else "t.txt"
        spec = f"trace:{fmt}:{{tmp}}/{fname}{options}"
        cases.append(Case(cls, f"{fmt} {name}", RUN + ["--workload", spec], expect, {fname: data}))

    for fmt, (head, line) in FORMATS.items():
        tr(fmt, "empty", b"", "no requests")
        if head:
            tr(fmt, "header-only", head.encode(), "no requests")
        tr(fmt, "blank-lines", b"\n\n\n", "t.txt")
        tr(fmt, "skip-past-end", good_lines(fmt).encode(), "skip", ",skip=1000")
        tr(fmt, "start-past-end", good_lines(fmt).encode(), "start", ",start=1000s")
        tr(fmt, "long-line", (head + "a" * (10 << 20) + "\n").encode(), "t.txt:")
        tr(fmt, "long-line-no-newline", (head + "7" * (20 << 20)).encode(), "t.txt:")
        tr(fmt, "escape-sequence", (head + "a,b\x1b]0;PWNED\x07\n").encode(), "t.txt:")
        tr(fmt, "ansi-colour", (head + "\x1b[31mred\x1b[0m 1 2 3\n").encode(), "t.txt:")
        tr(fmt, "nul-bytes", (head.encode() + b"\x00" * 64 + b"\n"), "t.txt:")
        tr(fmt, "binary", (head.encode() + bytes(range(256)) * 4), "t.txt:")
        tr(fmt, "bad-first-line", b"hello world\n", "t.txt:1")
        tr(fmt, "gz-truncated", gzip.compress(good_lines(fmt, 200).encode())[:-40], "t.gz")
        tr(fmt, "gz-corrupt", b"\x1f\x8b\x08\x00" + b"\xff" * 200, "t.gz")
        tr(fmt, "gz-zeros", gzip.compress(b"\x00" * (40 << 20)), "t.gz")
        tr(fmt, "qd-0", good_lines(fmt).encode(), "qd", ",qd=0")
        tr(fmt, "scale-negative", good_lines(fmt).encode(), "scale", ",scale=-1")
        tr(fmt, "scale-huge", good_lines(fmt).encode(), "scale", ",scale=1e308")
        tr(fmt, "scale-nan", good_lines(fmt).encode(), "scale", ",scale=nan")
        tr(fmt, "idle-compress-junk", good_lines(fmt).encode(), "idle_compress", ",idle_compress=soon")
        tr(fmt, "start-huge", good_lines(fmt).encode(), "start", ",start=1e30s")
        tr(fmt, "limit-junk", good_lines(fmt).encode(), "limit", ",limit=-3")
        tr(fmt, "fold-junk", good_lines(fmt).encode(), "fold", ",fold=sideways")
        tr(fmt, "unknown-option", good_lines(fmt).encode(), "speed", ",speed=2")
    # Per-format field errors.
    mobile_h = FORMATS["mobile"][0]
    for name, line in [("negative-sector", "a,8,R,-8,8,1.0"), ("overflow-sector", "a,8,R,99999999999999999999,8,1.0"),
                       ("size-0", "a,8,R,8,0,1.0"), ("nan-time", "a,8,R,8,8,nan"), ("inf-time", "a,8,R,8,8,inf"),
                       ("negative-time-jump", "a,8,R,8,8,1.0\na,8,R,8,8,-1e300"), ("huge-time", "a,8,R,8,8,1e300"),
                       ("beyond-device", "a,8,R,99999999999,8,1.0"), ("bad-flag", "a,8,Z,8,8,1.0"),
                       ("few-fields", "a,8,R,8"), ("sector-junk", "a,8,R,8x,8,1.0")]:
        tr("mobile", name, (mobile_h + line + "\n").encode(), "t.txt:")
    for name, line in [("negative-lba", "1.0 0 -8 8 1"), ("nblks-0", "1.0 0 8 0 1"), ("flags-junk", "1.0 0 8 8 x"),
                       ("time-nan", "nan 0 8 8 1")]:
        tr("disksim", name, (line + "\n").encode(), "t.txt:")
    for name, line in [("time-overflow", "99999999999999999999 0 8 8 1"), ("type-7", "100 0 8 8 7")]:
        tr("mqsim", name, (line + "\n").encode(), "t.txt:")
    cases.append(Case("trace", "mobile dev-zero", RUN + ["--workload", "trace:mobile:/dev/zero"], "/dev/zero"))
    cases.append(Case("trace", "blkparse dev-zero", RUN + ["--workload", "trace:blkparse:/dev/zero"], "/dev/zero"))
    cases.append(Case("trace", "msr directory", RUN + ["--workload", "trace:msr:{tmp}"], "{tmp}"))
    return cases


def preset_key_cases(sim):
    """Every parameter given the wrong JSON type in a preset file (the --set class checks
    values as text; this one the JSON binder, key by key)."""
    cases = []
    # (Byte-sized keys take size strings, "4k": a string that is no size.)
    wrong = {"u32": ('{}', '[1]', '"12 apples"'), "u64": ('{}', '[1]', '"12 apples"'), "i64": ('{}', '[1]', '"12 apples"'),
             "double": ('{}', '[1.5]', '"1.5 apples"'), "bool": ('{}', '[true]', '"true"'), "string": ('{}', '[""]', '7')}
    for key, typ, _unit in params(sim):
        for value in wrong.get(typ, ()):
            doc = value
            for part in reversed(key.split(".")):
                doc = '{"%s": %s}' % (part, doc)
            text = '{"base": "test-small", ' + doc[1:]
            cases.append(Case("preset", f"{key} as {value}", ["run", "--preset", "{tmp}/p.json", "--workload", SMALL,
                                                              "--quiet", "--no-check"], key, {"p.json": text.encode()}))
    return cases


def more_cli_cases():
    """Options and subcommands around the run: trace options out of range, trace-stats on
    bad traces, experiment options, malformed command lines."""
    cases = []
    good = good_lines("mobile").encode()

    def case(name, args, expect, files=None):
        cases.append(Case("cli", name, args, expect, files))

    for opt, expect in (("mode=sideways", "mode"), ("duration=-1s", "duration"), ("duration=0", "duration"),
                        ("limit=0", "limit"), ("qd=99999999", "qd"), ("idle_compress=-1ms", "idle_compress"),
                        ("skip=-1", "skip"), ("start=-1s", "start"), ("scale=0x10", "scale"), ("skip_bad=2", "skip_bad"),
                        ("qd=4,qd=8", "qd"), ("mode=closed,mode=open", "mode")):
        case(f"trace option {opt}", RUN + ["--workload", f"trace:mobile:{{tmp}}/t.txt,{opt}"], expect, {"t.txt": good})
    for name, data, expect in (("empty", b"", "no requests"), ("binary", bytes(range(256)) * 4, "t.txt:"),
                               ("bad-line", b"hello world\n", "t.txt:1")):
        case(f"trace-stats {name}", ["trace-stats", "trace:mobile:{tmp}/t.txt"], expect, {"t.txt": data})
    case("trace-stats no spec", ["trace-stats"], "trace-stats")
    case("trace-stats synthetic", ["trace-stats", "rw=randread"], "trace")
    case("experiment --jobs 0", ["experiment", "atc08-package-reads", "--jobs", "0", "--out", "{tmp}/x"], "--jobs")
    case("experiment --jobs junk", ["experiment", "atc08-package-reads", "--jobs", "two", "--out", "{tmp}/x"], "--jobs")
    case("experiment --point-timeout -1", ["experiment", "atc08-package-reads", "--point-timeout", "-1", "--out",
                                           "{tmp}/x"], "--point-timeout")
    case("experiment out under a file", ["experiment", "atc08-package-reads", "--jobs", "1", "--out", "/dev/null/x"],
         "/dev/null/x")
    case("unknown subcommand", ["frobnicate"], "frobnicate")
    case("unknown option", ["run", "--preset", "test-small", "--frobnicate", "--workload", SMALL], "--frobnicate")
    case("--set without value", ["run", "--preset", "test-small", "--workload", SMALL, "--set"], "--set")
    case("--preset twice", ["run", "--preset", "test-small", "--preset", "ufs31", "--workload", SMALL], "--preset")
    case("run without workload", ["run", "--preset", "test-small", "--quiet"], "--workload")
    case("params unknown preset", ["params", "--preset", "nosuchpreset"], "nosuchpreset")
    return cases


def all_cases(sim):
    return (preset_cases() + preset_key_cases(sim) + set_cases(sim) + workload_cases() + more_cli_cases() +
            trace_cases())


def run_case(sim, case, tmp, timeout, mem_bytes):
    for name, data in case.files.items():
        path = os.path.join(tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    args = [a.replace("{tmp}", tmp) for a in case.args]
    expect = case.expect.replace("{tmp}", tmp)

    def limits():
        if mem_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))

    try:
        p = subprocess.run([sim] + args, capture_output=True, timeout=timeout, preexec_fn=limits, cwd=tmp)
    except subprocess.TimeoutExpired:
        return "hang", ""
    err = p.stderr.decode("utf-8", "replace")
    out = p.stdout.decode("utf-8", "replace")
    lines = err.splitlines()
    shown = (err + (" | stdout: " + out if out else "")).strip()[:300]
    if p.returncode < 0 or p.returncode not in (0, 1, 2):
        return "crash", f"status {p.returncode}: {shown}"
    if p.returncode != 2:
        return "accepted", f"status {p.returncode}: {shown}"
    raw_control = any(b < 0x20 and b not in (0x0a,) or b == 0x7f for b in p.stderr)
    if len(lines) != 1 or out or raw_control or not lines[0].startswith("ufs-sim: error: "):
        return "multi-line", shown.replace("\x1b", "\\x1b").replace("\x07", "\\x07")
    if expect.lower() not in lines[0].lower():
        return "wrong-message", f"(wants '{expect}') {lines[0][:300]}"
    return "ok", lines[0][:200]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sim")
    ap.add_argument("--sample", type=int, default=0, help="run this many cases spread over every class")
    ap.add_argument("--timeout", type=float, default=None, help="seconds before a case counts as a hang (offline)")
    ap.add_argument("--mem-gib", type=float, default=4.0, help="address-space cap per case (0: none)")
    ap.add_argument("--only", help="run only this class (preset, set, workload, cli, trace)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--verbose", action="store_true", help="print every case, not only the failures")
    a = ap.parse_args()
    a.sim = os.path.abspath(a.sim)
    cases = all_cases(a.sim)
    if a.only:
        cases = [c for c in cases if c.cls == a.only]
    if a.sample and a.sample < len(cases):
        # Every class in proportion, evenly spaced within it: the same cases each time.
        by_class = {}
        for c in cases:
            by_class.setdefault(c.cls, []).append(c)
        picked = []
        for cls, members in by_class.items():
            n = max(1, round(a.sample * len(members) / len(cases)))
            step = len(members) / n
            picked += [members[int(i * step)] for i in range(n)]
        cases = picked
    if a.list:
        for c in cases:
            print(f"{c.cls:9s} {c.name}")
        return 0
    counts = {}
    per_class = {}
    mem = int(a.mem_gib * (1 << 30)) if a.mem_gib else 0
    for c in cases:
        with tempfile.TemporaryDirectory() as tmp:
            verdict, text = run_case(a.sim, c, tmp, a.timeout, mem)
        counts[verdict] = counts.get(verdict, 0) + 1
        per_class.setdefault(c.cls, {}).setdefault(verdict, 0)
        per_class[c.cls][verdict] += 1
        if verdict != "ok" or a.verbose:
            print(f"{verdict:13s} {c.cls:9s} {c.name!r}: {text}", flush=True)
    print(f"\n{len(cases)} cases: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())))
    for cls, v in per_class.items():
        print(f"  {cls:9s} " + ", ".join(f"{k} {n}" for k, n in sorted(v.items())))
    return 0 if counts.get("ok", 0) == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
