#!/usr/bin/env python3
"""Print two or more run folders side by side (the main job: HPB off vs on).

    python3 sim/compare_runs.py RUN_DIR RUN_DIR [...]

Any run folders: every op any of them ran (count, IOPS, MB/s, latency), write
amplification and GC, the map cache, HPB when a run had it, busy fractions, the
scoreboard, and the configuration keys whose values differ (config.json). Reads
stats.json (contract: sim/output/README.md): throughput, latency, WAF, GC and busy
fractions are the measured phase's; other counters are the whole run's. A figure a run
does not have is "-". The last line compares the last run with the first, op by op.
Bad input (a folder without stats.json, a file that is not JSON) is one line and exit 2.
"""
import json
import os
import sys

OP_ORDER = ["read", "write", "flush", "unmap"]


class CompareError(Exception):
    pass


def load_json(run, name, required=True):
    path = os.path.join(run, name)
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        if not required:
            return None
        raise CompareError(f"{path}: no such file (not a run folder?)")
    except (OSError, ValueError) as e:
        raise CompareError(f"{path}: {e}")
    if not isinstance(data, dict):
        raise CompareError(f"{path}: not a JSON object")
    return data


def get(tree, *path):
    """tree[path...] or None when any step is missing."""
    for key in path:
        if not isinstance(tree, dict) or key not in tree:
            return None
        tree = tree[key]
    return tree


def number(value, fmt):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-"
    return format(value, fmt)


def mean(values):
    values = [v for v in values or [] if isinstance(v, (int, float))]
    return sum(values) / len(values) if values else None


def flatten(tree, prefix=""):
    out = {}
    for key, value in tree.items():
        name = prefix + key
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def rows_for(stats_list):
    """(label, [cell per run]) in display order; a row every run lacks is left out."""
    rows = []

    def add(label, cells):
        if any(c != "-" for c in cells):
            rows.append((label, cells))

    ops = []
    for s in stats_list:
        for op in (get(s, "ops") or {}):
            if op not in ops:
                ops.append(op)
    ops.sort(key=lambda o: (OP_ORDER.index(o) if o in OP_ORDER else len(OP_ORDER), o))
    for op in ops:
        o = [get(s, "ops", op) or {} for s in stats_list]
        add(f"{op}: count", [number(x.get("count"), ",") for x in o])
        add(f"{op}: IOPS", [number(x.get("iops"), ",.0f") for x in o])
        add(f"{op}: MB/s", [number(x.get("mb_per_s"), ".1f") for x in o])
        add(f"{op}: mean latency (us)", [number(x.get("mean"), ".1f") for x in o])
        add(f"{op}: p99 latency (us)", [number(x.get("p99"), ".1f") for x in o])
        add(f"{op}: p99.9 latency (us)", [number(x.get("p99_9"), ".1f") for x in o])
        add(f"{op}: max latency (us)", [number(x.get("max"), ".1f") for x in o])

    def waf(s, key):
        ftl = get(s, "ftl") or {}
        if key in ftl and ftl[key] is None:
            return "none"  # a run that wrote nothing has no write amplification
        return number(ftl.get(key), ".3f")

    add("write amplification", [waf(s, "write_amplification") for s in stats_list])
    add("write amplification (whole run)", [waf(s, "write_amplification_whole_run") for s in stats_list])
    add("GC victims", [number(get(s, "ftl", "measured", "gc_victims"), ",") for s in stats_list])
    add("  of which in idle time", [number(get(s, "ftl", "measured", "bg_gc_victims"), ",") for s in stats_list])
    add("GC moved sectors", [number(get(s, "ftl", "measured", "gc_moved_sectors"), ",") for s in stats_list])
    add("blocks erased (whole run)", [number(get(s, "ftl", "erases"), ",") for s in stats_list])
    add("L2P SRAM read misses", [number(get(s, "ftl", "map_cache", "read_misses"), ",") for s in stats_list])
    add("map pages loaded from NAND", [number(get(s, "ftl", "map_cache", "page_loads"), ",") for s in stats_list])
    if any(get(s, "hpb") for s in stats_list):
        def hpb(s, *path, default=0):
            # A run without HPB verified nothing: 0, not "-", so the pair reads as a comparison.
            return get(s, "hpb", *path) if get(s, "hpb") else default
        add("HPB READs verified", [number(hpb(s, "device", "verified"), ",") for s in stats_list])
        add("HPB entries rejected", [number(sum(v for k, v in (hpb(s, "device", default={}) or {}).items()
                                                 if k.startswith("rejected_") and isinstance(v, (int, float))), ",")
                                     for s in stats_list])
        add("READ BUFFERs (sub-regions)", [number(hpb(s, "device", "read_buffers"), ",") for s in stats_list])
        add("host memory for HPB (MiB)", [number((hpb(s, "host", "peak_memory_bytes") or 0) / 2**20, ".1f")
                                          for s in stats_list])
    add("firmware core busy", [number(get(s, "utilisation", "cpu_busy"), ".0%") for s in stats_list])
    add("link busy, host to device", [number(get(s, "utilisation", "link_host_to_device"), ".0%") for s in stats_list])
    add("link busy, device to host", [number(get(s, "utilisation", "link_device_to_host"), ".0%") for s in stats_list])
    add("dies busy (mean)", [number(mean(get(s, "utilisation", "die_busy")), ".0%") for s in stats_list])
    add("dies busy (max)", [number(max(get(s, "utilisation", "die_busy") or [None], key=lambda v: v or 0), ".0%")
                            for s in stats_list])
    add("channels busy (mean)", [number(mean(get(s, "utilisation", "channel_busy")), ".0%") for s in stats_list])
    add("scoreboard mismatches", [number(get(s, "scoreboard", "mismatches"), ",") for s in stats_list])
    return rows


