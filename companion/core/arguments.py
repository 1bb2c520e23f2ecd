"""A command's details and a correction's value, checked once at the edge.

Why: whatever a command is given is stored in the log as it came (`CommandIssued`'s
`args`), and a correction's value becomes the state, so a value no game can mean (a boss
at 10^29 HP, a list where one target belongs, text of a megabyte) must be refused in
words before anything is decided or written, not carried into every later replay.

What is checked, with no game's code: the shape of every value (names of details, text,
whole numbers, yes/no, short lists and maps, not nested deep), numbers bounded as a
table's numbers are, and, where the rules list the command as legal now
(`legal_actions`), each detail of the kind the listing gives it (one name is not a list)
and each fact read off the table (`inputs`) inside its listed range or choices.  Whether
the named hero or card is the right one stays the rules' to say.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, TypeGuard

from companion.core.rules import Action, Chance, ChanceNeeded, Command, RuleError

if TYPE_CHECKING:
    from companion.content.pack import Content
    from companion.core.game import Game

MAX_NUMBER = 9999  # no counter, track or stat of a board game at a table goes past this
MAX_TEXT = 200  # characters: ids, names and choices are short
MAX_ITEMS = 64  # entries in one list or map
MAX_DEPTH = 4  # lists and maps inside one another
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,39}$")


def kind_of(value: object) -> str:
    """A value's kind in a player's words."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes or no"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a name or text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a set of named values"
    return "something that is not text, a number, a list or named values"


