"""Small helpers every rule area shares: naming units, stamina, wounds, who stands where."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import RuleError
from companion.core.tables import Decision
from companion.games.direwild import content as typed
from companion.games.direwild import events as ev
from companion.games.direwild.board import SLOTS, STAGING, Geometry, geometry
from companion.games.direwild.events import POWER_NAMES
from companion.games.direwild.schema import Board, Minion
from companion.games.direwild.state import (
    KARN,
    STAMINA_MAX,
    STAMINA_MIN,
    DirewildState,
    Enemy,
    has_power,
    wound_pile,
)

if TYPE_CHECKING:
    from companion.content.pack import Content


# The phases in which heroes take their turns: once the Enemy AI card has run, until the
# round ends (choosing the turn order is the first thing the table does, and optional).
ADVENTURE = ("turn_order", "adventure")


def board_of(state: DirewildState, content: Content) -> Board:
    return typed.board(content, state.board)


def geo_of(state: DirewildState, content: Content) -> Geometry:
    return geometry(board_of(state, content))


def minion_of(state: DirewildState, slot: str, content: Content) -> Minion | None:
    e = state.enemies.get(slot)
    if e is None or e.minion is None:
        return None
    return typed.minion(content, e.minion)


def minion_at(state: DirewildState, slot: str, content: Content) -> Minion:
    """The minion card in a slot the rules have already checked holds one."""
    m = minion_of(state, slot, content)
    if m is None:
        raise RuleError(f"the {slot} slot holds no minion this app knows (correct its card)")
    return m


def label(state: DirewildState, unit: str, content: Content | None = None) -> str:
    """How the table names a unit: 'Red minion (Inkling)', 'Karn', 'Stormbringer'."""
    if unit == KARN:
        return "Karn"
    if unit in state.enemies:
        m = minion_of(state, unit, content) if content is not None else None
        e = state.enemies[unit]
        name = m.title if m else (e.minion or "").rsplit("/", 1)[-1].replace("-", " ").title()
        return f"{unit.title()} minion ({name})" if name else f"{unit.title()} minion"
    return unit.title()


def on_board_enemies(state: DirewildState) -> list[str]:
    """Enemy ids on the land board, in enemy turn order (red, blue, green, black, Karn)."""
    out = [s for s in SLOTS if (e := state.enemies.get(s)) and live(e)]
    if state.karn.on_board and not state.karn.defeated and state.karn.position:
        out.append(KARN)
    return out


def live(e: Enemy) -> bool:
    return not e.defeated and e.position is not None


def position(state: DirewildState, unit: str) -> str | None:
    if unit == KARN:
        return state.karn.position if state.karn.on_board else None
    if unit in state.enemies:
        e = state.enemies[unit]
        return e.position if live(e) else None
    h = state.heroes.get(unit)
    if h is None or h.eaten_by or h.position == STAGING:
        return None
    return h.position


def heroes_on_board(state: DirewildState) -> dict[str, str]:
    return {
        name: h.position
        for name, h in state.heroes.items()
        if h.position != STAGING and not h.eaten_by
    }


def enemy_squares(state: DirewildState, but: str | None = None) -> dict[str, str]:
    out = {}
    for unit in on_board_enemies(state):
        square = position(state, unit)
        if unit != but and square is not None:
            out[square] = unit
    return out


def occupied(state: DirewildState, but: str | None = None) -> dict[str, str]:
    """Square -> unit for every unit on the land board except `but`."""
    out = enemy_squares(state, but)
    for name, sq in heroes_on_board(state).items():
        if name != but:
            out[sq] = name
    return out


def stamina(state: DirewildState, unit: str) -> int:
    if unit == KARN:
        return state.karn.stamina
    if unit in state.enemies:
        return state.enemies[unit].stamina
    return state.heroes[unit].stamina


def change_stamina(d: Decision, unit: str, delta: int, why: str, floor: int = STAMINA_MIN) -> None:
    """Move a stamina counter by `delta`, never past the track's ends (or `floor`)."""
    now = stamina(d.state, unit)
    if delta < 0:
        new = max(now + delta, floor) if now > floor else now
    else:
        new = min(now + delta, STAMINA_MAX)
    if new != now:
        d.emit(ev.StaminaChanged(unit=unit, value=new, was=now, why=why))


