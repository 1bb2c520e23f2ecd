"""The Game Phase: counters move toward 0, then the Enemy AI card runs top to bottom."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.direwild import content as typed
from companion.games.direwild import events as ev
from companion.games.direwild import movement
from companion.games.direwild.args import RevealAiCardArgs
from companion.games.direwild.board import SLOTS, STAGING
from companion.games.direwild.effects import Context, activate_earliest
from companion.games.direwild.schema import AiAction
from companion.games.direwild.state import KARN, DirewildState, house_rule
from companion.games.direwild.units import (
    board_of,
    enemy_squares,
    geo_of,
    heroes_on_board,
    label,
    live,
    occupied,
)

if TYPE_CHECKING:
    from companion.content.pack import Content


def move_counters(d: Decision) -> None:
    """Every hero and enemy stamina counter moves 1 toward 0."""
    s = d.state
    changes: dict[str, int] = {}
    units: list[tuple[str, int]] = [(h, v.stamina) for h, v in s.heroes.items()]
    units += [(slot, e.stamina) for slot, e in s.enemies.items() if not e.defeated]
    units.append((KARN, s.karn.stamina))
    for unit, value in units:
        if value:
            changes[unit] = value - 1 if value > 0 else value + 1
    d.emit(ev.CountersMoved(changes=changes))


def first_player(state: DirewildState) -> str | None:
    order = state.turn_order or state.players
    return order[0] if order else None


def reveal(d: Decision, args: RevealAiCardArgs, chance: Chance, content: Content) -> None:
    s = d.state
    if s.phase != "game":
        raise RuleError("reveal the AI card in the Game Phase: start the round first (start_round)")
    if not s.ai_deck:
        d.emit(ev.AiDeckReshuffled(cards=sorted(s.ai_discard)))
    card_id = args.card
    deck = sorted(d.state.ai_deck)
    if card_id is None:
        card_id = chance.draw(
            "ai",
            for_=first_player(s) or "table",
            why="flip the top Enemy AI card",
            options=deck,
            role="ai_card",
        )
    elif card_id not in deck:
        short = {c.rsplit("/", 1)[-1]: c for c in deck}
        if card_id in short:
            card_id = short[card_id]
        else:
            still = ", ".join(typed.ai_card(content, c).name or c.rsplit("/", 1)[-1] for c in deck)
            raise RuleError(f"{card_id} is not in the Enemy AI deck now (still in it: {still})")
    card = typed.ai_card(content, card_id)
    d.emit(ev.AiCardRevealed(card=card_id, name=card.name))
    ctx = Context(content, chance)
    for action in card.actions:
        run_action(d, action, ctx)
    karn_presence(d)
    d.emit(ev.GamePhaseDone())


def run_action(d: Decision, action: AiAction, ctx: Context) -> None:
    s = d.state
    if action.do == "karn":
        karn_hunts(d, ctx)
    elif action.do == "activate":
        slot = activate_earliest(
            d, ctx, None, first_player(s), why="the 1st player made too much noise"
        )
        if slot is None:
            d.emit(ev.Noted(actor="minions", text="no idle minion left to activate"))
    elif action.do == "rage":
        units = [slot for slot in SLOTS if (e := s.enemies.get(slot)) and live(e) and e.active]
        if not s.karn.defeated:
            units.append(KARN)
        d.emit(ev.RageGained(units=units))
    elif action.do == "move":
        move_enemies(d, action, ctx)


def karn_hunts(d: Decision, ctx: Context) -> None:
    k = d.state.karn
    if k.on_board or k.defeated:
        d.emit(ev.Noted(actor=KARN, text="Karn is already on the land board: he does not hunt"))
        return
    if k.track < k.track_length - 1:
        d.emit(ev.KarnAdvanced(track=k.track + 1))
        return
    board = board_of(d.state, ctx.content)
    geo = geo_of(d.state, ctx.content)
    taken = set(occupied(d.state))
    square = movement.around(geo, board.altar, taken) or board.altar  # never a full board
    d.emit(ev.KarnArrived(position=square, altar=board.altar, displaced=square != board.altar))


def move_enemies(d: Decision, action: AiAction, ctx: Context) -> None:
    """Each enemy in turn order: idle ones patrol, active ones hunt (or go for priority)."""
    s = d.state
    board = board_of(s, ctx.content)
    geo = geo_of(s, ctx.content)
    order = s.turn_order or s.players
    priority = None
    if action.priority is not None and 1 <= action.priority <= len(order):
        priority = order[action.priority - 1]
    for unit in [*SLOTS, KARN]:
        if unit == KARN:
            k = s.karn
            if not k.on_board or k.defeated or k.position is None:
                continue
            start, active = k.position, True
        else:
            e = s.enemies.get(unit)
            if e is None or not live(e):
                continue
            start, active = e.position, e.active
        heroes = heroes_on_board(s)
        others = set(enemy_squares(s, but=unit))
        if active:
            walk = movement.hunt(geo, start, action.move, heroes, others, priority)
            d.emit(
                ev.EnemyMoved(
                    unit=unit,
                    path=walk.path,
                    activates=False,
                    mode=walk.mode,
                    target=walk.target,
                )
            )
            continue
        trail = board.trails.get(unit)
        if not trail:
            d.emit(
                ev.EnemyMoved(unit=unit, path=[start], activates=False, mode="stay", target=None)
            )
            continue
        trail = [sq.upper() for sq in trail]
        step = e.trail_step if e.trail_step < len(trail) and trail[e.trail_step] == start else None
        if step is None:
            step = trail.index(start) if start in trail else None
        if step is None:
            d.emit(
                ev.Noted(
                    actor=unit,
                    text=f"{label(s, unit, ctx.content)} is off its trail at "
                    f"{start}: it waits there (correct its square if that is wrong)",
                )
            )
            continue
        walk, idx = movement.trail_walk(geo, trail, step, action.move, set(heroes.values()), others)
        near = None
        if walk.activates:
            end = walk.path[-1]
            near = next((h for h, sq in heroes.items() if geo.adjacent(end, sq)), None)
            if near is None:
                near = next(
                    (h for h, sq in heroes.items() for r in walk.through if geo.adjacent(r, sq)),
                    None,
                )
        d.emit(
            ev.EnemyMoved(
                unit=unit,
                path=walk.path,
                activates=walk.activates,
                mode="trail",
                target=near,
                trail_step=idx,
            )
        )
        if walk.activates:
            from companion.games.direwild.effects import activate

            activate(d, unit, ctx, f"it came next to {near.title() if near else 'a hero'}", near)


def karn_presence(d: Decision) -> None:
    """ "If Karn is on the land board with the heroes, return a Fatal Wound": with at least
    one hero off the staging area (the staging area is on the main board, not the land
    board), unless the table's house rule drains whenever Karn is on the land board."""
    s = d.state
    k = s.karn
    if not k.on_board or k.defeated or s.fatal_wounds == 0:
        return
    if house_rule(s, "karn_presence") == "with_heroes" and not any(
        h.position != STAGING for h in s.heroes.values()
    ):
        d.emit(
            ev.Noted(
                actor=KARN,
                text="Karn's presence: every hero is in the staging area, off the land board, "
                "so no Fatal Wound is drained",
            )
        )
        return
    d.emit(ev.FatalWoundReturned(why="Karn's presence drains the heroes"))
