"""Adrimon's clock: the Fate Tracker, the Fate Cycle, Sentinels, mindwipe and teleport."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import DefeatSentinel, EndGameTurn, FateTrackerSymbol
from companion.games.hexplore.common import active_heroes, check_lost, in_combat
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import auto_fails
from companion.games.hexplore.events import (
    AdrimonTeleports,
    FateCycleRaised,
    FateTrackerRaised,
    GameTurnEnded,
    HeroDied,
    HeroMindwiped,
    SentinelAppeared,
    SentinelDefeated,
    SentinelWithheld,
    VanishRolled,
    VitalsChanged,
)
from companion.games.hexplore.house import house
from companion.games.hexplore.keywords import raised_vitals_end
from companion.games.hexplore.state import GROUP_NAME, HexploreState, cycle_length
from companion.games.hexplore.tables import ADRIMON_CYCLE, BATTLE_SITES, MAX_SENTINELS, PLAY_STYLES


@dataclass(frozen=True)
class CycleThreat:
    """What the next rise of the Fate Cycle takes from one hero in play."""

    hero: str
    name: str
    cycle: int  # the Fate Cycle that takes them
    rises_left: int  # Fate Tracker rises until it comes
    skills: tuple[str, ...]  # skills that start to fail then
    mindwipes: bool  # every skill fails then: the hero is mindwiped


def failing_skills(s: HexploreState, hid: str, cycle: int | None = None) -> list[str]:
    """A hero's skills at or under the Fate Cycle: they Critically Fail with no roll."""
    at = s.fate.cycle if cycle is None else cycle
    return [k for k, rank in s.heroes[hid].skills.items() if auto_fails(rank, at)]


def mindwiped_at(s: HexploreState, hid: str, cycle: int) -> bool:
    """The rulebook: "If the Fate Cycle is equal to or greater than all Skills of a hero,
    the hero becomes mindwiped."""
    return len(failing_skills(s, hid, cycle)) == len(s.heroes[hid].skills)


def next_cycle_threats(s: HexploreState) -> list[CycleThreat]:
    """The heroes the next Fate Cycle harms, for the table to see coming."""
    nxt = s.fate.cycle + 1
    out = []
    for hid in active_heroes(s):
        doomed = set(failing_skills(s, hid, nxt)) - set(failing_skills(s, hid))
        if doomed:
            out.append(
                CycleThreat(
                    hero=hid,
                    name=s.heroes[hid].name,
                    cycle=nxt,
                    rises_left=cycle_length(s) - s.fate.tracker,
                    skills=tuple(k for k in s.heroes[hid].skills if k in doomed),
                    mindwipes=mindwiped_at(s, hid, nxt),
                )
            )
    return out


def vanish_threshold(turns_survived: int) -> int:
    """The Fate die result at or under which a mindwiped hero leaves: hex (1) on their
    first Magi phase, hex or 2 on the second, and so on."""
    return turns_survived + 1


def end_game_turn(d: Decision, args: EndGameTurn, chance: Chance, content: HexContent) -> None:
    """The Magi phase: the tracker rises, mindwiped heroes may vanish, the turn ends."""
    s = d.state
    if in_combat(s):
        raise RuleError("finish the combat before the Magi phase")
    waiting = [h for h, hs in s.heroes.items() if hs.mindwiped and not hs.vanished]
    _raise_tracker(d, chance, "the Magi phase")
    if house(s, "vanish_roll") == "same_magi_phase":
        # the heroes mindwiped just now roll too, with the first turn's hex
        waiting = [h for h, hs in s.heroes.items() if hs.mindwiped and not hs.vanished]
    if waiting:
        roll = chance.roll(
            "fate_d8",
            for_="group",
            why="do the mindwiped heroes vanish?",
            role="vanish",
            who=GROUP_NAME,
        )[0]
        gone = [h for h in waiting if roll <= vanish_threshold(s.heroes[h].mindwiped_turns)]
        d.emit(VanishRolled(roll=roll, vanished=gone, stayed=[h for h in waiting if h not in gone]))
    for hid in active_heroes(s):
        if "poisoned" in s.heroes[hid].conditions:
            d.emit(VitalsChanged(who=hid, health=-1, why="Poisoned, start of Movement"))
            if s.heroes[hid].health <= 0:
                d.emit(HeroDied(hero=hid, why="Poisoned to 0 Health"))
    check_lost(d)
    raised_vitals_end(d)
    d.emit(GameTurnEnded(turn=s.turn + 1))


def fate_tracker_symbol(
    d: Decision, args: FateTrackerSymbol, chance: Chance, content: HexContent
) -> None:
    """A card with the Fate Tracker symbol was played or discarded: +1, once."""
    card = args.card
    _raise_tracker(d, chance, f"Fate Tracker symbol{f' on {card}' if card else ''}")
    check_lost(d)


def defeat_sentinel(d: Decision, args: DefeatSentinel, chance: Chance, content: HexContent) -> None:
    at = args.at
    if at is None or not any(x.location == at for x in d.state.sentinels):
        where = ", ".join(x.location.replace("_", " ") for x in d.state.sentinels)
        raise RuleError(f"no Sentinel stands at {at!r} (Sentinels: {where or 'none in play'})")
    d.emit(SentinelDefeated(at=at))


# -- the clock ---------------------------------------------------------------------


def _raise_tracker(d: Decision, chance: Chance, why: str) -> None:
    fate = d.state.fate
    d.emit(FateTrackerRaised(tracker=fate.tracker + 1, why=why))
    if fate.tracker >= cycle_length(d.state):
        d.emit(FateCycleRaised(cycle=fate.cycle + 1))
        _sentinel(d, chance)
        for hid in active_heroes(d.state):
            if mindwiped_at(d.state, hid, fate.cycle):
                d.emit(HeroMindwiped(hero=hid, cycle=fate.cycle))
        if fate.cycle >= ADRIMON_CYCLE:
            d.emit(AdrimonTeleports(cycle=fate.cycle))


def _sentinel(d: Decision, chance: Chance) -> None:
    s: HexploreState = d.state
    if not PLAY_STYLES[s.play_style].sentinels:
        return
    if len(s.sentinels) >= MAX_SENTINELS:
        d.emit(SentinelWithheld(why=f"{MAX_SENTINELS} Sentinels are already in play"))
        return
    number = s.fate.sentinels_made + 1
    if number <= BATTLE_SITES:
        d.emit(SentinelAppeared(number=number, location=f"battle_site_{number}", rolls=[]))
        return
    rolls: list[int] = []
    taken = {x.location for x in s.sentinels}
    while True:
        roll = chance.roll(
            "hex_d6",
            for_="group",
            who=GROUP_NAME,
            why="where around the Acropolis the Sentinel appears",
            role="sentinel",
        )[0]
        rolls.append(roll)
        if f"acropolis_{roll}" not in taken:
            break
    d.emit(SentinelAppeared(number=number, location=f"acropolis_{roll}", rolls=rolls))


# -- events ------------------------------------------------------------------------
