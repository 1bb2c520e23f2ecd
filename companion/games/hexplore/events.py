"""HEXplore's events: one typed payload per event, its handler and its words beside it.

Events carry the numbers already worked out (a change of -3 Energy, not "the Villagers
attacked"), so folding the log never re-runs a rule.  Type and field names are those the
first release saved: a save file from then folds to the same table today.  Fields left at
their defaults are not stored (`omit_defaults`), as the first release wrote them.
"""

from __future__ import annotations

from companion.core.tables import EventData, Events
from companion.games.hexplore.state import (
    OPPONENT,
    AllyState,
    Circumstance,
    Combat,
    Condition,
    Declaration,
    HeroState,
    HexploreState,
    LastAction,
    OpponentState,
    RelicState,
    Sentinel,
    SkillPhase,
    foe_of,
    foes,
    target_of,
)

EVENTS: Events[HexploreState] = Events()


class HexEvent(EventData, omit_defaults=True):
    """Every HEXplore event: stored without the fields left at their defaults."""


def words(key: str) -> str:
    return key.replace("_", " ")


def _combat(s: HexploreState) -> Combat:
    assert s.combat is not None, "a combat event outside combat"
    return s.combat


# -- Vitals, Conditions, gold and food, death, the ending ---------------------------------

VITAL_FIELDS = ("health", "energy", "soul_shield", "influence")


class VitalsChanged(HexEvent):
    who: str
    health: int = 0
    energy: int = 0
    soul_shield: int = 0
    influence: int = 0
    why: str = ""


def _vitals_text(e: VitalsChanged) -> str:
    parts = [f"{words(v)} {getattr(e, v):+d}" for v in VITAL_FIELDS if getattr(e, v)]
    why = f" ({e.why})" if e.why else ""
    return f"{e.who}: {', '.join(parts) or 'no change'}{why}"


@EVENTS.on(VitalsChanged, text=_vitals_text)
def _vitals_changed(s: HexploreState, e: VitalsChanged) -> None:
    who = target_of(s, e.who)
    for vital in VITAL_FIELDS:
        if getattr(e, vital):  # a hero has no Soul Shield or Influence to change
            setattr(who, vital, getattr(who, vital) + getattr(e, vital))


class ConditionGained(HexEvent):
    who: str
    condition: str
    stacks: int = 1
    rounds: int = 0
    value: int = 0
    damage: int = 0
    to: str = ""
    successes: int = 0  # written by the first release, never folded (kept for old saves)


@EVENTS.on(
    ConditionGained,
    text=lambda e: f"{e.who} is {words(e.condition)}" + (f" x{e.stacks}" if e.stacks > 1 else ""),
)
def _condition_gained(s: HexploreState, e: ConditionGained) -> None:
    target_of(s, e.who).conditions[e.condition] = Condition(
        stacks=e.stacks, rounds=e.rounds, value=e.value, damage=e.damage, to=e.to
    )


class ConditionLost(HexEvent):
    who: str
    condition: str


@EVENTS.on(ConditionLost, text=lambda e: f"{e.who} is no longer {words(e.condition)}")
def _condition_lost(s: HexploreState, e: ConditionLost) -> None:
    target_of(s, e.who).conditions.pop(e.condition, None)


class ConditionChanged(HexEvent):
    who: str
    condition: str
    fields: dict[str, int]


def _condition_changed_text(e: ConditionChanged) -> str:
    def part(key: str, n: int) -> str:
        if key == "rounds":
            return f"{n} round{'s' if n != 1 else ''} left"
        if key == "successes":
            return f"{n} Survival success{'es' if n != 1 else ''}"
        if key == "value" and e.condition == "unconscious":
            return "does not wake yet"
        if key == "value":
            return f"{n} Health left to break free"
        return f"{words(key)} {n}"

    parts = ", ".join(part(k, v) for k, v in e.fields.items())
    return f"{e.who} is still {words(e.condition)}: {parts}"


