"""The battlefield phase, exactly as "Battlefield Selection" and "Battlefield Reset" run it.

The marker walks down a column as cards are revealed (`path` is the symbols revealed
since it went to the top), and when all three cards are face up the active card is
turned sideways and the marker returns to the top of that card's column.

"When the round is over, the current Battlefield effect ends": a space's line marked
`lasts: round` holds for the round.  The states it gives (ailments, Evasion, a stun, an
Attack Buff) are given as the marker arrives and taken back when the round is over, so far
as they are still there; its amounts (damage, healing, Mana) land on each hero it names
at the start of that hero's turn, every turn of the round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.kradia import content as cards
from companion.games.kradia.args import StartRoundArgs
from companion.games.kradia.effects import apply_effects, resolve_targets
from companion.games.kradia.events import (
    BattlefieldCardRevealed,
    BattlefieldReset,
    MarkerMoved,
    RoundEffectEnded,
    RoundEffectHeld,
)
from companion.games.kradia.schema import BattlefieldBoard, BattlefieldSpace, Effect
from companion.games.kradia.state import Held, KradiaState

if TYPE_CHECKING:
    from companion.content.pack import Content


def space_key(path: list[str]) -> str:
    return ">".join(path)


def find_space(board: BattlefieldBoard, path: list[str]) -> BattlefieldSpace:
    for space in board.spaces:
        if space.path == path:
            return space
    raise RuleError(f"the battlefield board has no space for {space_key(path)}")


def symbol_of(content: Content, card: str) -> str:
    return cards.battlefield_card(content, card).symbol


def select(d: Decision, args: StartRoundArgs, chance: Chance, content: Content) -> None:
    """Reveal (or reset), move the marker, and apply the space's effect."""
    s = d.state
    bf = s.battlefield
    board = cards.board(content, bf.board)
    if not bf.face_down:
        if args.card:
            raise RuleError(
                "all three Battlefield cards are face up: this round is a "
                "Battlefield Reset, no card is revealed"
            )
        active = next(c for c in bf.face_up if symbol_of(content, c) == bf.path[-1])
        others = [c for c in bf.face_up if c != active]
        d.emit(BattlefieldReset(card=active, face_down=others))
        path = [symbol_of(content, active)]
    else:
        card = args.card
        if card:
            if card not in bf.face_down:
                raise RuleError(
                    f"{card} is not a face-down Battlefield card "
                    f"(face down: {', '.join(bf.face_down)})"
                )
        else:
            card = chance.draw(
                "battlefield",
                for_=s.start_player,
                why="reveal a face-down Battlefield card",
                role="battlefield",
                options=bf.face_down,
            )
        symbol = symbol_of(content, card)
        d.emit(BattlefieldCardRevealed(card=card, symbol=symbol))
        path = [symbol] if bf.column is None else [*bf.path, symbol]
    space = find_space(board, path)
    d.emit(
        MarkerMoved(
            column=path[0],
            path=path,
            effect=space_key(path),
            name=space.name,
            forbid=list(space.forbid),
        )
    )
    why = f"battlefield: {space.name or space_key(path)}"
    for line in space.effects:
        if s.outcome:
            return
        if line.lasts == "round":
            _hold(d, content, line, why, chance)
        else:
            apply_effects(
                d,
                content,
                [line],
                actor=s.start_player,
                why=why,
                source="battlefield",
                chance=chance,
            )


AMOUNTS = ("damage", "heal", "red", "blue", "enhance", "lose_red", "lose_blue", "restore")


def _states_part(line: Effect) -> Effect:
    """The line without its amounts: what it gives as the marker arrives."""
    return msgspec.structs.replace(line, lasts="once", **dict.fromkeys(AMOUNTS, 0))


def _amounts_part(line: Effect) -> Effect | None:
    """The line's amounts alone: what lands at the start of each turn of the round."""
    if not any(getattr(line, a) for a in AMOUNTS):
        return None
    return msgspec.structs.replace(
        line,
        lasts="once",
        attack_buff=0,
        evasion=False,
        stun=False,
        ailments=[],
        cure=[],
        remove=[],
    )


