"""The table's state for HEXplore It: what the Battle Mat and the Role mats hold.

Plain dataclasses of JSON types only, so the session can snapshot them, `state --json`
can print them and a correction can set any field (SCENARIOS.md names the paths).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.hexplore.tables import PLAY_STYLES


@dataclass
class Condition:
    """One Condition on a hero or the opponent.

    `rounds` counts down at the end of each combat round (0 = until removed); `value` is a
    constraint's remaining Health (Encased, Swallowed) or the Unconscious wake counter;
    `damage` is Swallowed's Health loss per round; `successes` counts Poisoned's Survival
    successes; `to` names who a Bound target is tied to.
    """

    stacks: int = 1
    rounds: int = 0
    value: int = 0
    damage: int = 0
    successes: int = 0
    to: str = ""


@dataclass
class HeroState:
    name: str
    health: int
    energy: int
    max_health: int
    max_energy: int
    skills: dict[str, int]
    abilities: dict[str, int]
    base_attack: int
    food_rating: int = 0
    food: int = 0
    gold: int = 0
    favored_opponent: str = ""
    mindwiped: bool = False
    mindwiped_turns: int = 0
    vanished: bool = False
    dead: bool = False
    starving: int = 0
    conditions: dict[str, Condition] = field(default_factory=dict)
    power_ups: int = 0
    rewards: list[str] = field(default_factory=list)
    upgrades: dict[str, int] = field(default_factory=dict)  # Gear Upgrades gained per stat
    spirit_tether: bool = False  # a Spirit Tether Ritual waits to Revive them (One Hero)


@dataclass
class AllyState:
    """An Escort, a Summon or an Influenced opponent travelling with the group.

    "An ally is considered to be any other member of a hero's group (for instance, other
    heroes, Escorts, or Summons)": in combat allies are targets of the target dice and of
    group attacks, deal `attack` Health damage each round, and fall at 0 Health.  Escorts
    "have 0 Energy"; Energy damage leaves them at 0.
    """

    name: str
    kind: str  # escort | summon | ally
    health: int
    max_health: int
    attack: int = 0
    energy: int = 0
    summoner: str = ""  # the hero a Summon acts on behalf of
    conditions: dict[str, Condition] = field(default_factory=dict)


@dataclass
class RelicState:
    """A Relic the group possesses, with the numbers of its card as it was obtained.

    `requirement` is the printed Wielder Requirement (the 2 per other Relic is added by the
    rules); `wielder` is "" while the group only carries it."""

    name: str
    stat: str
    requirement: int
    soul_shield: int = 0
    bonus_stat: str = ""
    bonus: int = 0
    wielder: str = ""


@dataclass
class Fate:
    tracker: int = 0
    cycle: int = 0
    sentinels_made: int = 0


@dataclass
class Sentinel:
    number: int
    location: str  # battle_site_1..4 or acropolis_1..6


@dataclass
class SkillPhase:
    """This game turn's skill rolls, kept until `end_skill_phase` settles the group."""

    turn: int = 0
    rolled: dict[str, dict[str, str]] = field(default_factory=dict)
    dice: dict[str, dict[str, int]] = field(default_factory=dict)
    bonuses: list[str] = field(default_factory=list)
    resolved: bool = False


@dataclass
class Circumstance:
    roll: int = 0
    slot: int = 0  # 1-5, or 0 for a blind draw
    card: str = ""
    unavoidable: bool = False
    may_discard: bool = False
    settled: str = ""  # "" | played | discarded


@dataclass
class OpponentState:
    id: str
    name: str
    kind: str
    type: str
    level: int
    health: int
    energy: int
    soul_shield: int
    influence: int
    max_health: int
    max_energy: int
    max_influence: int
    savable: bool = False
    regen: int = 0
    conditions: dict[str, Condition] = field(default_factory=dict)


