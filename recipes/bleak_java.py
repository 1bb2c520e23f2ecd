"""Puts bleak's Android Java sources where buildozer.spec's `android.add_src` looks.

bleak's Android backend (`bleak.backends.p4android`) calls two Java classes of its own
(a GATT callback and a scan callback, `com.github.hbldh.bleak.*`) through pyjnius; they
ship inside the bleak package as `.java` sources, and the APK must compile them in, or
the first scan fails with a missing class.  Run before `buildozer android debug`:

    .venv/bin/python -m recipes.bleak_java build/android-java

It copies them from the bleak installed here (buildozer.spec pins the same version in
`requirements`), so the repository holds none of bleak's code.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def java_sources() -> Path:
    """The `java` folder inside the installed bleak's Android backend."""
    import bleak

    found = Path(bleak.__file__).parent / "backends" / "p4android" / "java"
    if not any(found.rglob("*.java")):
        raise FileNotFoundError(f"bleak at {found.parent} holds no Android Java sources")
    return found


def copy_to(target: Path) -> list[Path]:
    """Replaces `target` with bleak's Java source tree; the `.java` files copied."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(java_sources(), target, ignore=shutil.ignore_patterns("__pycache__"))
    return sorted(target.rglob("*.java"))


def main(argv: list[str]) -> int:
    target = Path(argv[1] if len(argv) > 1 else "build/android-java")
    for path in copy_to(target):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
