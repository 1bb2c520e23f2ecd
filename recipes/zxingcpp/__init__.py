"""A python-for-android recipe for zxing-cpp (the scanner's first decoder), which
python-for-android has none of.  buildozer.spec points `p4a.local_recipes` at this
folder, so `requirements = ..., zxingcpp` builds it for each of `android.archs`.

zxing-cpp's PyPI sdist (pinned to the version the desktop runs) is a scikit-build-core
project: its CMake builds the C++ core and a nanobind module.  Cross-compiling it needs:

* the NDK's CMake toolchain, the ABI and the API level (`CMAKE_ARGS`, which
  scikit-build-core passes to CMake);
* CMake allowed to find packages outside the Android sysroot (nanobind comes from the
  build's own environment on the build machine);
* the target Python's headers and libpython (an Android extension module links it);
* no writers (zint would be fetched from GitHub mid-build; the app writes codes with
  segno) and no stub generation (it runs the built module, which is ARM code): the
  patch `no-stubs.patch` drops it;
* the module renamed to plain `zxingcpp.so` after the build: its name carries the build
  machine's ABI tag, which the tablet's Python would not look for, while every Python
  imports a plain `.so`.

Untried: no Android SDK or NDK on the machines this was written on (docs/app.md, "On a
tablet").  Without it the app still runs: the scanner falls back to OpenCV and pyzbar.
"""

from __future__ import annotations

import glob
import os
from os.path import basename, dirname, join
from typing import Any

from pythonforandroid.recipe import PyProjectRecipe  # type: ignore[import-not-found]


class ZxingCppRecipe(PyProjectRecipe):  # type: ignore[misc]
    name = "zxingcpp"
    version = "3.1.1"
    url = "https://files.pythonhosted.org/packages/source/z/zxing-cpp/zxing_cpp-{version}.tar.gz"
    site_packages_name = "zxingcpp"
    depends = ["python3", "numpy"]
    patches = ["no-stubs.patch"]
    need_stl_shared = True  # C++17: the NDK's libc++_shared.so goes into the APK
    hostpython_prerequisites = ["scikit-build-core>=0.12", "nanobind>=2.11.0", "cmake"]

    def get_recipe_env(self, arch: Any = None, **kwargs: Any) -> dict[str, str]:
        env: dict[str, str] = super().get_recipe_env(arch, **kwargs)
        python = self.ctx.python_recipe
        version = python.major_minor_version_string
        link_root = python.link_root(arch.arch)
        toolchain = join(self.ctx.ndk_dir, "build", "cmake", "android.toolchain.cmake")
        cmake_args = [
            f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
            f"-DANDROID_ABI={arch.arch}",
            f"-DANDROID_PLATFORM=android-{self.ctx.ndk_api}",
            "-DANDROID_STL=c++_shared",
            "-DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=BOTH",
            f"-DPython_INCLUDE_DIR={python.include_root(arch.arch)}",
            f"-DPython_LIBRARY={join(link_root, f'libpython{version}.so')}",
            f"-DCMAKE_SHARED_LINKER_FLAGS=-L{link_root} -lpython{version}",
            "-DZXING_WRITERS=OFF",
            "-DZXING_READERS=ON",
            "-DZXING_DEPENDENCIES=AUTO",
            "-DBUILD_SHARED_LIBS=OFF",
        ]
        env["CMAKE_ARGS"] = " ".join(cmake_args)
        return env

    def postbuild_arch(self, arch: Any) -> None:
        super().postbuild_arch(arch)
        package = join(self.ctx.get_python_install_dir(arch.arch), "zxingcpp")
        for built in glob.glob(join(package, "zxingcpp.*.so")):
            if basename(built) != "zxingcpp.so":
                os.replace(built, join(dirname(built), "zxingcpp.so"))


recipe = ZxingCppRecipe()
