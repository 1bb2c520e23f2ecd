"""Direwild's events: each payload type, the way it folds into the state, and its words.

The class names and field names are what saved sessions hold, so they never change; a
field that must change bumps the event's version and gets an upcaster here.  Fields that
older releases left out have defaults (and are left out again when they hold them, so
today's logs read as yesterday's).
"""

from __future__ import annotations

from companion.core.rules import Event
from companion.core.tables import EventData, Events
from companion.games.direwild.board import STAGING
from companion.games.direwild.state import (
    FATAL_WOUNDS,
    KARN,
    MAGIC_MAX,
    STAMINA_MAX,
    AiStep,
    Battle,
    DirewildState,
    Enemy,
    Happened,
)
from companion.games.direwild.text import name, short, squares

EVENTS: Events[DirewildState] = Events()


def set_stamina(s: DirewildState, unit: str, value: int) -> None:
    if unit == KARN:
        s.karn.stamina = value
    elif unit in s.enemies:
        s.enemies[unit].stamina = value
    else:
        s.heroes[unit].stamina = value


# -- set-up, chapters and the Charm rounds ---------------------------------------------


class PlacedMinion(EventData):
    minion: str
    position: str
    trail_step: int


class MinionsPlaced(EventData):
    slots: dict[str, PlacedMinion]


def _minions_placed_text(e: MinionsPlaced) -> str:
    parts = [f"{slot}: {short(v.minion)} at {v.position}" for slot, v in e.slots.items()]
    return "Minion Track filled, face down (" + "; ".join(parts) + ")"


@EVENTS.on(MinionsPlaced, text=_minions_placed_text)
def _minions_placed(s: DirewildState, e: MinionsPlaced) -> None:
    for slot, v in e.slots.items():
        s.enemies[slot] = Enemy(minion=v.minion, position=v.position, trail_step=v.trail_step)
        s.minions_used.append(v.minion)


class ChapterStarted(EventData):
    chapter: int
    board: str
    treasures: list[str]
    karn_at: str | None
    ai_deck: list[str]


@EVENTS.on(ChapterStarted, text=lambda e: f"Chapter {e.chapter} begins on {short(e.board)}")
def _chapter_started(s: DirewildState, e: ChapterStarted) -> None:
    if isinstance(s.wound_pile, int):  # "Return the remaining Fatal Wounds into the wound
        # pile" / "Put 6 new Fatal Wounds into the Fatal Wound pile" (Book 1)
        s.wound_pile = max(0, s.wound_pile + s.fatal_wounds - FATAL_WOUNDS)
    s.chapter, s.board, s.round, s.phase = e.chapter, e.board, 0, "setup"
    s.fatal_wounds, s.outcome = FATAL_WOUNDS, None
    s.treasures, s.enemies = list(e.treasures), {}
    s.ai_deck, s.ai_discard, s.ai_card, s.walkthrough = list(e.ai_deck), [], None, []
    s.last_battle, s.prompts = None, []
    for h in s.heroes.values():
        h.position, h.stamina, h.eaten_by = STAGING, 0, None
        h.moved = h.battled = h.done = False
    k = s.karn
    k.cards_left += k.discarded
    k.discarded, k.stamina, k.track, k.path = 0, 0, 0, []
    k.on_board, k.position = e.karn_at is not None, e.karn_at


class CharmRolled(EventData):
    hero: str
    roll: int
    charm: int
    magic: int


@EVENTS.on(
    CharmRolled,
    text=lambda e: f"{name(e.hero)} rolls {e.roll}: {e.charm} Charm to spend in the Wilds",
)
def _charm_rolled(s: DirewildState, e: CharmRolled) -> None:
    assert s.prelude is not None
    s.prelude.rolled.append(e.hero)
    s.prelude.last[e.hero] = e.charm
    s.heroes[e.hero].magic -= e.magic
    s.heroes[e.hero].inactive += e.magic


class CharmRoundDone(EventData):
    round: int


@EVENTS.on(CharmRoundDone, text=lambda e: f"Charm round {e.round} done")
def _charm_round_done(s: DirewildState, e: CharmRoundDone) -> None:
    assert s.prelude is not None
    s.prelude.round += 1
    s.prelude.rolled = []


