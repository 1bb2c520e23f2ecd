"""A HEXplore round by touch, from the home screen: the wizard, a game turn's Skill phase
(each hero's three skill rolls answered on the Dice panel's keypad), the Circumstance, a
fight started by tapping the opponent, each hero's declaration, the opponent's action and
the round's resolution, then the Magi phase ending the turn.

Shared by the round_by_touch test and benchmarks/bench_taps.py, so both count the same taps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.ui.rounds.driver import RoundDriver, frame_on_screen, on_screen

TITLE = "HEXplore It: The Forests of Adrimon"
SKILL_DICE = (2, 3, 4)  # navigate, explore, survival: every rank in the demo is above these
CIRCUMSTANCE = 3
OPPONENT = "Giant Fox!"
ACTION_DIE = 2
FAVORED_DIE = 2  # a hero's Favored Opponent damage die (a 6 would HEXplode)
TARGET_DICE = (3, 8, 5, 10)  # one per hero, no two alike: no roll-off for a tie


def must_see(driver: RoundDriver) -> None:
    """The result card, the roll asked for (or the next step's button), and in a fight
    the opponent's and every hero's Health and Energy, without scrolling."""
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
    if screen.game_hidden:
        return  # a phone: the panel asked for is in the game's place, the game a tab away
    on_screen(view, "the HEXplore view", area)
    if request is not None and request.kind == "dice":
        if view.ids.status.text:
            on_screen(view.ids.status, "the view's waiting line", area)
    elif view.next_label:
        on_screen(view.ids.next, "the next step's button", area)
    combat = app.session.state.combat
    if combat is not None and combat.phase != "over":
        mat = view.ids.mat
        on_screen(mat.bar("opponent", "health"), "the opponent's Health", area)
        on_screen(mat.bar("opponent", "energy"), "the opponent's Energy", area)


def rolled_by(session: Any, hid: str) -> Callable[[], bool]:
    """Whether the hero's skill rolls are all in (the last die's answer is taken)."""
    return lambda: hid in session.state.skill_phase.rolled


def primary(driver: RoundDriver, do: str) -> None:
    """Tap the big Next button, checking it does what the round needs next."""
    view = driver.case.app.screen("session").view
    assert view.primary is not None and view.primary["do"] == do, view.next_label
    driver.tap(view.next_label, within=view)


def play_round(driver: RoundDriver, heroes: int = 2) -> Any:
    """One game turn and one combat round with `heroes` at the table; returns the
    session."""
    case = driver.case
    app = case.start_app()
    check = lambda: must_see(driver)  # noqa: E731
    driver.tap("New game")
    driver.tap(TITLE)
    driver.set_players("heroes", heroes)
    driver.tap("Start the game", within=app.screen("new"))
    assert app.root.current == "session", app.screen("new").ids.notice.text
    driver.round_starts()
    session = app.session
    screen = app.screen("session")
    card = screen.ids.result
    driver.shoot("start", check)
    for n, hid in enumerate(list(session.state.heroes)):
        primary(driver, "roll_skills")
        assert session.request is not None and session.request.kind == "dice", screen.error
        if n == 0:
            driver.shoot("skill-roll", check)
        for value in SKILL_DICE[:-1]:
            driver.roll([value])
        driver.roll([SKILL_DICE[-1]], rolled_by(session, hid))
        assert session.request is None, screen.error
    driver.shoot("skills-rolled", check)
    primary(driver, "end_skill_phase")
    assert session.state.skill_phase.resolved, screen.error
    driver.shoot("skill-phase-settled", check)
    primary(driver, "roll_circumstance")
    driver.roll([CIRCUMSTANCE])
    primary(driver, "settle_circumstance")
    driver.shoot("circumstance", check)
    view = screen.view
    driver.tap(f"Fight {OPPONENT}", within=view.ids.mat)
    assert session.state.combat is not None, screen.error
    driver.shoot("combat-start", check)
    for hid in list(session.state.combat.heroes):
        driver.tap("Attack (health)", within=view.ids.mat.button(hid, "attack").parent)
        while session.request is not None:  # a Favored Opponent's damage die, and the like
            asked = session.request
            assert asked.kind == "dice", screen.error
            driver.roll([FAVORED_DIE] * asked.count)
            assert session.request != asked, f"the roll was not taken: {screen.error}"
    driver.shoot("declared", check)
    primary(driver, "opponent_action")
    assert session.request is not None and session.request.kind == "dice", screen.error
    driver.shoot("opponent-roll", check)
    before = card.text
    driver.roll([ACTION_DIE], lambda: card.shown and card.text != before)
    for n in range(12):  # the targets and their rolls, as the action asks
        if session.request is None:
            break
        asked = session.request
        assert asked.kind == "dice", screen.error
        if n == 0:
            driver.shoot("opponent-targets", check)
        driver.roll([TARGET_DICE[n % len(TARGET_DICE)]] * asked.count)
        assert session.request != asked, f"the roll was not taken: {screen.error}"
    assert session.state.combat.last_action is not None, screen.error
    assert card.title == f"{OPPONENT} acts", card.title  # what the rolls were for
    driver.shoot("opponent-acts", check)
    primary(driver, "resolve_round")
    assert session.state.combat.resolution, screen.error
    assert card.title == "Resolve the round", card.title  # the rules' words
    driver.shoot("round-resolved", check)
    primary(driver, "end_game_turn")
    assert session.state.turn == 2, screen.error
    driver.shoot("turn-ended", check)
    return session
