"""Every Kradia event: its payload (one msgspec Struct, the class name is the type stored in
the log), how it changes the state, and how it reads in the action log, side by side.

Events carry the values they result in (a hero's HP after the damage, the Mana after the
gain), so applying one never needs the content and a replay is exact.  A field is never
renamed: a change bumps the event's version with an upcaster, so old saves fold the same.
"""

from __future__ import annotations

import copy

from companion.core.tables import EventData, Events
from companion.games.kradia.state import (
    BossState,
    ChargeRoll,
    Held,
    Hit,
    KradiaState,
    LastAttack,
)

EVENTS: Events[KradiaState] = Events()


def _who(hero: str) -> str:
    return hero.replace("-", " ").title()


def _card(card_id: str) -> str:
    """A card's name from its id, for a log line that has no content to look it up."""
    return _who(card_id.rsplit("/", 1)[-1])


def _why(why: str) -> str:
    return f" ({why})" if why else ""


# -- round and phases ----------------------------------------------------------------------


class RoundStarted(EventData):
    round: int


@EVENTS.on(RoundStarted, text=lambda e: f"Round {e.round} begins")
def _round_started(s: KradiaState, e: RoundStarted) -> None:
    s.round = e.round
    s.acted = []
    s.turn = None


PHASE_WORDS = {
    "heroes": "Hero action phase",
    "boss": "Boss attack phase: roll the boss's dice",
    "end": "Round over: pass the First Player token",
    "battlefield": "Battlefield phase: the Start Player reveals a card",
}


class PhaseChanged(EventData):
    phase: str


@EVENTS.on(PhaseChanged, text=lambda e: PHASE_WORDS.get(e.phase, f"{e.phase} phase"))
def _phase_changed(s: KradiaState, e: PhaseChanged) -> None:
    s.phase = e.phase
    s.turn, s.turn_done = None, False


class TurnStarted(EventData):
    hero: str


@EVENTS.on(TurnStarted, text=lambda e: f"{_who(e.hero)}'s turn")
def _turn_started(s: KradiaState, e: TurnStarted) -> None:
    s.turn = e.hero
    s.turn_done = False


class ActionTaken(EventData):
    hero: str


@EVENTS.on(
    ActionTaken, text=lambda e: f"{_who(e.hero)} may still use Item cards before ending the turn"
)
def _action_taken(s: KradiaState, e: ActionTaken) -> None:
    s.turn_done = True
    s.charge = None


class TurnEnded(EventData):
    hero: str


@EVENTS.on(TurnEnded, text=lambda e: "")
def _turn_ended(s: KradiaState, e: TurnEnded) -> None:
    s.acted.append(e.hero)
    s.turn, s.turn_done = None, False
    s.charge = None


class TurnSkipped(EventData):
    hero: str
    why: str


@EVENTS.on(TurnSkipped, text=lambda e: f"{_who(e.hero)} is {e.why}: no turn")
def _turn_skipped(s: KradiaState, e: TurnSkipped) -> None:
    s.acted.append(e.hero)


class StartPlayerPassed(EventData):
    hero: str


@EVENTS.on(StartPlayerPassed, text=lambda e: f"First Player token to {_who(e.hero)}")
def _start_player_passed(s: KradiaState, e: StartPlayerPassed) -> None:
    s.start_player = e.hero
    s.battlefield.forbid = []
    s.battlefield.held = []


# -- battlefield ---------------------------------------------------------------------------


class BattlefieldCardRevealed(EventData):
    card: str
    symbol: str


@EVENTS.on(BattlefieldCardRevealed, text=lambda e: f"Battlefield card revealed: {e.symbol.title()}")
def _battlefield_card_revealed(s: KradiaState, e: BattlefieldCardRevealed) -> None:
    s.battlefield.face_down.remove(e.card)
    s.battlefield.face_up.append(e.card)


class BattlefieldReset(EventData):
    card: str
    face_down: list[str]


