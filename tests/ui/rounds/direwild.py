"""A Direwild round by touch, from the home screen: the wizard, the minions drawn for their
slots, the Enemy AI card and every one of its steps, Stormbringer's move and battle (flight
stepped up, the red minion's piece tapped, the roll on the Dice keypad), the round ended.
The round's start and the AI card's reveal take no tap (the app takes them by itself), nor
does the turn order as seated (the first hero just starts).

Shared by the round_by_touch test and benchmarks/bench_taps.py, so both count the same taps.
"""

from __future__ import annotations

from typing import Any

from companion.games.direwild.view import happened_words
from tests.ui.rounds.driver import RoundDriver, frame_on_screen, on_screen

TITLE = "Direwild"
AI_CARD = "direwild/ai/standard-4"  # moves the red minion to D4, three squares from D8
HERO, MOVE_TO, FOE = "stormbringer", "E10", "red"  # three squares in: no stamina exerted
ATTACK = 4  # the creatures' attack, stepped up: 4 + stamina 0 + roll 3 beats the Coatl's 6
BATTLE_ROLL = 3
# where each other hero walks in its turn: two squares from the staging area
WALKS = {"shadowleaf": "F11", "groundbreaker": "G11", "featherheart": "H11"}


def must_see(driver: RoundDriver) -> None:
    """The result card, what the table must do now (the roll, the card, the next step's
    button), the walk-through while it is shown, every square that matters (the step's
    path, or every piece) and, up to Larger text, the whole board, without scrolling: the
    12 x 12 board once did not fit beside the result card (issue 12).

    At Largest text the board may need a slide: issue 25 keeps its squares a finger's
    size and never shrinks it under what is asked, while the heading above it and a
    four-hero turn order now wrap whole instead of being cut, so the board's column can
    be a few rows short of a 1280 x 800 window.  The squares the step names are still
    seen without scrolling (the view scrolls them into sight).

    On a phone (412 px wide) twelve squares of a finger's size never fit across: the
    board slides, so neither the whole board nor every piece is asked for, only the
    step's path, and with a panel open in the game's place only what the panel shows."""
    from companion.ui.settings import TEXT_SIZES
    from companion.ui.style import style

    app = driver.case.app
    driver.case.frames(3)  # what a player sees a moment after the tap
    screen = app.screen("session")
    view = screen.view
    area = screen.ids.game_area
    if screen.ids.result.shown:  # the frame gives it the room the board leaves
        on_screen(screen.ids.result, "the result card")
    request = app.session.request
    if request is not None and request.kind == "dice":
        dice = screen.panels["dice"]
        side = screen.ids.panel_area  # not drawn over the tabs (a result card beside)
        on_screen(dice.ids.request, "the roll asked for", side)
        for key in dice.ids.keypad.children:
            on_screen(key, f"the keypad's {key.text}", side)
    elif request is not None:  # the Cards panel is the frame's
        for button in screen.panels["cards"].ids.options.children:
            frame_on_screen(button, f"the card {button.text}")
    if screen.game_hidden:
        return  # a phone: the panel asked for is in the game's place, the game a tab away
    if view.primary_text:
        on_screen(view.ids.primary, "the next step's button", area)
    if view.request_text:
        on_screen(view.ids.request, "what the table must do", area)
    board = view.ids.board
    walk = view.ids.walkthrough
    if walk.shown:
        on_screen(walk, "the Enemy AI step", area)
        squares = {sq: "of the step's path" for sq in walk.current_path}
    elif screen.phone:  # a phone: the board slides under a finger, a piece at a time
        squares = {}
    else:  # every piece on the board
        squares = {
            sq: f"with {unit}'s piece" for unit, sq in board.where(app.session.state).items()
        }
    if style.font_scale < TEXT_SIZES["Largest"] and not screen.phone:
        on_screen(_Box(board, *board.squares_box()), "the whole board", area)
    half = board.touch_cell_size() / 2
    for square, why in squares.items():
        x, y = board.centre(square)
        on_screen(_Box(board, x - half, y - half, 2 * half), f"square {square} {why}", area)


