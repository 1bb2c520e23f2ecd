"""The Direwild table: status bar, the next step, the board, and the other things the rules
allow now.

Every button is one of the rules' listed actions (`legal_actions`), worded as they word it:
the step the rules expect next is the large button, the others appear only while listed.
A tap on the board sends the selected hero's listed move, battle or card for that square;
a tap the rules do not list is still sent, so the refusal is shown in their own words and
changes nothing.  Rolls and draws are answered on the Dice and Cards panels.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.rules import Action
from companion.games.direwild.view import (
    STAGING,
    DirewildState,
    board_tap,
    label,
    parse_square,
    turn_order_action,
)
from companion.ui.games.direwild import (
    battle_view,
    board_view,
    facts_view,
    key_view,
    status_view,
    unit_sheet,
    walkthrough_view,
)
from companion.ui.games.direwild.facts_view import FACT_WORDS, SQUARE_INPUT, fact_key
from companion.ui.games.readable import TEXT_SP, GameButton, GameToggle
from companion.ui.gameviews import SendsCommands
from companion.ui.style import style

_ = (battle_view, board_view, facts_view, key_view, status_view, unit_sheet, walkthrough_view)
Builder.load_file(__file__.replace(".py", ".kv"))

# The view's top, above the scrolling board, top first (DirewildView.pin).
PINNED = ("top_row", "request", "message")
# The least side of a space of Karn's track, beside the next step's button or below it:
# read from across the table as a board square waited on is (tests/ui/looks.py holds it).
TRACK_SPACE = dp(40)
# Actions a tap on the board sends (or the turn-order picker): not listed as buttons.
ON_THE_BOARD = ("move_hero", "resolve_battle", "target_enemy", "set_turn_order")


def grow(button: GameButton, texture: tuple[int, int]) -> None:
    """A button as tall as its wrapped words, never under a finger's 56 dp."""
    button.height = max(dp(56) * style.font_scale, texture[1] + dp(16))


def tall(button: GameToggle, _texture: tuple[int, int]) -> None:
    """The heroes' buttons as tall as the most wrapped one's words (a row of even
    buttons), never under 64 dp at the text size: on a phone at Largest text a hero's
    place, stamina and magic took four lines, 144 px in rows of 115."""
    peers = list(button.parent.children) if button.parent is not None else [button]
    height = max(max(dp(64) * style.font_scale, b.texture_size[1] + dp(16)) for b in peers)
    for b in peers:
        b.height = height


# where the pieces stand, and the last battle's hero, enemy and roll
Seen = tuple[dict[str, str], tuple[str, str, list[int]] | None]