@EVENTS.on(
    BattlefieldReset,
    text=lambda e: "Battlefield Reset: the active card turns sideways, the other 2 are shuffled",
)
def _battlefield_reset(s: KradiaState, e: BattlefieldReset) -> None:
    s.battlefield.sideways = e.card
    s.battlefield.face_up = [e.card]
    s.battlefield.face_down = list(e.face_down)


class MarkerMoved(EventData):
    column: str
    path: list[str]
    effect: str
    forbid: list[str]
    name: str = ""


def _marker_text(e: MarkerMoved) -> str:
    """The space by its printed name; its effect's code only where it has none."""
    return f"Battlefield marker to {e.name or e.effect}"


@EVENTS.on(MarkerMoved, text=_marker_text)
def _marker_moved(s: KradiaState, e: MarkerMoved) -> None:
    bf = s.battlefield
    bf.column, bf.path, bf.effect = e.column, list(e.path), e.effect
    bf.forbid = list(e.forbid)


class BattlefieldShuffled(EventData):
    face_down: list[str]


@EVENTS.on(BattlefieldShuffled, text=lambda e: "The 3 Battlefield cards are reshuffled face down")
def _battlefield_shuffled(s: KradiaState, e: BattlefieldShuffled) -> None:
    bf = s.battlefield
    bf.face_down, bf.face_up, bf.sideways = list(e.face_down), [], None
    bf.column, bf.path, bf.effect, bf.forbid, bf.held = None, [], None, [], []


class RoundEffectHeld(EventData):
    held: Held


def _held_words(who: str, ailments: list[str], evasion: bool, stun: bool, buff: int) -> str:
    parts = [*ailments]
    if evasion:
        parts.append("Evasion")
    if stun:
        parts.append("a stun")
    if buff:
        parts.append(f"Attack Buff +{buff}")
    return f"{_who(who)}: {', '.join(parts) or 'nothing'}"


@EVENTS.on(
    RoundEffectHeld,
    text=lambda e: (
        "Until the round is over, "
        + _held_words(e.held.who, e.held.ailments, e.held.evasion, e.held.stun, e.held.attack_buff)
    ),
)
def _round_effect_held(s: KradiaState, e: RoundEffectHeld) -> None:
    s.battlefield.held.append(copy.deepcopy(e.held))


class RoundEffectEnded(EventData):
    """What the round's Battlefield effect still held on `who`, now taken back; `attack_buff`
    is the value left after the held part goes."""

    who: str
    ailments: list[str]
    evasion: bool
    stun: bool
    attack_buff: int
    removed_buff: int


@EVENTS.on(
    RoundEffectEnded,
    text=lambda e: (
        "The round's Battlefield effect ends for "
        + _held_words(e.who, e.ailments, e.evasion, e.stun, e.removed_buff)
    ),
)
def _round_effect_ended(s: KradiaState, e: RoundEffectEnded) -> None:
    if e.who == "boss":
        s.boss.attack_buff = e.attack_buff
        return
    h = s.heroes[e.who]
    h.ailments = [a for a in h.ailments if a not in e.ailments]
    h.evasion = h.evasion and not e.evasion
    h.stunned = h.stunned and not e.stun
    h.attack_buff = e.attack_buff


# -- heroes --------------------------------------------------------------------------------


class HeroDamaged(EventData):
    hero: str
    amount: int
    hp: int
    why: str = ""


@EVENTS.on(
    HeroDamaged,
    text=lambda e: f"{_who(e.hero)} takes {e.amount} damage{_why(e.why)}: {e.hp} HP left",
)
def _hero_damaged(s: KradiaState, e: HeroDamaged) -> None:
    s.heroes[e.hero].hp = e.hp


class DamageEvaded(EventData):
    hero: str
    amount: int
    why: str = ""


@EVENTS.on(DamageEvaded, text=lambda e: f"{_who(e.hero)} evades {e.amount} damage{_why(e.why)}")
def _damage_evaded(s: KradiaState, e: DamageEvaded) -> None:
    pass


class HeroHealed(EventData):
    hero: str
    amount: int
    hp: int
    why: str = ""


