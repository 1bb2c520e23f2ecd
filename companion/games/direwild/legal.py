"""What the table may do now, as complete commands a screen, phone or script can send.

Each function mirrors the checks of the command it lists, using the same helpers, so the
list is exactly what the rules accept: the property tests in tests/direwild/test_legal.py
hold the two together.  Facts read off the table (a creature's attack, the move its card
gives) are `inputs` with a range; choices (which hero, which square, which enemy) are
separate actions.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from companion.core.actions import action
from companion.core.rules import Action
from companion.games.direwild import movement
from companion.games.direwild.battle import FLIGHT_PASSIVE, monster_revealers
from companion.games.direwild.board import DIRECTIONS, STAGING
from companion.games.direwild.chapters import chapter_boards
from companion.games.direwild.heroes import BASE_MOVE, BLINKER, ostrich_steps
from companion.games.direwild.state import (
    KARN,
    STAMINA_MIN,
    DirewildState,
    has_power,
    wound_pile,
)
from companion.games.direwild.units import (
    ADVENTURE,
    board_of,
    current_hero,
    enemy_squares,
    geo_of,
    heroes_on_board,
    label,
    minion_of,
    occupied,
    on_board_enemies,
    position,
)
from companion.jsontypes import JsonObject

if TYPE_CHECKING:
    from companion.content.pack import Content


# How far the steppers for table facts go: more than any hand of creatures gives.
ATTACK_MAX = 30
EFFECT_MAX = 6  # knockback, poison, flight
MOVE_MAX = 12  # extra move from creatures
POWERS = {
    "advanced": "Advanced Creatures",
    "channeling": "Channeling",
    "reflexes": "Heightened Reflexes (a wound to reroll a 1)",
    "veteran": "Veteran (heroes roll a d6 in battle)",
}


def legal_actions(s: DirewildState, content: Content) -> list[Action]:
    """Every command the rules would accept now; none once the game is won or lost."""
    if s.outcome in ("won", "lost"):
        return []
    if s.outcome == "chapter_won":
        return next_chapter(s, content)
    if s.prelude is not None:
        return [*charm_rolls(s), *unlocks(s)]
    # the round's start and the Enemy AI card are steps with no choice in them: the app
    # takes them by itself (`auto`), and they only ask the table for cards
    if s.phase in ("setup", "round_over"):
        return [action("start_round", {}, "Start round", auto=True)]
    if s.phase == "game":
        return [action("reveal_ai_card", {}, "Reveal the Enemy AI card", auto=True)]
    return adventure(s, content)


def game_phase(s: DirewildState) -> bool:
    """Whether the round is still in its Game Phase (the Enemy AI card revealed and played,
    then the turn order chosen): the moment the card's steps are the table's, so a screen
    stepping through them keeps them out while the heroes take their turns."""
    return s.phase in ("game", "turn_order")


def next_chapter(s: DirewildState, content: Content) -> list[Action]:
    if s.chapter >= 3:
        return []
    chapter = s.chapter + 1
    return [
        action(
            "start_chapter",
            {"board": board.id},
            f"Start chapter {chapter} on {board.name or board.slug}",
            primary=i == 0,
        )
        for i, board in enumerate(chapter_boards(content, chapter))
    ]


def charm_rolls(s: DirewildState) -> list[Action]:
    assert s.prelude is not None
    out: list[Action] = []
    for hero, h in s.heroes.items():
        if hero in s.prelude.rolled:
            continue
        out.append(
            action(
                "charm_roll",
                {"hero": hero, "magic": 0},
                f"{hero.title()} rolls for Charm",
                {"magic": {"min": 0, "max": h.magic}},
                primary=not out,
            )
        )
    return out


def unlocks(s: DirewildState) -> list[Action]:
    """The Advanced Creatures' stack first, then the hero upgrades (the board's order)."""
    return [
        action("unlock", {"power": power}, f"Unlock {words}")
        for power, words in POWERS.items()
        if not has_power(s, power) and (power == "advanced" or s.advanced_unlocked)
    ]


def adventure(s: DirewildState, content: Content) -> list[Action]:
    """The Adventure Phase: each hero's turn, then the end of the round."""
    order = s.turn_order or s.players
    waiting = [hero for hero in order if not s.heroes[hero].done]
    out: list[Action] = []
    primary = True  # the first of: keep the turn order, end the next hero's turn, end round
    if not any(h.moved or h.battled or h.done for h in s.heroes.values()):
        for perm in permutations(order):
            first = primary and s.phase == "turn_order"
            words = "Turn order: " + ", ".join(h.title() for h in perm)
            out.append(action("set_turn_order", {"order": list(perm)}, words, primary=first))
            primary = primary and not first
    now = current_hero(s)
    if now is not None:  # only the hero whose Adventure Phase it is moves and battles
        out += moves(s, now, content)
        out += battles(s, now, content)
        out += monsters(s, now)
    out += gryk_monsters(s, waiting, content)
    out += card_wounds(s)
    for hero in waiting:  # cards, magic and treasure can be used at any time
        out += targets(s, hero, content)
        out += placements(s, hero, content)
    if now is not None:
        out.append(action("end_turn", {"hero": now}, f"End {now.title()}'s turn", primary=primary))
        primary = False
        if has_power(s, "channeling") and not s.heroes[now].battled:
            out.append(
                action(
                    "end_turn",
                    {"hero": now, "channel": True},
                    f"End {now.title()}'s turn, Channeling a creature to the deck top",
                )
            )
    out.append(action("end_round", {}, "End the round", primary=primary and not waiting))
    out += unlocks(s)
    return out


