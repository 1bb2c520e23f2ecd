"""The battlefield phase, exactly as "Battlefield Selection" and "Battlefield Reset" run it.

The marker walks down a column as cards are revealed (`path` is the symbols revealed
since it went to the top), and when all three cards are face up the active card is
turned sideways and the marker returns to the top of that card's column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core.rules import Chance, Decision, RuleError
from companion.games.kradia import content as cards
from companion.games.kradia.effects import apply_effects
from companion.games.kradia.events import BattlefieldCardRevealed, BattlefieldReset, MarkerMoved
from companion.games.kradia.schema import BattlefieldBoard, BattlefieldSpace

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


def select(d: Decision, args: dict[str, Any], chance: Chance, content: Content) -> None:
    """Reveal (or reset), move the marker, and apply the space's effect."""
    s = d.state
    bf = s.battlefield
    board = cards.board(content, bf.board)
    if not bf.face_down:
        if args.get("card"):
            raise RuleError(
                "all three Battlefield cards are face up: this round is a "
                "Battlefield Reset, no card is revealed"
            )
        active = next(c for c in bf.face_up if symbol_of(content, c) == bf.path[-1])
        others = [c for c in bf.face_up if c != active]
        d.emit(BattlefieldReset(card=active, face_down=others))
        path = [symbol_of(content, active)]
    else:
        card = args.get("card")
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
    if space.effects:
        apply_effects(
            d,
            content,
            space.effects,
            actor=s.start_player,
            why=f"battlefield: {space.name or space_key(path)}",
            source="battlefield",
        )
