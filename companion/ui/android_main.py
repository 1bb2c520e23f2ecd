"""The Android entry point (buildozer.spec): the same app, on the same asyncio loop."""

from __future__ import annotations

import asyncio

from companion.ui.app import CompanionApp
from companion.ui.launch import run_app


def main() -> None:
    asyncio.run(run_app(CompanionApp()))


if __name__ == "__main__":
    main()
