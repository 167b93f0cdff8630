#!/usr/bin/env python3
"""Tabulates bench/ab.sh's JSON: per row, the median real time of each side and the median over
rounds of the per-round ratio after/before (a ratio within one round compares runs made seconds
apart, so slow drifts of the machine cancel)."""
import collections
import glob
import json
import os
import re
import statistics
import sys

out = sys.argv[1]
# times[(binary, row)][side][round] = median real time (ns)
times = collections.defaultdict(lambda: collections.defaultdict(dict))
for path in glob.glob(os.path.join(out, "*.json")):
    m = re.match(r"(.+)\.(before|after)\.(\d+)\.json$", os.path.basename(path))
    if not m:
        continue
    binary, side, rnd = m.group(1), m.group(2), int(m.group(3))
    if os.path.getsize(path) == 0:
        continue  # the filter matched no row of this binary (Google Benchmark prints nothing)
    try:
        with open(path) as f:
            data = json.load(f)
    except (json.JSONDecodeError, OSError):
        print(f"ab_table: {path} is not JSON (the run failed)", file=sys.stderr)
        continue
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    for b in data.get("benchmarks", []):
        if b.get("aggregate_name") != "median":
            continue
        row = b["run_name"]
        times[(binary, row)][side][rnd] = b["real_time"] * scale[b.get("time_unit", "ns")]

both, only = [], []
for key, sides in sorted(times.items()):
    rounds = sorted(set(sides["before"]) & set(sides["after"]))
    if not rounds:
        only.append((key, "before" if sides["before"] else "after"))
        continue
    ratios = [sides["after"][r] / sides["before"][r] for r in rounds]
    both.append((key, statistics.median(sides["before"][r] for r in rounds),
                 statistics.median(sides["after"][r] for r in rounds),
                 statistics.median(ratios), min(ratios), max(ratios), len(rounds)))


def fmt(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.3f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.1f} ns"


print("| binary | row | before | after | after/before (median of rounds) | range | rounds |")
print("|---|---|---|---|---|---|---|")
for (binary, row), b, a, med, lo, hi, n in both:
    flag = " **>1.03**" if med > 1.03 else ""
    print(f"| {binary} | {row} | {fmt(b)} | {fmt(a)} | {med:.3f}{flag} | {lo:.2f}-{hi:.2f} | {n} |")
slower = [x for x in both if x[3] > 1.03]
ratios = sorted(x[3] for x in both)
if ratios:
    print(f"\n{len(both)} rows in both builds; median ratio {statistics.median(ratios):.3f}; "
          f"{len(slower)} rows slower by more than 3%.")
for (binary, row), side in only:
    print(f"- only in the {side} build: {binary} {row}")
