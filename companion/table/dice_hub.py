"""The dice sources the app knows about, and where their rolls go.

Each source runs as one asyncio task on the app's single loop (Kivy's `async_run`), so a
roll never blocks the screen.  Every roll goes through
`companion.table.dice_answers.RequestAnswerer` with the open session's dice assignments
(`companion.table.assignments`, one file per session: the dice on the table belong to
that evening, not to the tablet's owner).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.rules import DIE_FACES, Request, RuleError
from companion.paths import data_home
from companion.table.assignments import Assignments
from companion.table.dice_answers import ANSWER_TIMEOUT, RequestAnswerer
from companion.table.dice_camera import CameraDice
from hardware.source import DeviceInfo, DiceSource, RollEvent

if TYPE_CHECKING:  # the simulated tray is started only for the demo
    from companion.core.session import Session
    from hardware.simulated import SimDie, SimulatedTray

BATTERY_EVERY = 60.0  # seconds between battery readings: radios are slow and batteries slow


@dataclass
class SourceView:
    """What the dice panel shows for one source."""

    name: str
    status: str
    battery: int | None

    @property
    def alarming(self) -> bool:
        return self.status in ("lost", "reconnecting")


def simulated_dice_for(
    request: Request, answerer: RequestAnswerer, dice: list[SimDie], source: str
) -> list[SimDie]:
    """Which of the simulated tray's dice (`SimDie`s, read by `source`) a person would roll
    for `request`: the dice assigned to it, else free dice with the profile's number of
    faces (a d3 is a six-sided die), then bigger ones."""
    sides = len(DIE_FACES.get(request.profile, ()))
    pool = answerer.eligible(request)
    if pool is not None:
        mine = [d for d in dice if f"{source}:{d.id}" in pool]
        if not mine:
            raise RuleError(
                f"none of the dice assigned to this roll ({', '.join(pool)}) is on the "
                "simulated tray: change the assignment or use the keypad"
            )
        # enough dice: one each; fewer: the first is rolled again and again
        return mine[: request.count] if len(pool) >= request.count else mine[:1] * request.count
    free = [
        d
        for d in dice
        if d.faces >= sides and answerer.assignments.role_of(f"{source}:{d.id}") is None
    ]
    free.sort(key=lambda d: d.faces != sides)
    if len(free) < request.count:
        raise RuleError(
            f"the simulated tray has {len(free)} free dice for a {request.profile}, "
            f"not {request.count}: use the keypad"
        )
    return free[: request.count]


class DiceHub:
    """The app's registry of dice sources; tells the screen when anything changes."""

    def __init__(
        self, on_change: Callable[[], None] | None = None, timeout: float = ANSWER_TIMEOUT
    ) -> None:
        self.sources: list[DiceSource] = []
        self.batteries: dict[str, int | None] = {}
        self.message = ""
        self.timeout = timeout  # seconds without an answer before on-screen entry is offered
        self.answerer: RequestAnswerer | None = None
        self.assignments = Assignments()
        self.seen_dice: list[str] = []  # die ids seen rolling, offered in dice assignments
        self.simulated: SimulatedTray | None = None  # the demo's, with `companion app --demo`
        self._simulated_source = ""
        self.tray_luck = random.Random()  # the simulated tray's throws; a test seeds its own
        self._tasks: list[asyncio.Task[None]] = []
        self._on_change = on_change or (lambda: None)
        self.camera = CameraDice(self)  # the camera as a dice source, once turned on

    def changed(self) -> None:
        """Tell the screen something it shows changed (the camera's dice, a message)."""
        self._on_change()

    def attach(self, session: Session | None) -> None:
        """Answer `session`'s rolls (None: nobody's) with its own dice assignments."""
        self.message = ""  # the last session's news is not this one's
        self.camera.clear()
        if session is None:
            self.answerer, self.assignments = None, Assignments()
        else:
            self.assignments = Assignments.load(session.id, data_home())
            self.answerer = RequestAnswerer(session, self.assignments, timeout=self.timeout)

    def assign(self, role: str, die_ids: list[str]) -> None:
        """Give `role` these dice in the open session, and remember it for the session."""
        self.assignments.assign(role, die_ids)
        self.assignments.save()
        self._on_change()

    def _infos(self) -> list[DeviceInfo]:
        """What the sources say of themselves (trays and smart dice list their dice)."""
        out = []
        for source in self.sources:
            info = getattr(source, "info", None)
            if callable(info):
                out.append(info())
        return out

    def known_dice(self) -> list[str]:
        """Every die the app can name: those the sources list, then those seen rolling."""
        out: list[str] = []
        for info in self._infos():
            out += [d for d in info.dice if d not in out]
        return out + [d for d in self.seen_dice if d not in out]

    def die_name(self, die_id: str) -> str:
        """A die as the players know it (the tray's "fate-d8", a Pixels die's own name);
        its id only when no source names it."""
        for info in self._infos():
            if die_id in info.die_names:
                return info.die_names[die_id]
        return die_id

    def overdue(self) -> str | None:
        """Once per request, when a device is there but no die answered in time: the
        sentence offering on-screen entry (a table with no device uses the keypad anyway)."""
        if self.answerer is None or not self.sources:
            return None
        return self.answerer.overdue()

    def views(self) -> list[SourceView]:
        return [SourceView(s.name, s.status, self.batteries.get(s.name)) for s in self.sources]

    @property
    def alarm(self) -> str:
        """A sentence for the banner when a device is lost or reconnecting, else ''."""
        bad = [v for v in self.views() if v.alarming]
        return "; ".join(f"{v.name} {v.status}" for v in bad)

    def add(self, source: DiceSource) -> None:
        """Register a source and, when a loop is running, start reading it."""
        self.sources.append(source)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            self._tasks.append(loop.create_task(self._pump(source)))
            self._tasks.append(loop.create_task(self._watch_battery(source)))
        self._on_change()

    def feed(self, event: RollEvent) -> str | None:
        if event.die_id not in self.seen_dice:
            self.seen_dice.append(event.die_id)
            self._on_change()
        if self.answerer is None:
            return None
        message = self.answerer.feed(event)
        if message:
            self.message = message
            self._on_change()
        return message

    async def start_simulated(self) -> None:
        """`companion app --demo`: the simulated tray, read through the real serial source
        on a pseudo-terminal, so a roll arrives the way a real tray's does."""
        from hardware.simulated import open_simulated_source

        try:
            self.simulated, source = await open_simulated_source()
        except Exception as exc:  # the demo runs on without it
            self.message = f"The simulated dice tray did not start: {exc}"
            self._on_change()
            return
        self._simulated_source = source.name
        self.add(source)

    def roll_simulated(self) -> None:
        """The simulated tray rolls the dice the pending request needs, on random faces;
        the result comes back over its serial port and answers like any tray's."""
        answerer = self.answerer
        request = answerer.session.request if answerer is not None else None
        if answerer is None or self.simulated is None or request is None or request.kind != "dice":
            raise RuleError("nothing is waiting for dice from the simulated tray")
        dice = simulated_dice_for(request, answerer, self.simulated.dice, self._simulated_source)
        sides = len(DIE_FACES[request.profile])
        faces = [self.tray_luck.randrange(min(sides, d.faces)) for d in dice]
        self.simulated.roll(faces, dice=[d.id for d in dice])
        self.message = f"The simulated tray rolls {len(dice)} {'die' if len(dice) == 1 else 'dice'}"
        self._on_change()

    async def _pump(self, source: DiceSource) -> None:
        try:
            async for event in source.rolls():
                self.feed(event)
        except Exception as exc:  # a broken radio must not take the app down
            self.message = f"{source.name} stopped: {exc}"
            source.status = "lost"
        self._on_change()

    async def _watch_battery(self, source: DiceSource) -> None:
        while True:
            with contextlib.suppress(Exception):
                self.batteries[source.name] = await source.battery()
            self._on_change()
            await asyncio.sleep(BATTERY_EVERY)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        for source in self.sources:
            with contextlib.suppress(Exception):
                await source.disconnect()
        if self.simulated is not None:
            self.simulated.stop()
            self.simulated = None
