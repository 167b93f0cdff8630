#!/usr/bin/env python3
"""Checks that a portable build's per-target kernel objects share no symbol with other targets.

A portable build compiles the per-target sources (src/ndarray/simd_table.h) once per SIMD
target with that target's -m flags. Every code symbol such an object defines with external or
weak linkage must carry the target's namespace (N_SSE4, N_AVX2, N_AVX3: Highway's HWY_NAMESPACE, or
shade's SHADE_TARGET_NAMESPACE_BEGIN) in its name. Otherwise two targets emit the same weak
symbol (an inline function or template instantiated in both), the linker keeps one copy for
all callers, and an AVX-512 copy may run on a CPU without AVX-512.

usage: check-target-symbols.py BUILD_DIR     (exit 1 and a list when a symbol is shared)
       check-target-symbols.py --self-test BUILD_DIR
"""
import glob
import os
import subprocess
import sys


def object_files(build_dir):
    """{target name: [object files]} for the shade_simd_<target> object libraries."""
    found = {}
    for d in glob.glob(os.path.join(build_dir, "**", "shade_simd_*.dir"), recursive=True):
        target = os.path.basename(d)[len("shade_simd_"):-len(".dir")].upper()
        objs = glob.glob(os.path.join(d, "**", "*.o"), recursive=True)
        if objs:
            found.setdefault(target, []).extend(objs)
    return found


# nm's letters for code: T (text), W (weak, untagged: functions), i (indirect function). Data
# (V weak objects, B/D/R/C/u) is the same bytes for every target; sharing it is intended (the
# personality pointer, OpenMP's critical-section locks, the process-wide statics).
CODE_TYPES = set("TWi")
# The compiler's own helpers, identical whatever the target (clang's: __cxa_begin_catch then
# std::terminate, for an exception leaving a noexcept function).
COMPILER_HELPERS = {"__clang_call_terminate"}


def external_symbols(obj):
    """Demangled names of the code symbols obj defines with external or weak linkage."""
    out = subprocess.run(["nm", "-C", "--defined-only", "--extern-only", obj],
                         check=True, capture_output=True, text=True).stdout
    names = []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in CODE_TYPES and parts[2] not in COMPILER_HELPERS:
            names.append(parts[2])
    return names


def violations(target, objs):
    tag = "N_" + target
    bad = {}
    for obj in objs:
        for name in external_symbols(obj):
            if tag not in name:
                bad.setdefault(name, []).append(os.path.basename(obj))
    return bad


def main(argv):
    self_test = "--self-test" in argv
    args = [a for a in argv[1:] if a != "--self-test"]
    if len(args) != 1:
        print(__doc__)
        return 2
    found = object_files(args[0])
    if not found:
        print("check-target-symbols: no per-target objects under %s (not a portable build?)" % args[0])
        return 2
    if self_test:
        # The check must see a plain function: compile one into a fake per-target object.
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "planted.cc")
            with open(src, "w") as f:
                f.write("int shade_planted_unnamespaced(int x) { return x + 1; }\n")
            d = os.path.join(tmp, "shade_simd_avx2.dir")
            os.mkdir(d)
            obj = os.path.join(d, "planted.o")
            subprocess.run(["c++", "-c", src, "-o", obj], check=True)
            bad = violations("AVX2", [obj])
            if not any("shade_planted_unnamespaced" in n for n in bad):
                print("check-target-symbols --self-test: the planted symbol was NOT reported")
                return 1
            print("check-target-symbols --self-test: the planted symbol is reported")
            return 0
    status = 0
    for target, objs in sorted(found.items()):
        bad = violations(target, objs)
        if bad:
            status = 1
            print("%s: %d symbol(s) outside namespace N_%s:" % (target, len(bad), target))
            for name, where in sorted(bad.items()):
                print("  %s  (%s)" % (name, ", ".join(sorted(set(where)))))
        else:
            print("%s: %d objects, every external symbol in N_%s" % (target, len(objs), target))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
