"""The result card: what the last step did, at the top of the game, in large type.

Why: after the boss attacks or the enemy moves, the whole table wants to read what just
happened without scrolling or opening the log.  The card shows the session's last step in
the rules' own words (`Session.last_step`), with Undo on it, until the next step replaces
it.  It renders; it never decides anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.core.headline import Headline
from companion.ui.panels.headline import HeadlineRow
from companion.ui.style import style
from companion.ui.widgets import BigButton, text_width

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

MAX_LINES = 8  # beyond this the card says how many more the log holds


class OfferButton(BigButton):
    """The offer to check a card.  Put away, it has no width but keeps its height: it lets
    every touch through then (a disabled button would swallow them, Undo's among them)."""

    offered = BooleanProperty(False)
    text_width = staticmethod(text_width)

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.offered and super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.offered and super().on_touch_up(touch))


class ResultCard(BoxLayout):
    title = StringProperty("")
    text = StringProperty("")
    shown = BooleanProperty(False)
    # the most height the frame leaves the card (0: a third of the window); its lines
    # scroll inside it beyond that, so a game's board below it stays whole on screen
    most = NumericProperty(0)
    least = NumericProperty(0)  # the height of the title and the lines' least room
    # the first card of the step whose numbers are still the demo's (none: "")
    check_id = StringProperty("")
    check_words = StringProperty("")
    narrow = BooleanProperty(False)  # the offer beside the title would squeeze it
    # the step's news from the rules, most important first (core/headline.py)
    headlines = ListProperty([])
    # a roll or card is asked for: the headline stays, the detail lines give their room
    # to the keypad or the cards (they are in the Log, and back once it is answered)
    asked = BooleanProperty(False)
    title_in_news = BooleanProperty(False)
    # with a headline above them, the detail lines take a few lines' height and scroll
    # (0: no cap): the card stays as tall as it was before it had a headline, so the game
    # below it keeps its room; a card with the whole side to itself shows them all
    lines_most = NumericProperty(0)
    DETAIL_LINES = 2.2
    # at the largest text sizes a card sharing the screen with the game shows the headline
    # alone, in the title's place: its lines of news take what the title and the details
    # took (both are in the Log)
    lines_hidden = BooleanProperty(False)
    LARGE_TEXT = 1.5  # the step is its own headline: no title above it
    NEWS_SHARE = 0.6  # of the card's most height: the headlines' room, the lines get the rest

    _news_width = 0.0  # the width the rows were fitted to (a new height needs no refit)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from companion.ui.style import style

        # the rows are made once per frame at most, however many of their inputs changed
        # (the step, the size, the room the frame gives, a roll asked for)
        self._news_trigger = Clock.create_trigger(self._make_news, -1)
        # the rows are drawn in the theme's colours at the text size: made again on a change
        style.bind(font_scale=self._refit_news, fg=self._refit_news)

    def _refit_news(self, *_args: Any) -> None:
        self._news_width = -1.0
        self._fit_news()

    def on_size(self, *_args: Any) -> None:
        self._fit_offer()
        if self.width != self._news_width:
            self._fit_news()

    def on_most(self, *_args: Any) -> None:
        self._fit_news()

    def on_headlines(self, *_args: Any) -> None:
        self._fit_news()

    def on_asked(self, *_args: Any) -> None:
        self._fit_news()

    def _fit_news(self, *_args: Any) -> None:
        trigger = getattr(self, "_news_trigger", None)  # none yet while kv builds the card
        if trigger is not None:
            trigger()

    def _make_news(self, *_args: Any) -> None:
        """A row per headline, as many as fit in their share of the card (the first one
        always: every step has one); the rest stay in the detail lines below."""
        news = self.ids.get("news")
        if news is None:
            return
        self._news_width = self.width
        from kivy.core.window import Window

        most = self.most or Window.height / 3
        # what the card may hold less its title row, the offer and the lines' least room:
        # the news never makes the card taller than the frame lets it be
        least = 0 if self.asked else dp(60)
        fixed = self.ids.top_row.height + self.ids.check_below.height + least + dp(20)
        room = min(most * self.NEWS_SHARE, most - fixed)
        used = 0.0
        rows: list[HeadlineRow] = []
        for n, headline in enumerate(self.headlines):
            row = HeadlineRow(headline, width=max(self.width - dp(20), dp(100)))
            row.label.width = row.width - row.symbol.width - row.spacing
            row.label.texture_update()
            row._fit()
            if n and used + row.height > room:
                break
            used += row.height
            rows.append(row)
        news.clear_widgets()
        for row in rows:
            news.add_widget(row)
        roomy = self.most > Window.height / 2
        body = self.ids.lines_text.font_size * 1.25  # a line of the details, with its leading
        self.lines_most = 0 if not rows or roomy else body * self.DETAIL_LINES
        self.lines_hidden = bool(rows) and not roomy and style.font_scale >= self.LARGE_TEXT
        Clock.schedule_once(self._settle_news, 0)

    def _settle_news(self, *_args: Any) -> None:
        """The rows' words wrapped to the card's width once laid out."""
        news = self.ids.get("news")
        for row in news.children if news is not None else []:
            row._fit()

    def on_check_words(self, *_args: Any) -> None:
        self._fit_offer()

    def on_title(self, *_args: Any) -> None:
        self._fit_offer()

    def _fit_offer(self) -> None:
        """The offer beside the title when both fit on the title's line, else below it."""
        offer, title = self.ids.get("check"), self.ids.get("title")
        if offer is None or title is None or not self.check_words:
            return
        wide = text_width(self.check_words, offer.font_size, offer.font_name) + dp(28)
        words = text_width(self.title, title.font_size, title.font_name)
        self.narrow = words + wide + dp(150) > self.width

    def on_touch_down(self, touch: Any) -> bool:
        """A card put away has no height but its Undo keeps its size, and a disabled
        widget swallows the touches it covers: put away, it lets every touch through (to
        the top bar's Settings, which it sat under once it moved beside the game)."""
        return bool(self.shown and super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_up(touch))

    def _offer(self, session: Any) -> None:
        """The first card this step brought into play still holding the demo's numbers
        (the next step's card offers the next; "Later" is taking no notice)."""
        free = session is not None and session.request is None  # never mid-draw or roll
        cards = session.unchecked() if free else []
        self.check_id = cards[0] if cards else ""
        name = session.names().get(self.check_id, self.check_id) if cards else ""
        self.check_words = f"Check {escape_markup(name)} against your card" if cards else ""

    def refresh(self, session: Any) -> None:
        step = session.last_step() if session is not None else None
        if step is None:
            self.title, self.text, self.shown = "", "", False
            self.check_id = self.check_words = ""
            self.headlines = []
            return
        lines = [escape_markup(line) for line in step["lines"]]
        if len(lines) > MAX_LINES:
            kept = lines[: MAX_LINES - 1]
            # the steps taken by themselves are named, so the card says the round moved on
            then = [
                escape_markup(t)
                for t in step.get("then", [])
                if t not in step["lines"][: len(kept)]
            ]
            more = f"Then: {'; '.join(then)} (the rest in the Log)" if then else ""
            lines = [*kept, more or f"... and {len(lines) - len(kept)} more in the Log"]
        self.asked = session.request is not None
        self.title = escape_markup(step["title"])
        self.text = "\n".join(lines)
        news: list[Headline] = list(step.get("headlines") or [])
        # a step with no news of its own is its own headline: said once, large, in the
        # title's place; while a roll or card is asked for it keeps the title's size, the
        # keypad or the cards having the room
        own = [Headline("step", "", step["title"])]
        self.title_in_news = news == own and not self.asked
        if news == own and self.asked:
            news = []
        if news != list(self.headlines):
            self.headlines = news
        self.shown = True
        self._offer(session)
