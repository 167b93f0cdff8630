"""The checked-in type stubs (python/shade/*.pyi, written by tools/gen-stubs.py) name every
public name of shade, shade.random and shade.linalg, and parse as Python."""
import ast
from pathlib import Path

import pytest

import shade

STUBS = Path(__file__).resolve().parent.parent / "shade"


def stub_names(fname):
    tree = ast.parse((STUBS / fname).read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


@pytest.mark.parametrize("module,fname", [(shade, "__init__.pyi"), (shade.random, "random.pyi"),
                                          (shade.linalg, "linalg.pyi")])
def test_every_public_name_has_a_stub(module, fname):
    public = {n for n in (getattr(module, "__all__", None) or dir(module))
              if not n.startswith("_")}
    missing = sorted(public - stub_names(fname))
    assert not missing, "no stub for %s: run tools/gen-stubs.py" % missing