def set_stamina(d: Decision, unit: str, value: int, why: str) -> None:
    now = stamina(d.state, unit)
    if value != now:
        d.emit(ev.StaminaChanged(unit=unit, value=value, was=now, why=why))


def fatal_wound_to(d: Decision, hero: str, why: str) -> None:
    """A Fatal Wound into the hero's discard, or a regular wound when the pile is empty
    ("or a regular wound if there are no more Fatal Wounds")."""
    if d.state.fatal_wounds > 0:
        d.emit(ev.WoundTaken(hero=hero, fatal=True, count=1, why=why))
    else:
        wound_to(d, hero, 1, why)


def wound_to(d: Decision, hero: str, count: int, why: str) -> None:
    """Regular wounds into the hero's discard, off the wound pile: once the app counts the
    pile, no more than it holds (an empty pile has no card to give)."""
    if count <= 0:
        return
    pile = wound_pile(d.state)
    take = count if pile is None else min(count, pile)
    if take > 0:
        d.emit(ev.WoundTaken(hero=hero, fatal=False, count=take, why=why))
    if take < count:
        d.emit(
            ev.Noted(
                actor=hero,
                text=f"The wound pile is empty: {hero.title()} takes no "
                f"{'more ' if take else ''}wound card ({why})",
            )
        )


def check_adventure(state: DirewildState, what: str) -> None:
    """Refuse `what` is being done (e.g. "battles happen") before the AI card has moved
    the game on to the Adventure Phase.  (Once the chapter has ended, the core refuses
    every command but the next chapter's: `Direwild.after_outcome`.)"""
    if state.phase == "game":
        raise RuleError(f"{what} in the Adventure Phase: reveal the AI card first")
    if state.phase not in ADVENTURE:
        raise RuleError(f"{what} in the Adventure Phase: start the round first")


def check_turn(state: DirewildState, hero: str) -> None:
    """Refuse a hero whose turn is already over this round."""
    if state.heroes[hero].done:
        raise RuleError(f"{hero.title()} has already ended this turn")


def current_hero(state: DirewildState) -> str | None:
    """Whose Adventure Phase it is: the first hero in turn order whose turn has not ended."""
    return next((h for h in state.turn_order or state.players if not state.heroes[h].done), None)


def check_acting(state: DirewildState, hero: str) -> None:
    """Refuse a hero whose turn is over, or not yet come: "In turn order, each player
    completes their entire Adventure Phase" (a table that played otherwise corrects)."""
    check_turn(state, hero)
    now = current_hero(state)
    if now is not None and now != hero:
        raise RuleError(
            f"it is {now.title()}'s Adventure Phase: heroes take their turns in turn order "
            f"(end {now.title()}'s turn first)"
        )


def check_hero(state: DirewildState, hero: object) -> str:
    if not isinstance(hero, str) or hero not in state.heroes:
        known = ", ".join(state.heroes) or "none"
        raise RuleError(f"'{hero}' is not a hero in this game (heroes: {known})")
    return hero


def check_enemy(state: DirewildState, enemy: object) -> str:
    if enemy == KARN:
        if not state.karn.on_board or state.karn.defeated:
            raise RuleError("Karn is not on the land board")
        return KARN
    e = state.enemies.get(enemy) if isinstance(enemy, str) else None
    if e is None:
        known = ", ".join([*state.enemies, KARN])
        raise RuleError(f"'{enemy}' is not an enemy (enemies: {known})")
    if e.defeated:
        raise RuleError(f"the {enemy} minion has already been defeated")
    if e.position is None:
        raise RuleError(f"the {enemy} minion is not on the land board")
    return str(enemy)


def check_unlock(state: DirewildState, power: str) -> None:
    """Locks are destroyed with Charm: in the Charm Phase of a round or a Charm round,
    the Advanced Creatures' stack first ("the first lock stack players must destroy")."""
    if state.prelude is None and state.phase not in ADVENTURE:
        raise RuleError(
            "locks are destroyed with Charm in the Adventure Phase: start the round first"
        )
    words = POWER_NAMES[power]
    if has_power(state, power):
        raise RuleError(f"{words} is already unlocked")
    if power != "advanced" and not state.advanced_unlocked:
        raise RuleError(
            f"the locks are destroyed left to right: the Advanced Creatures' stack comes "
            f"before {words}"
        )