@EVENTS.on(ConditionChanged, text=_condition_changed_text)
def _condition_changed(s: HexploreState, e: ConditionChanged) -> None:
    c = target_of(s, e.who).conditions[e.condition]
    for k, v in e.fields.items():
        setattr(c, k, v)


class HeroDied(HexEvent):
    hero: str
    why: str


@EVENTS.on(HeroDied, text=lambda e: f"{e.hero} dies ({e.why})")
def _hero_died(s: HexploreState, e: HeroDied) -> None:
    h = s.heroes[e.hero]
    h.dead = True
    h.conditions = {}


class RankRaised(HexEvent):
    """A stat's rank rises: a Vital raises its maximum and the current value with it."""

    hero: str
    stat: str
    by: int
    gear: bool = False  # a Gear Upgrade (six per stat)
    gold: int = 0  # what it cost, as a change


def _rank_text(e: RankRaised) -> str:
    what = "Gear Upgrade" if e.gear else "rank increase"
    cost = f" for {-e.gold} Gold" if e.gold else ""
    return f"{e.hero}: {words(e.stat)} +{e.by} ({what}{cost})"


def _raise(h: HeroState, stat: str, by: int) -> None:
    """A rank rises (or falls): a Vital's maximum and current value move together."""
    if stat in h.skills:
        h.skills[stat] += by
    elif stat in h.abilities:
        h.abilities[stat] += by
    else:
        setattr(h, f"max_{stat}", getattr(h, f"max_{stat}") + by)
        setattr(h, stat, getattr(h, stat) + by)


@EVENTS.on(RankRaised, text=_rank_text)
def _rank_raised(s: HexploreState, e: RankRaised) -> None:
    h = s.heroes[e.hero]
    _raise(h, e.stat, e.by)
    if e.gear:
        h.upgrades[e.stat] = h.upgrades.get(e.stat, 0) + e.by
    h.gold += e.gold


class WorkshopSuppliesGained(HexEvent):
    """Workshop Supplies from one more source; with the third, Ashul's Workshop is built."""

    source: str
    built: bool = False


def _supplies_text(e: WorkshopSuppliesGained) -> str:
    built = ": the heroes build Ashul's Workshop" if e.built else ""
    return f"The group obtains Workshop Supplies ({e.source}){built}"


@EVENTS.on(WorkshopSuppliesGained, text=_supplies_text)
def _workshop_supplies_gained(s: HexploreState, e: WorkshopSuppliesGained) -> None:
    s.workshop_supplies.append(e.source)
    if e.built:
        s.workshop_built = True


class StartingGearRolled(HexEvent):
    hero: str
    gear: list[int]
    items: list[int]


def _starting_gear_text(e: StartingGearRolled) -> str:
    return (
        f"{e.hero} searches for starting gear: Gear Upgrade rolls {e.gear}, Item rolls "
        f"{e.items} (read each on the Enthralled Cities placard)"
    )


@EVENTS.on(StartingGearRolled, text=_starting_gear_text)
def _starting_gear_rolled(s: HexploreState, e: StartingGearRolled) -> None:
    s.starting_gear[e.hero] = {"gear": list(e.gear), "items": list(e.items)}


class AcropolisPlaced(HexEvent):
    """The six-sided die (a hex rolled again) places the Acropolis over an Enthralled City."""

    city: int
    rolls: list[int] = []


@EVENTS.on(
    AcropolisPlaced,
    text=lambda e: (
        f"The Magi's Acropolis is placed over Enthralled City {e.city} (rolls {e.rolls})"
    ),
)
def _acropolis_placed(s: HexploreState, e: AcropolisPlaced) -> None:
    s.acropolis = e.city


class StartingLocationRolled(HexEvent):
    roll: int
    location: str


def _start_text(e: StartingLocationRolled) -> str:
    where = "the Magi's Acropolis" if e.location == "acropolis" else e.location.title()
    return f"Starting location roll {e.roll}: the group starts at {where}"


@EVENTS.on(StartingLocationRolled, text=_start_text)
def _starting_location_rolled(s: HexploreState, e: StartingLocationRolled) -> None:
    s.starting_location = e.location


