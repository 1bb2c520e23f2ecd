"""`companion dice`: what dice are out there, the rolls as they come, a simulated tray,
which die plays which role in a session, and plain dice read from photos (`read`, in
companion/cli/dice_read.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
import time
from typing import TYPE_CHECKING

from companion.failures import CliError

if TYPE_CHECKING:
    from hardware.source import RollEvent


def _print(line: str) -> None:
    print(line, flush=True)


# -- scan ----------------------------------------------------------------------------------


async def _scan(timeout: float) -> list[tuple[str, str, str]]:
    from serial.tools import list_ports

    from hardware.serial_tray import BOARD_VIDS

    found = []
    for p in list_ports.comports():
        hint = "tray board" if p.vid in BOARD_VIDS else "serial port"
        found.append(("serial", p.device, f"{p.description or ''} ({hint})"))
    try:
        from bleak import BleakScanner

        from hardware import ble_tray, godice, pixels

        seen = await BleakScanner.discover(timeout, return_adv=True)
        for device, adv in seen.values():
            name = adv.local_name or device.name or ""
            if ble_tray.advertises(adv.service_uuids, name):
                kind = "tray-ble"
            elif pixels.advertises(adv.service_uuids, adv.manufacturer_data):
                kind = "pixels"
            elif godice.advertises(name):
                kind = "godice"
            else:
                continue
            found.append((kind, device.address, name))
    except Exception as exc:  # noqa: BLE001 - no adapter, no BlueZ, no permission: say so
        why = str(exc) or type(exc).__name__
        found.append(("bluetooth", "-", f"no Bluetooth adapter or service here ({why})"))
    return found


def cmd_scan(args: argparse.Namespace) -> int:
    found = asyncio.run(_scan(args.timeout))
    if args.json:
        print(json.dumps([{"kind": k, "id": i, "name": n} for k, i, n in found], indent=2))
        return 0
    if not found:
        _print("no dice devices found")
    for kind, ident, name in found:
        _print(f"{kind:10} {ident:24} {name}")
    return 0


# -- watch ---------------------------------------------------------------------------------


def _describe(event: RollEvent, message: str | None) -> str:
    face = "" if event.face_index < 0 else f" face {event.face_index + 1}"
    line = f"{event.die_id:24} {event.state:8}{face}  (roll {event.seq})"
    return f"{line}  -> {message}" if message else line


async def _watch(args: argparse.Namespace) -> int:
    from hardware.linked import DiceSourceError
    from hardware.source import DiceSource
    from hardware.sources import UnknownSource, make_source

    tray = None
    source: DiceSource
    try:
        if args.source == "sim":
            from hardware.simulated import open_simulated_source

            tray, source = await open_simulated_source()
            _print(f"simulated tray on {tray.port}")
        else:
            source = make_source(args.source)
            await source.connect()
    except (DiceSourceError, UnknownSource) as exc:
        raise CliError(str(exc)) from None
    answerer = session = None
    if args.answer:
        from companion.core.library import Library
        from companion.paths import data_home
        from companion.table.assignments import Assignments
        from companion.table.dice_answers import RequestAnswerer

        session = Library().open(args.answer)
        answerer = RequestAnswerer(session, Assignments.load(session.id, data_home()))
        if session.request is not None:
            _print(f"waiting: {session.request.describe()}")
    _print(f"watching {source.name} ({source.status}); Ctrl-C stops")
    seen = 0
    deadline = time.monotonic() + args.timeout if args.timeout else None
    try:
        it = source.rolls().__aiter__()
        while args.count is None or seen < args.count:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            try:
                event = await asyncio.wait_for(it.__anext__(), left)
            except TimeoutError:
                break
            seen += 1
            message = answerer.feed(event) if answerer else None
            if args.json:
                print(
                    json.dumps(
                        {
                            "die": event.die_id,
                            "state": event.state,
                            "face_index": event.face_index,
                            "roll": event.seq,
                            "source": event.source,
                            "message": message,
                        }
                    ),
                    flush=True,
                )
            else:
                _print(_describe(event, message))
    finally:
        await source.disconnect()
        if tray is not None:
            tray.stop()
        if session is not None:
            session.close()
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    return asyncio.run(_watch(args))


# -- simulate ------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    """Start the simulated tray and print its port; lines on stdin are control lines
    ("roll 1 4"), and --roll-every makes it roll by itself."""
    from hardware.simulated import SimulatedTray

    tray = SimulatedTray(runtime=args.runtime).start()
    _print(tray.port)
    if args.verbose:
        _print(f"stable link: {tray.link}")
    stop = threading.Event()

    def read_stdin() -> None:
        for line in sys.stdin:
            if line.strip() == "quit":
                break
            if line.strip():
                tray.control(line.strip())
        if args.stdin_ends:
            stop.set()

    threading.Thread(target=read_stdin, daemon=True).start()
    started = time.monotonic()
    next_roll = started + (args.roll_every or 0)
    try:
        while not stop.is_set():
            if args.duration and time.monotonic() - started >= args.duration:
                break
            if args.roll_every and time.monotonic() >= next_roll:
                tray.roll(count=args.dice)
                next_roll += args.roll_every
            stop.wait(0.05)
    except KeyboardInterrupt:
        pass
    finally:
        tray.stop()
    return 0


# -- assign --------------------------------------------------------------------------------


def cmd_assign(args: argparse.Namespace) -> int:
    from companion.core.library import Library
    from companion.paths import data_home
    from companion.table.assignments import Assignments, key_words, keys_for, names_in

    with Library().open(args.session) as session:
        assignments = Assignments.load(session.id, data_home())
        if args.role:
            assignments.assign(args.role, args.dice)
            assignments.save()
        names = names_in(session.request)
        for role, dice in sorted(assignments.roles.items()):
            _print(f"{role:24} {' '.join(dice):24} {key_words(role, names)}")
        if not assignments.roles:
            _print("no dice assigned: any free die answers")
        request = session.request
        if request is not None and request.kind == "dice":
            keys = ", ".join(keys_for(request))
            _print(f"waiting: {request.describe()}; its roles, most specific first: {keys}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("dice", help="smart dice and the dice tray")
    dsub = p.add_subparsers(dest="dice_command", metavar="ACTION")
    dsub.required = True

    s = dsub.add_parser("scan", help="list dice trays, Pixels dice and GoDice within reach")
    s.add_argument("--timeout", type=float, default=5.0, help="seconds to listen (default 5)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_scan)

    w = dsub.add_parser("watch", help="print rolls as they come")
    w.add_argument(
        "--source",
        default="sim",
        help="serial[:PORT], sim, tray-ble[:ADDR], pixels[:ADDR], "
        "godice[:ADDR][@SHELL] (default sim)",
    )
    w.add_argument(
        "--answer",
        metavar="SESSION",
        help="also answer that session's dice requests with the rolls",
    )
    w.add_argument("--count", type=int, help="stop after this many roll events")
    w.add_argument("--timeout", type=float, help="stop after this many seconds")
    w.add_argument("--json", action="store_true", help="one JSON object per line")
    w.set_defaults(func=cmd_watch)

    m = dsub.add_parser("simulate", help="start the simulated tray and print its port")
    m.add_argument(
        "--roll-every", type=float, metavar="SECONDS", help="roll dice by themselves this often"
    )
    m.add_argument("--dice", type=int, default=1, help="how many dice each roll (default 1)")
    m.add_argument("--duration", type=float, help="stop after this many seconds")
    m.add_argument(
        "--runtime",
        choices=["cpython", "micropython"],
        default="cpython",
        help="run the tray firmware here or under the MicroPython unix port",
    )
    m.add_argument("--stdin-ends", action="store_true", help="stop when standard input ends")
    m.add_argument("--verbose", action="store_true")
    m.set_defaults(func=cmd_simulate)

    a = dsub.add_parser("assign", help="say which die plays which role in a session")
    a.add_argument("session")
    a.add_argument(
        "role",
        nargs="?",
        help='"<who>:<role>" ("amara:skill:navigate"), "<who>:<profile>" ("amara:skill_d10"), '
        '"<who>" ("amara") or a die profile ("fate_d8"); the most specific one answers',
    )
    a.add_argument("dice", nargs="*", help="die ids as 'dice watch' shows them")
    a.set_defaults(func=cmd_assign)

    from companion.cli.dice_read import add_parser as add_read

    add_read(dsub)