class PreludeDone(EventData):
    pass


@EVENTS.on(
    PreludeDone,
    text=lambda e: "The Charm rounds are done: shuffle your decks and begin the chapter",
)
def _prelude_done(s: DirewildState, e: PreludeDone) -> None:
    s.prelude = None


class PowerUnlocked(EventData):
    power: str


POWER_NAMES = {
    "veteran": "Veteran",
    "advanced": "Advanced Creatures",
    "channeling": "Channeling",
    "reflexes": "Heightened Reflexes",
}


@EVENTS.on(PowerUnlocked, text=lambda e: f"{POWER_NAMES.get(e.power, e.power.title())} unlocked")
def _power_unlocked(s: DirewildState, e: PowerUnlocked) -> None:
    if e.power == "veteran":
        s.veteran = True
    elif e.power == "advanced":
        s.advanced_unlocked = True
    else:
        s.powers = [*(s.powers if isinstance(s.powers, list) else []), e.power]


# -- the round and the Game Phase --------------------------------------------------------


class RoundStarted(EventData):
    round: int


@EVENTS.on(RoundStarted, text=lambda e: f"Round {e.round} begins")
def _round_started(s: DirewildState, e: RoundStarted) -> None:
    s.round, s.phase = e.round, "game"
    s.prompts, s.walkthrough, s.last_battle = [], [], None
    for h in s.heroes.values():
        h.moved = h.battled = h.done = False
    for en in s.enemies.values():
        en.path = []
    s.karn.path = []


class WoundPileCounted(EventData):
    """The app starts counting the regular wound pile (at the first round it plays)."""

    count: int


@EVENTS.on(
    WoundPileCounted,
    text=lambda e: (
        f"The wound pile holds {e.count} wound card{'s' if e.count != 1 else ''} (the box's "
        "25, less the Fatal Wounds pile and the wounds in the heroes' decks)"
    ),
)
def _wound_pile_counted(s: DirewildState, e: WoundPileCounted) -> None:
    s.wound_pile = e.count


class CountersMoved(EventData):
    changes: dict[str, int]


def _counters_moved_text(e: CountersMoved) -> str:
    if not e.changes:
        return "Move counters 1: every stamina counter is already at 0"
    parts = [f"{name(u)} to {v:+d}" for u, v in e.changes.items()]
    return "Move counters 1 toward 0: " + ", ".join(parts)


@EVENTS.on(CountersMoved, text=_counters_moved_text)
def _counters_moved(s: DirewildState, e: CountersMoved) -> None:
    for unit, value in e.changes.items():
        set_stamina(s, unit, value)


class AiDeckReshuffled(EventData):
    cards: list[str]


@EVENTS.on(
    AiDeckReshuffled,
    text=lambda e: "The Enemy AI deck is empty: shuffle the discarded AI cards into a new deck",
)
def _ai_deck_reshuffled(s: DirewildState, e: AiDeckReshuffled) -> None:
    s.ai_deck, s.ai_discard = list(e.cards), []


class AiCardRevealed(EventData):
    card: str
    name: str = ""  # the card's printed name (older logs lack it: the label's name then)


@EVENTS.on(AiCardRevealed, text=lambda e: f"Enemy AI card: {e.name or short(e.card)}")
def _ai_card_revealed(s: DirewildState, e: AiCardRevealed) -> None:
    if e.card in s.ai_deck:
        s.ai_deck.remove(e.card)
    s.ai_discard.append(e.card)
    s.ai_card, s.walkthrough, s.recording = e.card, [], "ai"


class KarnAdvanced(EventData):
    track: int


@EVENTS.on(
    KarnAdvanced,
    text=lambda e: f"Karn moves 1 right on his Hunting Track (square {e.track + 1})",
)
def _karn_advanced(s: DirewildState, e: KarnAdvanced) -> None:
    s.karn.track = e.track


class KarnArrived(EventData):
    position: str
    altar: str
    displaced: bool