class _Box:
    """A part of the board (a square, or all of it), as `on_screen` measures a widget."""

    def __init__(
        self, board: Any, x: float, y: float, width: float, height: float | None = None
    ) -> None:
        self.parent, self.x, self.y = board.parent, x, y
        self.width, self.height = width, width if height is None else height
        self.pos, self.size = (x, y), (self.width, self.height)
        self.right, self.top = x + self.width, y + self.height
        self._board = board

    def get_root_window(self) -> Any:
        return self._board.get_root_window()

    def to_window(self, x: float, y: float) -> tuple[float, float]:
        return self._board.to_window(x, y)


def tap_square(driver: RoundDriver, square: str) -> None:
    """A finger on one square of the board (scrolled to first, as a player would)."""
    case = driver.case
    board = case.app.screen("session").view.ids.board
    case.frames(2)
    case.scroll_into_view(board)
    case.touch_at(*board.to_window(*board.centre(square)))
    driver.counted(f"square {square}")


def answer_cards(
    driver: RoundDriver, check: Any, name: str, prefer: str | None = None, phase: str = ""
) -> None:
    """Each card the rules ask for, tapped by its name on the Cards panel (while the game
    is in `phase`, if given: the next phase's card is another step's)."""
    session = driver.case.app.session
    screen = driver.case.app.screen("session")
    while session.request is not None and session.request.kind == "draw":
        if phase and session.state.phase != phase:
            break
        wanted = prefer if prefer in session.request.options else session.request.options[0]
        driver.shoot(name, check)  # first: the panel redraws its cards at each size
        panel = screen.panels["cards"]
        for _ in range(30):  # the panel shows this draw's cards (it redraws a frame late)
            if {b.card_id for b in panel.ids.options.children} == set(session.request.options):
                break
            driver.case.frames(1)
        card = next(b.text for b in panel.ids.options.children if b.card_id == wanted)
        asked = session.request
        tap_in_place(driver, card, panel.ids.options)
        assert session.request is not asked, f"tapping {card!r} answered nothing"


def tap_in_place(driver: RoundDriver, text: str, within: Any) -> None:
    """A tap on a card of the Cards panel, with the panel scrolled to its top first, as a
    player looking for the new cards would.  Not the harness's scroll_to: with the panel's
    cards shorter than the panel (landscape, after a Largest-text portrait screenshot),
    Kivy's ScrollView.scroll_to sets scroll_y far below 0 and the cards leave the window.
    The round test warns when the cards need scrolling (frame_unseen): that fix is the
    frame's."""
    from kivy.uix.scrollview import ScrollView

    from tests.ui.kivyharness import walk_up

    case = driver.case
    case.frames(2)
    for scroller in walk_up(within):
        if isinstance(scroller, ScrollView):
            scroller.scroll_y = 1
    case.frames(2)
    widget = case.find(text, within=within)
    scroller = next((w for w in walk_up(widget) if isinstance(w, ScrollView)), None)
    if scroller is not None:  # below the panel's fold: scrolled to, as a player would
        _x, bottom = widget.to_window(widget.x, widget.y)
        _x, top = widget.to_window(widget.x, widget.top)
        _x, low = scroller.to_window(scroller.x, scroller.y)
        _x, high = scroller.to_window(scroller.x, scroller.top)
        if bottom < low or top > high:
            case.scroll_into_view(widget)
    case.touch_at(*case.settled_center(widget))
    driver.counted(text)


def pick_hero(driver: RoundDriver, hero: str) -> None:
    """The hero whose turn it is, picked on the view (a tap only if it is not already)."""
    view = driver.case.app.screen("session").view
    if view.hero != hero:
        name = driver.case.app.session.names().get(hero, hero.title())
        driver.tap(next(b for b in view.ids.heroes.children if b.text.startswith(name[:7])))
    assert view.hero == hero


def step_fact(driver: RoundDriver, key: str, value: int) -> None:
    """A creature's fact (its attack) stepped up to `value` with its + button."""
    view = driver.case.app.screen("session").view
    stepper = next(w for w in view.ids.facts.children if getattr(w, "key", "") == key)
    while int(stepper.value) < value:
        driver.tap("+", within=stepper)


