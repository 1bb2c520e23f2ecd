"""A Kradia round by touch, from the home screen: the wizard, the battlefield card, four
heroes' Basic Attacks, the boss's attack answered on the Dice panel's keypad; the round's
start, the boss's attack itself and the round's end take no tap (the app takes them by
itself).

Shared by the round_by_touch test and benchmarks/bench_taps.py, so both count the same taps.
"""

from __future__ import annotations

from typing import Any

from tests.ui.rounds.driver import FrameUnseen, RoundDriver, frame_on_screen, on_screen

TITLE = "Kradia: Wild Hunt Festival"
BOSS_DICE = (6, 5)


def must_see(driver: RoundDriver) -> None:
    """The result card, what the table must do now, and the boss board, without scrolling."""
    app = driver.case.app
    screen = app.screen("session")
    view = screen.view
    area = screen.ids.game_area
    if screen.ids.result.shown:
        frame_on_screen(screen.ids.result, "the result card")
    request = app.session.request
    if request is not None and request.kind == "dice":
        dice = screen.panels["dice"]
        on_screen(dice.ids.request, "the roll asked for")
        for key in dice.ids.keypad.children:
            on_screen(key, f"the keypad's {key.text}")
    elif request is not None:
        options = screen.panels["cards"].ids.options
        for button in options.children:
            on_screen(button, f"the card {button.text}")
    elif view.ids.actions.ids.primary.children:
        on_screen(view.ids.actions.ids.primary, "the next step's button", area)
    on_screen(view.ids.boss.ids.track, "the boss's HP track", area)
    on_screen(view.ids.boss.ids.rage, "the boss's rage track", area)


def frame_crowds(screen: Any) -> bool:
    """The session frame leaves the game less room than it should: a result card over a
    third of the window, or the Cards tab still open after its card was shown (the frame
    change in the kradia2 report fixes both).  What spills then is reported apart."""
    card = screen.ids.result
    window = card.get_root_window()
    tall = card.shown and window is not None and card.height > window.height / 3 + 1
    return tall or (screen.tab == "cards" and screen._session.request is None)


def must_see_in_frame(driver: RoundDriver) -> None:
    try:
        must_see(driver)
    except AssertionError as exc:
        if isinstance(exc, FrameUnseen) or not frame_crowds(driver.case.app.screen("session")):
            raise
        raise FrameUnseen(str(exc)) from None


def play_round(driver: RoundDriver) -> Any:
    """One round; returns the session.  Each step is shot and checked by `must_see`."""
    case = driver.case
    app = case.start_app()
    check = lambda: must_see_in_frame(driver)  # noqa: E731
    driver.tap("New game")
    driver.tap(TITLE)
    driver.tap("Start the game", within=app.screen("new"))
    assert app.root.current == "session", app.screen("new").ids.notice.text
    driver.round_starts()
    session = app.session
    screen = app.screen("session")
    # the round's start and the boss's attack have no choice in them: the app takes them
    # by itself (the rules mark them `auto`), so no tap is theirs
    assert session.request is not None and session.request.kind == "draw", screen.error
    driver.shoot("battlefield-draw", check)
    first = session.request.options[0]
    name = next(b.text for b in screen.panels["cards"].ids.options.children if b.card_id == first)
    driver.tap(name, within=screen.panels["cards"])
    assert session.state.phase == "heroes", screen.error
    driver.shoot("battlefield", check)
    for hero in list(session.state.order):
        assert session.state.turn == hero, screen.error
        driver.tap("Basic Attack", within=screen.view)
        if session.state.turn == hero:  # an Item card holder keeps the turn open
            driver.tap(
                f"End {session.content.get('heroes', session.state.heroes[hero].card).title}'s turn"
            )
        driver.shoot(f"{hero}-acts", check)
    assert session.state.phase == "boss", screen.error
    assert session.request is not None and session.request.kind == "dice", screen.error
    card = screen.ids.result
    assert "Boss attacks" in card.text, card.text  # the step taken by itself is on the card
    driver.shoot("boss-roll", check)
    before = card.text
    dice = list(BOSS_DICE[: session.request.count])
    driver.roll(dice, lambda: card.text != before and card.shown)
    # the round's end and the next round's start have no choice in them either: the app
    # takes them, and the card keeps the boss's attack (titled by the step that asked for the
    # roll) above them, while the next Battlefield card waits to be shown
    assert session.state.round == 1 and session.state.phase == "battlefield", screen.error
    assert session.request is not None and session.request.kind == "draw", screen.error
    lines = card.text.split("\n")
    assert card.title.startswith("Boss attacks"), card.title
    assert any("rolled 6, 5" in line for line in lines[:2]), lines
    assert "Start round 2" in card.text, card.text
    driver.shoot("boss-attack", check)
    return session
