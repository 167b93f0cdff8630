#!/usr/bin/env python3
"""docs/numpy.md: NumPy's public names (main namespace, linalg, random), one table row each.

Each row says whether shade has the name and how it relates to NumPy's:
  implemented   - the name exists in shade with NumPy's behaviour
  differs       - the name exists; the note says how it differs
  planned       - not in shade yet; the note names the issue that will add it
  not planned   - not in shade; the note says why
A fourth table lists the public names shade has that NumPy has not (each with a note).

  tools/numpy-table.py --check   fails (exit 1, with the names) when a NumPy name has no row, a
                                 row names something NumPy does not have, a row says implemented
                                 or differs but shade lacks the name, a row says planned or
                                 not planned but shade has it, or a public shade name has no row
  tools/numpy-table.py --update  rewrites the tables: rows are kept, missing NumPy names are added
                                 (as planned, or implemented when shade has them), rows whose
                                 status contradicts the module are corrected and marked so

Run with PYTHONPATH pointing at a built module (the ctest does this) and /usr/bin/python3.
"""
import argparse
import re
import sys
from pathlib import Path

import numpy as np

import shade

SECTIONS = [("numpy", "main namespace", np, shade),
            ("numpy.linalg", "linalg", np.linalg, getattr(shade, "linalg", None)),
            ("numpy.random", "random", np.random, getattr(shade, "random", None))]
EXISTS = {"implemented", "differs"}
ABSENT = {"planned", "not planned"}
ROW = re.compile(r"^\| `([^`]+)` \| ([a-z ]+) \| (.*) \|$")
DOC = Path(__file__).resolve().parent.parent / "docs" / "numpy.md"
HEAD = """# shade and NumPy, name by name

Every public name of NumPy 1.24's main namespace, `numpy.linalg` and `numpy.random`, and what
shade has for it: **implemented** (NumPy's behaviour), **differs** (the note says how),
**planned** (not yet; the note names the issue) or **not planned** (the note says why).
The last table lists shade's own public names. `tools/numpy-table.py --check` (the ctest
`numpy_names_table`) fails when this page and the module disagree in either direction.

"""


def public(module):
    if module is None:
        return set()
    names = getattr(module, "__all__", None)
    names = set(names) if names is not None else set(dir(module))
    return {n for n in names if not n.startswith("_")}


def numpy_public(module):
    return {n for n in dir(module) if not n.startswith("_")}


def parse(text):
    tables, current = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            tables[current] = {}
        m = ROW.match(line)
        if m and current is not None:
            tables[current][m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return tables


def render(tables):
    out = [HEAD]
    for _, title, _, _ in SECTIONS + [(None, "shade only", None, None)]:
        rows = tables.get(title, {})
        counts = {}
        for status, _ in rows.values():
            counts[status] = counts.get(status, 0) + 1
        summary = ", ".join(f"{counts[k]} {k}" for k in sorted(counts))
        out.append(f"## {title}\n\n{len(rows)} names: {summary}.\n\n| name | status | note |\n|---|---|---|\n")
        for name in sorted(rows, key=str.lower):
            status, note = rows[name]
            out.append(f"| `{name}` | {status} | {note} |\n")
        out.append("\n")
    return "".join(out)


def problems_and_fix(tables, fix):
    problems = []
    numpy_names_all = set()
    for _, title, np_mod, sh_mod in SECTIONS:
        rows = tables.setdefault(title, {})
        np_names = numpy_public(np_mod)
        sh_names = public(sh_mod)
        numpy_names_all |= {f"{title}:{n}" for n in np_names}
        for name in sorted(np_names - rows.keys()):
            problems.append(f"{title}: NumPy's `{name}` has no row")
            if fix:
                rows[name] = ("implemented", "") if name in sh_names else ("planned", "issue 40")
        for name in sorted(rows.keys() - np_names):
            problems.append(f"{title}: `{name}` is not a NumPy 1.24 name")
            if fix:
                del rows[name]
        for name, (status, note) in list(rows.items()):
            if status in EXISTS and name not in sh_names:
                problems.append(f"{title}: `{name}` is marked {status} but shade has no such name")
                if fix:
                    rows[name] = ("planned", "issue 40 (was marked " + status + ")")
            elif status in ABSENT and name in sh_names:
                problems.append(f"{title}: `{name}` is marked {status} but shade has it")
                if fix:
                    rows[name] = ("implemented", note if status == "not planned" else "")
            elif status not in EXISTS | ABSENT:
                problems.append(f"{title}: `{name}` has an unknown status '{status}'")
    # shade's own public names (main namespace) that NumPy lacks.
    own = tables.setdefault("shade only", {})
    extra = public(shade) - numpy_public(np)
    for name in sorted(extra - own.keys()):
        problems.append(f"shade only: shade's `{name}` has no row")
        if fix:
            own[name] = ("differs", "shade's own name (describe it)")
    for name in sorted(own.keys() - extra):
        problems.append(f"shade only: `{name}` is not a public shade name, or NumPy has it")
        if fix:
            del own[name]
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--doc", default=str(DOC))
    args = ap.parse_args()
    doc = Path(args.doc)
    tables = parse(doc.read_text()) if doc.exists() else {}
    problems = problems_and_fix(tables, fix=args.update)
    if args.update:
        doc.write_text(render(tables))
        print(f"numpy-table: wrote {doc} ({len(problems)} rows added or corrected)")
        return 0
    for p in problems:
        print("numpy-table:", p)
    if problems:
        print(f"numpy-table: {len(problems)} disagreements between {doc} and the module")
        return 1
    n = sum(len(t) for t in tables.values())
    print(f"numpy-table: {doc.name} and the module agree ({n} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