def _karn_arrived_text(e: KarnArrived) -> str:
    if e.displaced:
        return (
            f"Karn leaves his track and appears on the land board: his altar "
            f"{e.altar} is taken, so he stands on {e.position}"
        )
    return f"Karn leaves his track and appears on his altar at {e.position}"


@EVENTS.on(KarnArrived, text=_karn_arrived_text)
def _karn_arrived(s: DirewildState, e: KarnArrived) -> None:
    s.karn.on_board, s.karn.position, s.karn.path = True, e.position, [e.position]


class MinionActivated(EventData):
    slot: str
    why: str


@EVENTS.on(MinionActivated, text=lambda e: f"{name(e.slot)} flips face up and is active ({e.why})")
def _minion_activated(s: DirewildState, e: MinionActivated) -> None:
    s.enemies[e.slot].active = True


class RageGained(EventData):
    units: list[str]


def _rage_gained_text(e: RageGained) -> str:
    if not e.units:
        return "All active enemies gain a rage: there are none"
    return "Rage: " + ", ".join(name(u) for u in e.units) + " gain 1 stamina"


@EVENTS.on(RageGained, text=_rage_gained_text)
def _rage_gained(s: DirewildState, e: RageGained) -> None:
    for unit in e.units:
        value = s.karn.stamina if unit == KARN else s.enemies[unit].stamina
        set_stamina(s, unit, min(STAMINA_MAX, value + 1))


class EnemyMoved(EventData, omit_defaults=True):
    unit: str
    path: list[str]
    activates: bool
    mode: str  # stay | trail | hunt | priority | teleport
    target: str | None
    trail_step: int | None = None  # where on its trail an idle minion stopped


def _enemy_moved_text(e: EnemyMoved) -> str:
    path, who = e.path, name(e.unit)
    n = len(path) - 1
    if e.mode == "teleport":
        return f"{who} teleports to {path[-1]}, next to {name(e.target)}"
    if n == 0:
        if e.mode == "trail" and e.activates:
            return f"{who} stays at {path[0]}: it is next to {name(e.target)} and activates"
        if e.target:
            return f"{who} stays at {path[0]}, engaged with {name(e.target)}"
        return f"{who} stays at {path[0]}"
    if e.mode == "trail":
        text = f"{who}: {squares(n)} along its trail to {path[-1]}"
        if e.activates:
            text += f" - activates next to {name(e.target)}"
        return text
    how = "with priority toward" if e.mode == "priority" else "toward"
    return f"{who}: {squares(n)} {how} {name(e.target)}, to {path[-1]} ({' > '.join(path)})"


@EVENTS.on(EnemyMoved, text=_enemy_moved_text)
def _enemy_moved(s: DirewildState, e: EnemyMoved) -> None:
    path = list(e.path)
    target = s.karn if e.unit == KARN else s.enemies[e.unit]
    target.position, target.path = path[-1], path
    if e.trail_step is not None and e.unit != KARN:
        s.enemies[e.unit].trail_step = e.trail_step


class GamePhaseDone(EventData):
    pass


@EVENTS.on(GamePhaseDone, text=lambda e: "Game Phase done: choose the turn order and draw 5 cards")
def _game_phase_done(s: DirewildState, e: GamePhaseDone) -> None:
    s.phase, s.recording = "turn_order", ""


class RoundEnded(EventData):
    outcome: str | None


ROUND_ENDINGS = {
    "chapter_won": "Every minion is defeated: the chapter is won!",
    "won": "Karn is defeated: the game is won!",
    "lost": "No Fatal Wounds are left: the heroes are defeated",
}


@EVENTS.on(
    RoundEnded,
    text=lambda e: ROUND_ENDINGS.get(e.outcome or "", "The round ends: play another round"),
)
def _round_ended(s: DirewildState, e: RoundEnded) -> None:
    s.phase, s.outcome = "round_over", e.outcome


# -- stamina, wounds and words for the table ---------------------------------------------


class StaminaChanged(EventData):
    unit: str
    value: int
    was: int
    why: str


@EVENTS.on(
    StaminaChanged,
    text=lambda e: f"{name(e.unit)} stamina {e.was:+d} -> {e.value:+d} ({e.why})",
)
def _stamina_changed(s: DirewildState, e: StaminaChanged) -> None:
    set_stamina(s, e.unit, e.value)


