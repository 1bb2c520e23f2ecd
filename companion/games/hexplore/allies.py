"""Allies: Escorts, Summons and Influenced opponents who travel and fight with the group.

"Ally: An ally is considered to be any other member of a hero's group (for instance, other
heroes, Escorts, or Summons)."  The combat rules treat them as targets of the target dice
and of group attacks (`opponent.py`), add their action to the heroes' (`resolve.py`) and
let them fall when a combat phase ends at 0 Health (`combat.phase_end`).
"""

from __future__ import annotations

import re

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import AllyLeaves, JoinAlly
from companion.games.hexplore.common import hero, in_combat, in_play, whole
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.events import AllyJoined, AllyLeft
from companion.games.hexplore.schema import ALLY_KINDS
from companion.games.hexplore.state import OPPONENT, AllyState, HexploreState
from companion.games.hexplore.tables import MAX_DECLARED


def ally_id(s: HexploreState, name: str) -> str:
    """An id for a new ally, from its name, clear of the heroes' and other allies'."""
    base = "ally-" + (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "ally")
    aid, n = base, 2
    while aid in s.allies or aid in s.heroes or aid == OPPONENT:
        aid, n = f"{base}-{n}", n + 1
    return aid


def join_ally(d: Decision, args: JoinAlly, chance: Chance, content: HexContent) -> None:
    """An ally joins: a card of the packs (`ally`) or one read off the table (`name`,
    `health`, `attack`, `kind`).  A Summon names the hero who summons it."""
    s: HexploreState = d.state
    if in_combat(s) and s.combat is not None and s.combat.phase != "declare":
        raise RuleError("an ally joins during the Declaration phase, or outside combat")
    card = content.ally(args.ally) if args.ally else None
    if args.ally and card is None:
        known = ", ".join(a.slug for a in content.allies()) or "none"
        raise RuleError(f"no ally {args.ally!r} in the content (known: {known})")
    name = card.title if card else (args.name or "").strip()
    if not name:
        raise RuleError("name the ally (or pick one of the packs' allies)")
    kind = card.kind if card else args.kind
    if kind not in ALLY_KINDS:
        raise RuleError(f"an ally is an {', '.join(ALLY_KINDS)}, not {kind!r}")
    health = card.health if card else whole(args.health, "health", minimum=1, maximum=MAX_DECLARED)
    attack = card.attack if card else whole(args.attack, "attack", maximum=MAX_DECLARED)
    summoner = args.summoner
    if kind == "summon":
        if not summoner:
            raise RuleError("say which hero Summons it (summoner: <hero>)")
        if not in_play(hero(s, summoner)):
            raise RuleError(f"{s.heroes[summoner].name} is out of the game and summons nothing")
    elif summoner:
        raise RuleError("only a Summon has a summoner")
    if any(a.name == name for a in s.allies.values()) and card is not None:
        raise RuleError(f"{name} is already with the group")
    state = AllyState(
        name=name, kind=kind, health=health, max_health=health, attack=attack, summoner=summoner
    )
    d.emit(AllyJoined(ally=ally_id(s, name), state=state))


def ally_leaves(d: Decision, args: AllyLeaves, chance: Chance, content: HexContent) -> None:
    """An Escort delivered, a Summon dismissed, an ally gone its own way."""
    s: HexploreState = d.state
    aid = args.ally
    if aid is None or aid not in s.allies:
        names = ", ".join(f"{a.name} ({k})" for k, a in s.allies.items()) or "none"
        raise RuleError(f"no ally {aid!r} is with the group (allies: {names})")
    if in_combat(s):
        raise RuleError(f"{s.allies[aid].name} stays until the combat ends (or falls in it)")
    d.emit(AllyLeft(ally=aid, name=s.allies[aid].name, why=args.why or "left"))
