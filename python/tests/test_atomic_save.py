"""Atomic saves (issue 44): shade.save / savez / savez_compressed replace the file only when the
new one is complete; a failing save (full disk, missing folder, bad data) keeps the old file
byte for byte and leaves no temporary. NumPy's np.load is the oracle for the file contents."""
import errno
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import shade

SAVERS = [
    ("save", lambda p, a: shade.save(p, a), lambda p: np.load(p)),
    ("savez", lambda p, a: shade.savez(p, a=a), lambda p: np.load(p)["a"]),
    ("savez_compressed", lambda p, a: shade.savez_compressed(p, a=a), lambda p: np.load(p)["a"]),
]


def _suffix(kind):
    return ".npy" if kind == "save" else ".npz"


def _file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("kind,save,load", SAVERS, ids=[s[0] for s in SAVERS])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.uint8])
def test_save_over_existing_file_replaces_it(tmp_path, kind, save, load, dtype):
    path = str(tmp_path / ("x" + _suffix(kind)))
    old = np.arange(12).reshape(3, 4).astype(dtype)
    new = (np.arange(20)[::-1] % 2).reshape(4, 5).astype(dtype).T  # non-contiguous
    save(path, old)
    np.testing.assert_array_equal(load(path), old)
    save(path, new)
    got = load(path)
    assert got.dtype == new.dtype and got.shape == new.shape
    np.testing.assert_array_equal(got, new)
    assert sorted(os.listdir(tmp_path)) == [os.path.basename(path)]


@pytest.mark.parametrize("kind,save,load", SAVERS, ids=[s[0] for s in SAVERS])
def test_new_file_mode_follows_umask(tmp_path, kind, save, load):
    path = str(tmp_path / ("m" + _suffix(kind)))
    old_mask = os.umask(0o027)
    try:
        save(path, np.zeros(3, np.float32))
    finally:
        os.umask(old_mask)
    assert os.stat(path).st_mode & 0o777 == 0o640


@pytest.mark.parametrize("kind,save,load", SAVERS, ids=[s[0] for s in SAVERS])
def test_save_into_missing_folder_raises_oserror_naming_path(tmp_path, kind, save, load):
    path = str(tmp_path / "missing" / ("x" + _suffix(kind)))
    with pytest.raises(FileNotFoundError, match="No such file or directory") as info:
        save(path, np.zeros(3))  # NumPy's class too
    assert path in str(info.value)
    assert info.value.errno == errno.ENOENT
    with pytest.raises(FileNotFoundError):
        shade.load(path)
    with pytest.raises(FileNotFoundError):
        np.save(path, np.zeros(3))


_CHILD = textwrap.dedent("""
    import errno, resource, signal, sys
    import numpy as np
    import shade
    kind, path = sys.argv[1], sys.argv[2]
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG from write() instead of a kill
    resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))
    big = np.random.default_rng(1).random(1 << 18)
    try:
        {"save": lambda: shade.save(path, big),
         "savez": lambda: shade.savez(path, a=big),
         "savez_compressed": lambda: shade.savez_compressed(path, a=big)}[kind]()
    except OSError as e:
        ok = path in str(e) and "File too large" in str(e) and e.errno == errno.EFBIG
        print("raised OSError" if ok else "bad message: %s" % e)
    else:
        print("saved")
""")


@pytest.mark.parametrize("kind,save,load", SAVERS, ids=[s[0] for s in SAVERS])
def test_full_disk_keeps_old_file(tmp_path, kind, save, load):
    path = str(tmp_path / ("full" + _suffix(kind)))
    old = np.arange(100, dtype=np.float64)
    save(path, old)
    before = _file_bytes(path)
    out = subprocess.run([sys.executable, "-c", _CHILD, kind, path], env=os.environ,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "raised OSError", out.stdout + out.stderr
    assert _file_bytes(path) == before
    np.testing.assert_array_equal(load(path), old)
    assert sorted(os.listdir(tmp_path)) == [os.path.basename(path)]


def test_bad_data_in_savez_keeps_old_file(tmp_path):
    path = str(tmp_path / "bad.npz")
    old = np.arange(6, dtype=np.int32)
    shade.savez(path, a=old)
    before = _file_bytes(path)
    with pytest.raises((TypeError, ValueError)):
        shade.savez(path, a=np.ones(3), b=np.array([object()], dtype=object))
    assert _file_bytes(path) == before
    assert sorted(os.listdir(tmp_path)) == ["bad.npz"]
