"""The Android entry point (buildozer.spec): the same app, on the same asyncio loop."""

from __future__ import annotations

import asyncio

from companion.ui.app import CompanionApp


def main() -> None:
    asyncio.run(CompanionApp().async_run(async_lib="asyncio"))


if __name__ == "__main__":
    main()