class FatalWoundReturned(EventData):
    why: str


@EVENTS.on(FatalWoundReturned, text=lambda e: f"Return a Fatal Wound to the wound pile: {e.why}")
def _fatal_wound_returned(s: DirewildState, e: FatalWoundReturned) -> None:
    if isinstance(s.wound_pile, int) and s.fatal_wounds > 0:
        s.wound_pile += 1  # "return 1 Fatal Wound back to the wound pile"
    s.fatal_wounds = max(0, s.fatal_wounds - 1)


class WoundTaken(EventData):
    hero: str
    fatal: bool
    count: int
    why: str


def _wound_taken_text(e: WoundTaken) -> str:
    kind = "a Fatal Wound" if e.fatal else ("a wound" if e.count == 1 else f"{e.count} wounds")
    return f"{name(e.hero)} puts {kind} in their discard ({e.why})"


@EVENTS.on(WoundTaken, text=_wound_taken_text)
def _wound_taken(s: DirewildState, e: WoundTaken) -> None:
    h = s.heroes[e.hero]
    if e.fatal:
        s.fatal_wounds = max(0, s.fatal_wounds - 1)
        h.fatal += 1
    else:
        h.wounds += e.count
        if isinstance(s.wound_pile, int):  # regular wounds come off the wound pile
            s.wound_pile = max(0, s.wound_pile - e.count)


class Noted(EventData):
    actor: str
    text: str


@EVENTS.on(Noted, text=lambda e: e.text)
def _noted(s: DirewildState, e: Noted) -> None:
    pass


class Prompted(EventData):
    source: str
    text: str


@EVENTS.on(Prompted, text=lambda e: f"{name(e.source)}: {e.text}")
def _prompted(s: DirewildState, e: Prompted) -> None:
    if e.text:
        s.prompts.append(e.text)


class EffectRolled(EventData, omit_defaults=True):
    source: str
    roll: int
    hit: bool
    text: str
    amount: bool = False  # the roll is how much, not whether


def _effect_rolled_text(e: EffectRolled) -> str:
    if e.amount:
        return f"{name(e.source)} rolls {e.roll}: {e.roll} {e.text}"
    return f"{name(e.source)} rolls {e.roll} for {e.text}: " + (
        "it happens" if e.hit else "nothing happens"
    )


@EVENTS.on(EffectRolled, text=_effect_rolled_text)
def _effect_rolled(s: DirewildState, e: EffectRolled) -> None:
    pass


# -- the heroes' Adventure Phase ---------------------------------------------------------


class TurnOrderSet(EventData):
    order: list[str]


@EVENTS.on(TurnOrderSet, text=lambda e: "Turn order: " + ", ".join(name(h) for h in e.order))
def _turn_order_set(s: DirewildState, e: TurnOrderSet) -> None:
    s.turn_order, s.phase = list(e.order), "adventure"


class HeroMoved(EventData):
    hero: str
    path: list[str]
    extra: int  # stamina exerted


def _hero_moved_text(e: HeroMoved) -> str:
    extra = f", exerting {e.extra} stamina" if e.extra else ""
    return f"{name(e.hero)} moves {squares(len(e.path) - 1)} to {e.path[-1]}{extra}"


@EVENTS.on(HeroMoved, text=_hero_moved_text)
def _hero_moved(s: DirewildState, e: HeroMoved) -> None:
    h = s.heroes[e.hero]
    h.position, h.moved = e.path[-1], True
    h.stamina -= e.extra


class HeroPlaced(EventData):
    """A hero put on a square by a card, not by its move: no move spent, no disengaging."""

    hero: str
    path: list[str]  # where it was, where it is
    how: str  # ostrich | teleport | blink


PLACED_BY = {
    "ostrich": "the Fenton Ostrich's forced step",
    "teleport": "a Teleport Potion",
    "blink": "Shadowleaf's blink",
}


