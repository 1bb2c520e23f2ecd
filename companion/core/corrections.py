"""Corrections: "the red minion is really on C4".

The table is the truth, so any field of the state can be set, but only to a value of the
shape the state declares: the new state is rebuilt through the state's own type, which
refuses a string where a number belongs or a field that does not exist.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from companion.core.arguments import check_value
from companion.core.rules import Chance, ChanceNeeded, Command, Request, RuleError
from companion.core.shape import convert_state

if TYPE_CHECKING:
    from companion.content.pack import Content
    from companion.core.game import Game


def _split(path: str) -> list[str]:
    parts = [p for p in str(path).split(".") if p]
    if not parts:
        raise RuleError("say which value to correct, e.g. 'enemies.red.stamina'")
    return parts


def _walk(root: object, parts: list[str], path: str) -> tuple[object, str | int]:
    node = root
    for i, part in enumerate(parts[:-1]):
        node = _child(node, part, ".".join(parts[: i + 1]), path)
    last = parts[-1]
    if isinstance(node, list):
        try:
            return node, int(last)
        except ValueError:
            raise RuleError(f"'{last}' in {path} must be a position in a list") from None
    if not isinstance(node, dict) or last not in node:
        known = ", ".join(sorted(node)) if isinstance(node, dict) else "none"
        raise RuleError(f"there is no value '{path}' to correct (here: {known})")
    return node, last


def _child(node: object, part: str, upto: str, path: str) -> object:
    if isinstance(node, dict):
        if part not in node:
            known = ", ".join(sorted(node))
            raise RuleError(
                f"there is no '{upto}' in the game (while correcting {path}; here: {known})"
            )
        return node[part]
    if isinstance(node, list):
        try:
            return node[int(part)]
        except (ValueError, IndexError):
            raise RuleError(f"'{upto}' is not an entry of the list (correcting {path})") from None
    raise RuleError(f"'{upto}' has no parts to correct")


def _rebuilt(state: object, state_type: type, path: str, value: object) -> tuple[object, object]:
    data: object = msgspec.to_builtins(state)
    node, key = _walk(data, _split(path), path)
    previous: object
    if isinstance(node, list) and isinstance(key, int):  # what _walk returns for a list
        try:
            previous = node[key]
        except IndexError:
            raise RuleError(f"{path} is past the end of the list") from None
        node[key] = value
    elif isinstance(node, dict):
        previous = node[key]
        node[key] = value
    try:
        return convert_state(data, state_type), previous
    except msgspec.ValidationError as exc:
        raise RuleError(f"{path} cannot be {value!r}: {exc}") from None


def check_correction(state: object, state_type: type, path: str, value: object) -> object:
    """Validate a correction; returns the value it replaces.  Raises RuleError."""
    return _rebuilt(state, state_type, path, value)[1]


def apply_correction(state: object, state_type: type, path: str, value: object) -> object:
    return _rebuilt(state, state_type, path, value)[0]


# What a rule raises when the state no longer makes sense to it (a bug surfacing), as
# opposed to RuleError, its considered refusal.
_BROKEN = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, AssertionError)
_PROBES = 60  # commands tried on the corrected state; enough for every game's command list
_ANSWERS = 4  # dice or cards answered per probe, enough to reach each command's outcome


def verify_correction(
    game: Game,
    state: object,
    content: Content,
    path: str,
    value: object,
    recent: Iterable[Command] = (),
) -> object:
    """Refuse, in words, a correction the rules could not play on from; return the old value.

    Why: a value of the right type can still be meaningless ("boss.id" = "nonsense"), and
    once written every later command would fail.  The corrected state is checked against
    the content (an id must stay an id of the same kind), the game's own `check_state`
    hook and `legal_actions`, and each command is tried on it (the commands just played at
    this table, `recent`, then those `legal_actions` lists), answering what they ask:
    whatever worked before the correction must not now break with anything but a
    RuleError.
    """
    corrected, previous = _rebuilt(state, game.state_type, path, value)
    check_value(value, str(path), previous, max_depth=8)  # no 10^29 HP, no megabyte of text
    said = f"{path} cannot be {_short_value(value)}"
    _check_ids(content, game.id, previous, value, said)
    if isinstance(previous, dict) and isinstance(value, dict) and previous.keys() - value.keys():
        missing = ", ".join(sorted(map(str, previous.keys() - value.keys()))[:6])
        raise RuleError(f"{said}: it leaves out {missing}; correct the entries one at a time")
    try:
        problems = list(game.check_state(corrected, content))
        game.legal_actions(corrected, content)
        game.summary(corrected)
    except (RuleError, *_BROKEN) as exc:
        raise RuleError(f"{said}: the rules cannot go on from there ({_short(exc)})") from None
    if problems:
        raise RuleError(f"{said}: " + "; ".join(str(p) for p in problems))
    for command in _commands(game, state, content, recent):
        if _breaks(game, corrected, command, content) and not _breaks(
            game, state, command, content
        ):
            raise RuleError(
                f"{said}: '{command.name.replace('_', ' ')}' could no longer be played from there"
            )
    return previous


def _short(exc: BaseException) -> str:
    text = str(exc).strip("'\"") or type(exc).__name__
    return text[:120]


def _commands(
    game: Game, state: object, content: Content, recent: Iterable[Command]
) -> list[Command]:
    found: list[Command] = list(recent)
    try:
        actions = game.legal_actions(state, content)
    except (RuleError, *_BROKEN):
        actions = []
    for action in actions:
        if isinstance(action, dict) and isinstance(action.get("do"), str):
            found.append(Command(action["do"], dict(action.get("with") or {})))
    return found[:_PROBES]


def _breaks(game: Game, state: object, command: Command, content: Content) -> bool:
    """Whether deciding `command` on `state` fails with anything but a refusal, answering
    the first few dice and cards it asks for with their first legal value."""
    answers: list[object] = []
    for _ in range(_ANSWERS):
        try:
            game.decide(state, command, Chance(list(answers)), content)  # works on a copy
        except ChanceNeeded as need:
            answer = _first_answer(need.request)
            if answer is None:
                return False
            answers.append(answer)
            continue
        except RuleError:
            return False
        except (*_BROKEN, msgspec.ValidationError):
            return True
        return False
    return False


def _first_answer(request: Request) -> list[int] | str | None:
    if request.kind == "dice":
        faces = request.faces or (1,)
        return [faces[0]] * request.count
    return request.options[0] if request.options else None


def _ids_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_ids_in(k), *_ids_in(v))]
    if isinstance(value, list):
        return [s for v in value for s in _ids_in(v)]
    return []


def _kind_of(content: Content, item_id: str) -> str | None:
    for kind, items in content.items.items():
        if item_id in items:
            return str(kind)
    return None


def _check_ids(content: Content, game_id: str, previous: object, value: object, said: str) -> None:
    """An id of the content stays an id of the content, of the same kind; a list or map of
    ids stays one; and a place that held other words does not take an id."""
    kind = _kind_of(content, previous) if isinstance(previous, str) else None
    if kind is not None:
        if not isinstance(value, str) or _kind_of(content, value) != kind:
            raise RuleError(
                f"{said}: it must name one of the loaded {kind} ({_names(content, kind)})"
            )
        return
    if (
        isinstance(previous, str)
        and previous
        and isinstance(value, str)
        and _kind_of(content, value)
    ):
        raise RuleError(f"{said}: that names a piece of content, not what is held here")
    if isinstance(previous, list) and previous and isinstance(value, list):
        kinds = {_kind_of(content, p) if isinstance(p, str) else None for p in previous}
        if len(kinds) == 1 and None not in kinds:
            for item in value:
                _check_ids(content, game_id, previous[0], item, said)
            return
    if isinstance(previous, dict) and previous and isinstance(value, dict):
        kinds = {_kind_of(content, k) for k in previous}
        if len(kinds) == 1 and None not in kinds:
            for key in value:
                _check_ids(content, game_id, next(iter(previous)), key, said)
    for text in _ids_in(value):
        if game_id and text.startswith(f"{game_id}/") and _kind_of(content, text) is None:
            raise RuleError(f"{said}: '{text}' is not in the loaded content")


def _names(content: Content, kind: str) -> str:
    items = content.items[kind].values()
    return ", ".join(sorted(str(getattr(i, "title", "?")) for i in items)[:8])


def _short_value(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
