"""Each chapter's land and minions, drawing them, chapter changes and the Charm rounds
that open a new game at chapter 2 or 3 (the first state itself is setup.py's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.direwild import content as typed
from companion.games.direwild import events as ev
from companion.games.direwild.args import CharmRollArgs, StartChapterArgs
from companion.games.direwild.board import SLOTS
from companion.games.direwild.schema import Board
from companion.games.direwild.state import (
    KARN,
    Enemy,
    house_rule,
)
from companion.games.direwild.units import board_of, check_hero

if TYPE_CHECKING:
    from companion.content.pack import Content


LANDS = {1: "redmill", 2: "blightwood", 3: "dungeon"}
# Which minion levels fill each chapter's Minion Track, lowest level leftmost.
CHAPTER_LEVELS: dict[int, tuple[int | str, ...]] = {1: (1, 2), 2: (3, 4), 3: ("acolyte",)}
# How many minions of each level are drawn, by player count (docs/rulings/direwild.md).
# "printed": Book 1 step 11's counts wherever they fit the words around them (two players:
# L1, L2, then L3 and two L4s); three players keep step 13's "as many minions ... as there
# are players", and four players' chapter 2 stops at the track's four slots.
# "one_per_player" (house rule): one minion per player in every chapter.
LEVEL_COUNTS: dict[str, dict[int, dict[int | str, int]]] = {
    "printed": {
        2: {1: 1, 2: 1, 3: 1, 4: 2, "acolyte": 2},
        3: {1: 2, 2: 1, 3: 1, 4: 2, "acolyte": 3},
        4: {1: 2, 2: 2, 3: 2, 4: 2, "acolyte": 4},
    },
    "one_per_player": {
        2: {1: 1, 2: 1, 3: 1, 4: 1, "acolyte": 2},
        3: {1: 2, 2: 1, 3: 1, 4: 2, "acolyte": 3},
        4: {1: 2, 2: 2, 3: 2, 4: 2, "acolyte": 4},
    },
}


def charm_for(roll: int, prelude_round: int) -> int:
    """The d6 Charm table: rounds 1-5, then (chapter 3 only) rounds 6-10."""
    if prelude_round <= 5:
        return 3 if roll == 1 else (6 if roll == 6 else 4)
    return 4 if roll <= 2 else (7 if roll == 6 else 5)


def find_id(content: Content, kind: str, value: object, what: str) -> str:
    ids = content.ids(kind)
    if isinstance(value, str):
        if value in ids:
            return value
        for i in ids:
            if i.rsplit("/", 1)[-1] == value:
                return i
    raise RuleError(
        f"there is no {what} '{value}' (known: "
        f"{', '.join(i.rsplit('/', 1)[-1] for i in ids) or 'none'})"
    )


def board_for(content: Content, chapter: int, wanted: object = None) -> Board:
    if wanted is not None:
        return typed.board(content, find_id(content, "boards", wanted, "board"))
    return chapter_boards(content, chapter)[0]


def chapter_boards(content: Content, chapter: int) -> list[Board]:
    """The boards of the chapter's land, in content order (the first is its own)."""
    boards = [b for b in typed.boards(content) if b.land == LANDS[chapter]]
    if boards:
        return boards
    raise RuleError(f"the content has no {LANDS[chapter]} board for chapter {chapter}")


def ai_cards(content: Content, mode: str) -> list[str]:
    return sorted(c.id for c in typed.ai_cards(content) if mode == "mixed" or c.deck == mode)


def placed(board: Board, slot: str, minion: str) -> Enemy:
    spawn = board.spawns.get(slot)
    if spawn is None:
        raise RuleError(f"board {board.id} has no {slot} spawn")
    spawn = spawn.upper()
    trail = [t.upper() for t in board.trails.get(slot, [])]
    return Enemy(
        minion=minion, position=spawn, trail_step=trail.index(spawn) if spawn in trail else 0
    )


def draw_minions(d: Decision, chance: Chance, content: Content) -> None:
    """Fill the Minion Track for this chapter, one draw request per face-down card."""
    s = d.state
    board = board_of(s, content)
    counts = LEVEL_COUNTS[house_rule(s, "minion_counts")][len(s.players)]
    slots = iter(SLOTS)
    chosen: dict[str, ev.PlacedMinion] = {}
    used = list(s.minions_used)
    for level in CHAPTER_LEVELS[s.chapter]:
        pool = sorted(m.id for m in typed.minions(content) if m.level == level)
        for n in range(counts[level]):
            options = pool if level == "acolyte" else [m for m in pool if m not in used]
            if not options:
                raise RuleError(f"the content has no level {level} minion left to draw")
            slot = next(slots, None)
            if slot is None:
                break
            mid = chance.draw(
                "minions",
                for_="table",
                options=options,
                why=f"draw a level {level} minion for the {slot} slot ({n + 1} of {counts[level]})",
                role="minion",
            )
            used.append(mid)
            e = placed(board, slot, mid)
            assert e.position is not None
            chosen[slot] = ev.PlacedMinion(minion=mid, position=e.position, trail_step=e.trail_step)
    d.emit(ev.MinionsPlaced(slots=chosen))


def start_chapter(d: Decision, args: StartChapterArgs, chance: Chance, content: Content) -> None:
    s = d.state
    if s.outcome != "chapter_won":
        raise RuleError("the next chapter starts once this one is won (every minion defeated)")
    if s.chapter >= 3:
        raise RuleError("chapter 3 is the last: defeat Karn to win")
    chapter = s.chapter + 1
    board = board_for(content, chapter, args.board)
    if board.land != LANDS[chapter]:
        raise RuleError(
            f"chapter {chapter} is played in the {LANDS[chapter].title()}: "
            f"{board.name or board.id} is a {board.land.title()} board"
        )
    d.emit(
        ev.ChapterStarted(
            chapter=chapter,
            board=board.id,
            treasures=[t.upper() for t in board.treasures],
            karn_at=board.altar.upper() if chapter == 3 else None,
            ai_deck=ai_cards(content, s.ai_mode),
        )
    )


def charm_roll(d: Decision, args: CharmRollArgs, chance: Chance) -> None:
    s = d.state
    p = s.prelude
    if p is None:
        raise RuleError(
            "there are no Charm rounds to roll (they open a new game at chapter 2 or 3)"
        )
    hero = check_hero(s, args.hero)
    if hero in p.rolled:
        raise RuleError(f"{hero.title()} has already rolled in Charm round {p.round}")
    spend = args.magic
    if spend < 0:
        raise RuleError("magic (spent for extra Charm) must be a whole number, 0 or more")
    if spend > s.heroes[hero].magic:
        raise RuleError(f"{hero.title()} has only {s.heroes[hero].magic} active magic")
    roll = chance.roll(
        "d6",
        1,
        for_=hero,
        why=f"{hero.title()}'s Charm for round {p.round} of {p.rounds}",
        role="charm",
    )[0]
    d.emit(
        ev.CharmRolled(hero=hero, roll=roll, charm=charm_for(roll, p.round) + spend, magic=spend)
    )
    if len(d.state.prelude.rolled) == len(s.players):
        if p.round >= p.rounds:
            d.emit(ev.PreludeDone())
        else:
            d.emit(ev.CharmRoundDone(round=p.round))


__all__ = ["KARN", "charm_roll", "draw_minions", "start_chapter"]
