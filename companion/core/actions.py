"""One listed action, built one way for every game (`action`), and the one test of whether
a command sent is a listed action (`offers`).

Why here: each game's `legal_actions` used to build its entries its own way (a private
helper in two games, dict literals in the third), so a key a screen needed (which panel an
action goes to, the words above the choices) had no one place to be filled in, and screens
re-decided it from the command's name or the phase.  The rules now say it on the action
(`group`, `prompt`, see `Action` in rules.py) and screens only render it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.rules import Action

Inputs = dict[str, dict[str, Any]]


def action(
    do: str,
    args: dict[str, Any] | None = None,
    label: str = "",
    inputs: Inputs | None = None,
    *,
    primary: bool = False,
    auto: bool = False,
    group: str = "",
    prompt: str = "",
) -> Action:
    """One legal command in its wire form: only the keys that say something are set, so
    what the phone page, the CLI and saved tests read stays `{"do", "with", "label", ...}`.
    `auto` implies `primary`: a step the app takes by itself is the one expected next."""
    out: Action = {"do": do, "with": {} if args is None else args}
    if label:
        out["label"] = label
    if inputs:
        out["inputs"] = inputs
    if primary or auto:
        out["primary"] = True
    if auto:
        out["auto"] = True
    if group:
        out["group"] = group
    if prompt:
        out["prompt"] = prompt
    return out


def offers(listed: Mapping[str, Any], do: str, args: Mapping[str, object]) -> bool:
    """Whether sending `do` with `args` is the listed action: the same command and every
    listed value the same, no detail more or fewer, except the table facts (`inputs`),
    which may be any value the action declares for them (one of its `choices`, or a whole
    number inside its `min`..`max`)."""
    if listed.get("do") != do or not isinstance(listed.get("with"), Mapping):
        return False
    facts: Inputs = listed.get("inputs") or {}
    return _same(listed["with"], args, "", facts, strict=True)


def names_choice(listed: Action, args: Mapping[str, object]) -> bool:
    """Whether `args` picks the choice `listed` names, so the log can keep the rules' words
    for the command: every listed value the same, the table facts whatever they are set
    to, details beyond the listed ones ignored.  Looser than `offers` on purpose: it names
    a command the rules are about to judge, it does not admit one."""
    return _same(listed["with"], args, "", listed.get("inputs") or {}, strict=False)


def _same(
    listed: Mapping[str, object], given: object, prefix: str, facts: Inputs, *, strict: bool
) -> bool:
    if not isinstance(given, Mapping):
        if strict:
            return False
        given = {}
    if strict and set(given) != set(listed):
        return False
    for key, value in listed.items():
        path = f"{prefix}{key}"
        other = given.get(key, _MISSING if strict else None)
        if path in facts:
            if strict and not _within(facts[path], other):
                return False
        elif isinstance(value, Mapping):
            if not _same(value, other, f"{path}.", facts, strict=strict):
                return False
        elif other != value:
            return False
    return True


def _within(spec: Mapping[str, Any], value: object) -> bool:
    if "choices" in spec:
        return value in spec["choices"]
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    low, high = spec.get("min"), spec.get("max")
    return (low is None or value >= low) and (high is None or value <= high)


_MISSING = object()
