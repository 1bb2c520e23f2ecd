"""The result card's headline rows: a drawn symbol and the rules' news in large type.

Why: the table reads what a step did from across the table (issue 25), like a monster's
ability card in X-Haven: who won or lost, the damage and to whom, what moved.  The rules
say the news as data (`companion.core.headline.Headline`); this draws it.  The symbol is a
shape per kind (a star for a win, a cross for a loss, a burst for damage, a plus for
healing, an arrow for a move, a card, a die), so no news is told by colour alone, and the
words say it too.  The type is 1.5 times the card's body text.
"""

from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Line
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.core.headline import Headline
from companion.ui.style import style

BODY_SP = 24  # the card's detail lines (result.kv's lines_text)
HEADLINE_SP = BODY_SP * 1.5  # the headline: at least 1.5x the body, readable at arm's length


class HeadlineSymbol(Widget):
    """The news's kind as a shape, drawn in the theme's colours."""

    kind = StringProperty("step")
    tint = ListProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        # the card that holds it rebuilds its rows when the theme or text size changes
        self.bind(pos=self._draw, size=self._draw, kind=self._draw, tint=self._draw)
        self._draw()

    def colour(self) -> list[float]:
        """A win or healing in the theme's ok colour, a loss or damage in its warning
        colour, the rest in the text's; the shape says which, the colour only helps."""
        if self.kind in ("win", "heal"):
            return list(style.ok)
        if self.kind in ("loss", "damage"):
            return list(style.warn)
        if self.kind == "move":
            return list(style.accent)
        return list(style.fg)

    def _draw(self, *_args: object) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        if side <= 0:
            return
        cx, cy, r = self.center_x, self.center_y, side * 0.45
        w = max(dp(2.5), side / 12)
        with self.canvas:
            Color(*self.colour())
            # "draw" is the widget's own redraw: a card drawn is the `_card` shape
            shape = getattr(self, "_" + {"draw": "card"}.get(self.kind, self.kind), self._step)
            shape(cx, cy, r, w)

    @staticmethod
    def _star(cx: float, cy: float, r: float, inner: float, points: int) -> list[float]:
        out: list[float] = []
        for n in range(points * 2):
            radius = r if n % 2 == 0 else r * inner
            angle = math.pi / 2 + n * math.pi / points
            out += [cx + radius * math.cos(angle), cy + radius * math.sin(angle)]
        return out

    def _win(self, cx: float, cy: float, r: float, w: float) -> None:
        Line(points=self._star(cx, cy, r, 0.45, 5), close=True, width=w, joint="round")

    def _loss(self, cx: float, cy: float, r: float, w: float) -> None:
        d = r * 0.75
        Line(points=[cx - d, cy - d, cx + d, cy + d], width=w * 1.3, cap="round")
        Line(points=[cx - d, cy + d, cx + d, cy - d], width=w * 1.3, cap="round")

    def _damage(self, cx: float, cy: float, r: float, w: float) -> None:
        Line(points=self._star(cx, cy, r, 0.6, 8), close=True, width=w, joint="round")
        Ellipse(pos=(cx - r * 0.2, cy - r * 0.2), size=(r * 0.4, r * 0.4))

    def _heal(self, cx: float, cy: float, r: float, w: float) -> None:
        d = r * 0.8
        Line(points=[cx - d, cy, cx + d, cy], width=w * 1.5)
        Line(points=[cx, cy - d, cx, cy + d], width=w * 1.5)

    def _move(self, cx: float, cy: float, r: float, w: float) -> None:
        d = r * 0.85
        Line(points=[cx - d, cy, cx + d, cy], width=w * 1.3, cap="round")
        Line(
            points=[cx + d * 0.3, cy + d * 0.6, cx + d, cy, cx + d * 0.3, cy - d * 0.6],
            width=w * 1.3,
            cap="round",
            joint="round",
        )

    def _card(self, cx: float, cy: float, r: float, w: float) -> None:
        Line(rounded_rectangle=(cx - r * 0.6, cy - r * 0.9, r * 1.2, r * 1.8, r * 0.2), width=w)
        Line(points=[cx - r * 0.3, cy + r * 0.4, cx + r * 0.3, cy + r * 0.4], width=w * 0.7)

    def _roll(self, cx: float, cy: float, r: float, w: float) -> None:
        d = r * 0.85
        Line(rounded_rectangle=(cx - d, cy - d, 2 * d, 2 * d, d * 0.25), width=w)
        pip = r * 0.28
        for k in (-0.45, 0.0, 0.45):
            Ellipse(pos=(cx + k * d * 1.2 - pip / 2, cy - k * d * 1.2 - pip / 2), size=(pip, pip))

    def _step(self, cx: float, cy: float, r: float, w: float) -> None:
        Line(circle=(cx, cy, r * 0.8), width=w)
        Ellipse(pos=(cx - r * 0.25, cy - r * 0.25), size=(r * 0.5, r * 0.5))


