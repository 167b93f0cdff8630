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
    """{(workload, threads, impl): (median real time in us, bytes per second or None)}."""
    rows = {}
    for path in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        label = os.path.basename(path)[:-5].split("@")[1] if "@" in path else ""
        if os.path.getsize(path) == 0:
            # A binary whose rows the filter excluded writes nothing: no rows from it.
            print(f"tabulate.py: {path} is empty (no benchmark matched the filter); skipped",
                  file=sys.stderr)
            continue
        with open(path) as f:
            data = json.load(f)
        for b in data.get("benchmarks", []):
            # The median of the repetitions; with one repetition there are no aggregates and
            # the single run is the row.
            is_median = b.get("aggregate_name") == "median"
            if b.get("run_type") == "aggregate" and not is_median:
                continue
            key = parse(b["name"], label)
            if key and (is_median or key not in rows):
                rows[key] = (to_us(b["real_time"], b["time_unit"]), b.get("bytes_per_second"))
    npy = os.path.join(outdir, "numpy.jsonl")
    if os.path.exists(npy):
        for line in open(npy):
            b = json.loads(line)
            key = parse(b["name"], "")
            if key:
                rows[key] = (to_us(b["real_time"], b["time_unit"]), b.get("bytes_per_second"))
    return rows


# The main table is about issue 3's workloads; other rows (bench_ext, bench_dynamic, ...) have
# their own sections in RESULTS.md.
LABELS = [("W1_copy", "W1 copy, 2^24 floats"), ("W1_triad", "W1 triad a = b + 3c, 2^24 floats"),
          ("W2", "W2 a = b*c + d*2.5 - e/f, 2^24 floats"), ("W3_tanh", "W3 tanh, 2^22 floats"),
          ("W3_exp", "W3 exp, 2^22 floats"), ("W4_sum", "W4 full sum, 2^25 floats"),
          ("W4_axis0", "W4 axis-0 sum, 4096x4096"), ("W4_axis1", "W4 axis-1 sum, 4096x4096"),
          ("W5_transpose", "W5 transposed copy, 4096x4096"), ("Gemm", "W6 "), ("W7_add", "W7 a = b + c,"),
          ("W7_addrt", "W7 a = b + c, size known at run time only,")]


def label(work):
    for prefix, text in LABELS:
        if work == prefix or work.startswith(prefix + " ") or work.startswith(prefix + "<"):
            return text + work[len(prefix):]
    return None


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
        if label(work) is not None:
            works.setdefault((work, threads), {})[impl] = t
    lines = [
        f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        f"Command: `{command}` (medians of the repetitions; real time in microseconds).",
        "Ratio = peer time / shade time (> 1: shade is faster). `@Haswell`: OPENBLAS_CORETYPE=Haswell,",
        "`@auto`: unset (OpenBLAS picks its AVX-512 kernels). Peers without a threads argument run",
        "single-threaded (Eigen Array/Matrix, xtensor, NumPy); their ratio is against shade at the same",
        "thread count when it exists, else at 1 thread. GB/s: bytes moved per second (W1, W2).",
        "",
        "| workload | threads | implementation | median us | GB/s | ratio vs shade |",
        "|---|---|---|---|---|---|",
    ]
    for (work, threads) in sorted(works, key=lambda k: (label(k[0]), k[0], k[1])):
        impls = works[(work, threads)]
        for impl in sorted(impls, key=lambda s: (not s.startswith("shade"), s)):
            t, bps = impls[impl]
            tag = impl.split("@")[1] if "@" in impl else ""
            shade_name = "shade@" + tag if tag else "shade"
            base = impls.get(shade_name)
            if base is None and (work, "1") in works:
                base = works[(work, "1")].get(shade_name)
            ratio = f"{t / base[0]:.2f}" if base and base[0] > 0 and not impl.startswith("shade") else ""
            gbs = f"{bps / 1e9:.2f}" if bps else ""
            shown = f"{t:.1f}" if t >= 100 else f"{t:.3g}"  # W7 rows are a few nanoseconds
            lines.append(f"| {label(work)} | {threads} | {impl} | {shown} | {gbs} | {ratio} |")
    # W2 moves 24 bytes per element, the triad 12: the triad's GB/s is the bandwidth limit W2 can
    # reach, so W2's GB/s over the triad's is its fraction of the bandwidth equivalent.
    for threads in ("1", "2"):
        w2 = works.get(("W2", threads), {}).get("shade")
        triad = works.get(("W1_triad", threads), {}).get("shade")
        if w2 and triad and w2[1] and triad[1]:
            lines.append("")
            lines.append(f"W2 at {threads} thread(s): {w2[1] / 1e9:.2f} GB/s = {w2[1] / triad[1]:.2f}x the "
                         f"STREAM triad's {triad[1] / 1e9:.2f} GB/s (target >= 0.9x).")
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
