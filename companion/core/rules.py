"""The words the session core and a game's pure rules speak: commands, events, chance.

A game never rolls, never reads a clock and never touches a file.  The core hands it a
state, a command and a `Chance` holding whatever answers the table has given so far; the
game returns events, raises `RuleError` with words a player understands, or raises
`ChanceNeeded` when it has to know a die or a card it was not told yet.  The core then
stores the request, waits for any dice source to answer it, and runs the same command
again with one more answer.  Because the rules are deterministic, re-running is exact,
and the stored answers mean a replay never rolls again.  The game itself, every hook the
app calls on it, is declared in game.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Required, SupportsIndex, SupportsInt, TypedDict


class RuleError(Exception):
    """A command the rules refuse.  The message is shown to the players as it is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Event:
    """A past-tense fact (`HeroMoved`) with JSON-able data."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Command:
    """An imperative verb (`move_hero`) with JSON-able arguments."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)


# Die profiles: the faces a physical die reports are mapped to these game values.
# Keys are the profile ids requests use; values are the legal game values.
DIE_PROFILES: dict[str, tuple[int, ...]] = {
    "d3": (1, 2, 3),
    "d6": (1, 2, 3, 4, 5, 6),
    "hex_d6": (1, 2, 3, 4, 5, 6),  # hex face = 6
    "skill_d10": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),  # hex face = 1
    "fate_d8": (1, 2, 3, 4, 5, 6, 7, 8),  # hex face = 1
    "d8": (1, 2, 3, 4, 5, 6, 7, 8),
    "d10": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    "d20": tuple(range(1, 21)),
}

