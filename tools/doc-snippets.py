#!/usr/bin/env python3
"""Extracts the C++ code blocks of the docs so that CI compiles and runs every one.

Each block fenced as ```cpp is a complete program (includes and main); it is written to
OUTDIR/<page>_<n>.cc. A block fenced as ```cpp mpi is a complete program that links shade::dist
and runs under mpirun (its name is printed with the suffix ":mpi"). A block fenced as
```cpp excerpt PATH... quotes sources CI already builds: every line of it other than "..."
(its trailing // comment aside) must appear in one of those files, so an excerpt cannot drift
from the code; any other fence (cmake, text, sh) is not C++.
Usage: doc-snippets.py OUTDIR FILE.md...   (prints the names written, one per line)
       doc-snippets.py --check FILE.md...  (exit 1 if a ```cpp block has no main or an
                                            excerpt is not in its sources)
"""
import os
import re
import sys

FENCE = re.compile(r"^```(\S*)\s*(.*)$")


def blocks(path):
    """(info, extra, first line number, text) of each fenced block of a Markdown file."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = FENCE.match(line.rstrip("\n"))
            if cur is None and m:
                cur = (m.group(1), m.group(2), n + 1, [])
            elif cur is not None and line.startswith("```"):
                out.append((cur[0], cur[1], cur[2], "".join(cur[3])))
                cur = None
            elif cur is not None:
                cur[3].append(line)
    if cur is not None:
        sys.exit("%s:%d: unterminated code block" % (path, cur[2] - 1))
    return out


def check_excerpt(path, line, sources, text):
    """Number of problems (printed) with an excerpt quoting `sources` (repository paths)."""
    if not sources:
        print("%s:%d: ```cpp excerpt names no source file (```cpp excerpt PATH...)" % (path, line),
              file=sys.stderr)
        return 1
    quoted = []
    for src in sources:
        if not os.path.exists(src):
            print("%s:%d: excerpt source %s does not exist" % (path, line, src), file=sys.stderr)
            return 1
        with open(src, encoding="utf-8") as f:
            quoted.extend(" ".join(l.split()) for l in f)
    bad = 0
    for k, l in enumerate(text.splitlines()):
        code = " ".join(re.sub(r"\s*//.*$", "", l).split())
        if code in ("", "...") or any(code in q for q in quoted):
            continue
        print("%s:%d: excerpt line not found in %s: %s" % (path, line + k, " ".join(sources), code),
              file=sys.stderr)
        bad += 1
    return bad


def main(argv):
    check = argv[1:2] == ["--check"]
    outdir = None if check else argv[1]
    files = argv[2:]
    bad = 0
    for path in files:
        page = re.sub(r"[^A-Za-z0-9]+", "_", os.path.splitext(os.path.relpath(path))[0]).strip("_")
        k = 0
        for info, extra, line, text in blocks(path):
            if info != "cpp":
                continue
            words = extra.split()
            if words[:1] == ["excerpt"]:
                bad += check_excerpt(path, line, words[1:], text)
                continue
            mpi = words == ["mpi"]
            if words and not mpi:
                print("%s:%d: unknown ```cpp fence option %r (none, mpi or excerpt PATH...)"
                      % (path, line, extra), file=sys.stderr)
                bad += 1
                continue
            if not re.search(r"\bint\s+main\s*\(", text):
                print("%s:%d: a ```cpp block must be a complete program (or fenced "
                      "```cpp excerpt)" % (path, line), file=sys.stderr)
                bad += 1
                continue
            k += 1
            if outdir:
                name = "%s_%d" % (page, k)
                os.makedirs(outdir, exist_ok=True)
                target = os.path.join(outdir, name + ".cc")
                body = '#line %d "%s"\n%s' % (line, os.path.relpath(path), text)
                # Rewrite only when changed, so that an unchanged snippet is not rebuilt.
                if not os.path.exists(target) or open(target, encoding="utf-8").read() != body:
                    with open(target, "w", encoding="utf-8") as f:
                        f.write(body)
                print(name + (":mpi" if mpi else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