def moves(s: DirewildState, hero: str, content: Content) -> list[Action]:
    """Every square the hero can end on this turn; the creatures' extra move is an input
    starting at what the square needs beyond the base move and the stamina exerted."""
    h = s.heroes[hero]
    if h.eaten_by or h.moved or h.battled:
        return []
    geo = geo_of(s, content)
    start = h.position
    engaged = [u for u in on_board_enemies(s) if geo.adjacent(start, position(s, u))]
    stuck = bool(engaged) and s.fatal_wounds == 0  # no Fatal Wound to disengage with
    entrance = [sq.upper() for sq in board_of(s, content).entrance]
    others = {sq for name, sq in heroes_on_board(s).items() if name != hero}
    reach = movement.hero_reach(geo, start, entrance, set(enemy_squares(s)), others)
    exert = h.stamina - STAMINA_MIN
    out: list[Action] = []
    for to, steps in sorted(reach.items(), key=lambda kv: (kv[1], kv[0])):
        if stuck and to != start:
            continue
        need = max(0, steps - BASE_MOVE - exert)
        if need > MOVE_MAX:
            continue
        args: JsonObject = {"hero": hero, "to": to, "move": need}
        where = "the staging area" if to == STAGING else to
        if to == start:
            text = f"{hero.title()} stays in {where}"
        elif engaged:
            args["disengage"] = True
            text = f"{hero.title()} disengages and moves to {where}"
        else:
            text = f"{hero.title()} moves to {where}"
        out.append(action("move_hero", args, text, {"move": {"min": need, "max": MOVE_MAX}}))
    return out


def battles(s: DirewildState, hero: str, content: Content) -> list[Action]:
    """Each enemy the hero can fight: adjacent, the one that ate them, or within flight
    (the creatures' flight then starts at what the gap needs)."""
    h = s.heroes[hero]
    here = position(s, hero)
    if h.battled or (here is None and not h.eaten_by):
        return []
    # enemy -> (the flight it needs, whether the knockback's way must be said)
    foes: dict[str, tuple[int, bool]] = {}
    if h.eaten_by:
        foes[h.eaten_by] = (0, False)
    elif here is not None:
        geo = geo_of(s, content)
        passive = FLIGHT_PASSIVE.get(hero, 0)
        for unit in on_board_enemies(s):
            there = position(s, unit) or here
            if geo.adjacent(here, there):
                foes[unit] = (0, False)
                continue
            need = max(0, max(1, geo.distance(here, there) - 1) - passive)
            if need <= EFFECT_MAX:
                foes[unit] = (need, geo.direction_of(here, there) is None)
    out: list[Action] = []
    for unit, (flight, diagonal) in foes.items():
        creature: JsonObject = {"attack": 0, "knockback": 0, "poison": 0, "flight": flight}
        inputs: dict[str, JsonObject] = {
            "creature.attack": {"min": 0, "max": ATTACK_MAX},
            "creature.knockback": {"min": 0, "max": EFFECT_MAX},
            "creature.poison": {"min": 0, "max": EFFECT_MAX},
            "creature.flight": {"min": flight, "max": EFFECT_MAX},
        }
        args: JsonObject = {"hero": hero, "enemy": unit, "creature": creature}
        if diagonal:  # flying at an angle: which way a knockback goes (null: asked later)
            args["knockback_direction"] = None
            inputs["knockback_direction"] = {"choices": [None, *DIRECTIONS]}
        if unit != KARN:  # a critical hit's extra damage can be any hero's colour
            args["critical_colour"] = hero
            inputs["critical_colour"] = {"choices": [hero, *(o for o in s.heroes if o != hero)]}
        words = f"{hero.title()} battles the {label(s, unit, content)}"
        out.append(action("resolve_battle", args, words, inputs))
    return out