# How each profile's physical faces read, for keypads and smart dice: the face labels in
# face-index order, and the game value of each face.
DIE_FACES: dict[str, tuple[tuple[str, int], ...]] = {
    "d3": (("1", 1), ("2", 2), ("3", 3), ("1", 1), ("2", 2), ("3", 3)),
    "d6": tuple((str(v), v) for v in range(1, 7)),
    "hex_d6": (("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("hex", 6)),
    "skill_d10": (("hex", 1),) + tuple((str(v), v) for v in range(2, 11)),
    "fate_d8": (("hex", 1),) + tuple((str(v), v) for v in range(2, 9)),
    "d8": tuple((str(v), v) for v in range(1, 9)),
    "d10": tuple((str(v), v) for v in range(1, 11)),
    "d20": tuple((str(v), v) for v in range(1, 21)),
}


@dataclass(frozen=True)
class Request:
    """Chance the rules need answered: `count` dice of `profile`, or one card from `deck`.

    `for_` is the id of who rolls or draws ("stormbringer", "boss"); `role` is a stable key
    for what the roll decides ("battle", "attack", "skill:navigate"), so dice sources and
    screens match a request by its fields, never by its words; `why` says what for in
    words the dice panel can show as they are ("roll the d3 for the battle").
    """

    kind: str  # "dice" | "draw"
    why: str
    for_: str = ""
    profile: str = ""
    count: int = 1
    deck: str = ""
    options: tuple[str, ...] = ()
    role: str = ""
    who: str = ""  # the player's name for `for_` ("Stormbringer", "the Giant Fox")
    # a draw whose options are the players' own choice (an either/or on a card, a power
    # used or not), not cards: screens offer the options to tap, with no camera
    choice: bool = False

    @property
    def who_name(self) -> str:
        """Who rolls, by name: the rules' `who`, else the id spelt as words."""
        return self.who or self.for_.replace("-", " ").replace("_", " ").title()

    @property
    def die_name(self) -> str:
        """The die by its name on the table: "hex d6", "skill d10"."""
        return self.profile.replace("_", " ")

    @property
    def faces(self) -> tuple[int, ...]:
        """The game values one die of this request's profile can show."""
        return DIE_PROFILES.get(self.profile, ())

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind,
            "for": self.for_,
            "role": self.role,
            "who": self.who_name,
            "why": self.why,
        }
        if self.kind == "dice":
            out.update(profile=self.profile, count=self.count, faces=list(self.faces))
        else:
            out.update(deck=self.deck, options=list(self.options))
            if self.choice:
                out["choice"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Request:
        return cls(
            kind=data["kind"],
            why=data.get("why", ""),
            for_=data.get("for", ""),
            profile=data.get("profile", ""),
            count=int(data.get("count", 1)),
            deck=data.get("deck", ""),
            options=tuple(data.get("options", ())),
            role=data.get("role", ""),
            who=data.get("who", ""),
            choice=bool(data.get("choice", False)),
        )

    def describe(self) -> str:
        """The request in a player's words: names, never ids."""
        who = f"{self.who_name}: " if self.for_ or self.who else ""
        if self.kind == "dice":
            dice = f"{self.count} x {self.die_name}" if self.count > 1 else f"the {self.die_name}"
            return f"{who}roll {dice} ({self.why})"
        if self.choice:
            return f"{who}choose ({self.why})"
        return f"{who}draw a card ({self.why})"

    def check(self, answer: object) -> list[int] | str:
        """Validate one answer; returns it normalised or raises RuleError in plain words."""
        if self.kind == "dice":
            return self.check_dice(answer)
        return self.check_card(answer)

    def check_dice(self, answer: object) -> list[int]:
        """`check` for dice: the game values rolled."""
        values = answer if isinstance(answer, list | tuple) else [answer]
        if len(values) != self.count:
            raise RuleError(f"{self.describe()} needs {self.count} value(s), got {len(values)}")
        legal = DIE_PROFILES.get(self.profile)
        out = []
        for given in values:
            v = _die_value(given)
            if legal is not None and v not in legal:
                raise RuleError(f"{v} is not a face of the {self.profile}")
            out.append(v)
        return out

    def check_card(self, answer: object) -> str:
        """`check` for a draw or a choice: the card id or option taken."""
        card = answer[0] if isinstance(answer, list | tuple) and len(answer) == 1 else answer
        if not isinstance(card, str):
            raise RuleError(f"{self.describe()} needs a card id, got {card!r}")
        if self.options and card not in self.options:
            raise RuleError(f"{card} cannot be drawn from {self.deck} now")
        return card


def _die_value(v: object) -> int:
    """One die's value as given (a number, or its digits as text)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    try:
        if isinstance(v, str | bytes | bytearray | SupportsInt | SupportsIndex):
            return int(v)
    except (TypeError, ValueError):
        pass
    raise RuleError(f"'{v}' is not a die value")


def request_words(request: Request) -> str:
    """'Stormbringer: roll the d3\\nfor the battle' for the dice and cards panels, in
    large type.  A draw names who draws only by the rules' own name for them; with none it
    says 'Draw a card' (an id spelt out, 'Table: draw a card', reads like a console)."""
    if request.choice:  # the players' own pick, not a card
        return f"{request.who}: choose\n{request.why}" if request.who else f"Choose\n{request.why}"
    if request.kind != "dice":
        return (
            f"{request.who}: draw a card\n{request.why}"
            if request.who
            else (f"Draw a card\n{request.why}")
        )
    who = f"{request.who_name}: " if request.for_ or request.who else ""
    dice = (
        f"{request.count} x {request.die_name}" if request.count > 1 else f"the {request.die_name}"
    )
    return f"{who}roll {dice}\n{request.why}"


class ChanceNeeded(Exception):
    """Raised by `Chance` when the rules need an answer the table has not given yet."""

    def __init__(self, request: Request) -> None:
        super().__init__(request.describe())
        self.request = request


class Chance:
    """The answers given so far to one command's requests, consumed in order."""

    def __init__(self, answers: Sequence[object] | None = None) -> None:
        self._answers = list(answers or [])
        self._next = 0

    @property
    def used(self) -> int:
        return self._next

    def _take(self, request: Request) -> object:
        """The next answer given, unchecked; ChanceNeeded when there is none yet."""
        if self._next >= len(self._answers):
            raise ChanceNeeded(request)
        answer = self._answers[self._next]
        self._next += 1
        return answer

    def roll(
        self,
        profile: str,
        count: int = 1,
        *,
        for_: str = "",
        why: str,
        role: str = "",
        who: str = "",
    ) -> list[int]:
        """Ask for `count` dice of `profile`; returns their game values."""
        request = Request("dice", why, for_, profile=profile, count=count, role=role, who=who)
        return request.check_dice(self._take(request))

    def draw(
        self,
        deck: str,
        *,
        for_: str = "",
        why: str,
        options: tuple[str, ...] | list[str] = (),
        role: str = "",
        who: str = "",
    ) -> str:
        """Ask for one card from `deck` (optionally limited to `options`); returns its id."""
        request = Request("draw", why, for_, deck=deck, options=tuple(options), role=role, who=who)
        return request.check_card(self._take(request))

    def choose(
        self,
        options: tuple[str, ...] | list[str],
        *,
        for_: str = "",
        why: str,
        role: str,
        who: str = "",
        deck: str = "choice",
    ) -> str:
        """Ask the players to pick one of `options` (their choice, not chance: the
        screens show the options to tap); returns the one picked."""
        request = Request(
            "draw", why, for_, deck=deck, options=tuple(options), role=role, who=who, choice=True
        )
        return request.check_card(self._take(request))


# One legal command, complete and ready to send: `{"do": NAME, "with": {...}}`, built by
# `companion.core.actions.action` in every game.  `label` is the button's words (names,
# never ids).  `inputs` names the arguments that are facts read off the table rather than
# choices, as dotted paths into "with" ("creature.attack"), each `{"min": int, "max": int}`
# or `{"choices": [...]}`; "with" already holds a valid default for each.  `primary` marks
# the one step the rules expect next; `auto` marks a primary step with no choice in it that
# only moves play on or asks for chance (the next round's card, the boss's attack roll):
# the app's session takes it by itself (`Session.take_auto_steps`).  One Undo takes such
# steps back on their own, so what else was listed (a Retainer "at any time") stays one tap
# away.  What a screen shows about an action is the rules' to say, never the screen's to
# work out from the command's name or the phase: `group` is the part of the turn it belongs
# to, an id the game's rules define (HEXplore's turn steps, a card's doing, the skills
# board, the combat mat); `prompt` is the words above the choices (Kradia's "Ayla rolled 4:
# choose the Charge Attack"), the same on every action listed at once.
Action = TypedDict(
    "Action",
    {
        "do": Required[str],
        "with": Required[dict[str, Any]],
        "label": str,
        "inputs": dict[str, dict[str, Any]],
        "primary": bool,
        "auto": bool,
        "group": str,
        "prompt": str,
    },
    total=False,
)
