"""The result card: what the last step did, at the top of the game, in large type.

Why: after the boss attacks or the enemy moves, the whole table wants to read what just
happened without scrolling or opening the log.  The card shows the session's last step in
the rules' own words (`Session.last_step`), with Undo on it, until the next step replaces
it.  It renders; it never decides anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.input.motionevent import MotionEvent
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from companion.core.headline import Headline
from companion.ui.panels.headline import HEADLINE_SP, HeadlineRow, headline_size
from companion.ui.style import style
from companion.ui.widgets import BigButton, text_width

if TYPE_CHECKING:
    from companion.core.session import Session

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

MAX_LINES = 8  # beyond this the card says how many more the log holds
NEWS_PADDING = dp(10)  # the news box's, above and below its rows (result.kv)


class OfferButton(BigButton):
    """The offer to check a card.  Put away, it has no width but keeps its height: it lets
    every touch through then (a disabled button would swallow them, Undo's among them)."""

    offered = BooleanProperty(False)
    text_width = staticmethod(text_width)

    def on_touch_down(self, touch: MotionEvent) -> bool:
        return bool(self.offered and super().on_touch_down(touch))

    def on_touch_up(self, touch: MotionEvent) -> bool:
        return bool(self.offered and super().on_touch_up(touch))


def whole_lines(room: float, line: float, full: float) -> float:
    """`room` for lines `line` high, `full` high in all: all of them where they fit,
    else down to whole lines (one at least), none cut in half at the room's edge."""
    if room <= 0 or line <= 0:
        return max(room, 0.0)
    if room >= full - 1:
        return full
    return max(1, int((room + 1) // line)) * line


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
    DETAIL_LINES = 2  # whole lines: a line cut in half by the card's edge reads as neither
    # the headline's type size as fitted to the card's width (0: none shown yet); the
    # detail lines' type is never over 1/1.5 of it, so the headline stays 1.5x the body
    news_size = NumericProperty(0)
    lines_capped = BooleanProperty(False)  # the detail lines are held to DETAIL_LINES
    # at the largest text sizes a card sharing the screen with the game shows the headline
    # alone, in the title's place: its lines of news take what the title and the details
    # took (both are in the Log)
    lines_hidden = BooleanProperty(False)
    # on a phone the top bar's Undo is the card's: the card's own is put away, its row's
    # height given to the game below (issue 25)
    undo_away = BooleanProperty(False)
    # on a phone with a panel open (a roll's keypad in the game's place): the title or
    # headline alone, the detail lines in the Log (issue 25: the keypad's last keys)
    bare = BooleanProperty(False)
    LARGE_TEXT = 1.5  # the step is its own headline: no title above it
    NEWS_SHARE = 0.6  # of the card's most height: the headlines' room, the lines get the rest

    _news_width = 0.0  # the width the rows were fitted to (a new height needs no refit)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        from companion.ui.style import style

        # the rows are made once per frame at most, however many of their inputs changed
        # (the step, the size, the room the frame gives, a roll asked for)
        self._news_trigger = Clock.create_trigger(self._make_news, -1)
        # the rows are drawn in the theme's colours at the text size: made again on a change
        style.bind(font_scale=self._refit_news, fg=self._refit_news)

    def _cap_lines(self, *_args: object) -> None:
        """`lines_most`: DETAIL_LINES whole lines of the details at their size now."""
        label = self.ids.get("lines_text")
        if label is None:
            return
        line = self.line_height(label) or label.font_size * 1.2
        self.lines_most = line * self.DETAIL_LINES if self.lines_capped else 0

    def _refit_news(self, *_args: object) -> None:
        self._news_width = -1.0
        self._fit_news()

    def on_size(self, *_args: object) -> None:
        self._fit_offer()
        if self.width != self._news_width:
            self._fit_news()

    def on_most(self, *_args: object) -> None:
        self._fit_news()

    def on_headlines(self, *_args: object) -> None:
        self._fit_news()

    def on_asked(self, *_args: object) -> None:
        self._fit_news()

    def on_shown(self, *_args: object) -> None:
        self._fit_news()

    def on_title_in_news(self, *_args: object) -> None:
        self._fit_news()

    def on_undo_away(self, *_args: object) -> None:
        self._fit_news()

    def on_bare(self, *_args: object) -> None:
        self._fit_news()

    def lines_drawn(self) -> None:
        """The detail lines drawn again (their words, width or size): their cap and the
        card's least follow."""
        self._cap_lines()
        self._fit_news()

    def on_title(self, *_args: object) -> None:
        self._fit_offer()
        self._fit_news()  # the full form's least holds the title

    def _fit_news(self, *_args: object) -> None:
        trigger = getattr(self, "_news_trigger", None)  # none yet while kv builds the card
        if trigger is not None:
            trigger()

    def _make_news(self, *_args: object) -> None:
        """A row per headline, as many as fit in their share of the card (the first one
        always: every step has one); the rest stay in the detail lines below.

        Two forms: the full card (the title, the news, the detail lines) and, at the large
        text sizes while the card shares the screen with the game, the news alone (the
        first headline beside Undo where it fits as large there).  `least` is the height
        of the form for the text size, whatever the room: the frame gives the card at
        least that (`most`), and the card takes the full form only where the frame's room
        holds it whole, so the card never grows past what it was given."""
        news = self.ids.get("news")
        if news is None:
            return
        self._news_width = self.width
        from kivy.core.window import Window

        most = self.most or Window.height / 3
        headlines = list(self.headlines)
        ids = self.ids
        top, label = ids.top_row, ids.lines_text
        undo_width, undo_height = (0.0, 0.0) if self.undo_away else ids.undo.size
        width = max(self.width - dp(20), dp(100))
        size = headline_size(headlines, width, label.font_name)
        # the first headline beside Undo: only as large as below it, and the card no taller
        beside = width - undo_width - ids.check.width - 3 * top.spacing
        rows: list[HeadlineRow] = []
        first_up: HeadlineRow | None = None

        def set_rows(size: float) -> None:
            nonlocal rows, first_up
            rows = [self._row(h, size, width) for h in headlines]
            first_up = None
            if headlines and headline_size(headlines[:1], beside, label.font_name) >= size - 0.5:
                first = self._row(headlines[0], size, beside)
                first_up = first if first.height < undo_height + rows[0].height else None

        set_rows(size)
        title = self._title_height(beside)
        one_line = self.whole(min(label.height, dp(60)))
        # the lines' least room for `least`, measured at the body size the natural
        # headline gives: read from the lines as drawn, after a headline set smaller (and
        # the lines with it) it was one line of 20 px, then at the natural size two of 27,
        # and the card's least swung 169 <-> 203 px every other frame (issue 25)
        natural_line = self._lines_least(size if headlines else 0.0, label)

        def least(full: bool) -> float:
            untitled = bool(headlines) and (self.title_in_news or not full)
            up = untitled and first_up is not None
            high = max(undo_height, first_up.height if up and first_up else 0.0)
            high = max(high, 0.0 if untitled else title)
            below = rows[0].height if rows and not up else 0.0
            lines = 0.0 if self.bare or headlines and (self.asked or not full) else natural_line
            return float(high + ids.check_below.height + NEWS_PADDING + below + lines + dp(20))

        compact = bool(headlines) and style.font_scale >= self.LARGE_TEXT
        self.least = least(full=not compact) if self.shown else 0.0
        roomy = self.most > Window.height / 2
        full = not compact or (roomy and least(True) <= most + 1)
        # a first headline taller than the room the frame gives (a narrow side at the
        # Largest text: six lines rose over the heading, issue 25) is set smaller until
        # the card keeps within it; `least` stays the natural form's, so where the frame
        # puts the card does not follow this (no flipping between beside and above)
        floor = sp(12)
        while self.most and headlines and size > floor and least(full) > self.most + 1:
            size = max(floor, size * 0.92)
            set_rows(size)
        self.news_size = size if headlines else 0
        self.lines_hidden = not full
        untitled = bool(headlines) and (self.title_in_news or not full)
        up = untitled and first_up is not None
        if up and first_up is not None:
            rows[0] = first_up
        # what the card may hold less its title row, the offer and the lines' least room:
        # the news never makes the card taller than the frame lets it be
        fixed = max(undo_height, 0.0 if untitled else title) + ids.check_below.height
        lines = 0 if self.bare or self.asked or not full else one_line
        room = min(most * self.NEWS_SHARE, most - fixed - lines - NEWS_PADDING - dp(20))
        used = 0.0
        for n, row in enumerate(list(rows)):
            height = max(0.0, row.height - undo_height) if up and not n else row.height
            if n and used + height > room:
                rows = rows[:n]
                break
            used += height
        lead = ids.lead
        lead.clear_widgets()
        news.clear_widgets()
        for n, row in enumerate(rows):
            (lead if up and not n else news).add_widget(row)
        self.lines_capped = bool(rows) and not roomy
        self._cap_lines()
        Clock.schedule_once(self._settle_news, 0)

    def _lines_least(self, size: float, label: Label) -> float:
        """The detail lines' least room (all of them up to 60 dp, in whole lines, one at
        least) as drawn at the body size a `size` headline gives, whatever size they are
        drawn at now."""
        from kivy.core.text.markup import MarkupLabel

        if not self.text or label.width <= 1:
            return self.whole(min(label.height, dp(60)))
        core = MarkupLabel(
            text=self.text,
            font_size=self.body_size(size),
            font_name=label.font_name,
            text_size=(label.width, None),
        )
        core.refresh()
        height = float(core.texture.size[1])
        lines = len(getattr(core, "_cached_lines", ()) or ()) or 1
        return whole_lines(dp(60), height / lines, height)

    def _title_height(self, width: float) -> float:
        """The title's height as the title row draws it (`width` wide), shown or not."""
        from kivy.core.text.markup import MarkupLabel

        title = self.ids.title
        if not self.title:
            return 0.0
        core = MarkupLabel(
            text=self.title,
            font_size=title.font_size,
            font_name=title.font_name,
            bold=True,
            text_size=(max(width, 1.0), None),
        )
        core.refresh()
        return float(core.texture.size[1] + dp(4))

    @staticmethod
    def title_size(width: float, title: str, font_name: str, *_watched: object) -> float:
        """The title's type: 26 sp at the text size chosen, or smaller where its longest
        word would not fit the title's `width` whole (a phone at the Largest text broke
        "Storm/caller" of "Roll skills for Stormcaller")."""
        import re

        from kivy.core.text import Label as CoreLabel

        size = float(sp(26) * style.font_scale)
        words = re.sub(r"\[/?[a-z_]+(=[^\]]*)?\]", "", title).split()
        if not words or width <= 1:
            return size
        core = CoreLabel(font_size=100, font_name=font_name, bold=True)
        widest = max(core.get_extents(word)[0] for word in words) / 100
        return float(max(sp(12), min(size, (width - 2) / widest)))

    @staticmethod
    def body_size(news_size: float, *_watched: object) -> float:
        """The detail lines' type beside a `news_size` headline: the body size at the text
        size chosen, or less where the headline had to be set smaller to fit the card's
        width (1.5x the body, always)."""
        body = float(sp(HEADLINE_SP / 1.5) * style.font_scale)
        return min(body, news_size / 1.5) if news_size else body

    @staticmethod
    def line_height(label: Label) -> float:
        """The height of one of `label`'s lines as drawn (its texture over its lines)."""
        lines = len(getattr(label._label, "_cached_lines", ()) or ()) or 1
        return float(label.texture_size[1]) / lines if label.texture_size[1] else 0.0

    def whole(self, room: float, *_watched: object) -> float:
        """`room` for the detail lines, down to whole lines of them (at least one): the
        lines scroll inside it, and none shows cut in half at the card's edge (issue 25:
        the AI card's moves and the boss's attack read "two and a half lines")."""
        label = self.ids.get("lines_text")
        line = self.line_height(label) if label is not None else 0.0
        return whole_lines(room, line, float(label.height) if label is not None else room)

    @staticmethod
    def _row(headline: Headline, size: float, width: float) -> HeadlineRow:
        """A headline's row, its words wrapped to `width` now (to measure its height)."""
        row = HeadlineRow(headline, font_size=size, width=width)
        row.label.width = row.width - row.symbol.width - row.spacing
        row.label.texture_update()
        row._fit()
        return row

    def news_rows(self) -> list[HeadlineRow]:
        """The headline rows shown, first first (beside Undo, then below it)."""
        held = [self.ids.get("lead"), self.ids.get("news")]
        return [r for box in held if box is not None for r in reversed(box.children)]

    def _settle_news(self, *_args: object) -> None:
        """The rows' words wrapped to the card's width once laid out."""
        for row in self.news_rows():
            row._fit()

    def on_check_words(self, *_args: object) -> None:
        self._fit_offer()

    def _fit_offer(self) -> None:
        """The offer beside the title when both fit on the title's line, else below it."""
        offer, title = self.ids.get("check"), self.ids.get("title")
        if offer is None or title is None or not self.check_words:
            return
        wide = text_width(self.check_words, offer.font_size, offer.font_name) + dp(28)
        words = text_width(self.title, title.font_size, title.font_name)
        self.narrow = words + wide + dp(150) > self.width

    def on_touch_down(self, touch: MotionEvent) -> bool:
        """A card put away has no height but its Undo keeps its size, and a disabled
        widget swallows the touches it covers: put away, it lets every touch through (to
        the top bar's Settings, which it sat under once it moved beside the game)."""
        return bool(self.shown and super().on_touch_down(touch))

    def on_touch_up(self, touch: MotionEvent) -> bool:
        return bool(self.shown and super().on_touch_up(touch))

    def _offer(self, session: Session) -> None:
        """The first card this step brought into play still holding the demo's numbers
        (the next step's card offers the next; "Later" is taking no notice)."""
        free = session is not None and session.request is None  # never mid-draw or roll
        cards = session.unchecked() if free else []
        self.check_id = cards[0] if cards else ""
        name = session.names().get(self.check_id, self.check_id) if cards else ""
        self.check_words = f"Check {escape_markup(name)} against your card" if cards else ""

    def refresh(self, session: Session) -> None:
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
