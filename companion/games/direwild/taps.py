"""What a tap on the Direwild board stands for, as a command ready to send.

Why in the rules: which piece stands on a square, and which command (a move, a battle, a
card aimed at an enemy, the turn order) a tap there is, are the rules' to say in their
own argument shapes; the table view only sends what it is given.  A tap the rules do not
list is still a command, so sending it shows the refusal in the rules' own words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.rules import Action
from companion.games.direwild.state import DirewildState


@dataclass(frozen=True)
class Tap:
    """A tap on a square: the listed action it stands for (None when the rules list none)
    and the same command in the rules' shape, sent when none is listed."""

    listed: Action | None
    unlisted: Action


def enemy_at(state: DirewildState, square: str) -> str | None:
    """The enemy (a slot, or Karn) standing on `square`, if any."""
    for slot, e in state.enemies.items():
        if e.position == square and not e.defeated:
            return slot
    if state.karn.on_board and state.karn.position == square:
        return "karn"
    return None


def listed_for(actions: Sequence[Action], hero: str, do: str, **match: object) -> Action | None:
    """The listed `do` action of `hero` whose arguments match `match`."""
    for action in actions:
        args = action["with"]
        if (
            action["do"] == do
            and args.get("hero") == hero
            and all(args.get(k) == v for k, v in match.items())
        ):
            return action
    return None


def board_tap(
    state: DirewildState, actions: Sequence[Action], hero: str, square: str, aiming: bool
) -> Tap:
    """A tap by `hero` on `square`: on an enemy, the battle with it (or, `aiming`, the
    card aimed at it); anywhere else, the hero's move there.  The unlisted form leaves the
    facts read off the table (the creatures' attack, the extra move) at 0, as inputs."""
    enemy = enemy_at(state, square)
    if enemy is not None:
        do = "target_enemy" if aiming else "resolve_battle"
        unlisted: Action = {"do": do, "with": {"hero": hero, "enemy": enemy}}
        if do == "resolve_battle":
            unlisted["with"]["creature"] = {"attack": 0}
            unlisted["inputs"] = {f"creature.{k}": {} for k in ("attack", "flight")}
        return Tap(listed_for(actions, hero, do, enemy=enemy), unlisted)
    unlisted = {
        "do": "move_hero",
        "with": {"hero": hero, "to": square, "move": 0},
        "inputs": {"move": {}},
    }
    return Tap(listed_for(actions, hero, "move_hero", to=square), unlisted)


def turn_order_action(actions: Sequence[Action], order: list[str]) -> Action:
    """The listed choice of the whole turn order `order`, or the same command unlisted
    (the rules say why not)."""
    unlisted: Action = {"do": "set_turn_order", "with": {"order": order}}
    return next(
        (a for a in actions if a["do"] == "set_turn_order" and a["with"]["order"] == order),
        unlisted,
    )
