"""Ranks gained during the game: Gear Upgrades (bought or found) and other rank increases
(Power Up cards, rewards such as "+2 Attack").

Gear Upgrade Rings: "Heroes may only gain a total of 6 Gear Upgrades for each stat. Power Up
cards (or other effects) are separate rewards that do not count against your Gear Upgrades."
The Gold cost is printed on each hero's ring, so the table says it.
"""

from __future__ import annotations

from typing import Any

from companion.core.rules import Chance, Decision, RuleError
from companion.games.hexplore.common import hero_id, in_combat, in_play, whole
from companion.games.hexplore.events import RankRaised
from companion.games.hexplore.hexcontent import HexContent
from companion.games.hexplore.state import HeroState, HexploreState
from companion.games.hexplore.tables import GEAR_UPGRADES_PER_STAT, MAX_GAINED, SKILLS

STATS = ("health", "energy", "attack", "defend", *SKILLS)


def stat_arg(args: dict[str, Any]) -> str:
    stat = args.get("stat")
    if stat not in STATS:
        raise RuleError(f"stat must be one of {', '.join(STATS)}, not {stat!r}")
    return str(stat)


def upgradable(h: HeroState) -> list[str]:
    """The stats with Gear Upgrades left on the ring."""
    return [x for x in STATS if h.upgrades.get(x, 0) < GEAR_UPGRADES_PER_STAT]


def _hero_for_ranks(s: HexploreState, args: dict[str, Any]) -> str:
    hid = hero_id(s, args)
    if in_combat(s):
        raise RuleError("ranks are gained outside combat")
    if not in_play(s.heroes[hid]):
        raise RuleError(f"{s.heroes[hid].name} is out of the game")
    return hid


def gear_upgrade(d: Decision, args: dict[str, Any], chance: Chance, content: HexContent) -> None:
    """One Gear Upgrade: bought at Ashul's Workshop (cost from the ring) or found (cost 0)."""
    s: HexploreState = d.state
    hid = _hero_for_ranks(s, args)
    h = s.heroes[hid]
    stat = stat_arg(args)
    if stat not in upgradable(h):
        raise RuleError(
            f"{h.name} has all {GEAR_UPGRADES_PER_STAT} Gear Upgrades for {stat} "
            "(Power Ups and rewards still raise it)"
        )
    cost = whole(args, "cost", 0, maximum=MAX_GAINED)
    if cost > h.gold:
        raise RuleError(f"{h.name} has {h.gold} Gold; this Gear Upgrade costs {cost}")
    d.emit(RankRaised(hero=hid, stat=stat, by=1, gear=True, gold=-cost))


def rank_up(d: Decision, args: dict[str, Any], chance: Chance, content: HexContent) -> None:
    """A rank increase that is not a Gear Upgrade (a Power Up card, a Single Reward)."""
    s: HexploreState = d.state
    hid = _hero_for_ranks(s, args)
    stat = stat_arg(args)
    by = whole(args, "by", 1, minimum=1, maximum=10)
    d.emit(RankRaised(hero=hid, stat=stat, by=by))
