"""The Direwild table as the app tracks it.

Plain dataclasses of JSON types only, so the state round-trips through msgspec for
snapshots, `state --json` and the core's corrections.  Field names follow the contract in
SCENARIOS.md.  Units are named by one id each: a clan for a hero, a slot colour for a
minion, `karn` for Karn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from msgspec import UNSET, UnsetType

STAMINA_MIN = -3
STAMINA_MAX = 3
DISTRACTION_FLOOR = -1
FATAL_WOUNDS = 6
WOUND_CARDS = 25  # Book 1, Components: "25 Wound cards" (the Fatal Wounds pile's 6 among them)
MAGIC_MAX = 6
GEMS = 6  # magic gems of each clan's colour
CLANS = ("stormbringer", "shadowleaf", "groundbreaker", "featherheart", "bloodmaker")
KARN_CARDS = 15
KARN = "karn"  # Karn's unit id, beside the clans' and the slots'

# House rules a table may choose at set-up, each with the reading the app takes by default
# (docs/rulings/direwild.md quotes the passage each one settles).
HOUSE_RULES: dict[str, tuple[str, ...]] = {
    "karn_presence": ("with_heroes", "always"),
    "minion_counts": ("printed", "one_per_player"),
    "treasure_monster_loss": ("fatal_wound", "no_wound"),
}


@dataclass
class Hero:
    position: str = "staging"  # a square, or "staging"
    stamina: int = 0
    magic: int = 2  # active magic
    inactive: int = 4  # inactive gems beside the board, used as damage
    wounds: int = 0  # regular wounds put into the discard
    fatal: int = 0  # Fatal Wounds put into the discard
    treasures: int = 0
    moved: bool = False
    battled: bool = False
    done: bool = False
    eaten_by: str | None = None


@dataclass
class Enemy:
    minion: str | None = None
    active: bool = False
    position: str | None = None
    stamina: int = 0
    damage: int = 0
    damage_by: dict[str, int] = field(default_factory=dict)
    defeated: bool = False
    path: list[str] = field(default_factory=list)  # last move, start square first
    trail_step: int = 0


@dataclass
class Karn:
    track: int = 0
    track_length: int = 7
    on_board: bool = False
    position: str | None = None
    stamina: int = 0
    cards_left: int = KARN_CARDS
    discarded: int = 0
    destroyed: list[str] = field(default_factory=list)
    regenerates_left: int = 2
    defeated: bool = False
    path: list[str] = field(default_factory=list)


@dataclass
class Happened:
    """One event kept in the state for a panel to list: its type and its data (ids and
    numbers), worded when shown (`view.happened_words`).  Why not its sentence: rewording a
    line must never change a folded state, and the words can then use the pack's names."""

    type: str
    data: dict[str, object] = field(default_factory=dict)


@dataclass
class Battle:
    hero: str = ""
    enemy: str = ""
    roll: list[int] = field(default_factory=list)
    hero_total: int = 0
    enemy_total: int = 0
    winner: str = ""  # "hero" | "enemy"
    critical: bool = False
    flying: bool = False
    effects: list[Happened] = field(default_factory=list)  # what the battle did, in order
    fought: list[str] | UnsetType = UNSET  # enemies the hero was knocked into and lost to


def fought_this_turn(state: DirewildState, hero: str) -> set[str]:
    """The enemies `hero` has already battled this turn: its battle's enemy and any it was
    knocked into (those battles are lost at once, Book 2); the rest win at the turn's end."""
    b = state.last_battle
    if b is None or b.hero != hero:
        return set()
    return {b.enemy, *(b.fought if isinstance(b.fought, list) else [])}


@dataclass
class AiStep:
    """One action of the AI card walk-through: who acted, the event (worded when shown,
    `view.happened_words`) and the path a screen draws."""

    actor: str
    action: str
    path: list[str] = field(default_factory=list)
    data: dict[str, object] = field(default_factory=dict)  # the event's own data


@dataclass
class Prelude:
    """The Charm rounds before a new game that starts at chapter 2 or 3."""

    rounds: int = 5
    round: int = 1
    rolled: list[str] = field(default_factory=list)
    last: dict[str, int] = field(default_factory=dict)  # hero -> Charm from the last roll


@dataclass
class DirewildState:
    players: list[str] = field(default_factory=list)
    chapter: int = 1
    round: int = 0
    phase: str = "setup"  # setup | game | turn_order | adventure | round_over
    board: str = ""
    fatal_wounds: int = FATAL_WOUNDS
    outcome: str | None = None  # null | chapter_won | won | lost
    turn_order: list[str] = field(default_factory=list)
    wilds_slots: int = 6  # Wilds slots filled for this many players
    ai_mode: str = "normal"
    ai_deck: list[str] = field(default_factory=list)  # cards still to come (unordered)
    ai_discard: list[str] = field(default_factory=list)
    ai_card: str | None = None
    walkthrough: list[AiStep] = field(default_factory=list)
    karn: Karn = field(default_factory=Karn)
    enemies: dict[str, Enemy] = field(default_factory=dict)
    heroes: dict[str, Hero] = field(default_factory=dict)
    treasures: list[str] = field(default_factory=list)  # tokens still on the board
    last_battle: Battle | None = None
    prompts: list[str] = field(default_factory=list)
    veteran: bool = False
    advanced_unlocked: bool = False
    minions_used: list[str] = field(default_factory=list)
    prelude: Prelude | None = None
    recording: str = ""  # "ai" | "battle": where event texts are being collected
    # Fields added after sessions were first saved are UNSET until used, so they are left
    # out of the state's JSON and an old save still reads exactly as it was saved.
    house: dict[str, str] | UnsetType = UNSET  # house rules chosen (absent: the default)
    powers: list[str] | UnsetType = UNSET  # Channeling and Heightened Reflexes, once open
    # Regular wound cards left in the wound pile, counted from the first round a release that
    # counts it starts (UNSET: not counted, as in sessions saved before it was).
    wound_pile: int | UnsetType = UNSET


def house_rule(state: DirewildState, rule: str) -> str:
    """The reading the table chose for `rule`, or the app's default (the first)."""
    chosen = state.house.get(rule) if isinstance(state.house, dict) else None
    return chosen or HOUSE_RULES[rule][0]


def wound_pile(state: DirewildState) -> int | None:
    """The regular wound cards left in the wound pile, or None while it is not counted."""
    return state.wound_pile if isinstance(state.wound_pile, int) else None


def wound_pile_estimate(state: DirewildState) -> int:
    """The wound pile as the app knows the table: the box's 25 wound cards less the Fatal
    Wounds pile and every wound already put into a hero's discard."""
    held = sum(h.wounds + h.fatal for h in state.heroes.values())
    return max(0, WOUND_CARDS - state.fatal_wounds - held)


def has_power(state: DirewildState, power: str) -> bool:
    """Whether a lock stack is open: Veteran and the Advanced Creatures have their own
    fields (saved sessions hold them); the later powers live in `powers`."""
    if power == "veteran":
        return state.veteran
    if power == "advanced":
        return state.advanced_unlocked
    return isinstance(state.powers, list) and power in state.powers
