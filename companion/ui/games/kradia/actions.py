"""The action picker: only what the rules allow now is enabled, and a tap sends the command.

Skills and items that aim at a hero first ask "for whom?" with one button per hero.  The
disabled buttons say why in the message line when the rules have a reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout

from companion.core.rules import RuleError
from companion.games.kradia.effects import dice_on_space, hero_card
from companion.games.kradia.turns import available_skills, blocked
from companion.ui.games.readable import GameButton

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class CommandButton(GameButton):
    """A button that carries the command it sends."""

    def __init__(self, command: str, args: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.command = command
        self.args = args


class ActionPicker(BoxLayout):
    session: Any = None
    aiming: tuple[str, dict[str, Any]] | None = None
    sides: dict[str, str] | None = None  # Level 3 card sides chosen so far, per hero

    def show(self, session: Any, view: Any = None, refusal: str = "") -> None:
        self.session = session
        self.ids.message.text = refusal  # a refusal, else the rules' reason a button is off
        self.ids.buttons.clear_widgets()
        for button in self._buttons(session.state, session.content):
            button.bind(on_release=self._pressed)
            self.ids.buttons.add_widget(button)

    def _pressed(self, button: CommandButton) -> None:
        if button.command == "side":
            hero, names = button.args["hero"], button.args["names"]
            current = (self.sides or {}).get(hero, names[0])
            self.sides = {
                **(self.sides or {}),
                hero: names[(names.index(current) + 1) % len(names)],
            }
            self.show(self.session)
            return
        if button.command == "aim-cancel":
            self.aiming = None
            self.show(self.session)
            return
        if button.command == "aim":
            self.aiming = (button.args["command"], button.args["args"])
            self.show(self.session)
            return
        self.aiming = None
        if button.command == "resupply":
            self.sides = None
        self.send(button.command, button.args)

    def send(self, name: str, args: dict[str, Any]) -> None:
        try:
            self.session.do(name, args)
        except RuleError as exc:
            self.show(self.session, refusal=exc.message)
            return
        parent = self.parent
        while parent is not None and not hasattr(parent, "refresh"):
            parent = parent.parent
        (parent.refresh if parent is not None else lambda: self.show(self.session))()

    # -- what to offer -------------------------------------------------------------------

    def _buttons(self, s: Any, content: Any) -> list[CommandButton]:
        req = self.session.request
        prompt = self.ids.prompt
        if req is not None:
            prompt.text = f"Waiting for the table: {req.describe()}"
            return []
        if s.outcome == "boss_defeated" and s.mode == "story":
            prompt.text = "Resupply, then the next boss"
            return self._resupply(s, content)
        if s.outcome:
            prompt.text = "The game is over" if s.outcome in ("won", "lost") else ""
            return []
        if self.aiming is not None:
            return self._aim(s)
        extra = self._retainers(s, content)
        if s.phase == "battlefield":
            prompt.text = "The Start Player reveals a Battlefield card"
            return [CommandButton("start_round", {}, text=f"Start round {s.round + 1}"), *extra]
        if s.phase == "boss":
            prompt.text = "The Start Player rolls the boss's dice"
            dice = dice_on_space(content.get("bosses", s.boss.id), s.boss.hp)
            return [CommandButton("boss_attack", {}, text=f"Boss attacks ({dice} dice)"), *extra]
        if s.phase == "end":
            prompt.text = "Pass the First Player token"
            return [CommandButton("end_round", {}, text="End round"), *extra]
        return self._turn(s, content) + extra

    def _aim(self, s: Any) -> list[CommandButton]:
        assert self.aiming is not None
        command, args = self.aiming
        self.ids.prompt.text = "For which hero?"
        out = [CommandButton(command, {**args, "target": h}, text=h.title()) for h in s.order]
        return [*out, CommandButton("aim-cancel", {}, text="Cancel")]

    def _turn(self, s: Any, content: Any) -> list[CommandButton]:
        hero = s.turn
        name = hero_card(content, s, hero).title
        h = s.heroes[hero]
        closed = blocked(content, s, hero)
        # A hero holding Item cards keeps the turn open after the action, to use them then.
        keep = {"end_turn": False} if h.items else {}
        items = [self._item(content, hero, item, closed) for item in dict.fromkeys(h.items)]
        self.ids.prompt.text = f"{name}'s turn"
        if s.turn_done:
            self.ids.prompt.text = f"{name}: use Item cards, or end the turn"
            return [*items, CommandButton("end_turn", {"hero": hero}, text="End turn")]
        if s.charge is not None:
            self.ids.prompt.text = f"{name} rolled {s.charge.roll}: choose the Charge Attack"
            choices = [
                CommandButton("charge_attack", {"hero": hero, "effect": c, **keep}, text=f"#{c}")
                for c in s.charge.choices
            ]
            return [*choices, *items]
        out = [
            CommandButton(
                "basic_attack",
                {"hero": hero, **keep},
                text="Basic Attack",
                disabled="basic_attack" in closed,
            ),
            CommandButton(
                "charge_attack",
                {"hero": hero},
                text="Charge Attack",
                disabled="charge_attack" in closed,
            ),
        ]
        skill_closed = closed.get("skill")
        for sid, entry in available_skills(content, s, hero).items():
            can = h.red >= entry.red and h.blue >= entry.blue
            out.append(
                self._maybe_aim(
                    "skill",
                    {"hero": hero, "skill": sid, **keep},
                    entry.effects,
                    text=f"{sid.replace('-', ' ').title()} ({entry.red} red, {entry.blue} blue)",
                    disabled=bool(skill_closed and not skill_closed.endswith("for any skill"))
                    or not can,
                )
            )
        able = all(a in closed for a in ("basic_attack", "charge_attack", "skill"))
        out += items
        out.append(CommandButton("pass", {"hero": hero}, text="Pass", disabled=not able))
        reasons = sorted(set(closed.values()))
        if reasons and not self.ids.message.text:
            self.ids.message.text = "; ".join(reasons)
        return out

    def _item(self, content: Any, hero: str, item: str, closed: dict[str, str]) -> Any:
        card = content.get("items", item)
        return self._maybe_aim(
            "use_item",
            {"hero": hero, "item": item},
            card.effects,
            text=f"Item: {card.title}",
            disabled="item" in closed,
        )

    @staticmethod
    def _maybe_aim(command: str, args: dict[str, Any], effects: list[Any], **kw: Any) -> Any:
        if any(e.target == "ally" for e in effects):
            return CommandButton("aim", {"command": command, "args": args}, **kw)
        return CommandButton(command, args, **kw)

    def _resupply(self, s: Any, content: Any) -> list[CommandButton]:
        if s.level + 1 != 3:
            return [CommandButton("resupply", {}, text=f"Resupply (to Level {s.level + 1})")]
        # Reaching Level 3: tap a hero to turn their Level 3 Skill card to the other side.
        out, sides = [], {}
        for h in s.order:
            card = hero_card(content, s, h)
            names = list(card.level3)
            sides[h] = (self.sides or {}).get(h, names[0])
            out.append(
                CommandButton(
                    "side", {"hero": h, "names": names}, text=f"{card.title}: {sides[h].title()}"
                )
            )
        out.append(CommandButton("resupply", {"level3": sides}, text="Resupply to Level 3"))
        return out

    def _retainers(self, s: Any, content: Any) -> list[CommandButton]:
        """Retainer cards, summoned when the players agree (the button is their agreement)."""
        out = []
        for rid in s.retainers:
            card = content.get("retainers", rid)
            out.append(
                self._maybe_aim(
                    "summon_retainer",
                    {"retainer": rid, "votes": s.players},
                    card.effects,
                    text=f"Retainer: {card.title}",
                )
            )
        return out