SYMBOL = 1.3  # the symbol's side, in the headline's type size
SPACING_DP = 12  # between the symbol and the words
MIN_LETTERS = 12  # a headline's line holds at least this many letters
# and on a card as narrow as a phone's, this many: at the Largest text a five-line
# headline left the game below the card a sliver (issue 25); still the tablet's Normal size
NARROW_LETTERS = 16
NARROW_DP = 480  # a card narrower than this is a phone's
LETTER = 0.55  # a letter's width in the type's size, about (Roboto, bold and regular)


def headline_size(headlines: list[Headline], width: float, font_name: str) -> float:
    """The headline's type size: 1.5x the body at the text size chosen, or smaller where
    a row `width` wide could not hold a headline's longest word beside its symbol (a
    phone at the Largest text broke "vanqu/ished"); the card then sets its body text
    smaller too, so the headline stays 1.5x the body."""
    from kivy.core.text import Label as CoreLabel

    size = sp(HEADLINE_SP) * style.font_scale
    room = width - dp(SPACING_DP)
    # and a dozen letters a line at least: on a phone at the Largest text a headline
    # took four lines of one or two words, and the card was taller than the window's half
    letters = NARROW_LETTERS if width < dp(NARROW_DP) else MIN_LETTERS
    size = min(size, room / (SYMBOL + letters * LETTER))
    for headline in headlines:
        for bold, words in ((True, headline.subject), (not headline.subject, headline.words)):
            core = CoreLabel(font_size=100, font_name=font_name, bold=bold)
            for word in words.split():
                per = core.get_extents(word)[0] / 100  # the word's width per unit of size
                # the word and the symbol beside it, in `room`, with a pixel to spare
                size = min(size, (room - 2) / (per + SYMBOL))
    return float(max(size, sp(12)))


class HeadlineRow(BoxLayout):
    """One headline: its symbol, then who it is about in bold and what happened."""

    kind = StringProperty("step")
    words = StringProperty("")

    def __init__(self, headline: Headline, font_size: float = 0, **kwargs: object) -> None:
        super().__init__(
            orientation="horizontal", size_hint_y=None, spacing=dp(SPACING_DP), **kwargs
        )
        self.kind, self.headline = headline.kind, headline
        self.font_size = font_size  # 0: 1.5x the body at the text size chosen
        subject = escape_markup(headline.subject)
        rest = escape_markup(headline.words)
        self.words = f"[b]{subject}[/b] {rest}" if subject else f"[b]{rest}[/b]"
        # beside the first line of the words, however many lines they wrap to
        self.symbol = HeadlineSymbol(
            kind=headline.kind, size_hint=(None, None), pos_hint={"top": 1}
        )
        self.label = Label(
            text=self.words,
            markup=True,
            halign="left",
            valign="middle",
            size_hint_y=None,
        )
        self.add_widget(self.symbol)
        self.add_widget(self.label)
        self.label.bind(width=self._fit, texture_size=self._fit)
        self._fit()

    def _fit(self, *_args: object) -> None:
        size = self.font_size or sp(HEADLINE_SP) * style.font_scale
        self.label.font_size = size
        self.label.color = style.fg
        self.label.text_size = (self.label.width, None)
        self.symbol.size = (size * SYMBOL, size * SYMBOL)
        self.symbol.tint = self.symbol.colour()
        self.label.height = max(self.label.texture_size[1], size * SYMBOL)
        self.height = self.label.height