class StartingBonusTaken(HexEvent):
    """A hero's starting location bonus is taken (its ranks come as RankRaised events)."""

    hero: str
    location: str
    gold: int = 0
    food: int = 0
    note: str = ""


def _bonus_text(e: StartingBonusTaken) -> str:
    parts = [f"+{n} {k}" for k, n in (("Gold", e.gold), ("Food", e.food)) if n]
    what = ", ".join(parts + ([e.note] if e.note else [])) or "ranks"
    return f"{e.hero} takes the starting bonus ({what})"


@EVENTS.on(StartingBonusTaken, text=_bonus_text)
def _starting_bonus_taken(s: HexploreState, e: StartingBonusTaken) -> None:
    h = s.heroes[e.hero]
    h.gold += e.gold
    h.food += e.food
    if e.note:
        h.rewards.append(e.note)
    s.starting_bonus.append(e.hero)


class RelicGained(HexEvent):
    relic: str
    state: RelicState


@EVENTS.on(RelicGained, text=lambda e: f"The group obtains {e.state.name}")
def _relic_gained(s: HexploreState, e: RelicGained) -> None:
    s.relics[e.relic] = RelicState(**{**e.state.__dict__, "wielder": ""})


class RelicWielded(HexEvent):
    """A hero wields a Relic: its Wielder Bonus moves from the one who wielded it before."""

    relic: str
    hero: str
    name: str = ""
    previous: str = ""


def _wielded_text(e: RelicWielded) -> str:
    before = f" (from {e.previous})" if e.previous else ""
    return f"{e.hero} wields {e.name or e.relic}{before}"


@EVENTS.on(RelicWielded, text=_wielded_text)
def _relic_wielded(s: HexploreState, e: RelicWielded) -> None:
    r = s.relics[e.relic]
    if r.bonus_stat and r.bonus:
        if e.previous:
            _raise(s.heroes[e.previous], r.bonus_stat, -r.bonus)
        _raise(s.heroes[e.hero], r.bonus_stat, r.bonus)
    r.wielder = e.hero


class HeroRevived(HexEvent):
    hero: str
    health: int
    energy: int
    why: str = ""
    ritual: bool = False  # the Spirit Tether Ritual is used up


@EVENTS.on(HeroRevived, text=lambda e: f"{e.hero} is Revived ({e.why})")
def _hero_revived(s: HexploreState, e: HeroRevived) -> None:
    h = s.heroes[e.hero]
    h.dead = False
    h.health = e.health
    h.energy = e.energy
    if e.ritual:
        h.spirit_tether = False


class Teleported(HexEvent):
    turn: int
    hexes: int = 0
    movement: bool = False


def _teleported_text(e: Teleported) -> str:
    far = f" up to {e.hexes} hexes" if e.hexes else ""
    normal = ": the group is Moving Normally this turn" if e.movement else ""
    return f"The group Teleports{far}{normal}"


@EVENTS.on(Teleported, text=_teleported_text)
def _teleported(s: HexploreState, e: Teleported) -> None:
    if e.movement:
        s.teleported = e.turn


class Sustained(HexEvent):
    hero: str
    round: int
    effect: str = ""


@EVENTS.on(Sustained, text=lambda e: f"{e.hero} Sustains {e.effect or 'their Ability'}")
def _sustained(s: HexploreState, e: Sustained) -> None:
    _combat(s).sustained[e.hero] = e.round


class Gained(HexEvent, omit_defaults=False):
    hero: str
    starving: int
    gold: int = 0
    food: int = 0
    why: str = ""


def _gained_text(e: Gained) -> str:
    parts = [f"{n:+d} {k}" for k, n in (("gold", e.gold), ("food", e.food)) if n]
    return f"{e.hero}: {', '.join(parts) or 'nothing'} ({e.why})"


@EVENTS.on(Gained, text=_gained_text)
def _gained(s: HexploreState, e: Gained) -> None:
    h = s.heroes[e.hero]
    h.gold += e.gold
    h.food += e.food
    h.starving = e.starving


