"""Which of Kradia's events are news, and how the result card's headline says them.

Why: after the boss attacks, the table wants "<the boss> hits <the hero> for 4" and the
hero it laid low at a glance, not the chart row first.  The events hold ids and numbers;
the words are here, beside each event type (core/headline.py ranks them: the boss
defeated or the heroes lost first, then damage, then the rest).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.core.headline import Headline
from companion.core.rules import Request
from companion.games.kradia import events as ev

EVENTS = ev.EVENTS


def _who(hero: str) -> str:
    return ev._who(hero)


def _boss(name: str) -> str:
    return ev._boss(name)


EVENTS.tell(
    ev.HeroDamaged,
    lambda e: Headline("damage", _who(e.hero), f"\u2212{e.amount} HP", e.amount),
)
EVENTS.tell(
    ev.BossDamaged,
    lambda e: Headline("damage", _boss(e.name), f"\u2212{e.amount} HP", e.amount),
)
EVENTS.tell(
    ev.HeroHealed,
    lambda e: Headline("heal", _who(e.hero), f"+{e.amount} HP", e.amount),
)
EVENTS.tell(
    ev.BossHealed,
    lambda e: Headline("heal", _boss(e.name), f"+{e.amount} HP", e.amount),
)
EVENTS.tell(ev.HeroFaded, lambda e: Headline("loss", _who(e.hero), "is Fading"))
EVENTS.tell(ev.HeroRetired, lambda e: Headline("loss", _who(e.hero), "retires from the battle"))
EVENTS.tell(
    ev.BossDefeated,
    lambda e: Headline(
        "win",
        ev._card(e.boss),
        "is defeated: the heroes win the game!" if e.outcome == "won" else "is defeated!",
    ),
)
EVENTS.tell(
    ev.GameLost,
    lambda e: Headline("loss", "The heroes", "have lost: every hero is Fading or retired"),
)
EVENTS.tell(
    ev.BossAttacked,
    lambda e: Headline(
        "roll",
        _boss(e.name),
        f"attacks: {' + '.join(map(str, e.dice))} = {e.sum}"
        + (", Overdrive!" if e.overdrive else ""),
        e.sum,
    ),
)
EVENTS.tell(
    ev.RageUnleashed,
    lambda e: Headline("damage", _boss(e.name), "unleashes its rage"),
)
EVENTS.tell(
    ev.BattlefieldCardRevealed,
    lambda e: Headline("draw", "Battlefield:", e.symbol.title()),
)
EVENTS.tell(
    ev.DamageEvaded,
    lambda e: Headline("heal", _who(e.hero), f"evades {e.amount} damage", e.amount),
)


def answer_words(request: Request, values: object, names: Mapping[str, str]) -> str | None:
    """A Battlefield card is revealed by the Start Player ("At the beginning of every
    round, the Start Player chooses a face down Battlefield card and flips it face up"):
    said so, not as a card the hero drew into a hand."""
    if request.kind == "draw" and request.role == "battlefield":
        card = names.get(str(values), str(values))
        return f"The Start Player, {request.who_name}, flips the Battlefield card {card}"
    return None


EVENTS.tell(
    ev.ChargeRolled,
    lambda e: Headline(
        "roll",
        _who(e.hero),
        f"rolls {e.roll} for a Charge Attack: choose " + " or ".join(f"#{c}" for c in e.choices),
        e.roll,
    ),
)
EVENTS.tell(
    ev.SkillUsed,
    lambda e: Headline("step", _who(e.hero), f"uses {e.skill.replace('-', ' ').title()}"),
)
# each round and each hero's turn open a new part of the log
EVENTS.headings(ev.RoundStarted, ev.TurnStarted)
