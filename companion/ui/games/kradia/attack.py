"""The boss attack walk-through: the dice, the sum, the chart row it picks, and who took
what and why not (evasion, Fading, constitution)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout

from companion.content.pack import Content
from companion.games.kradia.view import Effect
from companion.ui.games.kradia.cells import Cell, fit

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TARGET_WORDS = {
    "start_player": "Start Player",
    "all": "all heroes",
    "second": "[2nd]",
    "others": "[etc] (the 3 without the token)",
    "boss": "boss",
}


def effect_words(e: Effect) -> str:
    parts = []
    if e.damage:
        parts.append(f"-{e.damage}")
    if e.heal:
        parts.append(f"+{e.heal} HP")
    if e.attack_buff:
        parts.append(f"attack buff +{e.attack_buff}")
    parts += e.ailments
    if e.stun:
        parts.append("stun")
    return f"{TARGET_WORDS.get(e.target, e.target)}: {' '.join(parts) or e.text or '-'}"


def hit_words(hit: dict[str, Any]) -> str:
    who = hit["target"].title()
    if hit["blocked"] in ("fading", "retired"):
        return f"{who} is {hit['blocked']}: no effect"
    parts = []
    if hit["damage"]:
        parts.append(f"takes {hit['damage']}")
    if hit["blocked"] == "evasion":
        parts.append("evades the damage")
    parts += [f"suffers {a}" for a in hit["ailments"]]
    if hit["blocked"] == "constitution":
        parts.append("ignores an ailment (constitution)")
    if hit["stunned"]:
        parts.append("is stunned")
    src = "" if hit["source"] == "chart" else f" ({hit['source']})"
    return f"{who} {', '.join(parts) or 'is unharmed'}{src}"


def chart_row(text: str, tone: str) -> Cell:
    """A row of the boss's chart; it wraps and grows, so a long row is read, not cut."""
    cell: Cell = fit(Cell(text=text, tone=tone, halign="left"))
    return cell


class AttackPanel(BoxLayout):
    def show(self, data: dict[str, Any], content: Content) -> None:
        boss = content.get("bosses", data["boss"]["id"])
        last = data.get("last_attack")
        rows = self.ids.rows
        rows.clear_widgets()
        chosen = last["row"] if last else -1
        for i, row in enumerate(boss.chart):
            text = f"{row.min}-{row.max}:  " + ";  ".join(effect_words(e) for e in row.effects)
            rows.add_widget(chart_row(text, "marker" if i == chosen else "plain"))
        if boss.overdrive:
            text = f"Overdrive at {boss.overdrive.hp_at_most} HP or less:  " + ";  ".join(
                effect_words(e) for e in boss.overdrive.effects
            )
            rows.add_widget(chart_row(text, "overdrive" if last and last["overdrive"] else "dim"))
        if last is None:
            self.ids.title.text = "Boss attack: not yet"
            self.ids.hits.text = ""
            return
        dice = " + ".join(map(str, last["dice"]))
        self.ids.title.text = f"Boss rolled {dice} = {last['sum']}"
        self.ids.hits.text = "\n".join(hit_words(h) for h in last["effects"]) or "No hero hit."