class GameLost(HexEvent):
    why: str = ""


@EVENTS.on(GameLost, text=lambda e: f"The heroes lose: {e.why}")
def _game_lost(s: HexploreState, e: GameLost) -> None:
    s.outcome = "lost"


class GameWon(HexEvent):
    why: str = ""


@EVENTS.on(GameWon, text=lambda e: f"The heroes win: {e.why}")
def _game_won(s: HexploreState, e: GameWon) -> None:
    s.outcome = "won"


# -- the Skill phase, travel and the Circumstance -----------------------------------------


class SkillsRolled(HexEvent):
    hero: str
    turn: int
    results: dict[str, str]
    dice: dict[str, int]


def _skills_text(e: SkillsRolled) -> str:
    parts = [
        f"{k} {words(v)}" + (f" ({e.dice[k]})" if e.dice.get(k) else "")
        for k, v in e.results.items()
    ]
    return f"{e.hero}: {', '.join(parts)}"


@EVENTS.on(SkillsRolled, text=_skills_text)
def _skills_rolled(s: HexploreState, e: SkillsRolled) -> None:
    if s.skill_phase.turn != e.turn:
        s.skill_phase = SkillPhase(turn=e.turn)
    s.skill_phase.rolled[e.hero] = dict(e.results)
    s.skill_phase.dice[e.hero] = dict(e.dice)
    s.last_skill_rolls[e.hero] = dict(e.results)


class PowerUpDrawn(HexEvent):
    hero: str = ""
    why: str = ""


@EVENTS.on(PowerUpDrawn, text=lambda e: f"{e.hero} draws a Power Up ({e.why})")
def _power_up_drawn(s: HexploreState, e: PowerUpDrawn) -> None:
    s.power_ups += 1


class SkillPhaseEnded(HexEvent):
    turn: int


@EVENTS.on(SkillPhaseEnded, text=lambda e: "The Skill phase is settled")
def _skill_phase_ended(s: HexploreState, e: SkillPhaseEnded) -> None:
    if s.skill_phase.turn != e.turn:
        s.skill_phase = SkillPhase(turn=e.turn)
    s.skill_phase.resolved = True


class GroupNavigated(HexEvent):
    successes: int
    needed: int
    saved_by: list[str] = []


@EVENTS.on(
    GroupNavigated,
    text=lambda e: (
        f"The group Navigates: {e.successes} Navigate success{'es' if e.successes != 1 else ''}"
        f", {e.needed} needed"
    ),
)
def _group_navigated(s: HexploreState, e: GroupNavigated) -> None:
    s.wander = []
    s.wander_stayed = False


class GroupWandered(HexEvent, omit_defaults=False):
    direction: int
    stayed: bool
    why: str = ""
    to_magi: bool = False  # after a flight: the rest of the turn is skipped


def _wandered_text(e: GroupWandered) -> str:
    if e.stayed:
        return f"Wander {e.direction}: off the map or a peak, so the group stays put"
    return f"The group Wanders 1 hex toward {e.direction} on the compass ({e.why})"


@EVENTS.on(GroupWandered, text=_wandered_text)
def _group_wandered(s: HexploreState, e: GroupWandered) -> None:
    s.wander = [e.direction]
    s.wander_stayed = e.stayed
    if e.to_magi:
        s.to_magi_phase = s.turn


class GroupRoamed(HexEvent):
    direction: int
    distance: int


@EVENTS.on(
    GroupRoamed,
    text=lambda e: f"The group Roams {e.distance} hexes toward {e.direction} on the compass",
)
def _group_roamed(s: HexploreState, e: GroupRoamed) -> None:
    s.wander = [e.direction, e.distance]
    s.wander_stayed = False


class EssenceFound(HexEvent):
    hero: str
    essence: str
    why: str = ""


@EVENTS.on(EssenceFound, text=lambda e: f"{e.hero} finds {words(e.essence)} ({e.why})")
def _essence_found(s: HexploreState, e: EssenceFound) -> None:
    s.essence[e.essence] = s.essence.get(e.essence, 0) + 1