@EVENTS.on(
    HeroHealed, text=lambda e: f"{_who(e.hero)} recovers {e.amount} HP{_why(e.why)}: {e.hp} HP"
)
def _hero_healed(s: KradiaState, e: HeroHealed) -> None:
    s.heroes[e.hero].hp = e.hp


class HeroFaded(EventData):
    hero: str


@EVENTS.on(
    HeroFaded, text=lambda e: f"{_who(e.hero)} is Fading: Mana, buffs and ailments are removed"
)
def _hero_faded(s: KradiaState, e: HeroFaded) -> None:
    h = s.heroes[e.hero]
    h.hp, h.fading = 0, True
    h.red = h.blue = h.attack_buff = 0
    h.ailments, h.stunned, h.evasion = [], False, False


class HeroRetired(EventData):
    hero: str


@EVENTS.on(
    HeroRetired, text=lambda e: f"{_who(e.hero)} is still Fading and retires from the battle"
)
def _hero_retired(s: KradiaState, e: HeroRetired) -> None:
    h = s.heroes[e.hero]
    h.fading, h.retired = False, True


class HeroRestored(EventData):
    hero: str
    hp: int
    why: str = ""


@EVENTS.on(HeroRestored, text=lambda e: f"{_who(e.hero)} is restored{_why(e.why)} with {e.hp} HP")
def _hero_restored(s: KradiaState, e: HeroRestored) -> None:
    h = s.heroes[e.hero]
    h.fading, h.hp = False, e.hp


class HeroReturned(EventData):
    hero: str


@EVENTS.on(
    HeroReturned,
    text=lambda e: f"{_who(e.hero)} returns for the next battle, still Fading at 0 HP",
)
def _hero_returned(s: KradiaState, e: HeroReturned) -> None:
    h = s.heroes[e.hero]
    h.retired, h.fading, h.hp = False, True, 0


class ManaGained(EventData):
    hero: str
    color: str  # red | blue
    amount: int
    value: int
    why: str = ""


@EVENTS.on(
    ManaGained,
    text=lambda e: f"{_who(e.hero)} gains {e.amount} {e.color} Mana{_why(e.why)}: {e.value}",
)
def _mana_gained(s: KradiaState, e: ManaGained) -> None:
    h = s.heroes[e.hero]
    if e.color == "red":
        h.red = e.value
    else:
        h.blue = e.value


class ManaLost(EventData):
    hero: str
    color: str  # red | blue
    amount: int
    value: int
    why: str = ""


@EVENTS.on(
    ManaLost,
    text=lambda e: f"{_who(e.hero)} loses {e.amount} {e.color} Mana{_why(e.why)}: {e.value}",
)
def _mana_lost(s: KradiaState, e: ManaLost) -> None:
    h = s.heroes[e.hero]
    if e.color == "red":
        h.red = e.value
    else:
        h.blue = e.value


class AttackBuffSet(EventData):
    who: str  # a hero, or "boss"
    value: int
    why: str = ""


@EVENTS.on(AttackBuffSet, text=lambda e: f"{_who(e.who)}'s Attack Buff: {e.value}{_why(e.why)}")
def _attack_buff_set(s: KradiaState, e: AttackBuffSet) -> None:
    if e.who == "boss":
        s.boss.attack_buff = e.value
    else:
        s.heroes[e.who].attack_buff = e.value


class EvasionSet(EventData):
    hero: str
    evasion: bool
    why: str = ""


def _evasion_text(e: EvasionSet) -> str:
    state = "gains Evasion" if e.evasion else "loses Evasion"
    return f"{_who(e.hero)} {state}{_why(e.why)}"


@EVENTS.on(EvasionSet, text=_evasion_text)
def _evasion_set(s: KradiaState, e: EvasionSet) -> None:
    s.heroes[e.hero].evasion = e.evasion


class StunSet(EventData):
    hero: str
    stunned: bool
    why: str = ""


def _stun_text(e: StunSet) -> str:
    state = "is stunned" if e.stunned else "is no longer stunned"
    return f"{_who(e.hero)} {state}{_why(e.why)}"


