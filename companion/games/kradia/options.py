"""The new-game wizard's choices for Kradia, read from the packs chosen (plain data: the app
turns each into touch choices; `setup.initial_state` still checks whatever it is given).

Why: a group playing its own cards must be offered its own heroes, story sequences,
bosses and Level 3 sides by their names, its own first; nothing here names a card.  Story
mode asks for the Level 1 boss too: the sequence's own, or any Level 1 boss of the packs
(a group's new Level 1 boss is on no shipped sequence, so it is the default; the story
then goes on with the sequence's Level 2 boss).  The four heroes are four seats,
clockwise from the First Player, each a choice of every hero, so the order at the table
is the order chosen.  A Level 3 side is asked for each hero whose
card has more than one (it matters from Level 3, so Challenge games use it at once).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.content.offer import new_of_own, own_first
from companion.games.kradia import content as cards
from companion.games.kradia.house import HOUSE_RULES
from companion.games.kradia.setup import slug
from companion.jsontypes import JsonObject, JsonValue

if TYPE_CHECKING:
    from companion.content.pack import Content

SEATS = 4
SEAT_LABELS = ("First Player", "2nd, clockwise", "3rd, clockwise", "4th, clockwise")
LEVEL3_PREFIX = "level3_"
STORY_BOSS = "story_boss"  # the wizard's Level 1 boss; None: the story sequence's own


def _side_name(side: str) -> str:
    return side.replace("-", " ").replace("_", " ").title()


def own_level1_boss(content: Content) -> str | None:
    """The group's own Level 1 boss that no story sequence begins with (their new boss),
    the first in their packs; None when they have none."""
    openers = {content.canonical(q.bosses[0]) for q in cards.sequences(content) if q.bosses}
    for boss in cards.bosses(content):
        if boss.level == 1 and new_of_own(content, boss.id) and boss.id not in openers:
            return boss.id
    return None


def complete_setup(options: Mapping[str, JsonValue], content: Content) -> JsonObject:
    """The options a new story game records when nobody named its boss or sequence (the
    CLI's `companion new kradia`): the group's own Level 1 boss, if they made one, with
    the first sequence for the bosses after it.  Anything named is kept as it is."""
    out: JsonObject = dict(options)
    named = ("boss", "sequence", STORY_BOSS, "level", "challenge_boss")
    if out.get("mode", "story") != "story" or any(out.get(k) is not None for k in named):
        return out
    boss = own_level1_boss(content)
    if boss is None:
        return out
    out["boss"] = boss
    sequences = own_first(content, cards.sequences(content))
    if sequences:
        out["sequence"] = sequences[0].id
    return out


def setup_options_for(content: Content) -> list[JsonObject]:
    """Mode, the four seats, the story sequence and Level 1 boss, the Challenge boss, the
    Level 3 sides and the number of players, for `content`: the group's own cards first."""
    heroes = own_first(content, [cards.hero(content, i) for i in content.ids("heroes")])
    names = {h.id: h.title for h in heroes}
    options: list[JsonObject] = [
        {
            "name": "mode",
            "label": "Mode",
            "choices": ["story", "challenge"],
            "default": "story",
            "choice_labels": {"story": "Story: Level 1 to 4", "challenge": "Challenge: Level 4"},
        }
    ]
    for seat in range(min(SEATS, len(heroes))):
        options.append(
            {
                "name": f"seat_{seat + 1}",
                "label": f"Hero {seat + 1} ({SEAT_LABELS[seat]})",
                "choices": list(names),
                "default": heroes[seat].id,
                "choice_labels": {**names},
            }
        )
    sequences = own_first(content, cards.sequences(content))
    if sequences:
        options.append(
            {
                "name": "sequence",
                "label": "Story boss sequence",
                "choices": [q.id for q in sequences],
                "default": sequences[0].id,
                "choice_labels": {q.id: q.title for q in sequences},
            }
        )
    bosses = own_first(content, cards.bosses(content))
    first = [b for b in bosses if b.level == 1]
    if first:
        options.append(
            {
                "name": STORY_BOSS,
                "label": "Level 1 boss (story)",
                "choices": [None, *(b.id for b in first)],
                "default": own_level1_boss(content),
                "choice_labels": {
                    "None": "The sequence's own" if sequences else "The first sequence's",
                    **{b.id: b.title for b in first},
                },
            }
        )
    challenge = [b for b in bosses if b.level == "challenge"]
    if challenge:
        options.append(
            {
                "name": "challenge_boss",
                "label": "Challenge boss",
                "choices": [b.id for b in challenge],
                "default": challenge[0].id,
                "choice_labels": {b.id: b.title for b in challenge},
            }
        )
    boards = own_first(
        content, [cards.board(content, i) for i in content.ids("battlefield_boards")]
    )
    if len(boards) > 1:
        options.append(
            {
                "name": "battlefield",
                "label": "Battlefield board",
                "choices": [b.id for b in boards],
                "default": boards[0].id,
                "choice_labels": {b.id: b.title for b in boards},
            }
        )
    for hero in heroes:
        sides = list(hero.level3)
        if len(sides) > 1:
            options.append(
                {
                    "name": f"{LEVEL3_PREFIX}{slug(hero.id)}",
                    "label": f"{hero.title}'s Level 3 card side",
                    "choices": [*sides],
                    "default": sides[0],
                    "choice_labels": {s: _side_name(s) for s in sides},
                }
            )
    options.append(
        {"name": "players", "label": "Players at the table", "min": 1, "max": 4, "default": 4}
    )
    for rule, spec in HOUSE_RULES.items():
        options.append(
            {
                "name": rule,
                "label": spec["label"],
                "choices": list(spec["choice_labels"]),
                "default": spec["default"],
                "choice_labels": dict(spec["choice_labels"]),
            }
        )
    return options


def from_wizard(options: Mapping[str, object]) -> dict[str, object]:
    """The wizard's flat choices as `initial_state` reads them: the seats as the heroes in
    clockwise order, the Challenge boss only for a Challenge game, the sides by hero."""
    out = dict(options)
    seats = [out.pop(f"seat_{n + 1}") for n in range(SEATS) if f"seat_{n + 1}" in out]
    if seats and "heroes" not in out:
        out["heroes"] = seats
    challenge = out.pop("challenge_boss", None)
    if challenge is not None and out.get("mode") == "challenge" and "boss" not in out:
        out["boss"] = challenge
    story = out.pop(STORY_BOSS, None)
    if story is not None and out.get("mode", "story") == "story" and "boss" not in out:
        out["boss"] = story
    sides = {
        k.removeprefix(LEVEL3_PREFIX): out.pop(k) for k in list(out) if k.startswith(LEVEL3_PREFIX)
    }
    if sides and "level3" not in out:
        out["level3"] = sides
    return out
