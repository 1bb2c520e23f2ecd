"""Ranks gained during the game: Gear Upgrades (bought or found) and other rank increases
(Power Up cards, rewards such as "+2 Attack"), and Ashul's Workshop where they are bought.

Gear Upgrade Rings: "Heroes may only gain a total of 6 Gear Upgrades for each stat. Power Up
cards (or other effects) are separate rewards that do not count against your Gear Upgrades.
Gear Upgrades are not available for purchase until the heroes unlock Ashul's Workshop."
`buy_gear_upgrade` charges the ring's next cost (ruling 48); `gear_upgrade` takes a cost the
table reads off a printed ring (or none, for one found while Searching for Gear).
"""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import (
    BuyGearUpgrade,
    GainWorkshopSupplies,
    GearUpgrade,
    RankArgs,
    RankUp,
)
from companion.games.hexplore.common import hero_id, in_combat, in_play, whole
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.events import RankRaised, WorkshopSuppliesGained
from companion.games.hexplore.state import HeroState, HexploreState
from companion.games.hexplore.tables import (
    GEAR_UPGRADES_PER_STAT,
    MAX_GAINED,
    RING_START,
    SKILLS,
    WAYPOSTS,
    WORKSHOP_SOURCES_NEEDED,
    WORKSHOP_SUPPLIES,
)

STATS = ("health", "energy", "attack", "defend", *SKILLS)


def stat_arg(stat: str | None) -> str:
    if stat is None or stat not in STATS:
        raise RuleError(f"stat must be one of {', '.join(STATS)}, not {stat!r}")
    return str(stat)


def upgradable(h: HeroState) -> list[str]:
    """The stats with Gear Upgrades left on the ring."""
    return [x for x in STATS if h.upgrades.get(x, 0) < GEAR_UPGRADES_PER_STAT]


def ring_cost(h: HeroState, stat: str) -> int:
    """The Gold the stat's next Gear Upgrade costs at Ashul's Workshop: the ring starts at
    4 (Abilities), 3 (Skills) or 2 (Vitals) and rises 1 Gold a step (ruling 48)."""
    return RING_START[stat] + h.upgrades.get(stat, 0)


def affordable(h: HeroState) -> list[str]:
    """The stats whose next Gear Upgrade the hero can buy now (ring not full, Gold enough)."""
    return [x for x in upgradable(h) if ring_cost(h, x) <= h.gold]


def not_built(s: HexploreState) -> str:
    """Why nothing can be bought at Ashul's Workshop yet, in a player's words."""
    n = len(s.workshop_supplies)
    return (
        "Gear Upgrades are not for sale until the heroes build Ashul's Workshop "
        f"({WORKSHOP_SUPPLIES} from {WORKSHOP_SOURCES_NEEDED} different sources; "
        f"{n} so far)"
    )


def supply_sources(content: HexContent) -> list[str]:
    """Where Workshop Supplies can come from, in a player's words: "It may be purchased in
    Wayposts, rewarded after a battle, or found in other situations" (ruling 48)."""
    rewards = [
        f"Reward of {o.title}"
        for o in content.opponents()
        if WORKSHOP_SUPPLIES in (*o.rewards.single, *o.rewards.vanquish, *o.rewards.influence)
    ]
    return [
        *(f"Waypost {n}" for n in range(1, WAYPOSTS + 1)),
        *rewards,
        "Reward of another combat",
        "A Destination",
        "A Circumstance card",
        "Another find",
    ]


def gain_workshop_supplies(
    d: Decision, args: GainWorkshopSupplies, chance: Chance, content: HexContent
) -> None:
    """Workshop Supplies from one source; the third different source builds the Workshop."""
    s: HexploreState = d.state
    if in_combat(s):
        raise RuleError(f"{WORKSHOP_SUPPLIES} are counted outside combat")
    if s.workshop_built:
        raise RuleError(f"Ashul's Workshop is already built: no more {WORKSHOP_SUPPLIES} needed")
    source = args.source
    known = supply_sources(content)
    if source not in known:
        raise RuleError(f"say where the {WORKSHOP_SUPPLIES} came from ({', '.join(known)})")
    if source in s.workshop_supplies:
        raise RuleError(
            f"{WORKSHOP_SUPPLIES} from {source} already count: Ashul's Workshop needs them "
            f"from {WORKSHOP_SOURCES_NEEDED} different sources"
        )
    built = len(s.workshop_supplies) + 1 >= WORKSHOP_SOURCES_NEEDED
    d.emit(WorkshopSuppliesGained(source=str(source), built=built))


def buy_gear_upgrade(
    d: Decision, args: BuyGearUpgrade, chance: Chance, content: HexContent
) -> None:
    """One Gear Upgrade bought at Ashul's Workshop, at the ring's next cost."""
    s: HexploreState = d.state
    hid = _hero_for_ranks(s, args)
    h = s.heroes[hid]
    stat = stat_arg(args.stat)
    if not s.workshop_built:
        raise RuleError(not_built(s))
    if stat not in upgradable(h):
        raise RuleError(f"{h.name} has all {GEAR_UPGRADES_PER_STAT} Gear Upgrades for {stat}")
    cost = ring_cost(h, stat)
    if cost > h.gold:
        raise RuleError(
            f"{h.name} has {h.gold} Gold; their next {stat} Gear Upgrade costs {cost} Gold"
        )
    d.emit(RankRaised(hero=hid, stat=stat, by=1, gear=True, gold=-cost))


def _hero_for_ranks(s: HexploreState, args: RankArgs) -> str:
    hid = hero_id(s, args.hero)
    if in_combat(s):
        raise RuleError("ranks are gained outside combat")
    if not in_play(s.heroes[hid]):
        raise RuleError(f"{s.heroes[hid].name} is out of the game")
    return hid


def gear_upgrade(d: Decision, args: GearUpgrade, chance: Chance, content: HexContent) -> None:
    """One Gear Upgrade: bought at Ashul's Workshop (cost from the ring) or found (cost 0)."""
    s: HexploreState = d.state
    hid = _hero_for_ranks(s, args)
    h = s.heroes[hid]
    stat = stat_arg(args.stat)
    if stat not in upgradable(h):
        raise RuleError(
            f"{h.name} has all {GEAR_UPGRADES_PER_STAT} Gear Upgrades for {stat} "
            "(Power Ups and rewards still raise it)"
        )
    cost = whole(args.cost, "cost", maximum=MAX_GAINED)
    if cost and not s.workshop_built:
        raise RuleError(not_built(s) + ": one found while Searching for Gear costs no Gold")
    if cost > h.gold:
        raise RuleError(f"{h.name} has {h.gold} Gold; this Gear Upgrade costs {cost}")
    d.emit(RankRaised(hero=hid, stat=stat, by=1, gear=True, gold=-cost))


def rank_up(d: Decision, args: RankUp, chance: Chance, content: HexContent) -> None:
    """A rank increase that is not a Gear Upgrade (a Power Up card, a Single Reward)."""
    s: HexploreState = d.state
    hid = _hero_for_ranks(s, args)
    stat = stat_arg(args.stat)
    by = whole(args.by, "by", minimum=1, maximum=10)
    d.emit(RankRaised(hero=hid, stat=stat, by=by))