class Starved(HexEvent):
    hero: str
    level: int


@EVENTS.on(Starved, text=lambda e: f"{e.hero} is Starving (level {e.level})")
def _starved(s: HexploreState, e: Starved) -> None:
    s.heroes[e.hero].starving = e.level


class CircumstanceRolled(HexEvent, omit_defaults=False):
    roll: int
    slot: int
    card: str
    unavoidable: bool
    may_discard: bool


@EVENTS.on(CircumstanceRolled, text=lambda e: f"Circumstance roll {e.roll}")
def _circumstance_rolled(s: HexploreState, e: CircumstanceRolled) -> None:
    s.circumstance = Circumstance(
        roll=e.roll,
        slot=e.slot,
        card=e.card,
        unavoidable=e.unavoidable,
        may_discard=e.may_discard,
    )


class CircumstanceSettled(HexEvent):
    settled: str


@EVENTS.on(CircumstanceSettled, text=lambda e: f"The Circumstance is {e.settled}")
def _circumstance_settled(s: HexploreState, e: CircumstanceSettled) -> None:
    assert s.circumstance is not None
    s.circumstance.settled = e.settled


# -- the Fate Tracker, Sentinels, the Magi phase ------------------------------------------


class FateTrackerRaised(HexEvent):
    tracker: int
    why: str = ""


@EVENTS.on(FateTrackerRaised, text=lambda e: f"Fate Tracker rises to {e.tracker} ({e.why})")
def _fate_tracker_raised(s: HexploreState, e: FateTrackerRaised) -> None:
    s.fate.tracker = e.tracker


class FateCycleRaised(HexEvent):
    cycle: int


@EVENTS.on(FateCycleRaised, text=lambda e: f"The Fate Cycle rises to {e.cycle}; the tracker resets")
def _fate_cycle_raised(s: HexploreState, e: FateCycleRaised) -> None:
    s.fate.cycle = e.cycle
    s.fate.tracker = 0


class SentinelAppeared(HexEvent, omit_defaults=False):
    number: int
    location: str
    rolls: list[int] = []


@EVENTS.on(SentinelAppeared, text=lambda e: f"Sentinel {e.number} appears at {words(e.location)}")
def _sentinel_appeared(s: HexploreState, e: SentinelAppeared) -> None:
    s.fate.sentinels_made = e.number
    s.sentinels.append(Sentinel(number=e.number, location=e.location))


class SentinelWithheld(HexEvent):
    why: str = ""


@EVENTS.on(SentinelWithheld, text=lambda e: f"No new Sentinel: {e.why}")
def _sentinel_withheld(s: HexploreState, e: SentinelWithheld) -> None:
    """Nothing changes on the board; the log says why no Sentinel came."""


class SentinelDefeated(HexEvent):
    at: str


@EVENTS.on(SentinelDefeated, text=lambda e: f"The Sentinel at {words(e.at)} is defeated")
def _sentinel_defeated(s: HexploreState, e: SentinelDefeated) -> None:
    s.sentinels = [x for x in s.sentinels if x.location != e.at]


class HeroMindwiped(HexEvent):
    hero: str
    cycle: int


@EVENTS.on(
    HeroMindwiped,
    text=lambda e: f"{e.hero} is mindwiped: every skill is at or under Fate Cycle {e.cycle}",
)
def _hero_mindwiped(s: HexploreState, e: HeroMindwiped) -> None:
    h = s.heroes[e.hero]
    h.mindwiped = True
    h.mindwiped_turns = 0


class VanishRolled(HexEvent, omit_defaults=False):
    roll: int
    vanished: list[str]
    stayed: list[str]


@EVENTS.on(
    VanishRolled,
    text=lambda e: f"Fate die {e.roll}: {', '.join(e.vanished) or 'nobody'} vanishes",
)
def _vanish_rolled(s: HexploreState, e: VanishRolled) -> None:
    for hid in e.vanished:
        s.heroes[hid].vanished = True
    for hid in e.stayed:
        s.heroes[hid].mindwiped_turns += 1