def config_rows(configs):
    """Configuration keys whose values differ between the runs (a key a run lacks: "-")."""
    flat = [flatten(c) if c is not None else None for c in configs]
    if sum(f is not None for f in flat) < 2:
        return []
    keys = sorted(set().union(*(f.keys() for f in flat if f is not None)))
    rows = []
    for key in keys:
        values = [f.get(key, "-") if f is not None else "?" for f in flat]
        known = [v for v in values if v != "?"]
        if any(json.dumps(v) != json.dumps(known[0]) for v in known):
            rows.append((key, [v if isinstance(v, str) else json.dumps(v) for v in values]))
    return rows


def table(names, rows):
    width = max([len(label) for label, _ in rows] + [1])
    cols = [max([len(n)] + [len(cells[i]) for _, cells in rows]) for i, n in enumerate(names)]
    lines = [" " * width + "  " + "  ".join(n.rjust(c) for n, c in zip(names, cols))]
    for label, cells in rows:
        lines.append(label.ljust(width) + "  " + "  ".join(cell.rjust(c) for cell, c in zip(cells, cols)))
    return lines


def closing_line(names, first, last):
    parts = []
    for op in OP_ORDER + sorted(set(get(first, "ops") or {}) - set(OP_ORDER)):
        a, b = get(first, "ops", op), get(last, "ops", op)
        if not a or not b:
            continue
        bits = []
        if a.get("iops") and isinstance(b.get("iops"), (int, float)):
            bits.append(f"throughput {b['iops'] / a['iops'] - 1:+.1%}")
        if a.get("mean") and isinstance(b.get("mean"), (int, float)):
            bits.append(f"mean latency {b['mean'] / a['mean'] - 1:+.1%}")
        if bits:
            parts.append((op + " " if len(parts) or op != "read" else "") + ", ".join(bits))
    if not parts:
        return f"{names[-1]} vs {names[0]}: no op ran in both"
    return f"{names[-1]} vs {names[0]}: " + "; ".join(parts)


def main(argv):
    if len(argv) < 3 or any(a in ("-h", "--help") for a in argv[1:]):
        sys.stderr.write(__doc__.lstrip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    runs = argv[1:]
    try:
        stats = [load_json(r, "stats.json") for r in runs]
        configs = [load_json(r, "config.json", required=False) for r in runs]
    except CompareError as e:
        sys.stderr.write(f"compare_runs: error: {e}\n")
        return 2
    names = [os.path.basename(os.path.normpath(r)) for r in runs]
    if len(set(names)) < len(names):
        names = [os.path.normpath(r) for r in runs]
    out = [f"{n}: preset {s.get('preset', '?')}, workload {s.get('workload', '?')}" for n, s in zip(names, stats)]
    out += [""] + table(names, rows_for(stats))
    diff = config_rows(configs)
    if diff:
        out += ["", "configuration keys that differ:"] + table(names, diff)
    elif all(c is not None for c in configs):
        out += ["", "configuration: the same"]
    out += ["", closing_line(names, stats[0], stats[-1])]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