@dataclass
class Declaration:
    action: str  # attack | defend | mastery | flee
    amount: int = 0
    vital: str = "health"  # health | energy | influence
    piercing: int = 0
    defend: int = 0
    block: int = 0
    heal: int = 0
    heal_vital: str = "health"
    heal_target: str = ""
    target: str = ""  # "" = the opponent, or a hero whose constraint is attacked
    foe: str = ""  # the opponent it is aimed at when several are faced ("" = the first)
    energy_spent: int = 0
    favored: int = 0
    favored_vital: str = "health"
    favored_rolls: list[int] = field(default_factory=list)
    inflicts: dict[str, int] = field(default_factory=dict)  # condition -> rounds
    wake: str = ""
    defend_too: bool = False
    raises: bool = False  # the heal is a Raise: it may exceed the maximum
    nonlethal: bool = False  # its damage cannot drop the opponent's Vitals below 1
    lost: bool = False
    halved: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class LastAction:
    roll: int = 0
    ability: str = ""  # attack | defend | mastery | mastery2 | special | special2
    name: str = ""
    wanted: str = ""  # the ability rolled, when it defaulted for want of Energy
    defaulted: bool = False
    energy_spent: int = 0
    targets: list[str] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=dict)  # target -> attacks received
    target_rolls: dict[str, list[int]] = field(default_factory=dict)
    skill_rolls: dict[str, dict[str, str]] = field(default_factory=dict)
    health: int = 0
    energy: int = 0
    piercing: int = 0
    lost: bool = False
    halved: bool = False


@dataclass
class Combat:
    opponent: OpponentState
    difficulty: str
    dangerous: int = 0
    round: int = 1
    phase: str = "declare"  # declare | resolve | over
    heroes: list[str] = field(default_factory=list)
    fled: list[str] = field(default_factory=list)
    flee_attempts: dict[str, int] = field(default_factory=dict)
    declarations: dict[str, Declaration] = field(default_factory=dict)
    last_action: LastAction | None = None
    passive: bool = False
    sentinel: str = ""  # the Sentinel's location, when fighting one
    resolution: list[str] = field(default_factory=list)
    outcome: str | None = None  # None | vanquished | influenced | fled | heroes_fell
    turn: int = 0  # the game turn it started in (Adrimon comes once each Event phase)
    sustained: dict[str, int] = field(default_factory=dict)  # hero -> round last powered
    # "If the group faces more than one opponent": those who joined after the first, keyed
    # opponent2, opponent3 ... in events; their actions this round; who is beaten, and how.
    extra: list[OpponentState] = field(default_factory=list)
    extra_actions: dict[str, LastAction] = field(default_factory=dict)
    beaten: dict[str, str] = field(default_factory=dict)  # foe key -> vanquished | influenced


@dataclass
class HexploreState:
    heroes: dict[str, HeroState]
    difficulty: str = "starter"
    play_style: str = "standard"
    turn: int = 1
    fate: Fate = field(default_factory=Fate)
    sentinels: list[Sentinel] = field(default_factory=list)
    adrimon_attacks: bool = False
    last_skill_rolls: dict[str, dict[str, str]] = field(default_factory=dict)
    skill_phase: SkillPhase = field(default_factory=SkillPhase)
    circumstance: Circumstance | None = None
    wander: list[int] = field(default_factory=list)  # the last wander or roam dice
    wander_stayed: bool = False  # the Wander led off the map or onto a peak
    combat: Combat | None = None
    last_combat: str = ""
    bosses_defeated: list[str] = field(default_factory=list)
    fragments: int = 0
    power_ups: int = 0
    essence: dict[str, int] = field(default_factory=dict)
    outcome: str | None = None  # None | won | lost
    allies: dict[str, AllyState] = field(default_factory=dict)
    teleported: int = 0  # the turn whose Movement phase was a Teleport
    to_magi_phase: int = 0  # the turn a flight sent straight to the Magi phase
    starting_gear: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    starting_power_ups: bool = False  # Quick Play's 3 before the game are drawn
    house_rules: dict[str, str] = field(default_factory=dict)  # only those the set-up named
    single_rewards: list[str] = field(default_factory=list)  # waiting for the group's pick
    single_to: list[str] = field(default_factory=list)  # the heroes who may take them
    single_taken: list[str] = field(default_factory=list)  # who took one, in order
    # "Workshop Supplies three times from three different sources ... to create Ashul's
    # Workshop": the sources counted so far, and whether the Workshop is built
    workshop_supplies: list[str] = field(default_factory=list)
    workshop_built: bool = False
    # Set-up: the Enthralled City (1-5) the Magi's Acropolis covers (0 = not rolled yet); the
    # group's starting location (a city's key or "acropolis"); who has taken its bonus
    acropolis: int = 0
    starting_location: str = ""
    starting_bonus: list[str] = field(default_factory=list)
    relics: dict[str, RelicState] = field(default_factory=dict)  # by the card's slug


