#!/usr/bin/env python3
"""Fetch the trace files some studies replay into the trace cache, checking each SHA-256.

    python3 sim/get_traces.py                 # every file of sim/traces.sha256
    python3 sim/get_traces.py cod slideshow   # files whose name starts with these
    python3 sim/get_traces.py --from DIR      # copy from local files instead (no internet)
    python3 sim/get_traces.py --list          # what there is and what the cache holds

The cache is $UFS_TRACE_DIR, else $XDG_CACHE_HOME/ufs-tlm/traces (~/.cache/ufs-tlm/traces);
`ufs-sim experiment` looks there (sim/experiments/experiment.cpp, trace_dir()). A file
whose hash differs from the manifest's is not kept. Exit status: 0 when every file asked
for is in the cache with the right hash, 1 when one could not be fetched or checked, 2 for
bad usage. Python's standard library only (https needs Debian's ca-certificates).
"""
import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def default_dir():
    if os.environ.get("UFS_TRACE_DIR"):
        return os.environ["UFS_TRACE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ufs-tlm", "traces")


def read_manifest(path):
    """[(name, sha256, url)] from 'name sha256 url' lines; '#' starts a comment."""
    entries = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) != 3 or len(fields[1]) != 64 or any(c not in "0123456789abcdef" for c in fields[1]):
                sys.exit(f"get_traces.py: error: {path}:{number}: expected 'name sha256 url'")
            entries.append(tuple(fields))
    return entries


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch(name, digest, url, source, cache):
    """Brings one file into the cache; returns an error message or None."""
    target = os.path.join(cache, name)
    if os.path.exists(target) and sha256_of(target) == digest:
        print(f"{name}: already in {cache}")
        return None
    if source:  # a local folder or another URL holding files of the same names
        origin = os.path.join(source, name) if "://" not in source else source.rstrip("/") + "/" + name
    else:
        origin = url
    print(f"{name}: fetching {origin}", flush=True)
    fd, part = tempfile.mkstemp(prefix=name + ".", suffix=".part", dir=cache)
    try:
        with os.fdopen(fd, "wb") as out:
            if "://" in origin:
                with urllib.request.urlopen(origin, timeout=60) as answer:
                    shutil.copyfileobj(answer, out)
            else:
                with open(origin, "rb") as f:
                    shutil.copyfileobj(f, out)
        got = sha256_of(part)
        if got != digest:
            return f"{name}: SHA-256 {got} from {origin}, expected {digest}: not kept"
        os.replace(part, target)
        print(f"{name}: {os.path.getsize(target) / 1e6:.1f} MB, SHA-256 ok")
        return None
    except (OSError, urllib.error.URLError) as e:
        reason = getattr(e, "reason", None) or e
        hint = ""
        if "CERTIFICATE" in str(reason).upper():
            hint = " (install ca-certificates)"
        elif "://" in origin:
            hint = " (no internet here? copy the files from elsewhere and use --from DIR)"
        return f"{name}: cannot fetch {origin}: {reason}{hint}"
    finally:
        if os.path.exists(part):
            os.remove(part)


def main():
    p = argparse.ArgumentParser(description="Fetch the studies' trace files into the trace cache (SHA-256 checked).")
    p.add_argument("names", nargs="*", help="file names or their beginnings (cod, slideshow, ...); default: all")
    p.add_argument("--from", dest="source", help="a folder (or URL) holding the files under the same names")
    p.add_argument("--dir", default=default_dir(), help="the trace cache (default: %(default)s)")
    p.add_argument("--manifest", default=os.path.join(HERE, "traces.sha256"), help=argparse.SUPPRESS)
    p.add_argument("--list", action="store_true", help="name every file and whether the cache holds it")
    args = p.parse_args()
    entries = read_manifest(args.manifest)
    if args.list:
        for name, digest, url in entries:
            there = os.path.exists(os.path.join(args.dir, name))
            print(f"{name:32} {'in cache' if there else 'missing '}  {url}")
        return 0
    chosen = [e for e in entries if not args.names or any(e[0].startswith(n) for n in args.names)]
    unknown = [n for n in args.names if not any(e[0].startswith(n) for e in entries)]
    if unknown:
        known = ", ".join(e[0] for e in entries)
        print(f"get_traces.py: error: no trace named {', '.join(unknown)} (known: {known})", file=sys.stderr)
        return 2
    os.makedirs(args.dir, exist_ok=True)
    problems = [m for m in (fetch(*e, args.source, args.dir) for e in chosen) if m]
    for m in problems:
        print(f"get_traces.py: error: {m}", file=sys.stderr)
    if not problems:
        print(f"{len(chosen)} file(s) in {args.dir}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
