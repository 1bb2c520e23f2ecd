"""`companion app`: the tablet app."""

from __future__ import annotations

import argparse


def cmd_app(args: argparse.Namespace) -> int:
    from companion.ui.launch import launch

    return launch(args)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("app", help="start the tablet app")
    p.add_argument(
        "--demo",
        action="store_true",
        help="demo content and a simulated dice tray (what 'make run' starts)",
    )
    p.add_argument("--screenshot", metavar="FILE", help="render a screen to a PNG and exit")
    p.add_argument("--screen", default="home", help="which screen for --screenshot")
    p.set_defaults(func=cmd_app)
