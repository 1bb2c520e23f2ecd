"""Codes are never opened as links: nothing that handles them can reach a browser or the net."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HANDLERS = [*sorted((ROOT / "vision").glob("*.py")), ROOT / "companion/cli/commands/scan.py"]
FORBIDDEN = {
    "webbrowser",
    "urllib",
    "http",
    "socket",
    "requests",
    "httpx",
    "aiohttp",
    "subprocess",
    "os.startfile",
}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Attribute) and node.attr == "startfile":
            names.add("os.startfile")
    return names


def test_no_code_handler_imports_a_browser_or_network_library():
    assert len(HANDLERS) > 5
    for path in HANDLERS:
        bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN or m in FORBIDDEN}
        assert not bad, f"{path.name} imports {bad}"


def test_a_scanned_link_is_not_opened(monkeypatch, tmp_path):
    import webbrowser

    import cv2
    import numpy as np
    import segno

    from companion.cli import main

    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: opened.append(a))
    qr = segno.make("https://www.hexploreit.com/vol2/living")
    grid = np.pad(np.array([list(r) for r in qr.matrix], bool), 4)
    cv2.imwrite(
        str(tmp_path / "living.png"),
        cv2.resize(
            np.where(grid, 0, 255).astype(np.uint8),
            None,
            fx=8,
            fy=8,
            interpolation=cv2.INTER_NEAREST,
        ),
    )
    assert main(["scan", str(tmp_path / "living.png")]) == 0
    assert opened == []
