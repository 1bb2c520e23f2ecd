"""Every Kradia command, declared in one table grouped by the part of the round it
belongs to.  Each is `command(d, args, chance, content)` in its rule area's module."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance
from companion.core.tables import Commands, Decision
from companion.games.kradia import actions, boss, extras, rounds, story
from companion.games.kradia.args import BossAttackArgs
from companion.games.kradia.state import KradiaState

if TYPE_CHECKING:
    from companion.content.pack import Content


def boss_attack(d: Decision, args: BossAttackArgs, chance: Chance, content: Content) -> None:
    boss.attack(d, chance, content)


COMMANDS: Commands[KradiaState] = Commands(
    {
        "round": {"start_round": rounds.start_round, "end_round": rounds.end_round},
        "heroes": {
            "basic_attack": actions.basic_attack,
            "charge_attack": actions.charge_attack,
            "skill": actions.skill,
            "use_item": actions.use_item,
            "pass": actions.pass_turn,
            "end_turn": actions.end_turn,
        },
        "boss": {"boss_attack": boss_attack},
        "any time": {"summon_retainer": actions.summon_retainer, "use_extra": extras.use_extra},
        "story": {"resupply": story.resupply},
    }
)
