"""The `companion` command line.

Each module in `companion/cli/commands/` adds its own sub-commands through
`register(subparsers)`, so a new area (dice, labels, scan) plugs in without editing a
shared list.  Exit codes: 0 done, 1 refused or an expectation failed, 2 bad input (each
chosen by the exception's type, see errors.py).  Everything printed goes through
`SafeStream`, so no text from a file or a camera can drive the terminal.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from companion.cli import commands
from companion.cli.safe import SafeStream
from companion.failures import explain


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: runs the enemy AI, fate cycle and boss attacks "
        "beside your board game.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    streams = sys.stdout, sys.stderr
    sys.stdout = SafeStream(sys.stdout)
    sys.stderr = SafeStream(sys.stderr)
    try:
        return _run(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - every known failure gets words, not a traceback
        known = explain(exc)
        if known is None:
            raise
        print(f"companion: {known[0]}", file=sys.stderr)
        return known[1]
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