class AdrimonTeleports(HexEvent):
    cycle: int


@EVENTS.on(
    AdrimonTeleports,
    text=lambda e: "Adrimon teleports to the heroes: she attacks in every Event phase from now on",
)
def _adrimon_teleports(s: HexploreState, e: AdrimonTeleports) -> None:
    s.adrimon_attacks = True


class GameTurnEnded(HexEvent):
    turn: int


@EVENTS.on(GameTurnEnded, text=lambda e: f"Game turn {e.turn} begins")
def _game_turn_ended(s: HexploreState, e: GameTurnEnded) -> None:
    s.turn = e.turn
    s.circumstance = None
    s.wander = []
    s.wander_stayed = False


# -- combat --------------------------------------------------------------------------------


class CombatStarted(HexEvent, omit_defaults=False):
    opponent: OpponentState
    difficulty: str
    dangerous: int
    heroes: list[str]
    passive: bool
    sentinel: str = ""


def _vitals(o: OpponentState) -> str:
    """An opponent's Vitals as it enters a combat."""
    shield = f", Soul Shield {o.soul_shield}" if o.soul_shield else ""
    return f"Health {o.health}, Energy {o.energy}{shield}"


def _combat_text(e: CombatStarted) -> str:
    o = e.opponent
    return f"Combat with {o.name} on {e.difficulty.title()}: {_vitals(o)}"


@EVENTS.on(CombatStarted, text=_combat_text)
def _combat_started(s: HexploreState, e: CombatStarted) -> None:
    s.combat = Combat(
        opponent=e.opponent,  # read afresh from the log for each fold: never shared
        difficulty=e.difficulty,
        dangerous=e.dangerous,
        heroes=list(e.heroes),
        passive=e.passive,
        sentinel=e.sentinel,
        round=0,
        turn=s.turn,
    )


class RoundBegan(HexEvent):
    round: int


@EVENTS.on(RoundBegan, text=lambda e: f"Round {e.round}: declare actions")
def _round_began(s: HexploreState, e: RoundBegan) -> None:
    c = _combat(s)
    c.round = e.round
    c.phase = "declare"
    c.declarations = {}


class PassiveRolled(HexEvent):
    name: str
    results: dict[str, dict[str, str]]


@EVENTS.on(PassiveRolled, text=lambda e: f"{e.name}: every hero rolls against it")
def _passive_rolled(s: HexploreState, e: PassiveRolled) -> None:
    for hid, res in e.results.items():
        s.last_skill_rolls.setdefault(hid, {}).update(res)


class Declared(HexEvent):
    hero: str
    declaration: Declaration


def _declared_text(e: Declared) -> str:
    x = e.declaration
    what = f"{x.action} {x.amount} {x.vital}" if x.amount else x.action
    fav = f", Favored {x.favored} {x.favored_vital}" if x.favored else ""
    at = f" at {x.foe}" if x.foe else ""  # the log names the opponent (Game.names)
    return f"{e.hero} declares {what}{at}{fav}"


@EVENTS.on(Declared, text=_declared_text)
def _declared(s: HexploreState, e: Declared) -> None:
    _combat(s).declarations[e.hero] = e.declaration


class FleeAttempted(HexEvent):
    hero: str
    attempts: int
    outcome: str


@EVENTS.on(FleeAttempted, text=lambda e: f"{e.hero} tries to Flee: {words(e.outcome)}")
def _flee_attempted(s: HexploreState, e: FleeAttempted) -> None:
    _combat(s).flee_attempts[e.hero] = e.attempts


class HeroFled(HexEvent):
    hero: str


@EVENTS.on(HeroFled, text=lambda e: f"{e.hero} flees the combat")
def _hero_fled(s: HexploreState, e: HeroFled) -> None:
    _combat(s).fled.append(e.hero)


class OpponentActed(HexEvent, omit_defaults=False):
    roll: int
    ability: str
    name: str
    wanted: str
    defaulted: bool
    energy_spent: int
    targets: list[str]
    hits: dict[str, int]
    target_rolls: dict[str, list[int]]
    skill_rolls: dict[str, dict[str, str]]
    health: int
    energy: int
    piercing: int
    halved: bool
    foe: str = ""  # which opponent acted, when several are faced ("" = the first)


