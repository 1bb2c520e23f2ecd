"""Which of Direwild's events are news, and how the result card's headline says them.

Why: after a battle the table wants "Stormbringer loses to the Red minion" at a glance,
not on line 5 of the battle's ten.  The events hold ids and numbers; the words are here,
beside each event type (core/headline.py ranks them: a win or loss, then damage, moves).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.core.headline import Headline
from companion.core.rules import Request
from companion.games.direwild import events as ev
from companion.games.direwild.text import name, short

EVENTS = ev.EVENTS


def _battle(e: ev.BattleResolved) -> Headline:
    won = e.winner == "hero"
    versus = f"{e.hero_total} to {e.enemy_total}"
    return Headline(
        "win" if won else "loss",
        name(e.hero),
        f"{'beats' if won else 'loses to'} the {name(e.enemy)}, {versus}"
        + (" (critical hit)" if e.critical else ""),
        e.hero_total,
    )


def _treasure_monster(e: ev.TreasureMonsterBattled) -> Headline:
    won = e.winner == "hero"
    return Headline(
        "win" if won else "loss",
        name(e.hero),
        f"{'beats' if won else 'loses to'} the Treasure Monster, "
        f"{e.hero_total} to {e.monster_total}",
        e.hero_total,
    )


def _round_ended(e: ev.RoundEnded) -> Headline | None:
    if e.outcome in ("won", "chapter_won"):
        return Headline("win", "The heroes", ev.ROUND_ENDINGS[e.outcome].split(": ")[-1])
    if e.outcome == "lost":
        return Headline("loss", "The heroes", "are defeated: no Fatal Wounds are left")
    return None


def _wound(e: ev.WoundTaken) -> Headline:
    if e.fatal:
        return Headline("damage", name(e.hero), "takes a Fatal Wound", 1)
    return Headline(
        "damage", name(e.hero), f"takes {e.count} wound{'s' if e.count != 1 else ''}", e.count
    )


def _enemy_moved(e: ev.EnemyMoved) -> Headline | None:
    n = len(e.path) - 1
    if e.mode == "teleport":
        return Headline("move", name(e.unit), f"teleports to {e.path[-1]}")
    if n == 0:
        return None
    return Headline("move", name(e.unit), f"moves to {e.path[-1]}", n)


EVENTS.tell(ev.BattleResolved, _battle)
EVENTS.tell(ev.TreasureMonsterBattled, _treasure_monster)
EVENTS.tell(
    ev.TreasureMonsterLost,
    lambda e: Headline("loss", name(e.hero), "loses to a Treasure Monster (no roll)"),
)
EVENTS.tell(
    ev.AutomaticWin,
    lambda e: Headline("loss", name(e.hero), f"loses to the {name(e.enemy)} automatically"),
)
EVENTS.tell(ev.RoundEnded, _round_ended)
# a chapter and each round open a new part of the log
EVENTS.headings(ev.ChapterStarted, ev.RoundStarted)
EVENTS.tell(ev.KarnDefeated, lambda e: Headline("win", name(e.hero), "defeats Karn!"))
EVENTS.tell(ev.EnemyDefeated, lambda e: Headline("win", f"The {name(e.enemy)}", "is defeated"))
EVENTS.tell(
    ev.DamageDealt,
    lambda e: Headline(
        "damage", f"The {name(e.enemy)}", f"takes 1 damage from {name(e.colour)}", 1
    ),
)
EVENTS.tell(ev.WoundTaken, _wound)
EVENTS.tell(ev.HeroEaten, lambda e: Headline("loss", name(e.hero), f"is eaten by the {name(e.by)}"))
EVENTS.tell(
    ev.FatalWoundReturned, lambda e: Headline("heal", "A Fatal Wound", "goes back to the pile")
)
EVENTS.tell(
    ev.HeroMoved,
    lambda e: Headline("move", name(e.hero), f"moves to {e.path[-1]}", len(e.path) - 1),
)
EVENTS.tell(ev.HeroPlaced, lambda e: Headline("move", name(e.hero), f"goes to {e.path[-1]}"))
EVENTS.tell(
    ev.UnitPushed,
    lambda e: Headline("move", name(e.unit), f"is knocked back to {e.path[-1]}"),
)
EVENTS.tell(ev.EnemyMoved, _enemy_moved)
EVENTS.tell(ev.KarnArrived, lambda e: Headline("move", "Karn", f"arrives at {e.position}"))
EVENTS.tell(
    ev.AiCardRevealed,
    lambda e: Headline("draw", "Enemy AI card:", e.name or short(e.card)),
)
EVENTS.tell(
    ev.MinionsPlaced,
    lambda e: Headline(
        "draw",
        "Minions:",
        ", ".join(f"{short(v.minion)} at {v.position}" for v in e.slots.values()),
    ),
)


def answer_words(request: Request, values: object, names: Mapping[str, str]) -> str | None:
    """What a card drawn was, said as the rulebook has it drawn ("Reveal Enemy AI card": "The
    1st player flips the top card in the Enemy AI deck"; the minions are the table's)."""
    if request.kind != "draw" or request.choice:
        return None
    card = names.get(str(values), short(str(values)))
    if request.role == "ai_card":
        return f"The first player, {request.who_name}, flips {card} from the Enemy AI deck"
    if request.role == "minion":
        return f"The table draws the minion {card}"
    return None


def answer_headline(request: Request, values: object, names: Mapping[str, str]) -> Headline | None:
    """A roll's headline: the hero's battle die, the Treasure Monster's dice."""
    if request.kind != "dice":
        return None
    shown = ", ".join(str(v) for v in values) if isinstance(values, list) else str(values)
    total = sum(values) if isinstance(values, list) else None
    if request.role == "battle":
        return Headline("roll", request.who_name, f"rolls {shown} for the battle", total)
    if request.role == "monster":
        return Headline("roll", "The Treasure Monster", f"rolls {shown}", total)
    return None