@EVENTS.on(
    HeroPlaced,
    text=lambda e: (
        f"{name(e.hero)} goes from {e.path[0]} to {e.path[-1]} by "
        f"{PLACED_BY.get(e.how, e.how)} (no move spent, no Fatal Wound to disengage)"
    ),
)
def _hero_placed(s: DirewildState, e: HeroPlaced) -> None:
    s.heroes[e.hero].position = e.path[-1]


class TreasureLooted(EventData):
    hero: str
    square: str


@EVENTS.on(
    TreasureLooted,
    text=lambda e: f"{name(e.hero)} loots the treasure token at {e.square}: draw a treasure card",
)
def _treasure_looted(s: DirewildState, e: TreasureLooted) -> None:
    if e.square in s.treasures:
        s.treasures.remove(e.square)
    s.heroes[e.hero].treasures += 1


class EnemyTargeted(EventData):
    hero: str
    enemy: str
    poison: int


def _enemy_targeted_text(e: EnemyTargeted) -> str:
    what = f"{e.poison} poison on" if e.poison else "targets"
    return f"{name(e.hero)}'s card, magic or treasure: {what} {name(e.enemy)}"


@EVENTS.on(EnemyTargeted, text=_enemy_targeted_text)
def _enemy_targeted(s: DirewildState, e: EnemyTargeted) -> None:
    pass


class TurnEnded(EventData):
    hero: str


@EVENTS.on(TurnEnded, text=lambda e: f"{name(e.hero)}'s turn ends")
def _turn_ended(s: DirewildState, e: TurnEnded) -> None:
    s.heroes[e.hero].done = True


class Channeled(EventData):
    hero: str


@EVENTS.on(
    Channeled,
    text=lambda e: (
        f"Channeling: {name(e.hero)} did not battle and returns one creature played this "
        "turn to the top of their deck"
    ),
)
def _channeled(s: DirewildState, e: Channeled) -> None:
    s.prompts.append(
        f"Channeling: return one creature {name(e.hero)} played this turn to the top of their deck"
    )


class HeroEaten(EventData):
    hero: str
    by: str


@EVENTS.on(
    HeroEaten,
    text=lambda e: f"{name(e.hero)} is eaten by the {name(e.by)}: put the hero on its card",
)
def _hero_eaten(s: DirewildState, e: HeroEaten) -> None:
    s.heroes[e.hero].eaten_by = e.by


# -- battles -----------------------------------------------------------------------------


class BattleResolved(EventData):
    hero: str
    enemy: str
    roll: list[int]
    creature: dict[str, int]
    hero_total: int
    enemy_total: int
    winner: str  # hero | enemy
    critical: bool
    flying: bool


def _sum(attack: int, roll: int, total: int) -> str:
    """A hero's battle total with each part's number, the stamina being what the total
    holds besides the attack and the roll (the event keeps the total)."""
    return f"attack {attack} + stamina {total - attack - roll} + roll {roll} = {total}"


def _battle_resolved_text(e: BattleResolved) -> str:
    won = "wins" if e.winner == "hero" else "loses"
    crit = " - critical hit!" if e.critical else ""
    fly = " (flying)" if e.flying else ""
    return (
        f"{name(e.hero)}{fly}: {_sum(e.creature['attack'], e.roll[0], e.hero_total)} "
        f"vs {name(e.enemy)} {e.enemy_total}: {name(e.hero)} {won}{crit}"
    )


@EVENTS.on(BattleResolved, text=_battle_resolved_text)
def _battle_resolved(s: DirewildState, e: BattleResolved) -> None:
    s.last_battle = Battle(
        hero=e.hero,
        enemy=e.enemy,
        roll=list(e.roll),
        hero_total=e.hero_total,
        enemy_total=e.enemy_total,
        winner=e.winner,
        critical=e.critical,
        flying=e.flying,
    )
    s.heroes[e.hero].battled = True
    s.recording = "battle"


class RollRerolled(EventData):
    hero: str
    was: int
    roll: int


@EVENTS.on(
    RollRerolled,
    text=lambda e: f"Heightened Reflexes: {name(e.hero)} takes a wound and rerolls the 1: {e.roll}",
)
def _roll_rerolled(s: DirewildState, e: RollRerolled) -> None:
    pass