@EVENTS.on(StunSet, text=_stun_text)
def _stun_set(s: KradiaState, e: StunSet) -> None:
    s.heroes[e.hero].stunned = e.stunned


class AilmentAdded(EventData):
    hero: str
    ailment: str
    replaced: list[str]
    why: str = ""


def _ailment_text(e: AilmentAdded) -> str:
    replaced = f", replacing {', '.join(e.replaced)}" if e.replaced else ""
    return f"{_who(e.hero)} suffers {e.ailment}{replaced}{_why(e.why)}"


@EVENTS.on(AilmentAdded, text=_ailment_text)
def _ailment_added(s: KradiaState, e: AilmentAdded) -> None:
    h = s.heroes[e.hero]
    h.ailments = [a for a in h.ailments if a not in e.replaced] + [e.ailment]


class AilmentResisted(EventData):
    hero: str
    ailment: str


@EVENTS.on(AilmentResisted, text=lambda e: f"{_who(e.hero)}'s constitution ignores {e.ailment}")
def _ailment_resisted(s: KradiaState, e: AilmentResisted) -> None:
    pass


class AilmentsRemoved(EventData):
    hero: str
    ailments: list[str]
    why: str = ""


@EVENTS.on(
    AilmentsRemoved,
    text=lambda e: f"{_who(e.hero)} is cured of {', '.join(e.ailments)}{_why(e.why)}",
)
def _ailments_removed(s: KradiaState, e: AilmentsRemoved) -> None:
    h = s.heroes[e.hero]
    h.ailments = [a for a in h.ailments if a not in e.ailments]


# -- actions -------------------------------------------------------------------------------


class BasicAttacked(EventData):
    hero: str
    damage: int


@EVENTS.on(BasicAttacked, text=lambda e: f"{_who(e.hero)}: Basic Attack for {e.damage}")
def _basic_attacked(s: KradiaState, e: BasicAttacked) -> None:
    pass


class ChargeRolled(EventData):
    hero: str
    roll: int
    choices: list[int]  # for the log: the state reads them off the roll


def _charge_rolled_text(e: ChargeRolled) -> str:
    choices = ", ".join(f"#{c}" for c in e.choices)
    return f"{_who(e.hero)} rolls {e.roll} for a Charge Attack (may choose {choices})"


@EVENTS.on(ChargeRolled, text=_charge_rolled_text)
def _charge_rolled(s: KradiaState, e: ChargeRolled) -> None:
    s.charge = ChargeRoll(hero=e.hero, roll=e.roll)


class ChargeChosen(EventData):
    hero: str
    roll: int
    effect: int


@EVENTS.on(ChargeChosen, text=lambda e: f"{_who(e.hero)}: Charge Attack #{e.effect}")
def _charge_chosen(s: KradiaState, e: ChargeChosen) -> None:
    s.charge = None


class SkillUsed(EventData):
    hero: str
    skill: str
    level: int
    red: int  # the Mana left after paying
    blue: int


@EVENTS.on(SkillUsed, text=lambda e: f"{_who(e.hero)} uses {_who(e.skill)} (Level {e.level})")
def _skill_used(s: KradiaState, e: SkillUsed) -> None:
    h = s.heroes[e.hero]
    h.red, h.blue = e.red, e.blue


class ItemUsed(EventData):
    hero: str
    item: str


@EVENTS.on(ItemUsed, text=lambda e: f"{_who(e.hero)} uses {_card(e.item)}")
def _item_used(s: KradiaState, e: ItemUsed) -> None:
    s.heroes[e.hero].items.remove(e.item)
    s.discard.append(e.item)


class Passed(EventData):
    hero: str


@EVENTS.on(Passed, text=lambda e: f"{_who(e.hero)} passes")
def _passed(s: KradiaState, e: Passed) -> None:
    pass


class RetainerSummoned(EventData):
    retainer: str
    votes: int


