"""The `companion` command line.

Each module in `companion/cli/commands/` adds its own sub-commands through
`register(subparsers)`, so a new area (dice, labels, scan) plugs in without editing a
shared list.  Exit codes: 0 done, 1 refused or an expectation failed, 2 bad input.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from companion.cli import commands
from companion.cli.errors import CliError, friendly


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
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except CliError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - every known failure gets words, not a traceback
        message = friendly(exc)
        if message is None:
            raise
        print(f"companion: {message}", file=sys.stderr)
        return 1 if message.startswith("refused") else 2
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
