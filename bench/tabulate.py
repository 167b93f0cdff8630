#!/usr/bin/python3
"""Reads the JSON of bench/run.sh (Google Benchmark aggregates + numpy.jsonl) and rewrites the
main table of bench/RESULTS.md between its markers: median time per workload and implementation,
and each peer's time divided by shade's (> 1: shade is faster)."""
import glob
import json
import os
import platform
import re
import subprocess
import sys
import time

IMPLS = ["eigen_tensor", "eigen_fixed", "eigen_array", "hand32", "xtensor", "numpy", "torch", "eigen", "cblas", "hand", "shade"]
BEGIN, END = "<!-- main-table:begin -->", "<!-- main-table:end -->"


def to_us(t, unit):
    return t * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[unit]


def parse(name, label):
    name = name.replace("/real_time", "").replace("_median", "")
    parts = name.split("/")
    head = parts[0][3:] if parts[0].startswith("BM_") else parts[0]
    args = {}
    for p in parts[1:]:
        if ":" in p:
            k, v = p.split(":", 1)
            args[k] = v
    impl = None
    m = re.match(r"(.*)<(.*)>$", head)
    tmpl = ""
    if m:
        head, tmpl = m.group(1), m.group(2)
    for cand in IMPLS:
        if head.endswith("_" + cand):
            impl, head = cand, head[: -len(cand) - 1]
            break
    if impl is None:
        return None
    work = head + (f"<{tmpl}>" if tmpl else "") + "".join(f" {k}={v}" for k, v in args.items() if k != "threads")
    if label:
        impl += "@" + label
    return work, args.get("threads", "1"), impl


def load(outdir):
    rows = {}
    for path in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        label = os.path.basename(path)[:-5].split("@")[1] if "@" in path else ""
        with open(path) as f:
            data = json.load(f)
        for b in data.get("benchmarks", []):
            if b.get("aggregate_name") != "median":
                continue
            key = parse(b["name"], label)
            if key:
                rows[key] = to_us(b["real_time"], b["time_unit"])
    npy = os.path.join(outdir, "numpy.jsonl")
    if os.path.exists(npy):
        for line in open(npy):
            b = json.loads(line)
            key = parse(b["name"], "")
            if key:
                rows[key] = to_us(b["real_time"], b["time_unit"])
    return rows


def machine():
    cpu = platform.processor()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                cpu = line.split(":", 1)[1].strip()
    except OSError:
        pass
    load = os.getloadavg()
    return f"{cpu}, {os.cpu_count()} logical CPUs, load average at the end {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f}"


def table(rows, command):
    works = {}
    for (work, threads, impl), t in rows.items():
        works.setdefault((work, threads), {})[impl] = t
    lines = [
        f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        f"Command: `{command}` (medians of the repetitions; times in microseconds).",
        "Ratio = peer time / shade time (> 1: shade is faster). `@Haswell`: OPENBLAS_CORETYPE=Haswell,",
        "`@auto`: unset (OpenBLAS picks its AVX-512 kernels). Peers without a threads argument run",
        "single-threaded (Eigen Array/Matrix, xtensor, NumPy).",
        "",
        "| workload | threads | implementation | median us | ratio vs shade |",
        "|---|---|---|---|---|",
    ]
    for (work, threads) in sorted(works):
        impls = works[(work, threads)]
        for impl in sorted(impls, key=lambda s: (not s.startswith("shade"), s)):
            t = impls[impl]
            label = impl.split("@")[1] if "@" in impl else ""
            base = impls.get("shade@" + label if label else "shade")
            if base is None and (work, "1") in works:
                base = works[(work, "1")].get("shade@" + label if label else "shade")
            ratio = f"{t / base:.2f}" if base and not impl.startswith("shade") else ""
            lines.append(f"| {work} | {threads} | {impl} | {t:.1f} | {ratio} |")
    return "\n".join(lines)


def main():
    outdir, results, command = sys.argv[1], sys.argv[2], sys.argv[3]
    body = table(load(outdir), command)
    text = open(results).read() if os.path.exists(results) else "# Benchmark results\n\n" + BEGIN + "\n" + END + "\n"
    if BEGIN not in text:
        text += "\n" + BEGIN + "\n" + END + "\n"
    pre, rest = text.split(BEGIN, 1)
    _, post = rest.split(END, 1)
    open(results, "w").write(pre + BEGIN + "\n" + body + "\n" + END + post)


if __name__ == "__main__":
    main()
