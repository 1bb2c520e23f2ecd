"""The printed tables the rules read from: difficulty, play styles, conditions, compass."""

from __future__ import annotations

from dataclasses import dataclass

SKILLS = ("navigate", "explore", "survival")
VITALS = ("health", "energy", "influence")
OPPONENT_TYPES = (
    "construct",
    "creature",
    "humanoid",
    "monstrous_humanoid",
    "magical_nature",
    "spirit",
    "undead",
    "magi",
)


@dataclass(frozen=True)
class Difficulty:
    """One row of the Battle Mat's Game Difficulty bar."""

    vitals_per_hero: int
    damage: int
    skill_penalty: int
    passives: bool
    extra_targets: int
    extra_fragment: int  # the Fate die result at or under which an extra Fragment comes


DIFFICULTIES: dict[str, Difficulty] = {
    "starter": Difficulty(0, 0, 0, False, 0, 0),
    "easy": Difficulty(5, 1, 0, False, 0, 2),
    "moderate": Difficulty(10, 1, 1, True, 0, 3),
    "difficult": Difficulty(20, 2, 1, True, 0, 4),
    "heroic": Difficulty(40, 2, 2, True, 0, 5),
    "epic": Difficulty(80, 3, 3, True, 1, 6),
}
DIFFICULTY_ORDER = list(DIFFICULTIES)


def raised(difficulty: str, steps: int) -> str:
    """Difficulty raised `steps` times; it cannot go past Epic."""
    i = DIFFICULTY_ORDER.index(difficulty) + max(0, steps)
    return DIFFICULTY_ORDER[min(i, len(DIFFICULTY_ORDER) - 1)]


@dataclass(frozen=True)
class PlayStyle:
    cycle_length: int
    sentinels: bool
    movement: int
    magi_shield_halved: bool


PLAY_STYLES: dict[str, PlayStyle] = {
    "standard": PlayStyle(6, True, 4, False),
    "double_up": PlayStyle(5, True, 4, False),
    "quick_play": PlayStyle(5, False, 5, True),
    "marathon": PlayStyle(6, True, 4, False),
}

MAX_SENTINELS = 4
BATTLE_SITES = 4
ADRIMON_CYCLE = 10
MAX_STARVING = 3

# Condition qualities from the Conditions table.
STACKS = {"bleeding", "burned", "drained", "entangled", "frightened", "vulnerable", "disoriented"}
PERSISTS = {"bound", "poisoned"}
# The Conditions with the Affects Any icon: the only ones an ally (or an opponent) can gain.
AFFECTS_ANY = {
    "bleeding",
    "bound",
    "burned",
    "confused",
    "drained",
    "encased",
    "soul_laced",
    "swallowed",
    "tethered",
    "unconscious",
    "vulnerable",
}
CONDITIONS = (
    "bleeding",
    "bound",
    "burned",
    "confused",
    "disarmed",
    "disoriented",
    "drained",
    "encased",
    "entangled",
    "frightened",
    "knocked_down",
    "poisoned",
    "soul_laced",
    "swallowed",
    "tethered",
    "unconscious",
    "vulnerable",
)

# Constraints: a held hero may only Attack; Encased and Soul Laced are not cured by hand.
HELD = {"encased", "swallowed"}
UNCURABLE = {"encased", "soul_laced"}

# The most a player may enter at once for a declared number (two digits on the keypad)
# or for Gold or Food found (three), so a slip of the finger is refused, not believed.
# Set-up, Searching for Gear Initial Rolls: (heroes up to) -> (Gear Upgrade rolls, Item rolls)
STARTING_GEAR_ROLLS = ((2, 3, 3), (4, 2, 3), (6, 1, 2))
QUICK_PLAY_POWER_UPS = 3  # "Before the game begins, the group draws 3 Power Up cards"
GEAR_UPGRADES_PER_STAT = 6  # "Heroes may only gain a total of 6 Gear Upgrades for each stat."
# Gear Upgrade Rings: "Abilities begin at a cost of 4 Gold, Skills at a cost of 3 Gold, and
# Vitals at a cost of 2 Gold" and rise clockwise, "4 Gold, then the next 5 Gold, and so on"
# (1 Gold more each: ruling 48).
RING_START = {
    "health": 2,
    "energy": 2,
    "attack": 4,
    "defend": 4,
    "navigate": 3,
    "explore": 3,
    "survival": 3,
}
# "obtain the Workshop Supplies three times from three different sources"
WORKSHOP_SOURCES_NEEDED = 3
WAYPOSTS = 6  # "The six Wayposts are outlined in orange."
WORKSHOP_SUPPLIES = "Workshop Supplies"


# Roll Starting Location: "There are 5 Enthralled Cities ... One of the Enthralled Cities
# will be covered by the Magi's Acropolis"; each starting location's bonus, as printed.
ENTHRALLED_CITIES = {1: "Elashor", 2: "Myrin", 3: "Connak", 4: "Darcassan", 5: "Keletheryl"}
ACROPOLIS = "acropolis"
HEX_D6 = 6  # the hex face of the six-sided die
STARTING_BONUSES = {
    "elashor": "+3 ranks to distribute to their Vitals",
    "myrin": "5 Gold or 5 Food",
    "connak": "+1 rank to an Ability of their choice",
    "darcassan": "+1 rank to a stat of their choice",
    "keletheryl": "an item from a Waypost or Elowen's Grove worth 5 Gold or less",
    ACROPOLIS: "+1 rank to a Skill of their choice",
}
ELASHOR_RANKS = 3
MYRIN_AMOUNT = 5


def starting_location_name(key: str) -> str:
    """A starting location in a player's words: "Acropolis" or the city's name."""
    return "the Magi's Acropolis" if key == ACROPOLIS else key.title()


def starting_gear_rolls(heroes: int) -> tuple[int, int]:
    """The printed rows: 1-2 heroes 3 and 3, 3-4 heroes 2 and 3, 5-6 heroes 1 and 2."""
    for top, gear, items in STARTING_GEAR_ROLLS:
        if heroes <= top:
            return gear, items
    raise ValueError(f"{heroes} heroes: the table stops at 6")


MAX_DECLARED = 99
MAX_GAINED = 999

NO_CIRCUMSTANCE = {"waypost", "enthralled_city", "battle_site", "boss"}

# Encounter action keys and the action die faces they answer to.
ENCOUNTER_ROLLS = {"attack": [1, 2, 3], "mastery": [4, 5], "special": [6]}
BOSS_ROLLS = {
    "attack": [1],
    "defend": [2],
    "mastery": [3],
    "mastery2": [4],
    "special": [5],
    "special2": [6],
}
TARGET_COUNTS = {"single": 1, "dual": 2, "triple": 3}


def half(n: int) -> int:
    """The rulebook's rounding: halves round down, to a minimum of 1 (0 stays 0)."""
    return max(1, n // 2) if n > 0 else 0
