"""The phone host's server side (issue 29): 8 scripted phones on loopback.

- `ack`: a phone's command to its ack (the move and the phone's numbered record are one
  SQLite transaction, synchronous=FULL), one phone at a time and 8 at once.
- `other program`: a commit by a second process (the CLI beside the host) to the state
  on every phone, which the host finds by polling `PRAGMA data_version` (budget 250 ms
  to notice; issue 29's p99 budget for a second process's commit to every phone is
  400 ms).

Prints medians and p99 in milliseconds; never asserts (the machine is shared).
Run: `.venv/bin/python -m benchmarks host`.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHONES = 8
COMMANDS = 40  # per phone
WRITES = 40  # by the second process
WRITER = """
import sys, time
from pathlib import Path
from companion.core.session import Session
with Session.open(Path(sys.argv[1])) as session:
    for _ in range(int(sys.argv[2])):
        time.sleep(0.15)
        session.do("add", {"n": 1})
        print(session.state.score, time.time(), flush=True)
"""


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def line(name: str, values: list[float]) -> None:
    print(
        f"{name:44s} n={len(values):4d}  median {statistics.median(values):7.1f} ms"
        f"  p99 {p99(values):7.1f} ms"
    )


async def run() -> None:
    import aiohttp

    from companion.core.library import SUFFIX
    from companion.core.session import Session
    from companion.host.server import PhoneHost
    from tests.host.phones import ScriptPhone
    from tests.host.tablegame import tiny

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"bench{SUFFIX}"
        session = Session.create(path, tiny())  # the game the CLI opens too
        host = PhoneHost(session)
        host.table.rate = host.table.burst = 1e9
        await host.start()
        try:
            async with aiohttp.ClientSession() as client:
                phones = [ScriptPhone(client, host, f"p{n}", f"P{n}") for n in range(PHONES)]
                for phone in phones:
                    await phone.join()

                async def commands(phone: ScriptPhone, n: int) -> list[float]:
                    took = []
                    for _ in range(n):
                        start = time.perf_counter()
                        reply = await phone.send(phone.command("add", {"n": 1}))
                        took.append((time.perf_counter() - start) * 1000)
                        assert reply["ok"], reply
                    return took

                line("ack, one phone", await commands(phones[0], COMMANDS))
                together = await asyncio.gather(*(commands(p, COMMANDS) for p in phones))
                line(f"ack, {PHONES} phones at once", [t for one in together for t in one])

                seen: dict[int, list[float]] = {}

                async def watch(phone: ScriptPhone, last: int) -> None:
                    while True:
                        state = await phone.expect("state")
                        now = time.time()
                        score = int(state["summary"].rsplit(" ", 1)[-1])
                        seen.setdefault(score, []).append(now)
                        if score >= last:
                            return

                start_score = session.state.score
                watchers = [asyncio.create_task(watch(p, start_score + WRITES)) for p in phones]
                writer = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-c",
                    WRITER,
                    str(path),
                    str(WRITES),
                    cwd=ROOT,
                    stdout=subprocess.PIPE,
                )
                out, _ = await writer.communicate()
                await asyncio.wait_for(asyncio.gather(*watchers), 30)
                delays = []
                for row in out.decode().split("\n"):
                    if row.strip():
                        score, committed = row.split()
                        arrivals = seen.get(int(score), [])
                        delays += [(t - float(committed)) * 1000 for t in arrivals]
                line(f"other program's commit -> each of {PHONES}", delays)
        finally:
            await host.stop()
            session.close()


def main() -> None:
    sys.path.insert(0, str(ROOT))
    # the tiny test game and its content, as the tests have them (children inherit these)
    os.environ.setdefault("COMPANION_EXTRA_GAMES", "tests.fixtures.tinygame:GAME")
    os.environ.setdefault("COMPANION_CONTENT_PATH", str(ROOT / "tests" / "fixtures" / "content"))
    asyncio.run(run())


if __name__ == "__main__":
    main()