def _acted_text(e: OpponentActed) -> str:
    why = f" (wanted {e.wanted}, too little Energy: half potency)" if e.defaulted else ""
    whose = f"{e.foe}'s " if e.foe else ""  # the log names the opponent (Game.names)
    return f"{whose}Action die {e.roll}: {e.name}{why} against {', '.join(e.targets) or 'no one'}"


@EVENTS.on(OpponentActed, text=_acted_text)
def _opponent_acted(s: HexploreState, e: OpponentActed) -> None:
    c = _combat(s)
    acted = LastAction(
        roll=e.roll,
        ability=e.ability,
        name=e.name,
        wanted=e.wanted,
        defaulted=e.defaulted,
        energy_spent=e.energy_spent,
        targets=list(e.targets),
        hits=dict(e.hits),
        target_rolls={h: list(r) for h, r in e.target_rolls.items()},
        skill_rolls={h: dict(r) for h, r in e.skill_rolls.items()},
        health=e.health,
        energy=e.energy,
        piercing=e.piercing,
        halved=e.halved,
    )
    if e.foe and e.foe != OPPONENT:
        c.extra_actions[e.foe] = acted
    else:
        c.last_action = acted
    c.phase = "resolve"
    for hid, res in e.skill_rolls.items():
        s.last_skill_rolls.setdefault(hid, {}).update(res)


class OpponentRegen(HexEvent):
    regen: int
    who: str = OPPONENT


@EVENTS.on(OpponentRegen, text=lambda e: f"The opponent Regenerates {e.regen} each round")
def _opponent_regen(s: HexploreState, e: OpponentRegen) -> None:
    foe_of(_combat(s), e.who).regen = e.regen


class OpponentJoined(HexEvent, omit_defaults=False):
    """Another opponent joins the combat before the first declaration ("If both
    Circumstances are Encounters, resolve both in one combat")."""

    who: str
    opponent: OpponentState
    difficulty: str
    dangerous: int
    raise_others: int = 0  # Vitals per hero the others gain when the Difficulty rose


def _joined_text(e: OpponentJoined) -> str:
    o = e.opponent
    return f"{o.name} joins the combat on {e.difficulty.title()}: {_vitals(o)}"


@EVENTS.on(OpponentJoined, text=_joined_text)
def _opponent_joined(s: HexploreState, e: OpponentJoined) -> None:
    c = _combat(s)
    n = e.raise_others
    for _, o in foes(c):
        for vital in ("health", "energy", "soul_shield", "influence"):
            if (
                n
                and (vital != "soul_shield" or o.soul_shield)
                and (vital != "influence" or o.savable)
            ):
                setattr(o, vital, getattr(o, vital) + n)
        if n:
            o.max_health += n
            o.max_energy += n
            o.max_influence += n if o.savable else 0
    c.extra.append(e.opponent)
    c.difficulty = e.difficulty
    c.dangerous = e.dangerous


class OpponentBeaten(HexEvent):
    """One of several opponents is vanquished or Influenced; the combat goes on."""

    who: str
    outcome: str  # vanquished | influenced
    name: str = ""


@EVENTS.on(
    OpponentBeaten,
    text=lambda e: f"{e.name or e.who} is {words(e.outcome)}; the combat goes on",
)
def _opponent_beaten(s: HexploreState, e: OpponentBeaten) -> None:
    _combat(s).beaten[e.who] = e.outcome


class RoundResolved(HexEvent, omit_defaults=False):
    round: int
    lines: list[str]


@EVENTS.on(RoundResolved, text=lambda e: f"Round {e.round} resolved: " + "; ".join(e.lines))
def _round_resolved(s: HexploreState, e: RoundResolved) -> None:
    _combat(s).resolution = list(e.lines)


class CombatEnded(HexEvent):
    outcome: str
    opponent: str
    kind: str


