"""The race as the app tracks it: plain dataclasses of JSON types (ids and numbers only,
never a sentence: the words are made when an event or the state is shown)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class DashState:
    length: int  # squares from the start line to the finish
    runners: list[str]  # in turn order
    square: dict[str, int] = field(default_factory=dict)  # runner -> squares run
    turn: int = 0  # index into `runners`: whose roll it is
    outcome: str | None = None  # None | won
    winner: str = ""
