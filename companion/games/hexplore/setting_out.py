"""Before the first Game Turn: the start-of-game rolls that depend on the group.

Set-up, Starting Equipment: "Each hero rolls their ten-sided dice a set number of times
based on how many heroes are in the game, and consults the Searching For Gear section on
the Enthralled Cities placard for what you found."  The app rolls the dice and says how
many; what each result finds is on the placard, so it is the players' to read.  Quick
Play: "Before the game begins, the group draws 3 Power Up cards and gains their bonus."

Set up the Game Board: "Roll the six-sided die to determine the location of the Magi's
Acropolis and reroll a result of a hex." Roll Starting Location: "Roll the six-sided die to
determine which city your group starts in ... The Magi's Acropolis is treated as having both a
HEX and the Enthralled City's number that the Acropolis covers." "Your heroes will gain a
separate bonus based on the Enthralled City they begin near."  Each is its own command, asked
for after set-up (ruling 49), so a game set up before they existed plays on unchanged.
"""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import (
    PlaceAcropolis,
    QuickPlayPowerUps,
    RollStartingLocation,
    SearchStartingGear,
    TakeStartingBonus,
)
from companion.games.hexplore.common import hero_id, in_combat, in_play, whole
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.events import (
    AcropolisPlaced,
    PowerUpsGained,
    RankRaised,
    StartingBonusTaken,
    StartingGearRolled,
    StartingLocationRolled,
)
from companion.games.hexplore.keywords import movement_phase
from companion.games.hexplore.levelling import STATS
from companion.games.hexplore.state import GROUP_NAME, HexploreState
from companion.games.hexplore.tables import (
    ACROPOLIS,
    ELASHOR_RANKS,
    ENTHRALLED_CITIES,
    HEX_D6,
    MYRIN_AMOUNT,
    QUICK_PLAY_POWER_UPS,
    SKILLS,
    STARTING_BONUSES,
    starting_gear_rolls,
    starting_location_name,
)


def before_the_game(s: HexploreState) -> bool:
    """Nothing of the first Game Turn has been played yet."""
    return s.turn == 1 and movement_phase(s) and s.combat is None and s.fate.tracker == 0


def search_starting_gear(
    d: Decision, args: SearchStartingGear, chance: Chance, content: HexContent
) -> None:
    s: HexploreState = d.state
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    if not before_the_game(s) or in_combat(s):
        raise RuleError("the starting rolls for gear are made before the game begins")
    if hid in s.starting_gear:
        raise RuleError(f"{h.name} has already searched for starting gear")
    if not in_play(h):
        raise RuleError(f"{h.name} is out of the game")
    gear_n, item_n = starting_gear_rolls(len(s.heroes))
    rolls: dict[str, list[int]] = {}
    for kind, n in (("gear", gear_n), ("items", item_n)):
        rolls[kind] = [
            chance.roll(
                "skill_d10",
                for_=hid,
                why=f"Searching for Gear, {'Gear Upgrade' if kind == 'gear' else 'Item'} "
                f"roll {i + 1} of {n} (read the Enthralled Cities placard)",
                role=f"starting_{kind}",
                who=h.name,
            )[0]
            for i in range(n)
        ]
    d.emit(StartingGearRolled(hero=hid, gear=rolls["gear"], items=rolls["items"]))


def quick_play_power_ups(
    d: Decision, args: QuickPlayPowerUps, chance: Chance, content: HexContent
) -> None:
    s: HexploreState = d.state
    if s.play_style != "quick_play":
        raise RuleError("only Quick Play starts with 3 Power Up cards for the group")
    if s.starting_power_ups:
        raise RuleError("the group has already drawn its 3 starting Power Up cards")
    if not before_the_game(s):
        raise RuleError("the 3 starting Power Up cards are drawn before the game begins")
    d.emit(PowerUpsGained(heroes=[], count=QUICK_PLAY_POWER_UPS, before_game=True))


