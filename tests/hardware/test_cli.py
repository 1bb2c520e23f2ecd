"""`companion dice ...` as a player runs it, in a child process."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from companion.core.library import Library
from companion.games import get_game
from companion.paths import data_home
from companion.table.assignments import Assignments
from hardware.serial_tray import SerialTraySource
from hardware.simulated import SimulatedTray


def companion(*args, **kwargs):
    return subprocess.Popen(
        [sys.executable, "-m", "companion", *args],
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )


async def test_simulate_prints_its_port_and_takes_control_lines():
    proc = companion("dice", "simulate", "--duration", "20", "--stdin-ends", stdin=subprocess.PIPE)
    try:
        port = proc.stdout.readline().strip()
        assert port.startswith("/dev/pts/")
        source = SerialTraySource(port, name="t")
        await source.connect()
        assert len(source.link.state.dice) == 7
        proc.stdin.write("roll 2 3\n")
        proc.stdin.flush()
        it = source.rolls().__aiter__()
        got = [await asyncio.wait_for(it.__anext__(), 5) for _ in range(2)]
        assert [(e.die_id, e.state, e.face_index) for e in got] == [
            ("t:2", "rolling", -1),
            ("t:2", "settled", 3),
        ]
        await source.disconnect()
    finally:
        proc.stdin.close()
        assert proc.wait(10) == 0


def test_watch_prints_rolls_and_answers_a_session():
    session = Library().new(get_game("tiny"), session_id="dice-cli")
    session.do("roll", {"count": 1})
    session.close()
    a = Assignments(session_id="dice-cli", data_home=data_home())
    a.assign("d6", ["tray:1"])
    a.save()
    with SimulatedTray() as tray:
        proc = companion(
            "dice",
            "watch",
            "--source",
            f"serial:{tray.link}",
            "--count",
            "2",
            "--json",
            "--answer",
            "dice-cli",
            "--timeout",
            "20",
        )
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("watching"):
                tray.roll([3])
        assert proc.wait(20) == 0, proc.stderr.read()
    assert lines[0].startswith("waiting: Player: roll the d6")
    events = [json.loads(x) for x in lines if x.startswith("{")]
    assert [(e["die"], e["state"], e["face_index"]) for e in events] == [
        ("tray:1", "rolling", -1),
        ("tray:1", "settled", 3),
    ]
    assert events[1]["message"] == "Player: roll the d6 (to score): rolled 4"
    with Library().open("dice-cli") as again:
        assert again.state.last_roll == [4]


def test_assign_lists_and_changes_roles():
    Library().new(get_game("tiny"), session_id="dice-assign").close()
    out = subprocess.run(
        [sys.executable, "-m", "companion", "dice", "assign", "dice-assign", "fate_d8", "tray:4"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.splitlines() == [f"{'fate_d8':24} {'tray:4':24} any fate d8"]
    assert Assignments.load("dice-assign", data_home()).roles == {"fate_d8": ["tray:4"]}


def test_assign_names_the_roles_of_the_roll_waiting():
    session = Library().new(get_game("tiny"), session_id="dice-assign-waiting")
    session.do("roll", {"count": 1})
    session.close()
    out = subprocess.run(
        [sys.executable, "-m", "companion", "dice", "assign", "dice-assign-waiting"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.splitlines() == [
        "no dice assigned: any free die answers",
        "waiting: Player: roll the d6 (to score); its roles, most specific first: "
        "player:score, player:d6, player, d6",
    ]


def test_unknown_source_and_missing_port_are_explained():
    out = subprocess.run(
        [sys.executable, "-m", "companion", "dice", "watch", "--source", "carrier-pigeon"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "is not a dice source" in out.stderr
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "dice",
            "watch",
            "--source",
            "serial:/dev/no-such-port",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "cannot open /dev/no-such-port" in out.stderr


def test_scan_never_fails_without_hardware():
    out = subprocess.run(
        [sys.executable, "-m", "companion", "dice", "scan", "--timeout", "0.5", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert all(set(r) == {"kind", "id", "name"} for r in rows)
