"""buildozer.spec and the local recipes agree with what the desktop runs (the build itself
is never run here: no Android SDK or NDK; docs/app.md, "On a tablet")."""

from __future__ import annotations

import ast
import configparser
import contextlib
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from recipes import bleak_java

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.android_profile


def spec() -> configparser.SectionProxy:
    parser = configparser.ConfigParser()
    parser.read(ROOT / "buildozer.spec")
    return parser["app"]


def requirements() -> dict[str, str]:
    out = {}
    for item in spec()["requirements"].split(","):
        name, _, pin = item.strip().partition("==")
        out[name] = pin
    return out


def recipe_attrs(path: Path) -> dict[str, object]:
    """The class attributes a recipe file sets (it imports python-for-android, which is
    not installed here, so it is read, not imported)."""
    tree = ast.parse(path.read_text())
    attrs: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                    with contextlib.suppress(ValueError):
                        attrs[stmt.targets[0].id] = ast.literal_eval(stmt.value)
            attrs["bases"] = [ast.unparse(b) for b in node.bases]
    return attrs


def test_the_local_zxing_recipe_is_used_and_builds_the_desktops_version():
    assert (ROOT / spec()["p4a.local_recipes"] / "zxingcpp" / "__init__.py").exists()
    assert "zxingcpp" in requirements()
    attrs = recipe_attrs(ROOT / "recipes" / "zxingcpp" / "__init__.py")
    assert attrs["bases"] == ["PyProjectRecipe"]
    assert attrs["version"] == version("zxing-cpp")
    assert attrs["name"] == attrs["site_packages_name"] == "zxingcpp"
    assert "pypi" in str(attrs["url"]) or "pythonhosted" in str(attrs["url"])
    for patch in attrs["patches"]:  # type: ignore[attr-defined]
        assert (ROOT / "recipes" / "zxingcpp" / patch).exists()


def test_the_scanner_and_dice_libraries_are_asked_for():
    wanted = requirements()
    for name in ("opencv", "libzbar", "pyzbar", "numpy", "kivy", "msgspec", "pyjnius"):
        assert name in wanted, name
    assert wanted["bleak"] == version("bleak")  # the version whose Java sources are copied


def test_bleaks_java_sources_go_where_add_src_looks(tmp_path):
    assert spec()["android.add_src"] == "build/android-java"
    copied = bleak_java.copy_to(tmp_path / "java")
    assert [p.name for p in copied] == [
        "PythonBluetoothGattCallback.java",
        "PythonScanCallback.java",
    ]
    assert all("package com.github.hbldh.bleak;" in p.read_text() for p in copied)
    # the command buildozer.spec names
    proc = subprocess.run(
        [sys.executable, "-m", "recipes.bleak_java", str(tmp_path / "again")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout.count(".java") == 2