def end_turn(driver: RoundDriver, hero: str, last: bool) -> None:
    """The hero's turn ended by its button; the last hero's with "End the round"."""
    session = driver.case.app.session
    view = driver.case.app.screen("session").view
    if last:
        driver.tap("End the round", within=view)
        return
    name = session.names().get(hero, hero.title())
    driver.tap(f"End {name}'s turn", within=view)
    assert session.state.heroes[hero].done, view.message


def play_round(driver: RoundDriver, players: int = 2) -> tuple[Any, Any]:
    """One round with `players` clans; returns the session and the round's battle (the
    next round, started by itself, has cleared it from the state).  Stormbringer walks in,
    steps the creatures' attack up and battles the red minion by flight; every other hero
    walks in; each turn is ended by its button, the last with "End the round".  Each step
    is shot and checked by `must_see`."""
    case = driver.case
    app = case.start_app()
    check = lambda: must_see(driver)  # noqa: E731
    driver.tap("New game")
    driver.tap(TITLE)
    driver.set_players("players", players)
    driver.tap("Start the game", within=app.screen("new"))
    assert app.root.current == "session", app.screen("new").ids.notice.text
    driver.round_starts()
    session = app.session
    screen = app.screen("session")
    view = screen.view
    assert len(session.state.players) == players, session.state.players
    # the round's start and the Enemy AI card's reveal have no choice in them: the app
    # takes them by itself (the rules mark them `auto`); the table only shows the cards
    assert session.request is not None and session.request.kind == "draw", screen.error
    answer_cards(driver, check, "minion-draw", phase="setup")  # a minion for each slot
    assert session.state.phase == "game", screen.error
    answer_cards(driver, check, "ai-card-draw", prefer=AI_CARD)
    # the whole AI card read at once, with no tap: its every action on the result card
    # (beside the board, or above it), each enemy's path drawn on the board in its colour;
    # stepping through them one at a time is there for a table that wants it
    names = session.names()
    steps = [happened_words(s.action, s.data, names) for s in session.state.walkthrough]
    assert len(steps) > 1 and not view.ids.walkthrough.shown, screen.error
    assert all(text in screen.ids.result.text.split("\n") for text in steps), (
        steps,
        screen.ids.result.text,
    )
    driver.shoot("ai-card", check)
    # the turn order as seated needs no tap: the first seated hero just starts
    assert session.state.phase == "turn_order", screen.error
    assert session.state.players[0] == HERO
    pick_hero(driver, HERO)
    tap_square(driver, MOVE_TO)
    assert session.state.heroes[HERO].position == MOVE_TO, view.message
    driver.shoot("hero-moved", check)
    step_fact(driver, "attack", ATTACK)
    tap_square(driver, session.state.enemies[FOE].position)
    if session.request is None:  # the flight the creatures give, asked for in one tap
        flight = min(int(b.text) for b in view.ids.ask.children if b.text.isdigit())
        driver.tap(str(flight), within=view.ids.ask)
    assert session.request is not None and session.request.kind == "dice", view.message
    driver.shoot("battle-roll", check)
    card = screen.ids.result
    before = card.text
    driver.roll([BATTLE_ROLL], done=lambda: card.text != before and card.shown)
    battle = session.state.last_battle
    assert battle is not None, screen.error
    driver.shoot("battle", check)
    heroes = list(session.state.players)
    end_turn(driver, HERO, last=len(heroes) == 1)
    for n, hero in enumerate(heroes[1:], start=2):
        pick_hero(driver, hero)
        tap_square(driver, WALKS[hero])
        assert session.state.heroes[hero].position == WALKS[hero], view.message
        if n == 2:
            driver.shoot(f"{hero}-walks", check)
        end_turn(driver, hero, last=n == len(heroes))
    driver.shoot("end-the-round", check)
    # the next round has started by itself and waits for its cards (minions, or the AI card)
    assert session.state.round == 2, (screen.error, session.state.phase)
    assert session.request is not None and session.request.kind == "draw", screen.error
    return session, battle