@EVENTS.on(
    RetainerSummoned,
    text=lambda e: f"Retainer {_card(e.retainer)} summoned ({e.votes} agree)",
)
def _retainer_summoned(s: KradiaState, e: RetainerSummoned) -> None:
    s.retainers.remove(e.retainer)


# -- boss ----------------------------------------------------------------------------------


def _boss(name: str) -> str:
    """The boss by its name; events stored before names were kept read "The boss"."""
    return name or "The boss"


def _unchanged(data: dict[str, object]) -> dict[str, object]:
    """A version that only added fields with defaults: the old payload reads as it is."""
    return data


def _without_derived(data: dict[str, object]) -> dict[str, object]:
    """Version 1 also stored the boss's dice and overdrive for the new HP; both are read
    off the boss card for its HP now (effects.dice_on_space, in_overdrive)."""
    return {k: v for k, v in data.items() if k not in ("dice", "overdrive")}


class BossDamaged(EventData):
    version = 3
    amount: int
    hp: int
    why: str = ""
    name: str = ""  # the boss's name, for the result card


EVENTS.upcast("BossDamaged", from_version=1)(_without_derived)
EVENTS.upcast("BossDamaged", from_version=2)(_unchanged)


@EVENTS.on(
    BossDamaged,
    text=lambda e: f"{_boss(e.name)} takes {e.amount} damage{_why(e.why)}: {e.hp} HP left",
)
def _boss_damaged(s: KradiaState, e: BossDamaged) -> None:
    s.boss.hp = e.hp


class BossHealed(EventData):
    version = 3
    amount: int
    hp: int
    why: str = ""
    name: str = ""


EVENTS.upcast("BossHealed", from_version=1)(_without_derived)
EVENTS.upcast("BossHealed", from_version=2)(_unchanged)


@EVENTS.on(
    BossHealed,
    text=lambda e: f"{_boss(e.name)} recovers {e.amount} HP{_why(e.why)}: {e.hp} HP",
)
def _boss_healed(s: KradiaState, e: BossHealed) -> None:
    s.boss.hp = e.hp


class BossAttacked(EventData):
    version = 2
    dice: list[int]
    sum: int
    row: int
    overdrive: bool
    name: str = ""  # version 2: the boss's name and the chart row's sums, for the result card
    low: int = 0
    high: int = 0


EVENTS.upcast("BossAttacked", from_version=1)(_unchanged)


def _boss_attacked_text(e: BossAttacked) -> str:
    dice = " + ".join(map(str, e.dice))
    sums = "" if not e.high else f", sums {e.low}-{e.high}" if e.high > e.low else f", sum {e.low}"
    over = ". Overdrive!" if e.overdrive else ""
    return f"{_boss(e.name)} rolls {dice} = {e.sum}: chart row {e.row + 1}{sums}{over}"


@EVENTS.on(BossAttacked, text=_boss_attacked_text)
def _boss_attacked(s: KradiaState, e: BossAttacked) -> None:
    s.last_attack = LastAttack(dice=list(e.dice), sum=e.sum, row=e.row, overdrive=e.overdrive)


class HitRecorded(EventData):
    hit: Hit


@EVENTS.on(HitRecorded, text=lambda e: "")
def _hit_recorded(s: KradiaState, e: HitRecorded) -> None:
    if s.last_attack is None:
        s.last_attack = LastAttack()
    s.last_attack.effects.append(copy.deepcopy(e.hit))


class RageRaised(EventData):
    version = 2
    rage: int
    most: int = 0  # version 2: the rage track's last space, so the card reads "2 of 3"


EVENTS.upcast("RageRaised", from_version=1)(_unchanged)


def _rage_text(e: RageRaised) -> str:
    if e.rage == 0:
        return "Rage marker back to 0"
    of = f" of {e.most}" if e.most else ""
    return f"Rage {e.rage}{of}"


@EVENTS.on(RageRaised, text=_rage_text)
def _rage_raised(s: KradiaState, e: RageRaised) -> None:
    s.boss.rage = e.rage


class RageUnleashed(EventData):
    version = 2
    boss: str
    name: str = ""


EVENTS.upcast("RageUnleashed", from_version=1)(_unchanged)