class DirewildView(SendsCommands, BoxLayout):
    session = ObjectProperty(None)
    message = StringProperty("")
    request_text = StringProperty("")
    primary_text = StringProperty("")
    order_text = StringProperty("")
    hero = StringProperty("")
    ask_text = StringProperty("")  # a fact the tapped action still needs, asked for
    aiming = BooleanProperty(False)  # a tap on an enemy aims a card at it, not a battle
    can_aim = BooleanProperty(False)  # the selected hero has a card to aim (listed)
    walk_on_top = BooleanProperty(True)  # the walk-through sits on the board's top half
    walk_hidden = BooleanProperty(False)  # the walk-through was put away, steps remain
    walk_beside = BooleanProperty(False)  # room for the walk-through beside the board
    # a roll or card is waited on: the board takes no taps (the rules list nothing), so it
    # is only looked at and may shrink to the room the frame leaves it
    waiting = BooleanProperty(False)
    # the least height of the board: 48 dp squares (a finger's), and its coordinates
    board_floor = NumericProperty(0)
    # the height this view needs for its controls above the board and the whole board:
    # the frame gives the result card only the rest (SessionScreen.place_result)
    room_needed = NumericProperty(0)
    action_cols = NumericProperty(2)  # the other actions' buttons to a row (fit_actions)
    stacked = BooleanProperty(False)  # Karn's track below the next step's button (fit_top)
    # neither edge of the scrolling column runs through words (clear_of_words), and the
    # checks hold it to that (tests/ui/looks.py)
    fold_between_rows = True

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._actions: list[Action] = []
        self._primary: Action | None = None
        self._confirm: str | None = None  # the square a disengaging move waits on
        self._order: list[str] = []  # heroes tapped so far for the turn order
        self._hero_buttons: list[str] = []
        self._seen: Seen | None = None  # pieces and battle last drawn
        self._focus: list[str] = []
        self._placing: Action | None = (
            None  # an action waiting for its square  # the squares of what the last change touched
        )
        self.ids.board.bind(on_square=lambda _w, sq: self.tap_square(sq))
        walk = self.ids.walkthrough
        walk.bind(current_path=self.ids.board.setter("highlight"))
        walk.bind(current_path=lambda _w, path: self._place_walkthrough(path))
        walk.bind(current_path=lambda _w, path: self.bring_into_view(path))
        walk.bind(hidden=self._walk_state, total=self._walk_state)
        self.ids.sheet.correct = self.correct_unit
        self.ids.key.bind(on_unit=lambda _k, unit: self.open_sheet(unit))
        later = Clock.create_trigger(lambda _dt: self.place_board())

        def place(*_args: object) -> None:  # now, and once laid out
            self.place_board()
            later()

        self.ids.board_area.bind(size=place, pos=place)
        self.ids.scroll.children[0].bind(height=place)
        self.ids.scroll.bind(scroll_y=place, size=place, pos=place)
        # the room changed (a turned tablet, a result card, the board shrunk while a roll
        # is waited on, buttons come and go under the board, which moves what Kivy's
        # ScrollView shows at the same scroll_y): what must be seen is brought back into view
        show = Clock.create_trigger(lambda _dt: self._show_pieces())
        self.ids.scroll.bind(height=show)
        self.ids.scroll.children[0].bind(height=show)
        self.ids.board_area.bind(height=show)
        walk.bind(height=place, shown=place)
        self.bind(walk_on_top=place)
        fit = Clock.create_trigger(lambda _dt: self.fit_actions())
        self.ids.actions.bind(width=fit)
        style.bind(font_scale=fit)
        top = Clock.create_trigger(lambda _dt: self.fit_top())
        self.bind(width=top, primary_text=top)
        self.ids.hunt.bind(on_track=top)
        style.bind(font_scale=top)
        pin = Clock.create_trigger(lambda _dt: self.pin())
        self.bind(height=pin)
        for name in PINNED:
            self.ids[name].bind(height=pin)
        self.bind(children=self.need, board_floor=self.need)
        for child in self.children:
            child.bind(height=self.need)
        self.need()
        self.refresh()

    def need(self, *_args: object) -> None:
        """`room_needed`: the heights of what stands above the scrolling column (as
        pinned now) and the whole board in it.  Summed, not taken as the view's height
        less the column's: between the view's resize and its layout the column's height
        is the old one, and a need read then (230, 956 px for 580) moved the result card
        and wrapped the view's words again and again after a session opened (issue 26)."""
        scroll = self.ids.scroll.__self__
        above = sum(c.height for c in self.children if c is not scroll)
        self.room_needed = above + self.board_floor + dp(12)

    def pin(self) -> None:
        """The next step, Karn's track and what is waited on stay above the scrolling
        board while the view has room for them and a little of the board; else (a phone
        at Largest text, below the result card) they head the scrolling column rather
        than being drawn over the card."""
        ids = self.ids
        top = [ids[name].__self__ for name in PINNED]
        column = ids.column.__self__
        pinned = top[0].parent is self
        room = self.height - sum(w.height for w in top)
        if pinned and room < dp(100):
            for w in reversed(top):
                self.remove_widget(w)
                column.add_widget(w, index=len(column.children))
        elif not pinned and room >= dp(120):  # a margin: no flapping at the edge
            for w in reversed(top):
                column.remove_widget(w)
                self.add_widget(w, index=len(self.children))

    def fit_top(self) -> None:
        """Karn's track beside the next step's button, or below it where that makes the
        row shorter: at Largest text a four-clan turn order ("Turn order: Stormbringer,
        Featherheart, Shadowleaf, Groundbreaker") stood five lines tall in two fifths of a
        landscape tablet's column, a third of the view's height, the board and the order's
        picks pushed under it.  The heights are measured as the kv rule lays them out."""
        from kivy.core.text import Label as CoreLabel

        primary, hunt = self.ids.primary, self.ids.hunt
        name_w, name_h = hunt.ids.label.texture_size
        spaces = max(hunt.ids.track.spaces, 1)
        # with the row to itself (below the button, or no button) the name goes above the
        # spaces where side by side they are wider than the view (a phone at Largest
        # text: 436 px in 392)
        too_wide = (
            self.width > 1
            and name_w + hunt.spacing + spaces * max(TRACK_SPACE, name_h) > self.width
        )
        if not self.primary_text or not hunt.on_track or self.width <= 1:
            self.stacked = False
            hunt.name_above = too_wide
            return
        spacing = self.ids.top_row.spacing

        def button(width: float) -> float:
            room = width - dp(12)
            size = self.primary_size(
                sp(primary.sp) * style.font_scale, room - dp(2), self.primary_text
            )
            core = CoreLabel(
                text=self.primary_text, font_size=size, bold=True, text_size=(room, None)
            )
            core.refresh()
            return float(max(dp(72), core.texture.size[1] + dp(12)))

        space = min(
            max(dp(40), dp(36) * style.font_scale),
            (self.width * 0.6 - name_w - hunt.spacing) / spaces,
        )
        if space < TRACK_SPACE - 0.5:  # beside the button its spaces would be unreadable
            self.stacked = True  # (a phone at Largest text: 11 px, the altar's cut off)
        else:
            track_w = name_w + hunt.spacing + space * spaces
            beside = max(button(self.width - track_w - spacing), space, name_h)
            track_h = max(TRACK_SPACE, name_h) + (name_h + hunt.spacing) * too_wide
            self.stacked = button(self.width) + spacing + track_h < beside - 1
        hunt.name_above = self.stacked and too_wide

    def place_board(self) -> None:
        """The board as large a square as its area allows; the walk-through beside it
        when at least 240 dp are left over (a wide window), else over the board on the
        half away from the path, always inside the part of the board scrolled to."""
        area, board, walk = self.ids.board_area, self.ids.board, self.ids.walkthrough
        rows, cols = max(board.rows, 1), max(board.cols, 1)
        m = board.margin  # the row numbers' band, on the left
        side = min(area.width, area.height * cols / rows + m)
        self.walk_beside = area.width - side >= dp(240)
        board.size = (side, area.height)
        # to the left only to make room for the walk-through shown beside it
        board.x = area.x if self.walk_beside and walk.shown else area.center_x - side / 2
        board.y = area.y
        low, high = self.seen_band()  # the part of the board scrolled to
        seen_bottom, seen_top = max(area.y, low), min(area.top, high)
        if self.walk_beside:
            walk.x, walk.width = board.right + dp(8), area.right - board.right - dp(8)
            walk.top = seen_top
            return
        walk.x, walk.width = board.x, side
        if self.walk_on_top:
            walk.top = seen_top
        else:
            walk.y = seen_bottom

    def _place_walkthrough(self, path: list[str]) -> None:
        """The walk-through goes on the half of the board the path is not on."""
        if not path:
            self.walk_on_top = True
            return
        rows = [parse_square(sq)[1] for sq in path]
        self.walk_on_top = sum(rows) / len(rows) >= self.ids.board.rows / 2

    def bring_into_view(self, squares: list[str]) -> None:
        """Scroll the column so `squares` (a step's path, or every piece) are seen: the
        board is taller than the room a frame leaves it on a tablet, and what the table
        just did must never be below the fold (issue 12).  A walk-through step without a
        path brings its own panel, over the board's top, into view instead.  When the whole
        board fits the room it has, the whole board is shown, whatever is asked for."""
        board, walk, area = self.ids.board, self.ids.walkthrough, self.ids.board_area
        spare = self.ids.scroll.height - area.height
        if spare >= -0.5:  # the whole board fits: shown whole, its margin as room allows
            self.show_band(area.y, area.top, pad=max(0.0, min(dp(6), spare / 2)))
        elif squares:
            half = board.touch_cell_size() / 2
            ys = [board.centre(sq)[1] for sq in squares]  # in the column's own coordinates
            self.show_band(min(ys) - half, max(ys) + half)
        elif walk.shown:
            top = self.ids.board_area.top
            self.show_band(top - walk.height, top)
        else:  # nothing asked for: where it is, its edges clear of words
            self.show_band(math.inf, -math.inf, pad=0)

    def show_band(self, low: float, high: float, pad: float | None = None) -> None:
        """Scroll so the column's band [low, high] is on screen (its top, if too tall),
        with `pad` (6 dp unless told) above and below it."""
        scroll = self.ids.scroll
        content = scroll.children[0] if scroll.children else None
        if content is None or content.height <= scroll.height:
            return
        pad = dp(6) if pad is None else pad
        low, high = low - pad, high + pad
        room = content.height - scroll.height
        seen_low, seen_high = self.seen_band()
        if high < low:  # no band: as it is
            pass
        elif high - low > scroll.height or high > seen_high:
            seen_low = min(room, max(0.0, high - scroll.height))
        elif low < seen_low:
            seen_low = min(room, max(0.0, low))
        # the squares asked for and seen stay seen
        kept = (max(low + pad, seen_low), min(high - pad, seen_low + scroll.height))
        seen_low = self.clear_of_words(seen_low, *kept)
        scroll.scroll_y = min(1.0, max(0.0, seen_low / room))

    def clear_of_words(self, seen_low: float, low: float, high: float) -> float:
        """`seen_low`, or the nearest place to it where neither edge of what is seen runs
        through words of the column (a turn-order pick, a hero's button, a line of the
        status), each shown whole or not at all, while the band [low, high] (the squares
        asked for) stays seen; where there is none, as it was.  Words half hidden by the
        top edge read as lying under what borders it (issue 25: the turn order's picks
        under the next step's button at Largest text)."""
        from kivy.uix.label import Label

        scroll, column, area = self.ids.scroll, self.ids.column, self.ids.board_area
        view = scroll.height
        room = column.height - view
        inside_board = set(area.walk(restrict=True))
        spans = [
            (w.y, w.top)
            for w in column.walk(restrict=True)
            if isinstance(w, Label)
            and str(w.text).strip()
            and 1 < w.height < view
            and w.opacity > 0
            and w not in inside_board
        ]
        # the board's column letters and row numbers too, at the top edge (under the
        # pinned row): in portrait at Largest text it ran through the letters, read as
        # under Karn's track (issue 25); kept to where the words allow it
        labels = [(b, t) for _what, (_l, b, _r, t) in self.ids.board.edge_label_boxes()]

        def clear(at: float, tops: list[tuple[float, float]]) -> bool:
            edges = (at, at + view)
            return not any(b + 1 < e < t - 1 for b, t in spans for e in edges) and not any(
                b + 1 < at + view < t - 1 for b, t in tops
            )

        places = {0.0, room}
        for b, t in spans + labels:
            places |= {b, t, b - view, t - view}
        for tops in (labels, []):
            if clear(seen_low, tops):
                return seen_low
            fits = [
                at
                for at in places
                if 0 <= at <= room
                and at <= low + 0.5
                and at + view >= high - 0.5
                and clear(at, tops)
            ]
            if fits:
                return float(min(fits, key=lambda at: abs(at - seen_low)))
        return seen_low

    def seen_band(self) -> tuple[float, float]:
        """The part of the scrolling column on screen, in the column's coordinates (Kivy's
        ScrollView shows [scroll_y * (content - view), that + view] of its content)."""
        scroll = self.ids.scroll
        content = scroll.children[0] if scroll.children else None
        if content is None or content.height <= scroll.height:
            return 0.0, max(scroll.height, content.height if content else 0.0)
        low = scroll.scroll_y * (content.height - scroll.height)
        return low, low + scroll.height

    def _walk_state(self, *_: object) -> None:
        walk = self.ids.walkthrough
        self.walk_hidden = walk.hidden and walk.total > 0

    # -- correcting one unit (its piece or its row in the key tapped) -----------------

    def open_sheet(self, unit: str) -> None:
        state = self.session.state
        self.ids.sheet.open(unit, label(state, unit, self.session.content), state)

    def correct_unit(self, path: str, value: object) -> bool:
        """One correction, by the session's correction command (as the Fix panel's)."""
        return self._attempt(lambda: self.session.correct(path, value))

    # -- what the rules list ----------------------------------------------------------

    def listed(self) -> list[Action]:
        """The rules' actions now; none while a roll or draw waits to be answered."""
        session = self.session
        if session is None or session.request is not None:
            return []
        return list(session.listed())

    # -- sending ----------------------------------------------------------------------

    def send_action(self, action: Action) -> bool:
        self._confirm = None
        self._placing = None
        self.drop_question()
        return self.send(action["do"], self.ids.facts.fill(action))

    @staticmethod
    def whole_words_size(size: float, room: float, text: str) -> float:
        """`size`, or less where the longest word of `text` (bold) would not fit `room`:
        the next step's button beside Karn's track keeps "Groundbreaker" whole in a
        four-clan turn order at Largest text, rather than breaking it over two lines."""
        from kivy.core.text import Label as CoreLabel

        words = text.split()
        if not words or room <= 0:
            return size
        widest = max(CoreLabel(font_size=size, bold=True).get_extents(w)[0] for w in words)
        return size if widest <= room else max(size * room / widest, 1.0)

    @classmethod
    def primary_size(cls, size: float, room: float, text: str) -> float:
        """The next step's button's words: `size` (whole words, `whole_words_size`) while
        they take at most three lines of `room`, else the game's body text at the
        player's text size: on a phone at Largest text a four-clan turn order stood five
        lines tall, and the pinned row took the view, the board's rows under it."""
        from kivy.core.text import Label as CoreLabel

        size = cls.whole_words_size(size, room, text)
        body = sp(TEXT_SP) * style.font_scale
        if size <= body or not text or room <= 0:
            return size
        core = CoreLabel(text=text, font_size=size, bold=True, text_size=(room + dp(2), None))
        core.refresh()
        line = CoreLabel(text="Ag", font_size=size, bold=True)
        line.refresh()
        if core.texture.size[1] <= 3.5 * line.texture.size[1]:
            return size
        return cls.whole_words_size(body, room, text)

    def next_step(self) -> None:
        if self._primary is not None:
            self.send_action(self._primary)

    def tap_square(self, square: str) -> None:
        """A tap on the board: the square for a unit being corrected; a hero's piece
        selects the hero (the selected hero's own piece opens its sheet); an enemy's piece
        is the selected hero's battle (or aim), or with no hero selected opens its sheet;
        any other square is the selected hero's move."""
        state = self.session.state
        sheet = self.ids.sheet
        if sheet.unit and sheet.picking:
            sheet.place(state, square)
            return
        if self._placing is not None:  # the square a potion or blink takes the hero to
            placing, self._placing = self._placing, None
            args = self.ids.facts.fill(placing)
            args[SQUARE_INPUT] = square  # one the rules do not offer is refused in words
            self.send(placing["do"], args)
            return
        unit = self.ids.board.unit_at(square)
        if unit in state.heroes:
            if unit == self.hero:
                self.open_sheet(unit)
            else:
                self.select(unit)
            return
        if not self.hero:
            if unit is not None:
                self.open_sheet(unit)
                return
            self.message = "Pick a hero first (tap a hero's piece or button), then tap a square"
            return
        tap = board_tap(state, self._actions, self.hero, square, self.aiming)
        action = tap.listed
        if action is None:  # not listed: the rules say why, in their words
            self.send_action(tap.unlisted)
            return
        if action["with"].get("disengage") and self._confirm != square:
            self._confirm = square
            self.message = f"{action['label']}: tap {square} again to do it"
            return
        short = self.short_of(action)
        if short is not None:
            self.ask_fact(action, *short)
            return
        self.send_action(action)

    def pick_square_for(self, action: Action) -> None:
        """The action's square is the next tap on the board, not a stepper through them."""
        self._placing = action
        self.message = f"{action['label']}: tap the square on the board"

    def short_of(self, action: Action) -> tuple[str, dict[str, Any]] | None:
        """The first fact of `action` stepped below the least the rules list for it (the
        flight a distant enemy needs, the extra move a far square needs), if any."""
        values = self.ids.facts.values
        for path, spec in action.get("inputs", {}).items():
            if "min" in spec and spec["min"] > 0 and values.get(fact_key(path), 0) < spec["min"]:
                return path, spec
        return None

    def ask_fact(self, action: Action, path: str, spec: dict[str, Any]) -> None:
        """One tap answers it: a button for each value the rules allow, from the least; the
        chosen value is the fact's stepper value and the action is sent with it."""
        key = fact_key(path)
        words = FACT_WORDS.get(key, key.replace("_", " ")).lower()
        self.ask_text = f"{action['label']}: how much {words} do the creatures give?"
        box = self.ids.ask
        box.clear_widgets()
        for value in range(int(spec["min"]), int(spec["max"]) + 1):
            b = GameButton(text=str(value), bold=True)
            b.bind(on_release=lambda _b, v=value: self.answer_fact(action, key, v))
            box.add_widget(b)
        cancel = GameButton(text="Cancel")
        cancel.bind(on_release=lambda _b: self.drop_question())
        box.add_widget(cancel)

    def answer_fact(self, action: Action, key: str, value: int) -> None:
        self.drop_question()
        self.ids.facts.values[key] = value
        self.ids.facts.forget_shown()
        self.send_action(action)

    def drop_question(self) -> None:
        self.ask_text = ""
        self.ids.ask.clear_widgets()

    def select(self, clan: str) -> None:
        self.hero = "" if self.hero == clan else clan
        self._confirm = None
        self.ids.facts.forget()
        self.refresh()

    def pick_order(self, clan: str) -> None:
        """One more hero in the turn order; the whole order sends the listed choice."""
        self._order.append(clan)
        players = list(self.session.state.players)
        if len(self._order) < len(players):
            self.refresh()
            return
        order, self._order = self._order, []
        self.send_action(turn_order_action(self._actions, order))

    # -- showing the state --------------------------------------------------------------

    def refresh(self) -> None:
        if self.session is None:
            return
        state = self.session.state
        self._actions = self.listed()
        self._primary = next((a for a in self._actions if a.get("primary")), None)
        self._whose_turn()
        seen = self.snapshot(state)
        if seen != self._seen:  # something happened: what it moved comes into view
            self._focus = self._moved(self._seen, seen)
            self._seen = seen
            Clock.schedule_once(lambda _dt: self._show_pieces(), 0)
        self.primary_text = self._primary.get("label", "") if self._primary else ""
        self.ids.status.show(state, self.session.content)
        self.ids.hunt.show(state, self.session.content)
        names = self.session.names()
        self.ids.walkthrough.show(state, names)
        self.ids.key.show(state, self.session.content)
        self.ids.sheet.show(state)
        self.ids.battle.show(state, names)
        board = self.ids.board
        board.session = self.session
        board.selected = self.hero
        board.refresh()
        self._heroes(state)
        self._buttons()
        self._turn_order(state)
        self.ids.facts.show(
            [a for a in self._actions if a is self._primary or a["with"].get("hero") == self.hero]
        )
        self.can_aim = self.mine_any("target_enemy")
        self.aiming = self.aiming and self.can_aim
        request = self.session.request
        self.waiting = request is not None
        if request is None:
            self.request_text = ""
        else:
            panel = "Dice" if request.kind == "dice" else "Cards"
            self.request_text = f"Waiting: {request.why} (answer on the {panel} panel)"
        # what stands above the board wrapped now, at the width it is shown at (once the
        # view is in the frame): the frame places the result card by `room_needed`, and a
        # need counted before these words were drawn put the card above the game, then
        # beside it (issue 26)
        if self.parent is not None:
            for name in ("primary", *PINNED[1:]):
                self.ids[name].texture_update()

    def snapshot(self, state: DirewildState) -> Seen:
        """Where the pieces stand and the last battle (the rules change the state in
        place, so what changed is told by comparing copies)."""
        battle = state.last_battle
        fought = (battle.hero, battle.enemy, list(battle.roll)) if battle else None
        return dict(self.ids.board.where(state)), fought

    @staticmethod
    def _moved(before: Seen | None, after: Seen) -> list[str]:
        """The squares of the units a change moved or set fighting, where they are now."""
        now, fought = after
        was = before[0] if before is not None else {}
        units = {u for u, sq in now.items() if was.get(u) != sq}
        if fought is not None and (before is None or fought != before[1]):
            units |= {fought[0], fought[1]}
        return [now[u] for u in units if u in now]

    def _show_pieces(self) -> None:
        """Every piece in view if they fit, else what the last change touched."""
        walk = self.ids.walkthrough
        if walk.shown:
            self.bring_into_view(walk.current_path)
            return
        board = self.ids.board
        every = list(board.where(self.session.state).values())
        if every and self._span(every) <= self.ids.scroll.height - dp(12):
            self.bring_into_view(every)
        else:
            self.bring_into_view(self._focus or every)

    def _span(self, squares: list[str]) -> float:
        board = self.ids.board
        ys = [board.centre(sq)[1] for sq in squares]
        return float(max(ys) - min(ys) + board.touch_cell_size())

    def _whose_turn(self) -> None:
        """In the heroes' turns the hero whose turn the rules expect next is selected, so
        a tap on the board is theirs without picking them first; another can be picked."""
        # the rules list ending a turn only for the hero whose turn it is (the seated
        # order's first while the turn order may still change)
        now = next((a for a in self._actions if a["do"] == "end_turn"), None)
        if now is None:
            return
        heroes = self.session.state.heroes
        if not self.hero or heroes[self.hero].done:
            self.hero = now["with"]["hero"]
            self._confirm = None
            self.ids.facts.forget()

    def mine_any(self, do: str) -> bool:
        return any(a["do"] == do and a["with"].get("hero") == self.hero for a in self._actions)

    def _buttons(self) -> None:
        """Every listed action that is neither the next step nor a tap on the board."""
        box = self.ids.actions
        box.clear_widgets()
        for action in self._actions:
            if action is self._primary:
                continue
            args = action["with"]
            if action["do"] in ON_THE_BOARD and args.get("to") != STAGING:
                continue
            if args.get("hero") not in (None, self.hero) and action["do"] != "end_turn":
                continue
            b = GameButton(text=action.get("label", action["do"]), size_hint_y=None)
            if SQUARE_INPUT in action.get("inputs", {}):
                b.bind(on_release=lambda _b, a=action: self.pick_square_for(a))
            else:
                b.bind(on_release=lambda _b, a=action: self.send_action(a))
            b.bind(texture_size=grow)
            box.add_widget(b)
        self.fit_actions()

    def fit_actions(self) -> None:
        """Two buttons a row only if each word of every button fits half the row."""
        from kivy.core.text import Label as CoreLabel

        box = self.ids.actions
        buttons = list(box.children)
        if not buttons:
            return
        size = buttons[0].font_size
        words = {w for b in buttons for w in str(b.text).split()}
        widest = max(CoreLabel(font_size=size).get_extents(w)[0] for w in words) if words else 0
        half = (box.width - box.spacing[0]) / 2 - dp(8)  # a button's text room (GameButton)
        self.action_cols = 2 if widest <= half else 1

    def _turn_order(self, state: DirewildState) -> None:
        box = self.ids.order
        box.clear_widgets()
        if not any(a["do"] == "set_turn_order" for a in self._actions):
            self._order, self.order_text = [], ""
            return
        picked = ", ".join(h.title() for h in self._order)
        self.order_text = "Choose the turn order: tap the heroes, first player first" + (
            f" ({picked} so far)" if picked else ""
        )
        for clan in state.players:
            if clan in self._order:
                continue
            b = GameButton(text=f"{len(self._order) + 1}. {clan.title()}")
            b.bind(on_release=lambda _b, c=clan: self.pick_order(c))
            box.add_widget(b)

    def _heroes(self, state: DirewildState) -> None:
        box = self.ids.heroes
        if self._hero_buttons != list(state.heroes):
            box.clear_widgets()
            for clan in state.heroes:
                b = GameToggle(text=clan.title(), group="direwild-hero", size_hint_y=None)
                b.bind(texture_size=tall)  # wrapped to four lines on a phone at Largest
                b.bind(on_release=lambda _b, c=clan: self.select(c))
                box.add_widget(b)
            self._hero_buttons = list(state.heroes)
        for b, clan in zip(reversed(box.children), state.heroes, strict=False):
            h = state.heroes[clan]
            where = "staging area" if h.position == STAGING else h.position
            b.state = "down" if clan == self.hero else "normal"
            b.text = f"{clan.title()}\n{where}, stamina {h.stamina:+d}, magic {h.magic}"
