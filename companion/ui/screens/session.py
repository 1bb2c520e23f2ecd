"""The session frame: the game's own view beside the dice, log, corrections and cards.

Everything a touch does goes through here (`answer`, `undo`, `redo`, `correct`), so a
refused command is always shown the same way, in the rules' own words, and nothing is
lost.  A new request brings its panel forward: dice to the keypad, draws to the cards.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.clock import Clock, ClockEvent
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.layout import Layout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.core.rules import RuleError
from companion.core.store import SessionFileError
from companion.ui.drawcache import CachedPanel  # noqa: F401 - in session.kv
from companion.ui.gameviews import view_for
from companion.ui.panels.dice import DicePanel
from companion.ui.panels.result import ResultCard  # noqa: F401 - in session.kv
from companion.ui.style import style
from companion.ui.widgets import BigButton, BigToggle, text_width

if TYPE_CHECKING:
    from companion.core.rules import Request
    from companion.core.session import Session
    from companion.ui.panels.check_sheet import CheckSheet

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class TopBarButton(BigButton):
    """A top bar button as wide as its word at the text size chosen, so "Settings" never
    breaks in two at Largest; the heading between the buttons gives way (to a row of its own)."""

    text_width = staticmethod(text_width)


class TopBarToggle(BigToggle):
    """A phone's More: as wide as its word; down, the top bar's second row (Undo, Redo,
    Settings) is open."""

    text_width = staticmethod(text_width)


class SessionTab(BigToggle):
    """A side panel tab whose share of the tab bar is its word's width, not a fifth: at
    Largest text in landscape equal fifths broke "Phones" as "Phon/es", while "Fix" and
    "Log" had room to spare."""

    text_width = staticmethod(text_width)


def bold_width(text: str, font_size: float, font_name: str) -> float:
    """The width `text` takes on one line in bold (the heading's)."""
    from kivy.core.text import Label as CoreLabel

    return float(
        CoreLabel(font_size=font_size, font_name=font_name, bold=True).get_extents(text)[0]
    )


def lay_out_now(widget: Widget) -> None:
    """`widget`'s layouts and those inside it done now, outermost first, rather than
    over the next passes of the clock, each in a parent of the size before."""
    if isinstance(widget, Layout):
        widget.do_layout()
    for child in widget.children:
        lay_out_now(child)


class PanelRoom(ScrollView):
    """The side panel's room: the panel shown fills it, or, when its own content is taller
    (the keypad at Largest text below a result card moved beside the game), is as tall as
    that content and scrolls here, never drawn over the tabs above it (issue 25)."""

    def hold(self, panel: Widget) -> None:
        """`panel` shown here (whatever was before put away)."""
        if panel.parent is self:
            return
        self.empty()
        if panel.parent is not None:
            panel.parent.remove_widget(panel)
        panel.size_hint_y = None
        self.add_widget(panel)
        self._fit()
        panel.bind(minimum_height=self._fit)
        self.scroll_y = 1

    def empty(self) -> None:
        for panel in list(self.children):
            panel.unbind(minimum_height=self._fit)
            self.remove_widget(panel)

    def on_height(self, *_args: object) -> None:
        self._fit()

    def _fit(self, *_args: object) -> None:
        for panel in self.children:
            panel.height = max(self.height, panel.minimum_height)


log = logging.getLogger(__name__)
TABS = ("dice", "log", "fix", "cards", "phones")
# the Dice panel's parts a roll asked for needs seen without scrolling (`essentials`)
ESSENTIAL = ("request", "offer", "entered", "keypad")
# a window narrower than this is a phone: one column, the game or a side panel below the
# result card, never both squeezed into halves (as TopBarButton's narrow width)
PHONE_WIDTH = 600


# the side panels made the first time they are wanted (`Panels`): module, class
LATER = {
    "log": ("companion.ui.panels.log", "LogPanel"),
    "fix": ("companion.ui.panels.corrections", "CorrectionsPanel"),
    "cards": ("companion.ui.panels.scanner", "ScannerPanel"),
    "phones": ("companion.ui.panels.phones", "PhonesPanel"),
}


class Panels(dict[str, Widget]):
    """The side panels; all but the Dice panel are made (and their modules loaded) the
    first time they are wanted: OpenCV and the scanner when a card is first asked for, the
    Log, Fix and Phones panels when their tab is first opened, not while a session opens
    (issue 26: every widget a panel holds is memory, and drawing it the renderer's)."""

    def __missing__(self, key: str) -> Widget:
        if key not in LATER:
            raise KeyError(key)
        module, name = LATER[key]
        panel = self[key] = getattr(importlib.import_module(module), name)()
        return panel


class SessionScreen(Screen):
    tab = StringProperty("dice")
    alarm = StringProperty("")
    error = StringProperty("")
    heading = StringProperty("")
    side_idle = BooleanProperty(False)  # the Dice tab is shown with nothing to roll
    # the side panel's body is put away for a strip: an idle Dice tab in portrait (the
    # game gets the room) or in landscape (the result card, moved beside the game, does)
    panel_hidden = BooleanProperty(False)
    # in portrait, the side panel's height while a card is asked for: its words, its cards
    # and the camera, no more (0: half the screen).  The Cards panel's half once squeezed
    # the boss's attack on the result card to one line at the Largest text (issue 12)
    side_fit = NumericProperty(0)
    # the heading fits between the top bar's buttons (else it gets a row of its own), and
    # the width it has there; the tabs in one row of five, or in rows of three
    heading_inline = BooleanProperty(True)
    heading_room = NumericProperty(0)
    heading_font = NumericProperty(0)  # the inline heading's size: it fits its one line
    tab_cols = NumericProperty(5)
    tabs_width = NumericProperty(0)  # on a phone, the one row of tabs' width (it scrolls)
    # a phone (narrow and upright): a side panel opened is shown in the game's place, the
    # game one tap away on the Game tab; `game_hidden` while a panel is
    phone = BooleanProperty(False)
    game_hidden = BooleanProperty(False)
    # in portrait, the side panel's height (`fit_side`)
    side_height = NumericProperty(0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.panels: dict[str, Widget] = Panels({"dice": DicePanel()})
        self.view: Widget | None = None
        self._session: Session | None = None
        self._last_request: Request | None = None
        self._round = ""  # where the table is in the game (the rules' summary)
        self._watch: ClockEvent | None = None
        self._pending_refresh: ClockEvent | None = None
        self._place = Clock.create_trigger(lambda _dt: self.place_result(), -1)
        self._fits: Widget | None = None  # the Cards panel whose height is watched (`_fit_side`)
        self.game_tab = SessionTab(text="Game", group="session-tabs")
        self.game_tab.bind(on_release=lambda _t: self.show_tab("game"))
        # the top bar's widgets held here: on a phone Undo, Redo and Settings leave the
        # bar while More is up (kv's ids alone would let them go)
        self._bar = {
            name: self.ids[name].__self__
            for name in ("home", "heading", "undo", "redo", "settings", "more")
        }
        self._lit_in_view = Clock.create_trigger(lambda _dt: self._scroll_to_lit())
        self._fit_later = Clock.create_trigger(lambda _dt: self.fit_side(), -1)
        self.show_tab("dice")
        self.bind(size=self._update_idle)
        self.bind(size=self._fit_later, side_fit=self._fit_later, panel_hidden=self._fit_later)
        self.bind(game_hidden=self._fit_later)
        for name in ("body", "tab_bar", "strip", "result"):
            self.ids[name].bind(height=self._fit_later)
        self.ids.result.bind(least=self._fit_later)
        dice = self.panels["dice"].ids  # what a roll needs seen: its words and keypad
        for name in ESSENTIAL:
            dice[name].bind(height=self._fit_later)
            dice[name].bind(height=self._place)
        self.bind(size=self._place)
        self.ids.game_column.bind(height=self._place)
        self.ids.result.bind(least=self._place)
        fit = Clock.create_trigger(lambda _dt: self.fit_bars())
        self.bind(size=fit, heading=fit)
        style.bind(font_scale=fit)
        for name in ("home", "undo", "redo", "settings", "more"):
            self.ids[name].bind(width=fit)
        self.ids.side.bind(width=fit)
        self.ids.top_bar.bind(width=fit)
        fit()

    def fit_bars(self) -> None:
        """The heading between the buttons only if it fits there whole, the tabs in one
        row only if every tab's word does (issue 25: a phone lost the round, Settings
        and whole words)."""
        ids = self.ids
        bar = ids.top_bar
        self._phone_tabs()
        self.arrange_top_bar()
        names = ("home", "undo", "more") if self.phone else ("home", "undo", "redo", "settings")
        buttons = [ids[name] for name in names]
        room = bar.width - sum(b.width for b in buttons) - len(buttons) * bar.spacing[0]
        heading = ids.heading
        full = sp(28) * style.font_scale  # the Heading's own size
        words = bold_width(self.heading, full, heading.font_name)
        self.heading_room = max(0.0, room)
        # between the buttons on one line, at the heading's size or smaller down to the
        # body text's (so the bar stays one button high); else a row of its own, in body
        # text, whole (a second row costs the board below it its height)
        fit = full * room / words if words else full
        self.heading_font = min(full, fit)
        self.heading_inline = bool(self.heading) and fit >= sp(20) * style.font_scale
        tabs = list(ids.tab_bar.children)
        wanted = sum(t.size_hint_x for t in tabs) + (len(tabs) - 1) * ids.tab_bar.spacing[0]
        side = ids.side
        # on a phone one row, each tab its word, scrolling sideways where they do not all
        # fit (issue 25: a second row of tabs pushed the keypad's last keys under the fold)
        self.tabs_width = wanted
        self.tab_cols = len(tabs) if self.phone or wanted <= side.width - 2 * dp(6) else 3
        self._lit_in_view()

    def arrange_top_bar(self) -> None:
        """The top bar's buttons: Home, the heading, Undo, Redo and Settings; on a phone
        one row, Home, the heading, Undo and More, with Redo and Settings after them while
        More is down (issue 25: the bar's two rows at the Largest text cost the keypad
        and the game their last rows).  On a phone the result card's Undo is put away
        (its row cost the game as much again): Undo once, in the same place."""
        bar = getattr(self, "_bar", None)
        if bar is None:  # kv still building the screen
            return
        menu = bar["more"].state == "down"
        names = ["home", "heading"]
        self.ids.result.undo_away = self.phone
        if self.phone:
            names += ["undo", "more", *(("redo", "settings") if menu else ())]
        else:
            names += ["undo", "redo", "settings"]
        top = self.ids.top_bar.__self__
        wanted = [bar[name] for name in names]
        if list(reversed(top.children)) == wanted:
            return
        top.clear_widgets()
        for widget in wanted:
            top.add_widget(widget)
        if not self.phone:
            bar["more"].state = "normal"

    def _scroll_to_lit(self) -> None:
        """On a phone the lit tab scrolled into the tab row's view (a draw brings Cards)."""
        room = self.ids.tab_room.__self__
        lit = self.game_tab if self.tab == "game" else self.ids[f"tab_{self.tab}"].__self__
        if self.phone and lit.parent is not None and room.do_scroll_x:
            room.scroll_to(lit, padding=dp(6), animate=False)
        elif not room.do_scroll_x:
            room.scroll_x = 0

    def _name_heading(self) -> None:
        """The game and where the table is in it; on a phone the round alone (issue 25:
        at the Largest text the game's title took two of its four lines, and the game
        below the result card was left a sliver)."""
        session = self._session
        if session is None:
            return
        if not self._round:  # a game with no summary: its title and the session's
            self.heading = f"{session.game.title}: {session.id}"
        else:
            title = "" if self.phone else f"{session.game.title}: "
            self.heading = f"{title}{self._round}"

    def _phone_tabs(self) -> None:
        """On a phone the Game tab leads the tabs (the game is where a panel is not)."""
        phone = self.width < dp(PHONE_WIDTH) and self.width < self.height
        bar = self.ids.tab_bar.__self__
        if phone and self.game_tab.parent is None:
            bar.add_widget(self.game_tab, index=len(bar.children))
        elif not phone and self.game_tab.parent is not None:
            bar.remove_widget(self.game_tab)
        if self.phone != phone:
            self.phone = phone
            self._name_heading()
            if not phone and self.tab == "game":
                self.show_tab("dice")
            elif phone and self.tab == "dice" and self._idle_dice():
                self.show_tab("game")  # the tab lit is what is shown
            else:
                self._update_idle()

    # -- entering and leaving ----------------------------------------------------------

    def on_pre_enter(self, *args: object) -> None:
        if self.manager is not None:
            # the frame laid out at the window's size before the game's view is built in
            # it: a screen entered for the first time is Kivy's 100 x 100 until the next
            # layout pass, and a view built in that wrapped its words 16 px wide, moved its
            # top into its column and back and the result card about (issue 26)
            self.pos, self.size = self.manager.pos, self.manager.size
            lay_out_now(self)
        self.sync_session()
        self._watch = Clock.schedule_interval(self._watch_devices, 1.0)

    def sync_session(self) -> None:
        """Show the app's open session (rebuilding the game view if it is another one)."""
        session = App.get_running_app().session
        if session is not self._session:
            self._session = session
            self._last_request = None
            self.error = ""
            self.ids.game_area.clear_widgets()
            self.view = view_for(session) if session is not None else None
            if self.view is not None:
                self._show_game()
                # its words wrapped once, at the width they are shown at, not first at
                # the 100 px a widget is made with (issue 26)
                lay_out_now(self.ids.game_column.__self__)
                if "room_needed" in self.view.properties():
                    self.view.bind(room_needed=self._place)
                    self.view.bind(room_needed=self._fit_later)
            if self.phone and self.tab == "dice":
                self.show_tab("game")  # a phone opens on the game; a roll asked brings Dice
            self._place()
            self._fit_later()
            if "phones" in self.panels:  # phones of another session are let go
                self.panels["phones"].refresh(session)
        self.refresh_now()

    def on_leave(self, *args: object) -> None:
        if self._watch is not None:
            self._watch.cancel()
        self.stop_camera()

    # -- refreshing --------------------------------------------------------------------

    def refresh(self) -> None:
        """Called on every session change; coalesced into one redraw per frame."""
        if self._pending_refresh is None:
            # before the next frame: a session opened takes its first steps by itself
            # (a draw asked for), and a frame drawn between showed the idle Dice tab
            self._pending_refresh = Clock.schedule_once(lambda _dt: self.refresh_now(), -1)

    def refresh_now(self) -> None:
        self._pending_refresh = None
        session = self._session
        if session is None:
            return
        self._round = session.game.summary(session.state) or ""
        self._name_heading()
        request = session.request
        if request is not None and request != self._last_request:
            self.show_tab("dice" if request.kind == "dice" else "cards")
            cue = getattr(App.get_running_app(), "cue", None)
            if cue is not None:  # a chime and a buzz: the table must roll or show a card
                cue.table_must("roll" if request.kind == "dice" else "draw")
        elif (
            request is None
            and self._last_request is not None
            and (self.tab == "cards" or (self.phone and self.tab == "dice"))
        ):
            # the card asked for was shown, or (on a phone) the roll made: give the game
            # its room (on a phone, its place, with its tab lit)
            self.show_tab("game" if self.phone else "dice")
        self._last_request = request
        if self.view is not None:
            self._refresh_view(session, self.view)
        card = self.ids.result.__self__
        card.refresh(session)
        # the card's lines wrapped now, so its least (where it goes) counts them from the
        # first: counted without them it went above the game, then beside it (issue 26)
        lay_out_now(card)
        card.ids.lines_text.texture_update()
        if self.tab != "game":
            self.panels[self.tab].refresh(session)
        self._update_idle()  # hidden panels catch up when shown
        self.ids.undo.disabled = len(session.chain.alive) <= 1
        self.ids.redo.disabled = not session.chain.redo

    def place_result(self) -> None:
        """The result card above the game, given only the height the game's view does
        not need (`room_needed`: Direwild's whole board with squares a finger can hit);
        in landscape, when what is left is less than the card's least, beside the game
        atop the side panel (while a roll or card is asked for the board shrinks, the
        card stays above it, and the side panel keeps its height for the keypad or the
        cards).  A view that needs no room set keeps the card above it, as before."""
        card = self.ids.result.__self__  # the widgets, not kv's proxies (`is` compares)
        # a phone with a panel open: the card's title or headline alone (below)
        card.bare = self.game_hidden
        column, side = self.ids.game_column.__self__, self.ids.side.__self__
        need = float(getattr(self.view, "room_needed", 0) or 0)
        room = column.height - column.spacing - need
        landscape = self.width >= self.height
        idle = landscape and self.side_idle  # nothing in the side panel but "no roll"
        tabs = self.ids.tab_dice.parent
        # beside the game only if the panel below it keeps what a roll asked for needs
        # seen (at Largest text the keypad's words and keys): else above the game, whose
        # view slides under it (Direwild's board keeps its squares' size); a draw's cards
        # scroll in their panel, beside the whole board
        roll = self.essentials() if self.tab == "dice" else 0.0
        left = side.height - tabs.height - 2 * dp(6) - 3 * side.spacing - roll
        beside = idle or (need > 0 and landscape and room < card.least and left >= card.least)
        home = side if beside else column
        if card.parent is not home:
            card.parent.remove_widget(card)
            home.add_widget(card, index=len(home.children))  # on top
        if beside and not idle and roll:
            # a roll asked for below the card: the card keeps to what the panel's words
            # and keypad leave (at most a third of the screen)
            card.most = max(card.least, min(self.height / 3, left))
        elif idle:
            # the side's height less its tabs, its strip and their spacing: the whole
            # step reads without scrolling, large, beside a game drawn at full height
            strip = self.ids.strip.__self__
            tabs = self.ids.tab_dice.parent
            card.most = max(1.0, side.height - tabs.height - strip.height - 4 * side.spacing)
        else:
            # 0 is the card's own cap (a third of the window); otherwise never under its
            # least: the game's view scrolls under it rather than the card's words being
            # drawn over each other (Direwild's board keeps its squares' size, and slides)
            if self.game_hidden:
                # a phone with a panel open: the card at its least (its title or headline,
                # the detail lines being in the Log), the panel in the game's place gets
                # the rest (issue 25: at the Largest text a roll's keypad was pushed off
                # the window below a card a third of it high)
                card.most = card.least
                return
            card.most = 0 if not need or beside else max(card.least, room)

    def _refresh_view(self, session: Session, view: Widget) -> None:
        """A game view that fails to draw is swapped for the plain state view: the table
        keeps playing, and the log says why."""
        from companion.ui.panels.state import StateView

        try:
            view.refresh()
        except Exception:
            if isinstance(view, StateView):
                raise
            log.exception("the %s view failed to refresh; showing the plain state", session.game.id)
            self.ids.game_area.clear_widgets()
            self.view = StateView(session)
            self._show_game()
            self._place()

    def _show_game(self) -> None:
        """The game's view in its area, or (a phone with a side panel open) out of the
        window: put away, not hidden under the panel, so it catches none of its touches."""
        area, view = self.ids.game_area.__self__, self.view
        if view is None:
            return
        if self.game_hidden:
            if view.parent is area:
                area.remove_widget(view)
        elif view.parent is not area:
            if view.parent is not None:
                view.parent.remove_widget(view)
            area.add_widget(view)

    def _watch_devices(self, _dt: float) -> None:
        app = App.get_running_app()
        hub = getattr(app, "hub", None)
        if hub is None:  # the app stopped in the frame the screen was left: nothing to watch
            if self._watch is not None:
                self._watch.cancel()
            return
        self.alarm = f"Dice: {hub.alarm}" if hub.alarm else ""
        self._update_idle()
        overdue = hub.overdue()
        if overdue and self._session is not None:
            # the game never blocks on a die that does not answer: the keypad comes forward
            self.panels["dice"].offer_keypad(overdue, self._session.request)
            if self.tab != "dice":
                self.show_tab("dice")
        if self.tab == "dice":
            self.panels["dice"].refresh_sources()

    def _idle_dice(self) -> bool:
        """No roll is asked for and no dice alarm is up: the Dice panel has nothing to do."""
        session = self._session
        return session is not None and session.request is None and not self.alarm

    def _update_idle(self, *_args: object) -> None:
        """An idle Dice tab is a strip: its panel leaves the screen entirely (hidden
        widgets would still catch touches meant for the game); in portrait the game takes
        the room, in landscape the result card, moved beside the game (`place_result`)."""
        # a phone's Dice tab is only ever forward when tapped (or a roll is asked for), so
        # it shows its panel: the game behind a lit Dice tab read as a tab that did nothing
        self.side_idle = self.tab == "dice" and not self.phone and self._idle_dice()
        self.panel_hidden = self.side_idle or self.tab == "game"
        self.game_hidden = self.phone and not self.panel_hidden
        self._show_game()
        self._fit_side()
        self._place()
        area = self.ids.panel_area.__self__  # the widget, not kv's proxy (`is` compares)
        if self.panel_hidden:
            if area.children:
                area.empty()
        else:
            area.hold(self.panels[self.tab])

    def _fit_side(self, *_args: object) -> None:
        session = self._session
        request = session.request if session is not None else None
        drawing = request is not None and request.kind == "draw" and self.tab == "cards"
        if not (drawing and self.width < self.height):
            self.side_fit = 0
            return
        panel = self.panels["cards"]
        if panel is not self._fits:
            panel.bind(wanted=self._fit_side)
            self._fits = panel
        # the tabs' row, the side's padding and spacing, then what the panel wants
        self.side_fit = self.ids.tab_bar.height + 2 * dp(6) + dp(6) + panel.wanted

    def essentials(self) -> float:
        """The height the panel shown needs seen without scrolling: a roll's words and
        keypad, a draw's words and cards (the camera's note or picture below them may
        scroll); 0 for the others."""
        if self.panel_hidden or self.tab not in ("dice", "cards"):
            return 0.0
        panel = self.panels[self.tab]
        if self.tab == "cards":
            return float(panel.ids.prompt.height + panel.ids.options.height + dp(8) * 3)
        parts = [panel.ids[name].height for name in ESSENTIAL]
        return float(
            sum(parts) + (len(parts) - 1) * panel.spacing + panel.padding[1] + panel.padding[3]
        )

    def fit_side(self) -> None:
        """The side panel's height in portrait: a strip for an idle Dice tab; what a card
        asked for needs, else half the body; but never so much that a game view's own
        need (`room_needed`: Direwild's whole board at 40 px squares while a card or roll
        is waited on) and the result card's least are squeezed: the panel gets the rest
        and scrolls inside it (issue 25: the board never shrinks for a panel)."""
        if self.width >= self.height or self.game_hidden:
            return  # landscape: the side has its share; a phone's open panel, the rest
        ids = self.ids
        tabs = ids.tab_bar.height + 2 * dp(6)
        if self.panel_hidden:
            strip = ids.strip.height
            self.side_height = tabs + (strip + ids.side.spacing if strip else 0)
            return
        body = ids.body.height
        wanted = min(self.side_fit, body * 0.5) if self.side_fit else body * 0.5
        need = float(getattr(self.view, "room_needed", 0) or 0)
        if need:
            card = ids.result
            game = need + (card.least + ids.game_column.spacing if card.shown else 0)
            room = body - ids.body.spacing - game
            # the tabs and a few lines, or what a roll asked for needs seen: the board
            # slides in its column rather than the keypad in its panel (a draw's cards
            # scroll in theirs, up to Larger text the whole board stays in view)
            roll = self.essentials() if self.tab == "dice" else 0.0
            least = tabs + 2 * ids.side.spacing + max(dp(160), roll)
            wanted = min(max(wanted, min(least, body * 0.6)), max(least, room))
        self.side_height = wanted

    def stop_camera(self) -> None:
        """Free the camera (a Cards panel never made has none to free)."""
        if "cards" in self.panels:
            self.panels["cards"].stop_camera()

    def show_tab(self, name: str) -> None:
        """A side panel forward (`game`: on a phone, the game in the panels' place)."""
        self.tab = name
        for tab in TABS:
            self.ids[f"tab_{tab}"].state = "down" if tab == name else "normal"
        self.game_tab.state = "down" if name == "game" else "normal"
        self._lit_in_view()
        if self._session is not None and name != "game":
            self.panels[name].refresh(self._session)
        self._update_idle()
        self.ids.panel_area.scroll_y = 1  # a panel brought forward shows its top
        asked = self._session.request if self._session is not None else None
        choosing = asked is not None and asked.choice  # a pick to tap: no card to show
        if (
            name == "cards"
            and not choosing
            and self.manager is not None
            and self.manager.current == self.name
        ):
            self.panels["cards"].start_camera()
        else:
            self.stop_camera()

    # -- commands ----------------------------------------------------------------------

    def _try(self, action: Callable[[], object]) -> str:
        try:
            action()
        except RuleError as exc:
            problem = str(exc.message)
        except SessionFileError as exc:
            problem = f"The save could not be written: {exc}"
        else:
            problem = ""
        self.error = problem
        return problem

    @property
    def session(self) -> Session:
        """The open session: the commands below come from views that exist only while one
        is open, so a call without one is a fault in the app, not a refusal to show."""
        if self._session is None:
            raise RuntimeError("the session screen has no session open")
        return self._session

    def do(self, name: str, args: Mapping[str, object] | None = None) -> str:
        """A game command from a game view; refused commands are shown in words."""
        return self._try(lambda: self.session.do(name, args or {}))

    def answer(self, values: object, by: str = "keypad") -> str:
        return self._try(lambda: self.session.answer(values, by=by))

    def roll_for_me(self) -> str:
        """The virtual roller answers what is waiting; stored like any other source."""
        from companion.table.dice_answers import roll_virtually

        hub = App.get_running_app().hub

        def roll() -> None:
            hub.message = roll_virtually(self.session)

        error = self._try(roll)
        self.panels["dice"].refresh_sources()  # shows what was rolled
        return error

    def roll_on_tray(self) -> str:
        """Demo: the simulated tray rolls what is waiting; the answer comes over its port."""
        return self._try(App.get_running_app().hub.roll_simulated)

    def check_card(self, card_id: str) -> CheckSheet | None:
        """The sheet checking a card against the group's printed one (`our_copy.keep`)."""
        from companion.core.our_copy import keep
        from companion.core.workshop import WorkshopError
        from companion.ui.panels.check_sheet import open_check

        session = self.session
        kind = session.content.kind_of(card_id)
        if kind is None:
            return None
        item = session.content.by_id(card_id)

        def kept(card: str, numbers: Mapping[str, object] | None) -> str:
            try:
                return self._try(lambda: keep(session, card, numbers))
            except WorkshopError as exc:  # the group's pack could not take it: in words
                return str(exc)

        return open_check(card_id, item, session.game.content_kinds[kind], kept)

    def undo(self) -> str:
        return self._try(self.session.undo)

    def redo(self) -> str:
        return self._try(self.session.redo)

    def correct(self, path: str, value: object) -> str:
        return self._try(lambda: self.session.correct(path, value))

    def leave(self) -> None:
        app = App.get_running_app()
        if "phones" in self.panels:
            self.panels["phones"].refresh(None)
        app.close_session()
        self._session = None
        app.go("home")
