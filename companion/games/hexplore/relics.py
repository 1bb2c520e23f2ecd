"""Relics in play: obtained by the group, wielded by a hero who meets the Wielder
Requirement, lowering every opponent's Soul Shield each round of combat.

Wielding Relics: "Only one hero may wield a Relic at any time. Relics may be traded to
another ally while Defending during combat, or at any time outside of combat."  Wielder
Requirements: "For each Relic the group possesses, raise the rank required to wield or
reforge additional Relics by 2. The wielder does not lose the Relic if the requirement
increases, but a new wielder must meet the new requirement."  Soul Shield: "Reduce an
opponent's Soul Shield by the amount specified during the Declaration phase of each round of
combat."  Wielder Bonus: "While the hero carries the Relic and meets its requirement, raise
the rank of the stat shown by the amount specified.  The wielder bonus is lost if the Relic is
transferred to another hero."  (Ruling 50.)
"""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import GainRelic, WieldRelic
from companion.games.hexplore.common import current, hero_id, in_combat, in_play
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.events import RelicGained, RelicWielded, VitalsChanged
from companion.games.hexplore.state import HeroState, HexploreState, RelicState, standing

PER_RELIC = 2  # "raise the rank required ... by 2" for each Relic the group possesses


def rank(h: HeroState, stat: str) -> int:
    if stat in h.skills:
        return h.skills[stat]
    if stat in h.abilities:
        return h.abilities[stat]
    return int(getattr(h, f"max_{stat}"))


def requirement(s: HexploreState, relic: str) -> int:
    """The rank a new wielder needs: the printed one, +2 for each other Relic possessed."""
    return s.relics[relic].requirement + PER_RELIC * (len(s.relics) - 1)


def may_trade(s: HexploreState, relic: str) -> bool:
    """Outside combat always; in combat while its wielder Defends this Declaration phase."""
    if not in_combat(s):
        return True
    c = current(s)
    wielder = s.relics[relic].wielder
    held = c.declarations.get(wielder) if wielder else None
    return c.phase == "declare" and held is not None and held.action == "defend"


def wielders_for(s: HexploreState, relic: str) -> list[str]:
    """The heroes who may take up the Relic now."""
    if relic not in s.relics or not may_trade(s, relic):
        return []
    r = s.relics[relic]
    need = requirement(s, relic)
    return [
        hid
        for hid, h in s.heroes.items()
        if hid != r.wielder and in_play(h) and rank(h, r.stat) >= need
    ]


def gain_relic(d: Decision, args: GainRelic, chance: Chance, content: HexContent) -> None:
    """The group obtains (reforges, is given) a Relic; someone must then wield it."""
    s: HexploreState = d.state
    card = content.relic(args.relic)
    if card is None:
        known = ", ".join(r.title for r in content.relics()) or "none in the packs"
        raise RuleError(f"no Relic {args.relic!r} (known: {known})")
    if in_combat(s):
        raise RuleError("Relics are obtained outside combat")
    if card.slug in s.relics:
        raise RuleError(f"the group already has {card.title}")
    state = RelicState(
        name=card.title,
        stat=card.requirement_stat,
        requirement=card.requirement,
        soul_shield=card.soul_shield,
        bonus_stat=card.bonus_stat,
        bonus=card.bonus,
    )
    d.emit(RelicGained(relic=card.slug, state=state))


def wield_relic(d: Decision, args: WieldRelic, chance: Chance, content: HexContent) -> None:
    s: HexploreState = d.state
    key = args.relic
    card = content.relic(key)
    slug = card.slug if card is not None else str(key)
    if slug not in s.relics:
        held = ", ".join(r.name for r in s.relics.values()) or "none"
        raise RuleError(f"the group has no Relic {key!r} (it has: {held})")
    r = s.relics[slug]
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    if r.wielder == hid:
        raise RuleError(f"{h.name} already wields {r.name}")
    if not in_play(h):
        raise RuleError(f"{h.name} is out of the game")
    if not may_trade(s, slug):
        raise RuleError(
            f"{r.name} changes hands outside combat, or while its wielder Defends in the "
            "Declaration phase"
        )
    need = requirement(s, slug)
    if rank(h, r.stat) < need:
        raise RuleError(
            f"{h.name} needs {r.stat} {need} to wield {r.name} (has {rank(h, r.stat)}; "
            f"+{PER_RELIC} for each other Relic the group has)"
        )
    d.emit(RelicWielded(relic=slug, hero=hid, name=r.name, previous=r.wielder))


def relic_soul_shields(d: Decision) -> None:
    """During the Declaration phase: each wielded Relic whose wielder fights lowers every
    opponent's Soul Shield by its amount (never below 0)."""
    s: HexploreState = d.state
    c = current(s)
    for r in s.relics.values():
        if not r.soul_shield or not r.wielder or r.wielder not in c.heroes:
            continue
        if r.wielder in c.fled or not in_play(s.heroes[r.wielder]):
            continue
        for key, o in standing(c):
            cut = min(r.soul_shield, o.soul_shield)
            if cut:
                d.emit(VitalsChanged(who=key, soul_shield=-cut, why=f"{r.name}: Soul Shield"))