@EVENTS.on(RageUnleashed, text=lambda e: f"Rage is full: {_boss(e.name)}'s Rage effect!")
def _rage_unleashed(s: KradiaState, e: RageUnleashed) -> None:
    pass


class BossDefeated(EventData):
    boss: str
    outcome: str  # boss_defeated | won


def _boss_defeated_text(e: BossDefeated) -> str:
    won = " The heroes win the game!" if e.outcome == "won" else ""
    return f"{_card(e.boss)} is defeated!{won}"


@EVENTS.on(BossDefeated, text=_boss_defeated_text)
def _boss_defeated(s: KradiaState, e: BossDefeated) -> None:
    s.outcome, s.phase, s.turn, s.charge = e.outcome, "over", None, None
    s.defeated.append(e.boss)


class ExtraCardResolved(EventData):
    boss: str
    extra: str
    name: str
    once: bool


def _extra_text(e: ExtraCardResolved) -> str:
    gone = " (discarded)" if e.once else ""
    return f"{_card(e.boss)}'s Extra card {e.name} resolves{gone}"


@EVENTS.on(ExtraCardResolved, text=_extra_text)
def _extra_card_resolved(s: KradiaState, e: ExtraCardResolved) -> None:
    if e.once:
        s.extras_used.append(f"{e.boss}/{e.extra}")


class GameLost(EventData):
    pass


@EVENTS.on(GameLost, text=lambda e: "Every hero is Fading or retired: the heroes have lost")
def _game_lost(s: KradiaState, e: GameLost) -> None:
    s.outcome, s.phase, s.turn, s.charge = "lost", "over", None, None


# -- story mode ----------------------------------------------------------------------------


class ManaConverted(EventData):
    hero: str
    amount: int
    hp: int


@EVENTS.on(ManaConverted, text=lambda e: f"{_who(e.hero)} spends {e.amount} Mana for HP: {e.hp} HP")
def _mana_converted(s: KradiaState, e: ManaConverted) -> None:
    h = s.heroes[e.hero]
    h.red = h.blue = 0
    h.hp = e.hp


class Cleansed(EventData):
    hero: str
    # Whether a stun went too: saves from before the Resupply step 2 re-read (rulings 16)
    # always removed it, so an absent field reads as they did.
    stun: bool = True


@EVENTS.on(Cleansed, text=lambda e: "")
def _cleansed(s: KradiaState, e: Cleansed) -> None:
    h = s.heroes[e.hero]
    h.ailments, h.attack_buff, h.evasion = [], 0, False
    if e.stun:
        h.stunned = False


class LeveledUp(EventData):
    hero: str
    level: int
    side: str | None


def _leveled_up_text(e: LeveledUp) -> str:
    side = f" (Level 3 card side {e.side})" if e.level == 3 else ""
    return f"{_who(e.hero)} reaches Level {e.level}{side}"


@EVENTS.on(LeveledUp, text=_leveled_up_text)
def _leveled_up(s: KradiaState, e: LeveledUp) -> None:
    h = s.heroes[e.hero]
    h.level, h.level3_side = e.level, e.side


class ItemDrawn(EventData):
    hero: str
    item: str


@EVENTS.on(ItemDrawn, text=lambda e: f"{_who(e.hero)} draws {_card(e.item)}")
def _item_drawn(s: KradiaState, e: ItemDrawn) -> None:
    s.item_deck.remove(e.item)
    s.heroes[e.hero].items.append(e.item)


class BossSet(EventData):
    level: int
    boss: BossState  # version 1 saves also hold its dice and overdrive: ignored when read


@EVENTS.on(BossSet, text=lambda e: f"Level {e.level} battle: {_card(e.boss.id)}")
def _boss_set(s: KradiaState, e: BossSet) -> None:
    s.boss = copy.deepcopy(e.boss)
    s.level = e.level
    s.round, s.phase, s.turn, s.acted = 0, "battlefield", None, []
    s.outcome, s.last_attack, s.charge = None, None, None
    s.battlefield.held = []
