"""Adrimon's clock: the Fate Tracker, the Fate Cycle, Sentinels, mindwipe and teleport."""

from __future__ import annotations

from typing import Any

from companion.core.rules import Chance, Decision, RuleError
from companion.games.hexplore.common import active_heroes, check_lost, in_combat
from companion.games.hexplore.hexcontent import HexContent
from companion.games.hexplore.state import HexploreState
from companion.games.hexplore.tables import ADRIMON_CYCLE, BATTLE_SITES, MAX_SENTINELS, PLAY_STYLES


def vanish_threshold(turns_survived: int) -> int:
    """The Fate die result at or under which a mindwiped hero leaves: hex (1) on their
    first Magi phase, hex or 2 on the second, and so on."""
    return turns_survived + 1


def end_game_turn(d: Decision, args: dict[str, Any], chance: Chance, content: HexContent) -> None:
    """The Magi phase: the tracker rises, mindwiped heroes may vanish, the turn ends."""
    s = d.state
    if s.outcome:
        raise RuleError(f"the game is over (the heroes {s.outcome})")
    if in_combat(s):
        raise RuleError("finish the combat before the Magi phase")
    waiting = [h for h, hs in s.heroes.items() if hs.mindwiped and not hs.vanished]
    _raise_tracker(d, chance, "the Magi phase")
    if waiting:
        roll = chance.roll("fate_d8", for_="group", why="do the mindwiped heroes vanish?")[0]
        gone = [h for h in waiting if roll <= vanish_threshold(s.heroes[h].mindwiped_turns)]
        d.emit(
            "VanishRolled",
            roll=roll,
            vanished=gone,
            stayed=[h for h in waiting if h not in gone],
        )
    for hid in active_heroes(s):
        if "poisoned" in s.heroes[hid].conditions:
            d.emit("VitalsChanged", who=hid, health=-1, why="Poisoned, start of Movement")
            if s.heroes[hid].health <= 0:
                d.emit("HeroDied", hero=hid, why="Poisoned to 0 Health")
    check_lost(d)
    d.emit("GameTurnEnded", turn=s.turn + 1)


def fate_tracker_symbol(
    d: Decision, args: dict[str, Any], chance: Chance, content: HexContent
) -> None:
    """A card with the Fate Tracker symbol was played or discarded: +1, once."""
    if d.state.outcome:
        raise RuleError("the game is over")
    card = args.get("card", "")
    _raise_tracker(d, chance, f"Fate Tracker symbol{f' on {card}' if card else ''}")
    check_lost(d)


def defeat_sentinel(d: Decision, args: dict[str, Any], chance: Chance, content: HexContent) -> None:
    at = args.get("at")
    if not any(x.location == at for x in d.state.sentinels):
        where = ", ".join(x.location for x in d.state.sentinels) or "none in play"
        raise RuleError(f"no Sentinel stands at {at!r} (Sentinels: {where})")
    d.emit("SentinelDefeated", at=at)


# -- the clock ---------------------------------------------------------------------


def _raise_tracker(d: Decision, chance: Chance, why: str) -> None:
    fate = d.state.fate
    d.emit("FateTrackerRaised", tracker=fate.tracker + 1, why=why)
    if fate.tracker >= fate.length:
        d.emit("FateCycleRaised", cycle=fate.cycle + 1)
        _sentinel(d, chance)
        for hid in active_heroes(d.state):
            h = d.state.heroes[hid]
            if all(rank <= fate.cycle for rank in h.skills.values()):
                d.emit("HeroMindwiped", hero=hid, cycle=fate.cycle)
        if fate.cycle >= ADRIMON_CYCLE:
            d.emit("AdrimonTeleports", cycle=fate.cycle)


def _sentinel(d: Decision, chance: Chance) -> None:
    s: HexploreState = d.state
    if not PLAY_STYLES[s.play_style].sentinels:
        return
    if len(s.sentinels) >= MAX_SENTINELS:
        d.emit("SentinelWithheld", why=f"{MAX_SENTINELS} Sentinels are already in play")
        return
    number = s.fate.sentinels_made + 1
    if number <= BATTLE_SITES:
        d.emit("SentinelAppeared", number=number, location=f"battle_site_{number}", rolls=[])
        return
    rolls: list[int] = []
    taken = {x.location for x in s.sentinels}
    while True:
        roll = chance.roll(
            "hex_d6", for_="group", why="where around the Acropolis the Sentinel appears"
        )[0]
        rolls.append(roll)
        if f"acropolis_{roll}" not in taken:
            break
    d.emit("SentinelAppeared", number=number, location=f"acropolis_{roll}", rolls=rolls)


# -- events ------------------------------------------------------------------------
