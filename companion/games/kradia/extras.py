"""A boss's Extra cards ("Some bosses will have additional cards called "Extra" cards").

The rulebook says only that they exist and belong to their boss; what each does is printed
on the card.  A card that names its moment (the start of the battle or of each round, after
the boss's attack or its Rage effect) is resolved by the app then; one that leaves the
moment to the table (`when: table`) is offered among what may be done now, and the players
resolve it when the card says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.kradia.actions import check_target
from companion.games.kradia.args import UseExtraArgs
from companion.games.kradia.effects import apply_effects, boss_card
from companion.games.kradia.events import ExtraCardResolved, HitRecorded
from companion.games.kradia.schema import ExtraCard
from companion.games.kradia.state import KradiaState

if TYPE_CHECKING:
    from companion.content.pack import Content


def key(s: KradiaState, extra: ExtraCard) -> str:
    return f"{s.boss.id}/{extra.id}"


def in_play(s: KradiaState, content: Content, when: str | None = None) -> list[ExtraCard]:
    """The boss's Extra cards still beside its board (a once-only card goes when used)."""
    return [
        x
        for x in boss_card(content, s).extra_cards
        if key(s, x) not in s.extras_used and (when is None or x.when == when)
    ]


def _resolve(
    d: Decision,
    content: Content,
    extra: ExtraCard,
    chance: Chance,
    chosen: str | None = None,
    record: bool = False,
) -> None:
    s = d.state
    d.emit(ExtraCardResolved(boss=s.boss.id, extra=extra.id, name=extra.name, once=extra.once))
    hits = apply_effects(
        d,
        content,
        extra.effects,
        actor=None,
        chosen=chosen,
        why=f"Extra card {extra.name}",
        source="extra",
        chance=chance,
    )
    if record:
        for hit in hits:
            d.emit(HitRecorded(hit=hit))


def at(d: Decision, content: Content, when: str, chance: Chance) -> None:
    """Resolve the boss's Extra cards that name this moment, in the order printed."""
    for extra in in_play(d.state, content, when):
        if d.state.outcome:
            return
        _resolve(d, content, extra, chance, record=when in ("boss_attack", "rage"))


def use_extra(d: Decision, args: UseExtraArgs, chance: Chance, content: Content) -> None:
    """The players resolve an Extra card whose moment the card itself names."""
    s = d.state
    boss = boss_card(content, s)
    wanted = args.extra
    cards = {x.id: x for x in boss.extra_cards}
    if wanted not in cards:
        known = ", ".join(x.name for x in boss.extra_cards) or "none"
        raise RuleError(f"{boss.title} has no Extra card '{wanted}' (its Extra cards: {known})")
    extra = cards[wanted]
    if extra.when != "table":
        raise RuleError(
            f"{extra.name} resolves by itself ({extra.when.replace('_', ' ')}): "
            "the app applies it then"
        )
    if key(s, extra) in s.extras_used:
        raise RuleError(f"{extra.name} has been used and discarded")
    chosen = check_target(s, extra.effects, args.target)
    _resolve(d, content, extra, chance, chosen)
