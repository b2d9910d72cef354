#!/usr/bin/env python3
"""The README's study results, regenerated from the studies' own CSVs (issue 17), so no figure
in that table is typed by hand.

  python3 sim/studies_table.py --ufs-sim build/sim/ufs-sim --runs DIR [--run [--jobs N]]
                               [--readme README.md] [--only NAME ...]

Each study writes DIR/NAME/NAME.csv (`ufs-sim experiment NAME --out DIR/NAME`); --run runs the
studies first (one after another; each sends its own simulations to --jobs workers). The
table has one row per study: its source (from `ufs-sim experiment --list`), every row with a
published figure as "published -> model (difference)", marked when it falls outside the
study's tolerance, then the model-only rows, and the commit that ran it (DIR/NAME/commit.txt,
which --run writes: the checkout holding the ufs-sim binary). With --readme the block between
the markers <!-- studies-table:begin --> and <!-- studies-table:end --> is replaced; without,
the table goes to stdout. A study on the list with no CSV in DIR is an error naming it, unless
--only leaves it out: a table with holes is not a table of runs. With --only and --readme the
named studies' rows are replaced and every other row stays as the README has it.
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys

BEGIN = "<!-- studies-table:begin -->"
END = "<!-- studies-table:end -->"
CSV_COLUMNS = ["study", "metric", "x", "published", "model", "unit", "tolerance"]


class TableError(Exception):
    pass


def study_list(listing):
    """`ufs-sim experiment --list` text -> [(name, summary, source, exit note)] in list order."""
    studies = []
    for line in listing.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            name, _, summary = line.partition(" ")
            studies.append({"name": name, "summary": summary.strip(), "source": "", "exits": ""})
        elif studies:
            text = line.strip()
            if text.startswith("source:"):
                studies[-1]["source"] = text[len("source:"):].strip()
            elif text.startswith("exits 1:"):
                studies[-1]["exits"] = text[len("exits 1:"):].strip()
    if not studies:
        raise TableError("ufs-sim experiment --list named no study")
    return studies


def number(text, path, line, column):
    if text == "":
        return math.nan
    try:
        return float(text)
    except ValueError:
        raise TableError("%s:%d: %s is not a number: %r" % (path, line, column, text))


def read_rows(path):
    """A study CSV (sim/output/study_table.h's contract) -> list of row dicts."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise TableError("%s:1: missing column(s) %s" % (path, ", ".join(missing)))
        rows = []
        for i, r in enumerate(reader, start=2):
            rows.append({"metric": r["metric"], "x": r["x"], "unit": r["unit"],
                         "published": number(r["published"], path, i, "published"),
                         "model": number(r["model"], path, i, "model"),
                         "tolerance": number(r["tolerance"], path, i, "tolerance")})
    if not rows:
        raise TableError("%s: no rows (the study wrote only its header)" % path)
    return rows


def fmt(value):
    """Three significant figures, thousands grouped; integers as integers."""
    if math.isnan(value):
        return "-"
    if value != 0 and abs(value) < 1:
        return "%.3g" % value
    if abs(value) >= 1000 or value == int(value):
        return "{:,.0f}".format(value)
    return "%.3g" % value if abs(value) < 100 else "%.1f" % value


def cell(text):
    """Markdown table cell: a pipe would end it, a line break would end the row."""
    return text.replace("|", "\\|").replace("\n", " ")


def label(row):
    metric = row["metric"].strip()  # "  of which NAND": indented under its parent in the study's print
    return metric + (" " + row["x"].strip() if row["x"].strip() else "")


def with_unit(value, unit):
    return fmt(value) + (" " + unit if unit else "")


def outside(row):
    p, m, tol = row["published"], row["model"], row["tolerance"]
    if math.isnan(p) or math.isnan(tol) or tol <= 0 or p == 0:
        return False
    return abs(m / p - 1) > tol + 1e-12


def result_cell(rows, model_only_limit):
    parts = []
    for r in rows:
        if math.isnan(r["published"]):
            continue
        diff = "" if r["published"] == 0 else " (%+.1f%%)" % (100 * (r["model"] / r["published"] - 1))
        mark = " **outside +/-%g%%**" % (100 * r["tolerance"]) if outside(r) else ""
        parts.append("%s: %s -> %s%s%s" % (label(r), fmt(r["published"]), with_unit(r["model"], r["unit"]), diff, mark))
    model_only = [r for r in rows if math.isnan(r["published"])]
    for r in model_only[:model_only_limit]:
        parts.append("%s: %s" % (label(r), with_unit(r["model"], r["unit"])))
    if len(model_only) > model_only_limit:
        parts.append("(%d more model-only rows in the CSV)" % (len(model_only) - model_only_limit))
    return "; ".join(parts)


HEADER = ["| study | source | published -> model (difference) | run at |", "|---|---|---|---|"]


def study_row(s, runs_dir, model_only_limit):
    path = os.path.join(runs_dir, s["name"], s["name"] + ".csv")
    if not os.path.exists(path):
        raise TableError("%s: no CSV for study %s (run `ufs-sim experiment %s --out %s`, or pass --run)"
                         % (path, s["name"], s["name"], os.path.join(runs_dir, s["name"])))
    rows = read_rows(path)
    n_out = sum(outside(r) for r in rows)
    name = "`%s`" % s["name"] + (" (exits 1: %d row%s outside)" % (n_out, "s" if n_out > 1 else "") if n_out else "")
    commit_file = os.path.join(runs_dir, s["name"], "commit.txt")
    commit = open(commit_file).read().strip() if os.path.exists(commit_file) else "?"
    return "| %s | %s | %s | %s |" % (cell(name), cell(s["source"]), cell(result_cell(rows, model_only_limit)),
                                      cell(commit))


def table(studies, runs_dir, only, model_only_limit, kept=None):
    """The table's text. With `only`, the other studies' rows come from `kept` (the block now in
    the README, by study name): a partial run updates its rows and leaves the rest as they were."""
    lines = list(HEADER)
    for s in studies:
        if not only or s["name"] in only:
            lines.append(study_row(s, runs_dir, model_only_limit))
        elif kept is not None:
            if s["name"] not in kept:
                raise TableError("the README's table has no row for study %s: run it too (add it to --only)"
                                 % s["name"])
            lines.append(kept[s["name"]])
    return "\n".join(lines) + "\n"


def rows_by_study(text):
    """The rows of the README's studies-table block, by the study named in the first cell."""
    if BEGIN not in text or END not in text:
        return {}
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = {}
    for line in block.splitlines():
        m = re.match(r"\| `([^`]+)`", line)
        if m:
            rows[m.group(1)] = line
    return rows


def replace_block(text, block, path):
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise TableError("%s: needs exactly one %s ... %s block" % (path, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + block + END + tail


def commit_of(repo):
    try:
        return subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ufs-sim", required=True, help="the ufs-sim binary (its --list names the studies)")
    ap.add_argument("--runs", required=True, help="folder of study outputs, one NAME/NAME.csv per study")
    ap.add_argument("--run", action="store_true", help="run the studies into --runs first")
    ap.add_argument("--jobs", type=int, default=1, help="workers per study with --run (default 1)")
    ap.add_argument("--only", nargs="+", default=[], help="only these studies")
    ap.add_argument("--readme", help="replace the studies-table block of this file")
    ap.add_argument("--model-only-rows", type=int, default=6, help="model-only rows shown per study (default 6)")
    a = ap.parse_args(argv)
    try:
        if a.jobs < 1:
            raise TableError("--jobs must be at least 1, got %d" % a.jobs)
        listing = subprocess.run([a.ufs_sim, "experiment", "--list"], capture_output=True, text=True)
        if listing.returncode != 0:
            raise TableError("%s experiment --list failed: %s" % (a.ufs_sim, listing.stderr.strip()))
        studies = study_list(listing.stdout)
        unknown = sorted(set(a.only) - {s["name"] for s in studies})
        if unknown:
            raise TableError("--only: no study named %s" % ", ".join(unknown))
        if a.run:
            for s in studies:
                if a.only and s["name"] not in a.only:
                    continue
                out = os.path.join(a.runs, s["name"])
                print("running %s" % s["name"], file=sys.stderr, flush=True)
                p = subprocess.run([a.ufs_sim, "experiment", s["name"], "--out", out, "--jobs", str(a.jobs)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if p.returncode not in (0, 1):  # 1: rows outside tolerance, still a table
                    raise TableError("study %s failed (exit %d): %s" % (s["name"], p.returncode, p.stderr.strip()))
                with open(os.path.join(out, "commit.txt"), "w") as f:  # which model made these numbers
                    f.write(commit_of(os.path.dirname(os.path.abspath(a.ufs_sim))) + "\n")
        if a.readme:
            with open(a.readme) as f:
                text = f.read()
            block = table(studies, a.runs, set(a.only), a.model_only_rows, kept=rows_by_study(text))
            stamp = ("Generated by `python3 sim/studies_table.py --readme README.md` from the studies' CSVs (the "
                     "last column: the commit whose ufs-sim ran the study); `ufs-sim experiment NAME` prints each "
                     "in full.\n\n")
            new_text = replace_block(text, stamp + block, a.readme)  # before opening: a refusal keeps the file
            with open(a.readme, "w") as f:
                f.write(new_text)
        else:
            sys.stdout.write(table(studies, a.runs, set(a.only), a.model_only_rows))
    except (TableError, OSError) as e:
        print("studies_table: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
