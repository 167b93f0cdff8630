"""help(shade.NAME) shows a docstring for every public function and class of shade,
shade.random and shade.linalg: text beyond the signature line pybind11 writes by itself."""
import inspect
import re

import pytest

import shade


def public_callables(module):
    names = getattr(module, "__all__", None) or dir(module)
    for name in sorted(names):
        if name.startswith("_"):
            continue
        obj = getattr(module, name)
        if not callable(obj) or inspect.ismodule(obj):
            continue
        # NumPy's own scalar types and dtype classes, re-exported as shade's dtypes.
        if isinstance(obj, type) and obj.__module__ == "numpy":
            continue
        yield "%s.%s" % (module.__name__, name), name, obj


def doc_text(name, obj):
    doc = inspect.cleandoc(obj.__doc__ or "")
    lines = doc.splitlines()
    # pybind11 starts with "name(arg: type, ...) -> type" (one per overload); drop those.
    sig = re.compile(r"^(\d+\. )?%s\(.*\)( -> .*)?$" % re.escape(name))
    lines = [ln for ln in lines if not sig.match(ln.strip())
             and ln.strip() != "Overloaded function."]
    return "\n".join(ln for ln in lines if ln.strip())


CASES = [c for m in (shade, shade.random, shade.linalg) for c in public_callables(m)]


@pytest.mark.parametrize("qualname,name,obj", CASES, ids=[c[0] for c in CASES])
def test_public_callable_has_docstring(qualname, name, obj):
    assert doc_text(name, obj), "%s has no docstring (help() would show only its signature)" % (
        qualname)


def test_textfile_docstrings_are_numpy_style():
    for f in (shade.loadtxt, shade.genfromtxt, shade.savetxt):
        assert "Parameters\n    ----------" in f.__doc__
