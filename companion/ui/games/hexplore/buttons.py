"""Buttons made from the rules' legal actions: the label is the rules' words, the tap
sends the listed command as it is (its inputs already hold valid defaults)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kivy.metrics import dp

from companion.core.rules import Action
from companion.ui.games.readable import GameButton
from companion.ui.style import style

Send = Callable[[str, dict[str, object]], bool]


def action_button(
    action: Action, send: Send, refusal: Callable[[], str] | None = None, **kwargs: object
) -> GameButton:
    """A button for one listed action; `button.action` keeps it for tests and screen readers.
    Given `refusal` (the view's last refusal in words), an action with `inputs` opens a
    sheet to set them (Gold found, Health healed) before it is sent."""
    button = GameButton(text=action.get("label") or action["do"].replace("_", " "), **kwargs)
    button.action = action
    if refusal is not None and action.get("inputs"):
        from companion.ui.panels.action_sheet import open_action

        def sent(do: str, args: dict[str, object]) -> str:
            return "" if send(do, args) else refusal()

        button.sheet = None
        button.bind(on_release=lambda b: setattr(b, "sheet", open_action(b.action, sent)))
    else:
        button.bind(on_release=lambda b: send(b.action["do"], dict(b.action["with"])))
    return button


def grow_with_text(button: GameButton, least: float = 56) -> GameButton:
    """Tall enough for its wrapped words at any text size, never under `least` dp."""
    button.size_hint_y = None
    button.bind(
        texture_size=lambda b, ts: setattr(
            b, "height", max(ts[1] + dp(12), dp(least) * style.font_scale)
        )
    )
    button.height = dp(least) * style.font_scale
    return button


def listed(actions: Iterable[Action], do: str, **args: object) -> list[Action]:
    """The listed actions that send `do`, with these arguments where given."""
    return [
        a for a in actions if a["do"] == do and all(a["with"].get(k) == v for k, v in args.items())
    ]