OPPONENT = "opponent"  # who the opponent is in events, beside the heroes' ids
GROUP_NAME = "The group"  # who rolls for the whole group, in a player's words


def foe_key(index: int) -> str:
    """Who the `index`th opponent of a combat is in events: the first is `opponent`."""
    return OPPONENT if index == 0 else f"{OPPONENT}{index + 1}"


def foes(c: Combat) -> list[tuple[str, OpponentState]]:
    """Every opponent of the combat with its key, in the order they joined."""
    return [(foe_key(i), o) for i, o in enumerate([c.opponent, *c.extra])]


def standing(c: Combat) -> list[tuple[str, OpponentState]]:
    """The opponents not yet vanquished or Influenced, in the order they joined."""
    return [(k, o) for k, o in foes(c) if k not in c.beaten]


def is_foe(who: str) -> bool:
    return who == OPPONENT or (who.startswith(OPPONENT) and who[len(OPPONENT) :].isdigit())


def foe_of(c: Combat, who: str) -> OpponentState:
    """The opponent a key names (`opponent`, `opponent2` ...)."""
    for k, o in foes(c):
        if k == who:
            return o
    raise KeyError(f"no opponent {who!r} in this combat")


def action_of(c: Combat, who: str) -> LastAction | None:
    """The action an opponent took this round (the first's is `last_action`)."""
    return c.last_action if who == OPPONENT else c.extra_actions.get(who)


def target_of(state: HexploreState, who: str) -> HeroState | OpponentState | AllyState:
    """A hero, an ally, or an opponent on the mat: whoever an event's `who` names."""
    if is_foe(who):
        if state.combat is None:
            raise KeyError("no opponent outside combat")
        return foe_of(state.combat, who)
    if who in state.allies:
        return state.allies[who]
    return state.heroes[who]


def name_of(state: HexploreState, who: str) -> str:
    """Whoever `who` names, in a player's words."""
    return target_of(state, who).name


# -- values the rules derive from the state (never stored, so never stale) ---------------


def cycle_length(s: HexploreState) -> int:
    """Fate Tracker rises per Fate Cycle: 6, or 5 in Double Up and Quick Play."""
    return PLAY_STYLES[s.play_style].cycle_length


def movement(s: HexploreState) -> int:
    """Hexes the group moves each Game Turn: 4, or 5 in Quick Play."""
    return PLAY_STYLES[s.play_style].movement


def single_reward_takers(s: HexploreState) -> list[str]:
    """Who may be picked for the next Single Reward: "each awarded to a different hero",
    so those who have taken the fewest of this combat's."""
    if not s.single_rewards or not s.single_to:
        return []
    fewest = min(s.single_taken.count(h) for h in s.single_to)
    return [h for h in s.single_to if s.single_taken.count(h) == fewest]


def solo(s: HexploreState) -> bool:
    """A one-hero game (its own rules: Defend beside another action, all the rewards)."""
    return len(s.heroes) == 1
