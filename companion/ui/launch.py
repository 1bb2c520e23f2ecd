"""Starting the Kivy app: kept apart so the CLI never imports Kivy unless asked to."""

from __future__ import annotations

import argparse
import os
import sys


def launch(args: argparse.Namespace) -> int:
    if not args.screenshot and not os.environ.get("DISPLAY") and not os.environ.get(
        "WAYLAND_DISPLAY"
    ) and sys.platform.startswith("linux"):
        print(
            "There is no display here, so the app would run invisibly.\n"
            "To look at it anyway: companion app --screenshot home.png (renders the home "
            "screen to a PNG),\nor run it under a virtual screen: xvfb-run companion app --demo",
            file=sys.stderr,
        )
        return 2
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from companion.ui.app import CompanionApp

    CompanionApp(demo=args.demo).run()
    return 0
