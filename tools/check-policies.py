#!/usr/bin/env python3
"""Fails when library code breaks one of the cross-cutting rules that have one home (issue 43).

Rules, over include/shade/ and src/ (the library; tests, tools and the Python module excepted):
  raw-allocation  element memory comes from shade's allocator (memory/alloc.h: AlignedAlloc,
                  memory/scratch.h: ScratchBuffer / MakeSharedScratch, Storage), so the
                  allocation cap, overflow checks and alignment hold everywhere: no `new T[`,
                  malloc, calloc, realloc, aligned_alloc or posix_memalign outside
                  src/memory/alloc.cc.
  literal-grain   ParallelFor's grain comes from the grain model (backend/cpu/parallel.h and the
                  kernels' cost traits), not a number typed at the call: `ParallelFor(b, e, 4096,`
                  is rejected (a grain of 1, "each item is a task", is allowed).
A line may carry `// policy-ok(<rule>): <why>` (on it or on the line above) to exempt it, e.g. shape metadata whose size is
bounded by the rank. Every exemption is printed, so they stay visible.

Usage: check-policies.py [REPO_ROOT]               exit 1 and one line per violation
       check-policies.py --self-test [REPO_ROOT]   plants each violation in a copy; exit 0 when
                                                   every planted one is reported
"""
import os
import re
import shutil
import sys
import tempfile

RULES = {
    "raw-allocation": re.compile(
        r"\bnew\s+[A-Za-z_][\w:]*(\s*<[^;]*?>)?\s*\[|"
        r"(?<![\w.>:])(std::)?(malloc|calloc|realloc|aligned_alloc|posix_memalign)\s*\("),
    "literal-grain": re.compile(r"\bParallelFor\s*\(\s*[^,]+,\s*[^,]+,\s*(\d+|\d+\s*<<\s*\d+)\s*,"),
}
# The allocator itself.
ALLOWED_FILES = {"raw-allocation": {"src/memory/alloc.cc"}}
EXEMPT_RE = re.compile(r"//\s*policy-ok\(([\w-]+)\)")
GRAIN_ONE_RE = re.compile(r"\bParallelFor\s*\(\s*[^,]+,\s*[^,]+,\s*1\s*,")


def strip_comment(line):
    """The code part of a line (drops a // comment; string literals with // are rare here)."""
    pos = line.find("//")
    return line if pos < 0 else line[:pos]


def library_files(root):
    for top in ("include/shade", "src"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".h", ".cc", ".cuh", ".cu")):
                    full = os.path.join(dirpath, name)
                    yield os.path.relpath(full, root).replace(os.sep, "/"), full


def check(root):
    """Returns (violations, exemptions) as printable lines."""
    violations, exemptions = [], []
    for rel, full in library_files(root):
        with open(full, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        in_block_comment = False
        for number, line in enumerate(lines, 1):
            code = line
            if in_block_comment:
                if "*/" not in code:
                    continue
                code = code[code.index("*/") + 2:]
                in_block_comment = False
            if "/*" in code and "*/" not in code[code.index("/*"):]:
                in_block_comment = True
                code = code[:code.index("/*")]
            code = strip_comment(code)
            # A call may wrap: join the next line for the grain rule's three arguments.
            joined = code + " " + strip_comment(lines[number]) if number < len(lines) else code
            for rule, pattern in RULES.items():
                if rel in ALLOWED_FILES.get(rule, set()):
                    continue
                text = joined if rule == "literal-grain" else code
                if not pattern.search(text) or (rule == "literal-grain" and GRAIN_ONE_RE.search(text)):
                    continue
                if rule == "literal-grain" and not pattern.search(code + " "):
                    # only the joined form matched: report it on the line with ParallelFor
                    if "ParallelFor" not in code:
                        continue
                exempt = EXEMPT_RE.search(line) or (
                    EXEMPT_RE.search(lines[number - 2]) if number >= 2 else None)
                where = f"{rel}:{number}: [{rule}] {line.strip()}"
                if exempt and exempt.group(1) == rule:
                    exemptions.append(where)
                else:
                    violations.append(where)
    return violations, exemptions


PLANTS = {
    "raw-allocation": ("src/policy_plant_alloc.cc",
                       "float* f(long n) { return new float[n]; }\n"),
    "raw-allocation (malloc)": ("include/shade/policy_plant_malloc.h",
                                "inline void* g() { return malloc(16); }\n"),
    "literal-grain": ("src/policy_plant_grain.cc",
                      "void h() { ParallelFor(0, n, 4096, [&](index_t b, index_t e) {}); }\n"),
}


def self_test(root):
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "repo")
        for top in ("include", "src"):
            shutil.copytree(os.path.join(root, top), os.path.join(copy, top))
        before, _ = check(copy)
        if before:
            print("check-policies self-test: the unmodified tree already fails:")
            print("\n".join(before))
            return 1
        for rel, text in PLANTS.values():
            with open(os.path.join(copy, rel), "w", encoding="utf-8") as f:
                f.write(text)
        after, _ = check(copy)
        missing = [name for name, (rel, _) in PLANTS.items() if not any(v.startswith(rel + ":") for v in after)]
        if missing:
            print(f"check-policies self-test: planted violations not reported: {missing}")
            return 1
    print(f"check-policies self-test: all {len(PLANTS)} planted violations reported")
    return 0


def main():
    args = sys.argv[1:]
    if args and args[0] == "--self-test":
        return self_test(os.path.abspath(args[1] if len(args) > 1 else
                                         os.path.join(os.path.dirname(__file__), "..")))
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    violations, exemptions = check(root)
    for line in exemptions:
        print(f"exempt: {line}")
    if violations:
        print("\n".join(violations))
        print(f"check-policies: {len(violations)} violation(s) (tools/check-policies.py says why)")
        return 1
    print(f"check-policies: clean ({len(exemptions)} exempt lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