class TreasureMonsterBattled(EventData):
    hero: str
    monster: list[int]  # its 2d6
    roll: list[int]  # the hero's battle die
    attack: int  # the summoned creature's attack
    hero_total: int
    monster_total: int
    winner: str  # hero | monster


def _treasure_monster_text(e: TreasureMonsterBattled) -> str:
    won = "wins: draw a treasure card (no magic)" if e.winner == "hero" else "loses"
    return (
        f"Treasure Monster: {' + '.join(map(str, e.monster))} = {e.monster_total} attack vs "
        f"{name(e.hero)}: {_sum(e.attack, e.roll[0], e.hero_total)}: "
        f"{name(e.hero)} {won}"
    )


@EVENTS.on(TreasureMonsterBattled, text=_treasure_monster_text)
def _treasure_monster_battled(s: DirewildState, e: TreasureMonsterBattled) -> None:
    h = s.heroes[e.hero]
    h.battled = True
    # The monster was the treasure card just drawn: it is not kept; a win draws another.
    h.treasures = max(0, h.treasures - 1) + (1 if e.winner == "hero" else 0)
    s.last_battle = Battle(
        hero=e.hero,
        enemy="treasure monster",
        roll=list(e.roll),
        hero_total=e.hero_total,
        enemy_total=e.monster_total,
        winner="hero" if e.winner == "hero" else "enemy",
    )


class TreasureMonsterLost(EventData):
    """A Treasure Monster revealed by a minion's ability (the Gryk's) wins at once."""

    hero: str
    by: str  # the slot of the minion whose ability revealed it
    minion: str  # that minion's name


@EVENTS.on(
    TreasureMonsterLost,
    text=lambda e: (
        f"A Treasure Monster revealed by the {e.minion}'s ability ({name(e.by)}) wins against "
        f"{name(e.hero)} automatically: no roll"
    ),
)
def _treasure_monster_lost(s: DirewildState, e: TreasureMonsterLost) -> None:
    pass


class BattleEnded(EventData):
    hero: str


@EVENTS.on(
    BattleEnded,
    text=lambda e: f"{name(e.hero)}'s battle is over: discard the cards played this turn",
)
def _battle_ended(s: DirewildState, e: BattleEnded) -> None:
    s.recording = ""


class AutomaticWin(EventData, omit_defaults=True):
    hero: str
    enemy: str
    why: str
    knocked: bool = False  # the hero was knocked into it: it counts as battled this turn


@EVENTS.on(
    AutomaticWin,
    text=lambda e: f"{name(e.enemy)} wins against {name(e.hero)} automatically ({e.why})",
)
def _automatic_win(s: DirewildState, e: AutomaticWin) -> None:
    b = s.last_battle
    if e.knocked and b is not None and b.hero == e.hero:
        b.fought = [*(b.fought if isinstance(b.fought, list) else []), e.enemy]


class UnitPushed(EventData):
    unit: str
    path: list[str]
    direction: str
    hit: str | None  # edge, wall, or the unit it slammed into


def _unit_pushed_text(e: UnitPushed) -> str:
    text = (
        f"{name(e.unit)} is knocked back {squares(len(e.path) - 1)} {e.direction} to {e.path[-1]}"
    )
    if e.hit:
        text += f", slamming into {'the ' + e.hit if e.hit in ('edge', 'wall') else name(e.hit)}"
    return text


@EVENTS.on(UnitPushed, text=_unit_pushed_text)
def _unit_pushed(s: DirewildState, e: UnitPushed) -> None:
    to = e.path[-1]
    if e.unit == KARN:
        s.karn.position = to
    elif e.unit in s.enemies:
        s.enemies[e.unit].position = to
    else:
        s.heroes[e.unit].position = to


class DamageDealt(EventData):
    enemy: str
    colour: str
    critical: bool
    gem: str  # inactive | active | none: where the hero's damage gem came from


@EVENTS.on(
    DamageDealt,
    text=lambda e: (
        f"{name(e.enemy)} takes 1 {'critical ' if e.critical else ''}damage "
        f"({name(e.colour)}'s gem)"
    ),
)
def _damage_dealt(s: DirewildState, e: DamageDealt) -> None:
    en = s.enemies[e.enemy]
    en.damage += 1
    en.damage_by[e.colour] = en.damage_by.get(e.colour, 0) + 1
    h = s.heroes[e.colour]
    if e.gem == "inactive":
        h.inactive -= 1
    elif e.gem == "active":
        h.magic -= 1