def place_acropolis(d: Decision, args: PlaceAcropolis, chance: Chance, content: HexContent) -> None:
    """The six-sided die places the Acropolis over Enthralled City 1-5; a hex is rolled again."""
    s: HexploreState = d.state
    if s.acropolis:
        raise RuleError(f"the Magi's Acropolis already covers Enthralled City {s.acropolis}")
    if not before_the_game(s):
        raise RuleError("the Magi's Acropolis is placed before the game begins")
    rolls: list[int] = []
    while not rolls or rolls[-1] == HEX_D6:
        rolls += chance.roll(
            "hex_d6",
            for_="group",
            who=GROUP_NAME,
            why="the Magi's Acropolis: which Enthralled City it covers"
            + (" (a hex is rolled again)" if rolls else ""),
            role="acropolis",
        )
    d.emit(AcropolisPlaced(city=rolls[-1], rolls=rolls))


def starting_location(s: HexploreState, roll: int) -> str:
    """A hex, or the number of the city under the Acropolis, starts the group there."""
    if roll == HEX_D6 or roll == s.acropolis:
        return ACROPOLIS
    return ENTHRALLED_CITIES[roll].lower()


def roll_starting_location(
    d: Decision, args: RollStartingLocation, chance: Chance, content: HexContent
) -> None:
    s: HexploreState = d.state
    if s.starting_location:
        where = starting_location_name(s.starting_location)
        raise RuleError(f"the group already starts at {where}")
    if not before_the_game(s):
        raise RuleError("the group's starting location is rolled before the game begins")
    if not s.acropolis:
        raise RuleError(
            "place the Magi's Acropolis first: the starting roll counts it as a hex and as "
            "the city it covers"
        )
    roll = chance.roll(
        "hex_d6",
        for_="group",
        who=GROUP_NAME,
        why="the Enthralled City the group starts in",
        role="starting_location",
    )[0]
    d.emit(StartingLocationRolled(roll=roll, location=starting_location(s, roll)))


# The ranks each starting location lets a hero raise by 1 (Elashor's 3 go to the Vitals)
BONUS_STATS = {
    "connak": ("attack", "defend"),
    "darcassan": STATS,
    ACROPOLIS: SKILLS,
}


def take_starting_bonus(
    d: Decision, args: TakeStartingBonus, chance: Chance, content: HexContent
) -> None:
    """A hero's bonus for the location the group starts at: `stat` for a rank (Connak,
    Darcassan, the Acropolis), `health` of Elashor's 3 Vital ranks (the rest to Energy),
    `take` gold or food (Myrin); Keletheryl's item is the players' to choose."""
    s: HexploreState = d.state
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    where = s.starting_location
    if not where:
        raise RuleError("roll the group's starting location first: its bonus depends on it")
    if not before_the_game(s) or in_combat(s):
        raise RuleError("the starting bonus is taken before the game begins")
    if hid in s.starting_bonus:
        raise RuleError(f"{h.name} has already taken the starting bonus")
    if not in_play(h):
        raise RuleError(f"{h.name} is out of the game")
    name = starting_location_name(where)
    if where in BONUS_STATS:
        stats = BONUS_STATS[where]
        stat = args.stat
        if stat is None or stat not in stats:
            raise RuleError(
                f"{name}'s bonus is {STARTING_BONUSES[where]} ({', '.join(stats)}), not {stat!r}"
            )
        d.emit(RankRaised(hero=hid, stat=stat, by=1))
        d.emit(StartingBonusTaken(hero=hid, location=where))
    elif where == "elashor":
        health = whole(args.health, "health", maximum=ELASHOR_RANKS)
        for vital, by in (("health", health), ("energy", ELASHOR_RANKS - health)):
            if by:
                d.emit(RankRaised(hero=hid, stat=vital, by=by))
        d.emit(StartingBonusTaken(hero=hid, location=where))
    elif where == "myrin":
        take = args.take
        if take not in ("gold", "food"):
            raise RuleError(f"{name}'s bonus is {STARTING_BONUSES[where]}: take gold or food")
        gold = MYRIN_AMOUNT if take == "gold" else 0
        food = MYRIN_AMOUNT if take == "food" else 0
        d.emit(StartingBonusTaken(hero=hid, location=where, gold=gold, food=food))
    else:
        d.emit(StartingBonusTaken(hero=hid, location=where, note=STARTING_BONUSES[where]))