def check_value(
    value: object, said: str, previous: object = None, depth: int = 0, max_depth: int = MAX_DEPTH
) -> None:
    """Refuse a value no table could mean: `said` names it ("use_item's target").

    A number may be as large as the one it replaces (`previous`), and a list or map as
    long, so a state that already holds such a value can still be corrected back."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        bound = max(MAX_NUMBER, abs(previous) if _is_int(previous) else 0)
        if abs(value) > bound:
            raise RuleError(f"{said} cannot be {_short(value)}: numbers here go up to {bound}")
        return
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise RuleError(f"{said} cannot be {_short(value)}: it is not a number of the game")
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise RuleError(f"{said} is too long ({len(value)} characters; at most {MAX_TEXT})")
        if any(ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in value):
            raise RuleError(f"{said} holds characters that are not text")
        return
    if depth >= max_depth and isinstance(value, list | tuple | Mapping):
        raise RuleError(f"{said} is nested too deeply (lists or maps {max_depth} deep at most)")
    if isinstance(value, list | tuple | Mapping):
        most = max(MAX_ITEMS, 2 * len(previous) if isinstance(previous, list | Mapping) else 0)
        if len(value) > most:
            raise RuleError(f"{said} has too many entries ({len(value)}; at most {most})")
    if isinstance(value, list | tuple):
        olds = list(previous) if isinstance(previous, list | tuple) else []
        for i, item in enumerate(value):
            check_value(item, f"{said}, entry {i + 1}", _at(olds, i), depth + 1, max_depth)
        return
    if isinstance(value, Mapping):
        named: Mapping[object, object] = previous if isinstance(previous, Mapping) else {}
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > MAX_TEXT:
                raise RuleError(f"{said} has an entry whose name is not a short text")
            check_value(item, f"{said}, {_short(key)}", named.get(key), depth + 1, max_depth)
        return
    raise RuleError(f"{said} cannot be {kind_of(value)}")


def check_command(name: str, args: Mapping[str, object], listed: Iterable[Action]) -> None:
    """Refuse details a command cannot take, before the rules decide or anything is stored.

    `listed` is the game's `legal_actions` now: when it lists `name`, each detail it
    lists must be given as the same kind.  (The table facts' ranges are checked after the
    rules, `check_inputs`, so a refusal the rules word themselves comes first.)"""
    words = name.replace("_", " ")
    for key, value in args.items():
        if not isinstance(key, str) or not _KEY.match(key):
            raise RuleError(f"'{words}' has no detail called {_short(key)}")
        check_value(value, f"{words}'s {key}")
    actions = [a for a in listed if a.get("do") == name and isinstance(a.get("with"), Mapping)]
    if not actions:
        return  # not legal now: the rules refuse it in their own words
    kinds = listed_kinds(actions)
    for key, value in args.items():
        allowed = kinds.get(key)
        if allowed is None:
            continue  # not listed (a scenario's or the CLI's own): see unused_details
        if value is None or kind_of(value) in allowed:
            continue
        if kind_of(value) == "a whole number" and "a number with a fraction" in allowed:
            continue
        raise RuleError(
            f"'{words}' takes {' or '.join(sorted(allowed))} as its {key}, "
            f"not {kind_of(value)} ({_short(value)})"
        )


def listed_kinds(actions: Iterable[Action]) -> dict[str, set[str]]:
    """The kinds each detail of these listed actions takes: its listed value's, and those
    of the choices or range its table fact (`inputs`) allows."""
    kinds: dict[str, set[str]] = {}
    for action in actions:
        for key, value in action["with"].items():
            kinds.setdefault(key, set()).add(kind_of(value))
        for path, spec in (action.get("inputs") or {}).items():
            if "." in path or not isinstance(spec, Mapping):
                continue
            choices = spec.get("choices")
            if isinstance(choices, list):
                kinds.setdefault(path, set()).update(kind_of(c) for c in choices)
            if "min" in spec or "max" in spec:
                kinds.setdefault(path, set()).add("a whole number")
    return kinds


def check_inputs(name: str, args: Mapping[str, object], listed: Iterable[Action]) -> None:
    """Each table fact the listing declares with a range (`{"min", "max"}`) inside it: the
    widest range any listed action of `name` gives, so no listed value is refused.  (Its
    `choices` are what the screens offer, narrower than what the rules take.)"""
    words = name.replace("_", " ")
    actions = [a for a in listed if a.get("do") == name and isinstance(a.get("with"), Mapping)]
    ranges: dict[str, list[Mapping[str, object]]] = {}
    for action in actions:
        for path, spec in (action.get("inputs") or {}).items():
            if isinstance(spec, Mapping):
                ranges.setdefault(path, []).append(spec)
    for path, specs in ranges.items():
        found, value = _dig(args, path)
        if not found or value is None:
            continue
        lows = [low for low in (s.get("min") for s in specs) if _is_int(low)]
        highs = [high for high in (s.get("max") for s in specs) if _is_int(high)]
        if lows or highs:
            if not _is_int(value):
                raise RuleError(
                    f"'{words}' takes a whole number as its {path}, not {_short(value)}"
                )
            low = min(lows) if lows else None
            high = max(highs) if highs else None
            if (low is not None and value < low) or (high is not None and value > high):
                raise RuleError(
                    f"'{words}': {path} is {value}, but the table's {path} runs from "
                    f"{low if low is not None else 'any'} to {high if high is not None else 'any'}"
                )


def _dig(args: Mapping[str, object], path: str) -> tuple[bool, object]:
    node: object = args
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _at(items: list[object], i: int) -> object:
    return items[i] if i < len(items) else None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_TRIES = 4  # dice or cards answered per try, enough to reach each command's outcome


def unused_details(
    game: Game,
    state: object,
    content: Content,
    name: str,
    args: Mapping[str, object],
    listed: Iterable[Action],
) -> None:
    """Refuse a list or map, as a detail the listing does not name, that changes nothing
    the rules decide.

    Why: such a detail (a list as the target of an item that aims at no one) would be
    stored in the log as given and mean nothing.  One that matters (the faces a wander
    roll may not stay on) changes the events when the dice and cards asked for are
    answered with their first, middle or last value; a single value (text, a number) is
    left to the rules, since a scenario may well give a default the rules read."""
    named = listed_kinds(a for a in listed if a.get("do") == name)
    if not named:
        return  # not listed now: the rules refuse it, or it is a scenario's own step
    extra = [k for k, v in args.items() if k not in named and isinstance(v, list | Mapping)]
    for key in extra:
        without = {k: v for k, v in args.items() if k != key}
        if all(
            _outcome(game, state, content, name, dict(args), pick)
            == _outcome(game, state, content, name, without, pick)
            for pick in (None, 0, 1, -1)
        ):
            raise RuleError(
                f"'{name.replace('_', ' ')}' does not use {key} here "
                f"({_short(args[key])} would change nothing)"
            )


def _outcome(
    game: Game,
    state: object,
    content: Content,
    name: str,
    args: dict[str, object],
    pick: int | None,
) -> tuple[str, object]:
    """What the rules decide for the command, answering what they ask with the value at
    position `pick` of the legal ones (None: answering nothing): the events, or the
    refusal's words."""
    answers: list[object] = []
    for _ in range(_TRIES):
        try:
            events = game.decide(state, Command(name, args), Chance(list(answers)), content)
        except ChanceNeeded as need:
            request = need.request
            options = list(request.faces or (1,)) if request.kind == "dice" else request.options
            if pick is None or not options:
                return ("asks", request)
            choice = options[min(pick, len(options) - 1) if pick >= 0 else pick]
            answers.append([choice] * request.count if request.kind == "dice" else choice)
            continue
        except RuleError as exc:
            return ("refused", exc.message)
        return ("events", [(e.type, e.data) for e in events])
    return ("asks", len(answers))