class EnemyDefeated(EventData):
    enemy: str
    returned: dict[str, int]  # clan -> gems back
    released: list[str] = []  # heroes it had eaten
    square: str | None = None


def _enemy_defeated_text(e: EnemyDefeated) -> str:
    back = ", ".join(f"{n} to {name(c)}" for c, n in e.returned.items())
    return f"{name(e.enemy)} is defeated: its damage returns as active magic ({back})"


@EVENTS.on(EnemyDefeated, text=_enemy_defeated_text)
def _enemy_defeated(s: DirewildState, e: EnemyDefeated) -> None:
    en = s.enemies[e.enemy]
    en.defeated, en.position, en.active = True, None, False
    for clan, n in e.returned.items():
        h = s.heroes[clan]
        back = min(n, max(0, MAGIC_MAX - h.magic))
        h.magic += back
        h.inactive += n - back
    en.damage_by = {}
    for i, hero in enumerate(e.released):
        h = s.heroes[hero]
        h.eaten_by = None
        h.position = (e.square or STAGING) if i == 0 else STAGING


# -- Karn --------------------------------------------------------------------------------


class KarnCardsDiscarded(EventData):
    count: int
    wanted: int


@EVENTS.on(
    KarnCardsDiscarded,
    text=lambda e: f"Discard {e.count} Karn card{'s' if e.count != 1 else ''}",
)
def _karn_cards_discarded(s: DirewildState, e: KarnCardsDiscarded) -> None:
    s.karn.cards_left -= e.count
    s.karn.discarded += e.count


class KarnCounterattacked(EventData):
    card: str
    hero: str


@EVENTS.on(
    KarnCounterattacked,
    text=lambda e: f"Karn counterattacks {name(e.hero)} with {short(e.card)}",
)
def _karn_counterattacked(s: DirewildState, e: KarnCounterattacked) -> None:
    pass


class KarnCardDestroyed(EventData):
    card: str


@EVENTS.on(KarnCardDestroyed, text=lambda e: "Destroy the counterattack card")
def _karn_card_destroyed(s: DirewildState, e: KarnCardDestroyed) -> None:
    s.karn.discarded = max(0, s.karn.discarded - 1)
    s.karn.destroyed.append(e.card)


class KarnRegenerated(EventData):
    cards_back: int
    unused: int


@EVENTS.on(
    KarnRegenerated,
    text=lambda e: (
        f"A Regenerate card is revealed: destroy it, put {e.cards_back} Karn cards "
        "back on his pile and reset his stamina"
    ),
)
def _karn_regenerated(s: DirewildState, e: KarnRegenerated) -> None:
    k = s.karn
    k.regenerates_left -= 1
    k.cards_left += k.discarded
    k.discarded, k.stamina = 0, 0


class KarnDefeated(EventData):
    hero: str


@EVENTS.on(KarnDefeated, text=lambda e: f"Karn is defeated by {name(e.hero)}! The Direwild is free")
def _karn_defeated(s: DirewildState, e: KarnDefeated) -> None:
    s.karn.defeated, s.karn.on_board, s.outcome = True, False, "won"


def fold(s: DirewildState, event: Event) -> None:
    """Fold one event; while an AI card or a battle is being recorded, the event goes to
    the walk-through or the battle panel too (as its data: the panel words it)."""
    kind = EVENTS.kinds[event.type]
    kind.apply(s, EVENTS.read(event.type, event.data))
    if s.recording:
        d = dict(event.data)
        if s.recording == "ai":
            actor = str(
                d.get("unit")
                or d.get("slot")
                or d.get("actor")
                or d.get("hero")
                or (KARN if event.type.startswith("Karn") else "table")
            )
            s.walkthrough.append(AiStep(actor, event.type, list(d.get("path", [])), d))
        elif s.last_battle is not None:
            s.last_battle.effects.append(Happened(event.type, d))
