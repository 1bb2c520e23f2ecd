"""A phone host in a process of its own, for the fault test to kill with SIGKILL mid-command
and start again on the same session: `python -m tests.host.hostproc SESSION_FILE [N]`.

Prints one JSON line once it listens (port, join token, the table's name), then serves
until killed.  With N, it kills itself (SIGKILL, as a power cut would) right after the
Nth move is committed to the file and before its ack is sent: the worst moment, which a
kill from outside only hits by chance.  The session's game gets the fault test's buttons
(each phone adds its own amount), as the tablet would have its game's."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path


async def serve(path: Path, die_after: int = 0) -> None:
    from companion.core.session import Session
    from companion.host.server import PhoneHost
    from tests.host.tablegame import ManyHands

    session = Session.open(path)
    session.game = ManyHands()
    host = PhoneHost(session)  # port 0: the port the session kept, once it has one
    host.table.rate = host.table.burst = 1e9  # the phones here are fast on purpose
    commits = 0

    def power_cut(_session: object, _result: object) -> None:
        nonlocal commits
        commits += 1
        if commits == die_after:
            os.kill(os.getpid(), signal.SIGKILL)

    session.subscribe(power_cut)
    await host.start()
    print(
        json.dumps({"port": host.port, "join": host.tokens.join.token, "table": host.epoch}),
        flush=True,
    )
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(serve(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 0))
