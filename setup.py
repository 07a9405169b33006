"""Builds the Python package webnn: the pure-Python modules of python/webnn and the extension
webnn._webnn, which the project's own CMake build compiles (target webnn_python).

Offline, from Debian's packages (see README.md, "Python"):
    /usr/bin/python3 -m venv --system-site-packages .venv
    .venv/bin/pip install --no-build-isolation .
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    return re.search(r"project\(webnn VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    """Configures the project with CMake (tests off, Python on, for this interpreter) and builds
    only the extension, then copies it where setuptools packages it."""

    def build_extension(self, ext):
        cmake = shutil.which("cmake")
        if not cmake:
            raise RuntimeError("webnn: cmake is required to build the extension (Debian: apt install cmake)")
        # Beside build/, at its depth: ccache (the project's CMake uses it when present) then serves
        # the objects build/ compiled with the same flags.
        build_dir = ROOT / "build-pip"
        configure = [cmake, "-S", str(ROOT), "-B", str(build_dir),
                     "-DCMAKE_BUILD_TYPE=Release", "-DWEBNN_BUILD_TESTS=OFF", "-DWEBNN_BUILD_PYTHON=ON",
                     f"-DPython_EXECUTABLE={sys.executable}"]
        # More CMake arguments from the environment (e.g. WEBNN_CMAKE_ARGS=-DWEBNN_WERROR=ON).
        configure += shlex.split(os.environ.get("WEBNN_CMAKE_ARGS", ""))
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
            configure += ["-G", "Ninja"]
        subprocess.check_call(configure)
        jobs = self.parallel or os.cpu_count() or 1
        subprocess.check_call([cmake, "--build", str(build_dir), "--target", "webnn_python", "-j", str(jobs)])
        built = sorted((build_dir / "python" / "webnn").glob("_webnn*"))
        if not built:
            raise RuntimeError(f"webnn: the CMake build produced no extension in {build_dir}/python/webnn")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


setup(
    version=project_version(),
    packages=["webnn"],
    package_dir={"": "python"},
    package_data={"webnn": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("webnn._webnn", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Beside CMake's build/ rather than inside it.
    options={"build": {"build_base": "build-pip/setuptools"}},
    zip_safe=False,
)
