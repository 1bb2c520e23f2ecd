"""Cross-checks a schema cannot express: charts that cover every sum, charge tables 1-6,
a battlefield board with a space for every way the cards can come up, known ailments."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import TYPE_CHECKING

from companion.games.kradia.schema import (
    ACTIONS,
    AILMENTS,
    CONDITIONS,
    CURE_GROUPS,
    EXTRA_WHEN,
    LASTS,
    STATES,
    SYMBOLS,
    TARGETS,
    BattlefieldBoard,
    Boss,
    Effect,
    Hero,
)

if TYPE_CHECKING:
    from companion.content.pack import Content

Problems = Iterator[tuple[str, str]]


def _effects(item_id: str, where: str, effects: list[Effect], allowed: tuple[str, ...]) -> Problems:
    for e in effects:
        if e.target not in TARGETS:
            yield item_id, f"{where}: unknown target '{e.target}' (known: {', '.join(TARGETS)})"
        elif e.target not in allowed:
            yield (
                item_id,
                f"{where}: target '{e.target}' cannot be used here "
                f"(use one of: {', '.join(allowed)})",
            )
        for a in e.ailments:
            if a not in AILMENTS:
                yield item_id, f"{where}: unknown ailment '{a}' (known: {', '.join(AILMENTS)})"
        for c in e.cure:
            if c not in AILMENTS + CURE_GROUPS:
                yield item_id, f"{where}: cannot cure '{c}'"
        amounts = ("damage", "heal", "red", "blue", "enhance", "attack_buff", "restore")
        for field in (*amounts, "lose_red", "lose_blue"):
            if getattr(e, field) < 0:
                yield item_id, f"{where}: {field} must not be negative"
        for r in e.remove:
            if r not in STATES:
                yield item_id, f"{where}: cannot remove '{r}' (known: {', '.join(STATES)})"
        for c in (*e.only_if, *e.unless):
            if c not in CONDITIONS:
                yield item_id, f"{where}: unknown state '{c}' (known: {', '.join(CONDITIONS)})"
        if e.lasts not in LASTS:
            yield item_id, f"{where}: lasts is once or round, not '{e.lasts}'"
        if e.either:
            labels = [c.label for c in e.either]
            if len(e.either) < 2 or len(set(labels)) != len(labels):
                yield item_id, f"{where}: either needs 2 or more choices with different labels"
            if e.lasts == "round":
                yield item_id, f"{where}: an either/or line cannot last the round"
            for choice in e.either:
                yield from _effects(
                    item_id, f"{where} choice '{choice.label}'", choice.effects, allowed
                )


BOSS_SIDE = ("boss", "all", "start_player", "second", "others")
HERO_SIDE = ("self", "ally", "boss", "all", "others", "start_player", "second")
TABLE_SIDE = ("ally", "boss", "all", "start_player", "second", "others")


def _boss(b: Boss) -> Problems:
    if b.level not in (1, 2, 3, 4, "challenge"):
        yield b.id, "level must be 1, 2, 3, 4 or challenge"
    if b.hp < 1:
        yield b.id, "hp must be at least 1"
    if not b.dice or max(x.hp_at_most for x in b.dice) < b.hp:
        yield b.id, f"dice: every HP space up to {b.hp} needs a dice count"
    if any(x.dice < 1 for x in b.dice):
        yield b.id, "dice: each HP space shows at least 1 die"
    counts = [x.dice for x in b.dice] or [1]
    covered: dict[int, int] = {}
    for i, row in enumerate(b.chart):
        yield from _effects(b.id, f"chart row {i + 1}", row.effects, BOSS_SIDE)
        for n in range(row.min, row.max + 1):
            if n in covered:
                yield b.id, f"chart rows {covered[n] + 1} and {i + 1} both cover a sum of {n}"
            covered[n] = i
    for n in range(min(counts), 6 * max(counts) + 1):
        if n not in covered:
            yield b.id, f"chart: no row for a dice sum of {n}"
            break
    if b.overdrive is not None:
        yield from _effects(b.id, "overdrive", b.overdrive.effects, BOSS_SIDE)
    if b.rage.length < 1:
        yield b.id, "rage length must be at least 1"
    yield from _effects(b.id, "rage", b.rage.effects, BOSS_SIDE)
    seen: set[str] = set()
    for x in b.extra_cards:
        if x.id in seen:
            yield b.id, f"Extra card '{x.id}' twice"
        seen.add(x.id)
        if x.when not in EXTRA_WHEN:
            yield b.id, f"Extra card {x.name}: when must be one of {', '.join(EXTRA_WHEN)}"
        allowed = TABLE_SIDE if x.when == "table" else BOSS_SIDE
        yield from _effects(b.id, f"Extra card {x.name}", x.effects, allowed)


def _hero(h: Hero) -> Problems:
    for a in h.constitution:
        if a not in AILMENTS:
            yield h.id, f"constitution: unknown ailment '{a}'"
    if len(h.level3) != 2:
        yield h.id, "level3: the Level 3 Skill card has two sides (name both)"
    groups = [("skills", h.skills)] + [(f"level3 side {k}", v) for k, v in h.level3.items()]
    for where, skills in groups:
        seen = set()
        for sk in skills:
            if sk.id in seen:
                yield h.id, f"{where}: skill '{sk.id}' twice"
            seen.add(sk.id)
            for entry in sk.levels:
                if not 1 <= entry.level <= 4:
                    yield h.id, f"{where} {sk.id}: level must be 1 to 4"
                yield from _effects(h.id, f"{where} {sk.id}", entry.effects, HERO_SIDE)
    for where, slots in (("charge", h.charge), ("charge_level4", h.charge_level4)):
        rolls = sorted(s.roll for s in slots)
        if rolls != [1, 2, 3, 4, 5, 6]:
            yield h.id, f"{where}: needs exactly one entry for each roll 1 to 6"
        for s in slots:
            yield from _effects(h.id, f"{where} #{s.roll}", s.effects, HERO_SIDE)


def _board(b: BattlefieldBoard, content: Content) -> Problems:
    symbols = []
    for card in b.cards:
        c = content.find("battlefield_cards", card)
        if c is None:
            yield b.id, f"no battlefield card '{card}'"
            return
        symbols.append(c.symbol)
    if len(b.cards) != 3 or len(set(symbols)) != 3:
        yield b.id, "a Battlefield board has 3 cards with 3 different symbols"
        return
    paths = {tuple(s.path) for s in b.spaces}
    missing: list[tuple[str, ...]] = []  # each once: "sun" starts two orders
    for order in permutations(symbols):
        for n in (1, 2, 3):
            if order[:n] not in paths and order[:n] not in missing:
                missing.append(order[:n])
    if missing:  # one problem, each order once: 14 lines saying the same would bury it
        orders = "; ".join(" > ".join(path) for path in sorted(missing, key=len))
        yield b.id, f"no space for the cards coming up {orders}"
    for s in b.spaces:
        yield from _effects(b.id, f"space {'>'.join(s.path)}", s.effects, TABLE_SIDE)
        for e in s.effects:
            held = e.lasts == "round" and e.target == "boss"
            if held and any(getattr(e, a) for a in ("damage", "heal")):
                yield (
                    b.id,
                    (
                        f"space {'>'.join(s.path)}: a line aimed at the boss for the round "
                        "can only hold its Attack Buff"
                    ),
                )
        for f in s.forbid:
            if f not in ACTIONS:
                yield b.id, f"space {'>'.join(s.path)}: cannot forbid '{f}'"


def validate_content(content: Content) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for b in content.all("bosses"):
        out += _boss(b)
    for h in content.all("heroes"):
        out += _hero(h)
    for c in content.all("battlefield_cards"):
        if c.symbol not in SYMBOLS:
            out.append((c.id, f"symbol must be one of {', '.join(SYMBOLS)}"))
    for b in content.all("battlefield_boards"):
        out += _board(b, content)
    for kind in ("items", "retainers"):
        for it in content.all(kind):
            allowed = HERO_SIDE if kind == "items" else TABLE_SIDE
            out += _effects(it.id, kind[:-1], it.effects, allowed)
    for q in content.all("story_sequences"):
        if len(q.bosses) != 4:
            out.append((q.id, "a story sequence has 4 bosses, Level 1 to 4"))
        for level, boss_id in enumerate(q.bosses, 1):
            boss = content.find("bosses", boss_id)
            if boss is None:
                out.append((q.id, f"no boss '{boss_id}'"))
            elif boss.level != level:
                out.append((q.id, f"{boss_id} is Level {boss.level}, listed as Level {level}"))
    return out