def monsters(s: DirewildState, hero: str) -> list[Action]:
    """A Treasure Monster the hero drew, battled with its creature (its attack an input)."""
    h = s.heroes[hero]
    if h.battled or h.treasures < 1:
        return []
    return [
        action(
            "treasure_monster",
            {"hero": hero, "creature": {"attack": 0}},
            f"{hero.title()} battles a Treasure Monster from the treasure deck",
            {"creature.attack": {"min": 0, "max": ATTACK_MAX}},
        )
    ]


def gryk_monsters(s: DirewildState, waiting: list[str], content: Content) -> list[Action]:
    """While a Gryk is face up (or for the hero whose battle defeated it): a Treasure
    Monster its ability revealed wins against the hero it was revealed to, any hero whose
    turn has not ended (one action each, so the tablet shows it under the hero picked)."""
    out: list[Action] = []
    for hero in waiting:
        by = monster_revealers(s, content, hero)
        if not by:
            continue
        minion = minion_of(s, by[0], content)
        who = minion.title if minion is not None else label(s, by[0], content)
        out.append(
            action(
                "treasure_monster",
                {"hero": hero, "gryk": True},
                f"{hero.title()} loses to a Treasure Monster the {who}'s ability revealed",
            )
        )
    return out


def card_wounds(s: DirewildState) -> list[Action]:
    """A regular wound a card or ability gives (the Gryk's, a Rock Stoat's): any hero, any
    time in the round, while the wound pile has a card (or is not counted).  One wound an
    action (a card giving two is told twice); `count` is there for scripts."""
    if wound_pile(s) == 0:
        return []
    return [
        action(
            "take_wound",
            {"hero": hero, "count": 1},
            f"{hero.title()} takes a wound from a card (never a Fatal Wound)",
        )
        for hero in s.heroes
    ]


def placements(s: DirewildState, hero: str, content: Content) -> list[Action]:
    """Cards that move a hero without its move or a disengaging cost: the Ostrich's one
    step (each square it can take), a Teleport Potion or a blink (the square an input)."""
    h = s.heroes[hero]
    if h.eaten_by:
        return []
    out: list[Action] = []
    if not (h.moved or h.battled):
        for to in ostrich_steps(s, hero, content):
            out.append(
                action(
                    "place_hero",
                    {"hero": hero, "to": to, "how": "ostrich"},
                    f"{hero.title()}'s Fenton Ostrich steps to {to}",
                )
            )
    geo = geo_of(s, content)
    taken = set(occupied(s))
    starts = [h.position] if h.position != STAGING else board_of(s, content).entrance
    free = sorted(  # nearest first: the stepper reaches the likely squares in a few taps
        (sq for sq in geo.squares() if sq not in taken),
        key=lambda sq: (min(geo.distance(a.upper(), sq) for a in starts), sq),
    )
    if not free:
        return out
    kinds = [("teleport", "drinks a Teleport Potion")]
    if BLINKER in s.heroes:  # Esma's magic: only a table with Shadowleaf can blink
        kinds.append(("blink", "is blinked by Shadowleaf"))
    for how, words in kinds:
        out.append(
            action(
                "place_hero",
                {"hero": hero, "to": free[0], "how": how},
                f"{hero.title()} {words}",
                {"to": {"choices": free}},
            )
        )
    return out


def targets(s: DirewildState, hero: str, content: Content) -> list[Action]:
    """A card, magic or treasure aimed at an enemy outside battle (poison is an input)."""
    return [
        action(
            "target_enemy",
            {"hero": hero, "enemy": unit, "poison": 0},
            f"{hero.title()} targets the {label(s, unit, content)}",
            {"poison": {"min": 0, "max": EFFECT_MAX}},
        )
        for unit in on_board_enemies(s)
    ]


__all__ = ["ADVENTURE", "game_phase", "legal_actions"]
