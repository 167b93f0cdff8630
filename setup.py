"""`pip install .` for the shade Python module (issue 40 item 10).

The extension is built by the project's CMake (python/CMakeLists.txt's `shade_python` target
over the `shade` library): this file only configures and builds that target in setuptools'
temporary folder and copies `_shade*.so` next to the package, so there is one build
definition. Offline and with Debian's setuptools and pybind11:

    python3 -m venv --system-site-packages venv && venv/bin/pip install --no-build-isolation .

Environment: SHADE_CMAKE_ARGS (extra configure arguments), SHADE_BUILD_JOBS (default 2).
ccache is used when it is installed.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(shade VERSION ([0-9.]+)", text).group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build_dir = Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir),
                     "-DCMAKE_BUILD_TYPE=Release", "-DSHADE_BUILD_TESTS=OFF",
                     "-DSHADE_BUILD_EXAMPLES=OFF", "-DPython_EXECUTABLE=" + sys.executable]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        configure += os.environ.get("SHADE_CMAKE_ARGS", "").split()
        subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "shade_python",
                               "-j", os.environ.get("SHADE_BUILD_JOBS", "2")])
        built = sorted((build_dir / "python" / "shade").glob("_shade*.so"))
        if not built:
            raise RuntimeError("the CMake build made no _shade*.so (is pybind11-dev installed?)")
        target_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], Path(self.get_ext_fullpath(ext.name)))


setup(
    name="shade",
    version=project_version(),
    description="NumPy-compatible arrays over shade's C++ tensor library",
    packages=["shade"],
    package_dir={"": "python"},
    package_data={"shade": ["*.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("shade._shade")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.11",
    install_requires=["numpy"],
    zip_safe=False,
)
