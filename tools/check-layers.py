#!/usr/bin/env python3
"""Fails when a shade header or source includes a header of a higher layer, or a sibling's.

The layer order is written once, in docs/ARCHITECTURE.md between the `layers:begin` and
`layers:end` markers: one line per rank, lowest first; folders named on the same line are
siblings and may not include each other. A file's layer is the longest listed folder that
contains it (include/shade/<folder>/... or src/<folder>/...); files directly under
include/shade/ (the umbrella headers) are above every layer and are not checked.

Usage: check-layers.py [REPO_ROOT]   (exit 1 and one line per violation when the rule is broken)
       check-layers.py --self-test [REPO_ROOT]   (plants bad includes in a copy; exit 0 when
                                                  every planted one is reported)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"shade/([^"]+)"')


def read_layers(root):
    """Returns {folder: rank} from the marked block of docs/ARCHITECTURE.md."""
    path = os.path.join(root, "docs", "ARCHITECTURE.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    match = re.search(r"layers:begin.*?\n```\n(.*?)\n```", text, re.S)
    if not match:
        sys.exit(f"check-layers: no layers:begin block in {path}")
    ranks = {}
    for rank, line in enumerate(l for l in match.group(1).splitlines() if l.strip()):
        for folder in line.split():
            ranks[folder] = rank
    return ranks


def layer_of(rel_path, ranks):
    """The longest listed folder that holds rel_path (a path below include/shade or src)."""
    best = None
    for folder in ranks:
        if rel_path.startswith(folder + "/") and (best is None or len(folder) > len(best)):
            best = folder
    return best


def self_test(root):
    """Copies the tree, plants an upward and a sibling include, and checks both are reported."""
    with tempfile.TemporaryDirectory() as tmp:
        for part in ("include", "src", "docs"):
            shutil.copytree(os.path.join(root, part), os.path.join(tmp, part))
        clean = subprocess.run([sys.executable, __file__, tmp], capture_output=True, text=True)
        if clean.returncode != 0:
            print(clean.stdout, end="")
            print("self-test: the unmodified tree already fails")
            return 1
        planted = {
            "include/shade/base/index.h": '#include "shade/ndarray/ndarray.h"\n',
            "include/shade/io/npy.h": '#include "shade/param/parameter.h"\n',
        }
        for rel, line in planted.items():
            with open(os.path.join(tmp, rel), "a", encoding="utf-8") as f:
                f.write(line)
        bad = subprocess.run([sys.executable, __file__, tmp], capture_output=True, text=True)
        expected = ["layer 'base' includes shade/ndarray/ndarray.h of the higher layer 'ndarray'",
                    "layer 'io' includes shade/param/parameter.h of its sibling layer 'param'"]
        missing = [e for e in expected if e not in bad.stdout]
        if bad.returncode != 1 or missing:
            print(bad.stdout, end="")
            print(f"self-test: planted includes not reported: {missing}")
            return 1
    print("check-layers self-test: both planted includes reported")
    return 0


def main():
    args = sys.argv[1:]
    if args and args[0] == "--self-test":
        return self_test(os.path.abspath(args[1] if len(args) > 1 else
                                         os.path.join(os.path.dirname(__file__), "..")))
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    ranks = read_layers(root)
    violations = []
    unknown = []
    for base in ("include/shade", "src"):
        top = os.path.join(root, base)
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith((".h", ".cc", ".cu", ".cuh")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, top).replace(os.sep, "/")
                if "/" not in rel:
                    continue  # umbrella header (shade.h) or a stray top-level source
                src_layer = layer_of(rel, ranks)
                if src_layer is None:
                    unknown.append(f"{base}/{rel}")
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE_RE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        dst_layer = layer_of(target, ranks)
                        where = f"{base}/{rel}:{lineno}"
                        if dst_layer is None:
                            if "/" in target:
                                violations.append(f"{where}: includes shade/{target}, "
                                                  "which is in no listed layer")
                            continue
                        if ranks[dst_layer] > ranks[src_layer]:
                            violations.append(
                                f"{where}: layer '{src_layer}' includes shade/{target} "
                                f"of the higher layer '{dst_layer}'")
                        elif ranks[dst_layer] == ranks[src_layer] and dst_layer != src_layer:
                            violations.append(
                                f"{where}: layer '{src_layer}' includes shade/{target} "
                                f"of its sibling layer '{dst_layer}'")
    for path in unknown:
        violations.append(f"{path}: in no layer listed in docs/ARCHITECTURE.md")
    if violations:
        print("\n".join(violations))
        print(f"check-layers: {len(violations)} violation(s)")
        return 1
    print(f"check-layers: OK ({len(ranks)} layers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