@EVENTS.on(
    CombatEnded,
    text=lambda e: f"The combat with {e.opponent.rsplit('/', 1)[-1]} ends: {words(e.outcome)}",
)
def _combat_ended(s: HexploreState, e: CombatEnded) -> None:
    c = _combat(s)
    c.phase = "over"
    c.outcome = e.outcome
    s.last_combat = e.outcome


class BossDefeated(HexEvent):
    boss: str


@EVENTS.on(BossDefeated, text=lambda e: "A Boss is defeated")
def _boss_defeated(s: HexploreState, e: BossDefeated) -> None:
    s.bosses_defeated.append(e.boss)


class DifficultyRaised(HexEvent):
    difficulty: str
    why: str = ""


@EVENTS.on(
    DifficultyRaised, text=lambda e: f"The Difficulty rises to {e.difficulty.title()} ({e.why})"
)
def _difficulty_raised(s: HexploreState, e: DifficultyRaised) -> None:
    s.difficulty = e.difficulty


# -- rewards -------------------------------------------------------------------------------


class RewardGiven(HexEvent):
    hero: str
    reward: str
    rolls: list[int] = []


@EVENTS.on(RewardGiven, text=lambda e: f"{e.hero} gains {e.reward}")
def _reward_given(s: HexploreState, e: RewardGiven) -> None:
    s.heroes[e.hero].rewards.append(e.reward)


class AllyJoined(HexEvent):
    ally: str
    state: AllyState


@EVENTS.on(
    AllyJoined,
    text=lambda e: f"{e.state.name} joins the group ({e.state.kind}, {e.state.health} Health)",
)
def _ally_joined(s: HexploreState, e: AllyJoined) -> None:
    s.allies[e.ally] = AllyState(**{**e.state.__dict__, "conditions": {}})


class AllyLeft(HexEvent):
    ally: str
    name: str
    why: str = ""


@EVENTS.on(AllyLeft, text=lambda e: f"{e.name} leaves the group ({e.why})")
def _ally_left(s: HexploreState, e: AllyLeft) -> None:
    s.allies.pop(e.ally, None)


class SingleRewardsWaiting(HexEvent):
    """Single Rewards by choice (a house rule): the group names who takes each."""

    rewards: list[str]
    heroes: list[str]


@EVENTS.on(
    SingleRewardsWaiting,
    text=lambda e: f"Single Rewards to hand out by choice: {', '.join(e.rewards)}",
)
def _single_rewards_waiting(s: HexploreState, e: SingleRewardsWaiting) -> None:
    s.single_rewards = list(e.rewards)
    s.single_to = list(e.heroes)
    s.single_taken = []


class SingleRewardChosen(HexEvent):
    hero: str
    reward: str


@EVENTS.on(SingleRewardChosen, text=lambda e: f"{e.hero} is given {e.reward}")
def _single_reward_chosen(s: HexploreState, e: SingleRewardChosen) -> None:
    s.single_rewards.remove(e.reward)
    s.single_taken.append(e.hero)
    s.heroes[e.hero].rewards.append(e.reward)


class PowerUpsGained(HexEvent, omit_defaults=False):
    heroes: list[str]
    count: int
    before_game: bool = False  # Quick Play's 3 drawn before the game begins


@EVENTS.on(PowerUpsGained, text=lambda e: f"{e.count} Power Up(s) gained")
def _power_ups_gained(s: HexploreState, e: PowerUpsGained) -> None:
    if e.before_game:
        s.starting_power_ups = True
    if not e.heroes:
        s.power_ups += e.count
    for hid in e.heroes:
        s.heroes[hid].power_ups += e.count


class FragmentsGained(HexEvent, omit_defaults=False):
    count: int
    extra: int


@EVENTS.on(
    FragmentsGained,
    text=lambda e: (
        f"The group gains {e.count} Fragment(s)"
        + (f" ({e.extra} extra for the Difficulty)" if e.extra else "")
    ),
)
def _fragments_gained(s: HexploreState, e: FragmentsGained) -> None:
    s.fragments += e.count
