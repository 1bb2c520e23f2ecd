"""The table as the app mirrors it.  Plain dataclasses so the core can snapshot, correct
and print it as JSON (see SCENARIOS.md for the field names other parts rely on)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class HeroState:
    hp: int
    max_hp: int
    red_max: int
    blue_max: int
    card: str = ""  # the hero's content id
    red: int = 0
    blue: int = 0
    attack_buff: int = 0
    level: int = 1
    level3_side: str | None = None
    ailments: list[str] = field(default_factory=list)
    stunned: bool = False
    evasion: bool = False
    fading: bool = False
    retired: bool = False
    items: list[str] = field(default_factory=list)


@dataclass
class BossState:
    id: str
    hp: int
    max_hp: int
    # The attack dice on the current HP space and whether the HP is past the overdrive line
    # are read off the boss card for `hp` (effects.dice_on_space, in_overdrive), never kept
    # here, so a corrected HP always rolls the dice its own space shows.
    rage: int = 0
    rage_max: int = 1
    attack_buff: int = 0
    attack_buff_max: int = 0


@dataclass
class Held:
    """What a battlefield line that lasts the round gave one hero (or the boss), so exactly
    that is taken back "when the round is over" (and nothing the hero got otherwise)."""

    who: str  # a hero, or "boss"
    ailments: list[str] = field(default_factory=list)
    evasion: bool = False
    stun: bool = False
    attack_buff: int = 0


@dataclass
class Battlefield:
    board: str
    effect: str | None = None  # the space the marker is on, e.g. "star>moon"
    column: str | None = None
    path: list[str] = field(default_factory=list)
    face_down: list[str] = field(default_factory=list)
    face_up: list[str] = field(default_factory=list)
    sideways: str | None = None  # the card left face up by the last reset
    forbid: list[str] = field(default_factory=list)
    held: list[Held] = field(default_factory=list)  # given for this round only


@dataclass
class Hit:
    """What one attack line did to one target, and why it did less (evasion, fading)."""

    target: str
    damage: int = 0
    ailments: list[str] = field(default_factory=list)
    stunned: bool = False
    blocked: str | None = None  # evasion | fading | retired | constitution
    source: str = "chart"  # chart | overdrive | rage


@dataclass
class LastAttack:
    dice: list[int] = field(default_factory=list)
    sum: int = 0
    row: int = -1
    overdrive: bool = False
    effects: list[Hit] = field(default_factory=list)


def charge_choices(roll: int) -> list[int]:
    """Any effect of the roll's parity up to the roll: 5 -> 1, 3, 5; 4 -> 2, 4."""
    return list(range(2 - roll % 2, roll + 1, 2))


@dataclass
class ChargeRoll:
    """A Charge Attack die already rolled, waiting for the player's choice of effect."""

    hero: str
    roll: int

    @property
    def choices(self) -> list[int]:
        """Read off the roll, so a corrected roll offers its own effects."""
        return charge_choices(self.roll)


@dataclass
class KradiaState:
    mode: str
    level: int
    order: list[str]  # the four heroes, clockwise
    heroes: dict[str, HeroState]
    boss: BossState
    battlefield: Battlefield
    start_player: str
    round: int = 0
    phase: str = "battlefield"  # battlefield | heroes | boss | end | over
    turn: str | None = None
    turn_done: bool = False  # the hero acted and kept the turn open for Item cards
    acted: list[str] = field(default_factory=list)
    charge: ChargeRoll | None = None
    outcome: str | None = None  # None | boss_defeated | won | lost
    last_attack: LastAttack | None = None
    sequence: str | None = None
    defeated: list[str] = field(default_factory=list)
    item_deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    retainers: list[str] = field(default_factory=list)
    players: int = 4
    extras_used: list[str] = field(default_factory=list)  # "boss id/extra id", once-only cards
    # House rules chosen at set-up (options.HOUSE_RULES); one absent means its default.
    house: dict[str, str] = field(default_factory=dict)
