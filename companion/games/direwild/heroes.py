"""The Adventure Phase for heroes: turn order, moving, disengaging, engaging, looting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.direwild import battle, effects, movement
from companion.games.direwild import events as ev
from companion.games.direwild.args import (
    EndTurnArgs,
    MoveHeroArgs,
    PlaceHeroArgs,
    SetTurnOrderArgs,
    TakeWoundArgs,
    TargetEnemyArgs,
    UnlockArgs,
)
from companion.games.direwild.board import STAGING, BoardError
from companion.games.direwild.effects import Context, activate
from companion.games.direwild.events import POWER_NAMES
from companion.games.direwild.state import STAMINA_MIN, DirewildState, has_power, wound_pile
from companion.games.direwild.units import (
    board_of,
    check_acting,
    check_adventure,
    check_enemy,
    check_hero,
    check_turn,
    check_unlock,
    enemy_squares,
    geo_of,
    heroes_on_board,
    label,
    occupied,
    on_board_enemies,
    position,
    wound_to,
)

if TYPE_CHECKING:
    from companion.content.pack import Content


BASE_MOVE = 3
PLACEMENTS = ("ostrich", "teleport", "blink")
BLINKER = "shadowleaf"  # "Shadowleaf, Esma - If you blink and either hero is adjacent..."
# Where the rulebook names a card's move but leaves where it goes and what it costs to the
# card itself, the table is reminded to read it (issue 14: "shown to them as a prompt")
PLACED_BY_CARD = {
    "blink": "pay the magic Esma's board asks for the blink, to a square it allows (the "
    'rulebook says only: "If you blink and either hero is adjacent to an enemy, they may '
    'not take a disengagement penalty")',
    "teleport": "the Teleport Potion's card says where it may take the hero",
}


def set_turn_order(d: Decision, args: SetTurnOrderArgs) -> None:
    s = d.state
    order = args.order
    if order is None or sorted(order) != sorted(s.players):
        raise RuleError(f"the turn order must list every player once: {', '.join(s.players)}")
    check_adventure(s, "the turn order is chosen")
    if any(h.moved or h.battled or h.done for h in s.heroes.values()):
        raise RuleError("the turn order is chosen before any hero takes a turn this round")
    d.emit(ev.TurnOrderSet(order=list(order)))


def move(d: Decision, args: MoveHeroArgs, chance: Chance, content: Content) -> None:
    s = d.state
    check_adventure(s, "heroes move")
    hero = check_hero(s, args.hero)
    check_acting(s, hero)
    h = s.heroes[hero]
    if h.battled:
        raise RuleError(
            f"{hero.title()} has already battled: in the Adventure Phase a hero moves, then "
            "battles, then discards"
        )
    if h.eaten_by:
        raise RuleError(
            f"{hero.title()} is inside the {label(s, h.eaten_by, content)} and cannot "
            "move until it is defeated"
        )
    if h.moved:
        raise RuleError(f"{hero.title()} has already moved this round")
    geo = geo_of(s, content)
    board = board_of(s, content)
    to = args.to
    if to is None:
        raise RuleError("say where the hero moves, e.g. to: C4 (or staging)")
    if to.lower() != STAGING:
        try:
            to = geo.check(to, "destination")
        except BoardError as exc:
            raise RuleError(str(exc)) from None
    else:
        to = STAGING
    extra_move = args.move
    if extra_move < 0:
        raise RuleError("move (the creature's extra move) must be a whole number, 0 or more")
    start = h.position
    foes = [u for u in on_board_enemies(s) if geo.adjacent(start, position(s, u))]
    disengage = args.disengage
    if foes and to != start and not disengage:
        names = " and the ".join(label(s, u, content) for u in foes)
        raise RuleError(
            f"{hero.title()} starts next to the {names}: disengage (return a Fatal "
            "Wound to the wound pile) to move, with disengage: true"
        )
    if disengage and not foes:
        raise RuleError(
            f"{hero.title()} is not next to an enemy: there is nothing to disengage from"
        )
    if disengage and to == start:
        raise RuleError(f"{hero.title()} disengages only to move away: say where to")
    if disengage and s.fatal_wounds == 0:
        raise RuleError("there are no Fatal Wounds left to return: the hero cannot disengage")
    enemies = set(enemy_squares(s))
    heroes = {sq for name, sq in heroes_on_board(s).items() if name != hero}
    entrance = [sq.upper() for sq in board.entrance]
    path = movement.hero_route(geo, start, to, entrance, enemies, heroes)
    if path is None:
        why = (
            "an enemy stands there"
            if to in enemies
            else (
                "another hero stands there" if to in heroes else "walls and enemies block every way"
            )
        )
        raise RuleError(f"{hero.title()} cannot reach {to}: {why}")
    steps = len(path) - 1
    allowance = BASE_MOVE + extra_move
    extra = max(0, steps - allowance)
    if h.stamina - extra < STAMINA_MIN:
        raise RuleError(
            f"{to} is {steps} squares away: {hero.title()} has {allowance} move and can exert "
            f"only {max(0, h.stamina - STAMINA_MIN)} more (1 stamina per extra square)"
        )
    if disengage:
        d.emit(ev.FatalWoundReturned(why=f"{hero.title()} disengages"))
    d.emit(ev.HeroMoved(hero=hero, path=path, extra=extra))
    arrive(d, hero, to, chance, content)


def arrive(d: Decision, hero: str, to: str, chance: Chance, content: Content) -> None:
    """A hero ends up on a square: it loots a treasure token there, and idle minions next to
    it wake ("Idle minions will flip to active immediately")."""
    if to in d.state.treasures:
        d.emit(ev.TreasureLooted(hero=hero, square=to))
    geo = geo_of(d.state, content)
    ctx = Context(content, chance)
    for unit in on_board_enemies(d.state):
        e = d.state.enemies.get(unit)
        if e is not None and not e.active and geo.adjacent(to, e.position):
            activate(d, unit, ctx, f"{hero.title()} ended next to it", hero)


def place(d: Decision, args: PlaceHeroArgs, chance: Chance, content: Content) -> None:
    """A card moves the hero without its move and without the disengaging cost: the Fenton
    Ostrich's forced step (1 square, any legal direction), a Teleport Potion or Shadowleaf's
    blink (the square the card allows; the table reads the card)."""
    s = d.state
    check_adventure(s, "heroes are moved by cards")
    hero = check_hero(s, args.hero)
    check_turn(s, hero)
    how = args.how
    if how not in PLACEMENTS:
        raise RuleError(f"how must be one of {', '.join(PLACEMENTS)} (what moves the hero)")
    if how == "blink" and BLINKER not in s.heroes:
        raise RuleError("only Shadowleaf's magic blinks, and Shadowleaf is not at this table")
    h = s.heroes[hero]
    if h.eaten_by:
        raise RuleError(
            f"{hero.title()} is inside the {label(s, h.eaten_by, content)} until it is defeated"
        )
    geo = geo_of(s, content)
    try:
        to = geo.check(args.to or "", "destination")
    except BoardError as exc:
        raise RuleError(str(exc)) from None
    taken = occupied(s, but=hero)
    if to in taken:
        who = label(s, taken[to], content)
        who = who if taken[to] in s.heroes else f"the {who}"
        raise RuleError(f"{to} is taken by {who}: pick a free square")
    if to == h.position:
        raise RuleError(f"{hero.title()} is already on {to}")
    if how == "ostrich":
        if h.moved or h.battled:
            raise RuleError(
                "the Fenton Ostrich is played in the Summon Phase, before the hero moves or battles"
            )
        if to not in ostrich_steps(s, hero, content):
            raise RuleError(
                f"the Fenton Ostrich's step is 1 square in a legal direction from "
                f"{h.position}: {to} is not one"
            )
    d.emit(ev.HeroPlaced(hero=hero, path=[h.position, to], how=how))
    if how in PLACED_BY_CARD:  # the rulebook leaves it to the card: the table reads it
        d.emit(ev.Prompted(source=BLINKER if how == "blink" else hero, text=PLACED_BY_CARD[how]))
    arrive(d, hero, to, chance, content)


def ostrich_steps(s: DirewildState, hero: str, content: Content) -> list[str]:
    """The squares the Ostrich's one step can reach: orthogonal, no wall, not taken (from
    the staging area, any free entrance square)."""
    geo = geo_of(s, content)
    here = s.heroes[hero].position
    taken = occupied(s, but=hero)
    if here == STAGING:
        near = [sq.upper() for sq in board_of(s, content).entrance]
    else:
        near = [sq for _, sq in geo.steps[here] if not geo.wall_between(here, sq)]
    return [sq for sq in near if sq not in taken]


def target_enemy(d: Decision, args: TargetEnemyArgs, chance: Chance, content: Content) -> None:
    """Poison (or just target) an enemy with a card, magic or treasure: an idle minion wakes."""
    s = d.state
    check_adventure(s, "cards are played")
    hero = check_hero(s, args.hero)
    check_turn(s, hero)
    enemy = check_enemy(s, args.enemy)
    poison = args.poison
    if poison < 0:
        raise RuleError("poison must be a whole number, 0 or more")
    ctx = Context(content, chance)
    d.emit(ev.EnemyTargeted(hero=hero, enemy=enemy, poison=poison))
    if poison:
        effects.apply(d, "poison", poison, hero, enemy, ctx, f"{hero.title()}'s card")
    else:
        effects.wake(d, enemy, ctx, f"{hero.title()} targeted it", hero)


def take_wound(d: Decision, args: TakeWoundArgs, chance: Chance, content: Content) -> None:
    """A card or ability the app does not run gives a hero regular wounds: the Gryk's
    ability ("The wound you take from the Gryks ability is non-fatal"), a Rock Stoat, a
    Honey Badger ("Some creature abilities may give a hero a wound. This is always from
    the regular wound pile.").  Never a Fatal Wound; off the wound pile while it is counted."""
    s = d.state
    check_adventure(s, "wounds from cards are taken")
    hero = check_hero(s, args.hero)
    count = args.count
    if count < 1:
        raise RuleError("count (the wounds the card gives) must be a whole number, 1 or more")
    if wound_pile(s) == 0:
        raise RuleError(
            "the wound pile is empty: there is no wound card to take (correct wound_pile if "
            "the table still has some)"
        )
    wound_to(d, hero, count, "a card or ability: a regular wound, never a Fatal Wound")


def end_turn(d: Decision, args: EndTurnArgs, chance: Chance, content: Content) -> None:
    s = d.state
    check_adventure(s, "turns end")
    hero = check_hero(s, args.hero)
    check_acting(s, hero)
    channel = args.channel
    if channel and not has_power(s, "channeling"):
        raise RuleError("Channeling is still locked: destroy its locks with Charm first")
    if channel and s.heroes[hero].battled:
        raise RuleError(
            f"{hero.title()} battled this turn: Channeling is for a hero who chose not to battle"
        )
    finish(d, hero, chance, content)
    if channel:
        d.emit(ev.Channeled(hero=hero))


def finish(d: Decision, hero: str, chance: Chance, content: Content) -> None:
    """A hero's turn ends: adjacent enemies it did not battle win, the Chuddle digests."""
    h = d.state.heroes[hero]
    if h.done:
        raise RuleError(f"{hero.title()} has already ended this turn")
    ctx = Context(content, chance)
    battle.automatic_wins(d, hero, ctx)
    if d.state.heroes[hero].eaten_by:
        wound_to(d, hero, 1, f"{hero.title()} is being digested")
    d.emit(ev.TurnEnded(hero=hero))


def unlock(d: Decision, args: UnlockArgs, chance: Chance, content: Content) -> None:
    """The table opened a lock stack with Charm: Veteran or the Advanced Creatures."""
    power = args.power
    if power not in POWER_NAMES:
        raise RuleError(
            "unlock names a power: advanced (Advanced Creatures), channeling, reflexes "
            "(Heightened Reflexes) or veteran (d6 in battle)"
        )
    check_unlock(d.state, power)
    d.emit(ev.PowerUnlocked(power=power))
