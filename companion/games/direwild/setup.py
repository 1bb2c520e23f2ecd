"""Set-up options -> the first state, by player count, chapter and house rules, refusing
bad options in words the table understands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.core.rules import RuleError
from companion.games.direwild import content as typed
from companion.games.direwild.board import SLOTS, STAGING, BoardError, geometry
from companion.games.direwild.chapters import ai_cards, board_for, find_id, placed
from companion.games.direwild.state import (
    CLANS,
    HOUSE_RULES,
    KARN_CARDS,
    DirewildState,
    Hero,
    Karn,
    Prelude,
)

if TYPE_CHECKING:
    from companion.content.pack import Content

WILDS_SLOTS = {2: 6, 3: 5, 4: 4}
PRELUDE_ROUNDS = {2: 5, 3: 10}
AI_MODES = ("normal", "hardcore", "mixed")
DEFAULT_PLAYERS = CLANS[:2]  # the set-up a table gets when it asks for none


def initial_state(options: Mapping[str, object], content: Content) -> DirewildState:
    known = {"players", "board", "chapter", "ai_deck", "minions", "heroes_at", "prelude"}
    known |= set(HOUSE_RULES)
    unknown = set(options) - known
    if unknown:
        raise RuleError(
            f"unknown set-up option(s) {', '.join(sorted(unknown))} "
            f"(Direwild knows: {', '.join(sorted(known))})"
        )
    players = options.get("players", list(DEFAULT_PLAYERS))
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise RuleError("players must list 2 to 4 clans, e.g. [stormbringer, featherheart]")
    for p in players:
        if p not in CLANS:
            raise RuleError(f"'{p}' is not a clan ({', '.join(CLANS)})")
    if len(set(players)) != len(players):
        raise RuleError("each clan can be played by only one player")
    chapter = options.get("chapter", 1)
    if chapter not in (1, 2, 3):
        raise RuleError("chapter must be 1, 2 or 3")
    mode = options.get("ai_deck", "normal")
    if mode not in AI_MODES:
        raise RuleError(f"ai_deck must be one of {', '.join(AI_MODES)}")
    board = board_for(content, chapter, options.get("board"))
    try:
        geo = geometry(board)
    except BoardError as exc:
        raise RuleError(f"board {board.id}: {exc}") from None
    deck = ai_cards(content, mode)
    if not deck:
        raise RuleError(f"the content has no {mode} Enemy AI cards")
    karn = typed.karn(content)
    s = DirewildState(
        players=list(players),
        chapter=chapter,
        board=board.id,
        ai_mode=mode,
        ai_deck=deck,
        treasures=[t.upper() for t in board.treasures],
        wilds_slots=WILDS_SLOTS[len(players)],
    )
    s.karn = Karn(
        track_length=karn.track_length,
        regenerates_left=len(players),
        cards_left=min(KARN_CARDS, len(content.ids("karn_cards"))) or KARN_CARDS,
    )
    for p in players:
        s.heroes[p] = Hero()
    chosen = {}
    for rule, readings in HOUSE_RULES.items():
        value = options.get(rule)
        if value is None:
            continue
        if value not in readings:
            raise RuleError(f"{rule} must be one of {', '.join(readings)}")
        if value != readings[0]:
            chosen[rule] = str(value)
    if chosen:  # only a table that chose otherwise records it: old saves read the same
        s.house = chosen
    if chapter == 3:
        s.karn.on_board, s.karn.position = True, board.altar.upper()
    minions = options.get("minions")
    if minions is not None:
        if not isinstance(minions, dict):
            raise RuleError(
                "minions maps track slots to minions, e.g. {red: <a minion of your pack>}"
            )
        for slot, mid in minions.items():
            if slot not in SLOTS:
                raise RuleError(f"'{slot}' is not a Minion Track slot ({', '.join(SLOTS)})")
            mid = find_id(content, "minions", mid, "minion")
            s.enemies[slot] = placed(board, slot, mid)
            s.minions_used.append(mid)
    heroes_at = options.get("heroes_at") or {}
    if not isinstance(heroes_at, dict):
        raise RuleError("heroes_at maps clans to squares, e.g. {stormbringer: C4}")
    taken = {e.position for e in s.enemies.values()}
    for clan, sq in heroes_at.items():
        if clan not in s.heroes:
            raise RuleError(f"heroes_at: '{clan}' is not playing")
        if str(sq).lower() == STAGING:
            continue
        try:
            sq = geo.check(sq, f"heroes_at {clan}:")
        except BoardError as exc:
            raise RuleError(str(exc)) from None
        if sq in taken:
            raise RuleError(f"heroes_at {clan}: {sq} is already taken")
        taken.add(sq)
        s.heroes[clan].position = sq
    if chapter > 1 and options.get("prelude", True):
        s.prelude = Prelude(rounds=PRELUDE_ROUNDS[chapter])
        for h in s.heroes.values():
            h.magic, h.inactive = 3, 3
            h.treasures = chapter - 1
            h.wounds = 1
    return s