def _snapshot(s: KradiaState) -> dict[str, tuple[set[str], bool, bool, int]]:
    out = {k: (set(h.ailments), h.evasion, h.stunned, h.attack_buff) for k, h in s.heroes.items()}
    out["boss"] = (set(), False, False, s.boss.attack_buff)
    return out


def _hold(d: Decision, content: Content, line: Effect, why: str, chance: Chance) -> None:
    """Give the line's states for the round, and note exactly what each one gained."""
    s = d.state
    before = _snapshot(s)
    apply_effects(
        d,
        content,
        [_states_part(line)],
        actor=s.start_player,
        why=why,
        source="battlefield",
        chance=chance,
    )
    for who, (ailments, evasion, stun, buff) in _snapshot(s).items():
        was = before[who]
        held = Held(
            who=who,
            ailments=sorted(ailments - was[0]),
            evasion=evasion and not was[1],
            stun=stun and not was[2],
            attack_buff=max(0, buff - was[3]),
        )
        if held.ailments or held.evasion or held.stun or held.attack_buff:
            d.emit(RoundEffectHeld(held=held))


def round_lines(content: Content, s: KradiaState) -> list[Effect]:
    """The current space's lines that hold for the round (read off the board by the
    marker's place, so a corrected marker holds its own space's lines)."""
    if not s.battlefield.path:
        return []
    board = cards.board(content, s.battlefield.board)
    space = next((sp for sp in board.spaces if sp.path == s.battlefield.path), None)
    return [e for e in space.effects if e.lasts == "round"] if space else []


def forbidden(content: Content, s: KradiaState) -> list[str]:
    """The actions the current space forbids this round, read off the board by the marker's
    place (so a corrected `battlefield.path` forbids its own space's actions); the list the
    marker brought (`battlefield.forbid`) is what an unknown place falls back to."""
    if s.phase != "heroes":
        return list(s.battlefield.forbid)
    board = cards.board(content, s.battlefield.board)
    space = next((sp for sp in board.spaces if sp.path == s.battlefield.path), None)
    return list(space.forbid) if space is not None else list(s.battlefield.forbid)


def holds_evasion(s: KradiaState, hero: str) -> bool:
    """Evasion the Battlefield gives for the round does not end on the hero's turn."""
    return any(h.who == hero and h.evasion for h in s.battlefield.held)


def each_turn(d: Decision, content: Content, hero: str) -> None:
    """At the start of `hero`'s turn, the amounts of each round line that names them."""
    s = d.state
    for line in round_lines(content, s):
        part = _amounts_part(line)
        if part is None or s.outcome or s.heroes[hero].fading:
            continue
        if hero in resolve_targets(s, line.target, s.start_player, None):
            apply_effects(
                d,
                content,
                [msgspec.structs.replace(part, target="self")],
                actor=hero,
                why=f"battlefield this round: {s.battlefield.effect}",
                source="battlefield",
            )


def end_held(d: Decision) -> None:
    """The round is over: take back what its Battlefield effect still holds."""
    s = d.state
    for held in s.battlefield.held:
        if held.who == "boss":
            buff = min(held.attack_buff, s.boss.attack_buff)
            if buff:
                d.emit(
                    RoundEffectEnded(
                        who="boss",
                        ailments=[],
                        evasion=False,
                        stun=False,
                        attack_buff=s.boss.attack_buff - buff,
                        removed_buff=buff,
                    )
                )
            continue
        h = s.heroes[held.who]
        ailments = [a for a in held.ailments if a in h.ailments]
        evasion = held.evasion and h.evasion
        stun = held.stun and h.stunned
        buff = min(held.attack_buff, h.attack_buff)
        if ailments or evasion or stun or buff:
            d.emit(
                RoundEffectEnded(
                    who=held.who,
                    ailments=ailments,
                    evasion=evasion,
                    stun=stun,
                    attack_buff=h.attack_buff - buff,
                    removed_buff=buff,
                )
            )
