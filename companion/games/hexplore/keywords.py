"""Keywords a card or an Ability carries that act outside an opponent's card: Revive,
Heal and Raise outside combat, Teleport, Sustain.  (Summon is `allies.py`; Nonlethal is
read in the Resolution phase, `resolve.py`.)

Keywords table: "Revive - Brings back a deceased target and restores them to full Vitals
unless otherwise stated." "Raise: X - As Heal, except the total Healing may exceed the
target's maximum Vitals ... Raised Vitals remain through the duration of the Game Turn in
which they were gained, or until lost." "Teleport: X - ... when used during the Movement
phase, the group is considered to be Moving Normally." "Sustain - You may spend 1 Energy
each round to power the effect ... only one instance of the Sustained effect may be active
at any time."
"""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import Heal, Revive, Sustain, Teleport
from companion.games.hexplore.common import hero_id, in_combat, in_play, whole
from companion.games.hexplore.conditions import heal_amount
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.events import HeroRevived, Sustained, Teleported, VitalsChanged
from companion.games.hexplore.fight import combat_in, fighting
from companion.games.hexplore.state import HeroState, HexploreState
from companion.games.hexplore.tables import MAX_DECLARED, MAX_GAINED


def revive(d: Decision, args: Revive, chance: Chance, content: HexContent) -> None:
    """A Healing Surge, the Spirit Tether Ritual, a Revival Stone or a card's Revive."""
    s: HexploreState = d.state
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    if not h.dead:
        raise RuleError(f"{h.name} is not dead: there is no one to Revive")
    if h.mindwiped or h.vanished:
        raise RuleError(
            f'{h.name} was mindwiped: "If a mindwiped hero dies, they may not be Revived"'
        )
    if in_combat(s):
        combat_in(s, "declare")  # a Revive in combat comes with the heroes' declarations
    health = h.max_health if args.health is None else args.health
    health = whole(health, "health", minimum=1, maximum=h.max_health)
    energy = h.max_energy if args.energy is None else args.energy
    energy = whole(energy, "energy", maximum=h.max_energy)
    ritual = args.ritual
    if ritual and not h.spirit_tether:
        raise RuleError(f"{h.name} has no Spirit Tether Ritual waiting")
    why = args.why or ("the Spirit Tether Ritual" if ritual else "Revived")
    d.emit(HeroRevived(hero=hid, health=health, energy=energy, why=why, ritual=ritual))


def heal(d: Decision, args: Heal, chance: Chance, content: HexContent) -> None:
    """Healing outside combat ("or anytime outside of combat"); with `raise`, beyond the
    maximum by the amount, until the Game Turn ends (`raised_vitals_end`)."""
    s: HexploreState = d.state
    if in_combat(s):
        raise RuleError("in combat, Healing is declared (a Mastery, or an item while Defending)")
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    if not in_play(h):
        raise RuleError(f"{h.name} is out of the game: Revive them first")
    raising = args.raise_
    vital = args.vital
    if vital not in ("health", "energy"):
        raise RuleError(f"Heal restores health or energy, not {vital!r}")
    given = whole(args.amount, "amount", minimum=1, maximum=MAX_DECLARED)
    amount = heal_amount(h, vital, given)
    top = _maximum(h, vital) + (amount if raising else 0)
    now = getattr(h, vital)
    if now >= top and not raising:
        raise RuleError(f"{h.name}'s {vital} is full: nothing to Heal (a Raise may exceed it)")
    change = max(0, min(amount, top - now))
    cut = f", {given - amount} less for Burned or Drained" if amount < given else ""
    word = "Raise" if raising else "Heal"
    d.emit(VitalsChanged(who=hid, why=f"{word} {given}{cut}", **{vital: change}))


def _maximum(h: HeroState, vital: str) -> int:
    return h.max_health if vital == "health" else h.max_energy


def raised_vitals_end(d: Decision) -> None:
    """The Game Turn ends: Raised Vitals above the maximum return to it."""
    s: HexploreState = d.state
    for hid, h in s.heroes.items():
        over = {v: _maximum(h, v) - getattr(h, v) for v in ("health", "energy")}
        over = {v: n for v, n in over.items() if n < 0}
        if over:
            d.emit(VitalsChanged(who=hid, why="Raised Vitals end with the Game Turn", **over))


def teleport(d: Decision, args: Teleport, chance: Chance, content: HexContent) -> None:
    """The group Teleports; before the Skill phase it is the Movement phase's move."""
    s: HexploreState = d.state
    if in_combat(s):
        raise RuleError("finish the combat first (a card that Teleports out of combat says so)")
    hexes = whole(args.hexes, "hexes", maximum=MAX_GAINED)
    d.emit(Teleported(turn=s.turn, hexes=hexes, movement=movement_phase(s)))


def movement_phase(s: HexploreState) -> bool:
    """Still in the Movement phase: no Skill rolled or settled this turn, no Circumstance."""
    p = s.skill_phase
    started = p.turn == s.turn and (p.rolled or p.resolved)
    return not started and s.circumstance is None


TELEPORTED = (
    "the group Teleported in the Movement phase, so it is Moving Normally this turn "
    "(not Cautiously)"
)


def moved_normally(s: HexploreState) -> bool:
    """This turn's Movement phase was a Teleport, so the group Moved Normally."""
    return s.teleported == s.turn


def skipped_after_flight(s: HexploreState) -> None:
    """Fleeing from combat: "Once the entire group has fled, or combat ends, the group
    Wanders ... Immediately move to the Villain phase of the Game Turn." (Ruling 38)"""
    if s.to_magi_phase == s.turn:
        raise RuleError(
            "the group fled and Wandered: this Game Turn moves straight to the Magi phase"
        )


def sustain(d: Decision, args: Sustain, chance: Chance, content: HexContent) -> None:
    """1 Energy powers a hero's Sustained Ability for this round (once a round)."""
    s: HexploreState = d.state
    c = combat_in(s, "declare")
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    if hid not in fighting(s):
        raise RuleError(f"{h.name} is not fighting in this combat")
    if "unconscious" in h.conditions:
        raise RuleError(f"{h.name} is Unconscious and cannot act")
    if c.sustained.get(hid) == c.round:
        raise RuleError(f"{h.name}'s Sustained Ability is already powered this round")
    if h.starving >= 1:
        raise RuleError(f"{h.name} is Starving and cannot use Energy")
    if h.energy < 1:
        raise RuleError(f"{h.name} has no Energy to Sustain it")
    effect = args.effect or ""
    d.emit(Sustained(hero=hid, round=c.round, effect=effect))
    d.emit(VitalsChanged(who=hid, energy=-1, why="Sustain costs 1 Energy"))
