"""own_pack (issue 13): a pack of the group's own cards made by touch, then played.

For each game: a pack made empty in Your cards, one card of every kind the game needs to
start entered by touch (names typed: the only keyboard use), the game started from the
wizard with that pack alone, and the new card's numbers seen in play.  And a copy of the
demo pack with one number changed, exported, imported into a fresh home and played.
"""

from __future__ import annotations

import os
import tempfile

import pytest

from companion.core import workshop
from tests.ui.editor.driver import (
    BOSS_TASK,
    MINION_TASK,
    OPPONENT_TASK,
    EditorDriver,
    draw_board,
    new_card,
    new_pack,
    save_clean,
    start_with_pack,
)
from tests.ui.kivyharness import AppTestCase

pytestmark = [pytest.mark.ui, pytest.mark.own_pack]

HEXPLORE = "HEXplore It: The Forests of Adrimon"


def play_label(case: AppTestCase, label: str) -> None:
    """Tap one of the game view's buttons, by the words the rules gave its action (a
    view may show shorter words on the button itself)."""
    from tests.ui.kivyharness import walk

    view = case.app.screen("session").view
    case.frames(3)
    for w in walk(view):
        action = getattr(w, "action", None)
        if isinstance(action, dict) and action.get("label") == label and not w.disabled:
            case.tap(w)
            return
    case.tap(label, within=view)


def answer_dice(case: AppTestCase, *values: int) -> None:
    dice = case.app.screen("session").panels["dice"]
    for value in values:
        case.tap(str(value), within=dice.ids.keypad)


class TestOwnPackHexplore(AppTestCase):
    def test_a_pack_from_empty_fights_with_the_new_opponents_table(self) -> None:
        self.start_app()
        d = EditorDriver(self)
        new_pack(d, HEXPLORE)
        new_card(d, "Heroes", "New hero", "Fen Walker")
        d.type_text("Warden", "role")
        d.type_text("Human", "race")
        d.number(9, "health")
        d.number(5, "energy")
        for rank in ("attack", "defend", "navigate", "explore", "survival"):
            d.number(2, rank)
        save_clean(d, "Fen Walker")

        # an Encounter from its template: its three actions laid out, each stepped
        new_card(d, "Opponents", "New opponent", "Marsh Wisp")
        d.choose("Encounter", "kind")  # the rulebook's words, picked
        d.choose("Undead", "type")
        d.number(6, "health")
        d.number(5, "energy")
        d.open("actions", 0)
        d.type_text("Mire Grasp", "actions", 0, "name")
        d.number(4, "actions", 0, "health")
        d.number(1, "actions", 0, "piercing")
        d.open("actions", 1)
        d.number(1, "actions", 1, "cost")
        d.choose("Triple", "actions", 1, "target")
        d.number(0, "actions", 1, "health")
        d.number(2, "actions", 1, "energy")
        d.choose("Attack", "actions", 1, "default")  # one of the card's own actions
        d.open("actions", 2)
        d.choose("Dual", "actions", 2, "target")
        d.number(3, "actions", 2, "health")
        d.number(1, "actions", 2, "defend")
        d.shoot("hexplore-opponent")
        save_clean(d, "Marsh Wisp", OPPONENT_TASK)
        (wisp,) = workshop.cards("hexplore", "our-hexplore-it", "opponents")
        assert [a["key"] for a in wisp["actions"]] == ["attack", "mastery", "special"]
        assert wisp["actions"][1]["default"] == "attack" and wisp["type"] == "undead"
        assert not workshop.pack_info("hexplore", "our-hexplore-it").draft

        new = start_with_pack(d, HEXPLORE, "Our HEXplore It")
        self.tap("Start the game", within=new)
        assert self.app.root.current == "session", new.ids.notice.text
        session = self.app.session
        assert session.content.packs == ["our-hexplore-it"]
        play_label(self, "Fight Marsh Wisp")
        play_label(self, "Fen Walker: Defend")
        play_label(self, "Marsh Wisp acts")
        assert session.request is not None and session.request.kind == "dice"
        answer_dice(self, 1)
        last = session.state.combat.last_action
        # action die 1 is the Attack line we entered: 4 Health
        assert (last.ability, last.health) == ("attack", 4), last


def answer_draws(case: AppTestCase, phase: str = "") -> None:
    """Each card the rules ask the table to draw, tapped by its name in the Cards panel
    (while the game is in `phase`, if given: the next phase's card is another step's)."""
    session, screen = case.app.session, case.app.screen("session")
    while session.request is not None and session.request.kind == "draw":
        if phase and session.state.phase != phase:
            break
        first = session.request.options[0]
        panel = screen.panels["cards"]
        case.frames(3)
        name = next(b.text for b in panel.ids.options.children if b.card_id == first)
        case.tap(name, within=panel)


class TestOwnPackDirewild(AppTestCase):
    def test_a_pack_from_empty_battles_with_the_new_minions_attack(self) -> None:
        self.start_app()
        d = EditorDriver(self)
        new_pack(d, "Direwild")
        # the demo's Redmill board drawn by touch in the board editor, under a name of
        # its own so that the game can be seen to play on it
        demo = workshop.cards("direwild", "demo", "boards")[0]
        draw_board(d, {**demo, "name": "Our Redmill"})
        (board,) = workshop.cards("direwild", "our-direwild", "boards")
        assert board["id"] != demo["id"]
        own = ("id", "name", "demo")
        assert {k: v for k, v in board.items() if k not in own} == {
            k: v for k, v in demo.items() if k not in own
        }

        # from its template (level 1, 3 hit points, one hit effect): mostly numbers
        new_card(d, "Minions (", "New minion", "Bog Hound")
        d.number(11, "attack")
        d.open("hit_effects", 0)
        d.choose("Poison", "hit_effects", 0, "kind")
        d.number(2, "hit_effects", 0, "amount")
        d.add("Add ability", "abilities")
        d.choose("When revealed", "abilities", 0, "when")
        d.add("Add effect", "abilities", 0, "effects")
        d.choose("Teleport", "abilities", 0, "effects", 0, "kind")
        d.shoot("direwild-minion")
        save_clean(d, "Bog Hound", MINION_TASK)
        # a chapter 1 track for two clans needs a level 2 minion too: a copy, renamed
        d.count.since = (d.count.taps, d.count.typed)
        d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith("Minions (")))
        d.tap("Bog Hound")
        d.tap("Copy this card")
        d.type_text("Fen Troll", "name")
        d.number(2, "level")
        d.number(9, "attack")
        save_clean(d, "Fen Troll")

        new_card(d, "Karn (", "New karn", "Karn")
        d.number(14, "attack")
        d.number(10, "track_length")
        save_clean(d, "Karn")

        new_card(d, "Ai cards (", "New ai card", "The Hunt")
        d.add("Add action", "actions")  # after the template's Move Karn and Move 3
        d.choose("Activate a minion", "actions", 2, "do")
        d.shoot("direwild-ai-card")
        save_clean(d, "The Hunt")
        assert not workshop.pack_info("direwild", "our-direwild").draft

        new = start_with_pack(d, "Direwild", "Our Direwild")
        self.tap("Start the game", within=new)
        assert self.app.root.current == "session", new.ids.notice.text
        session = self.app.session
        assert session.content.packs == ["our-direwild"]
        assert session.state.board == board["id"]  # the board drawn, not the demo's
        assert session.content.get("boards", board["id"]).name == "Our Redmill"
        answer_draws(self, phase="setup")  # the round started by itself: its minions
        red = session.state.enemies["red"]
        session.undo()  # the Enemy AI card it then asked for by itself is put back
        assert session.request is None and session.state.phase == "game"
        assert red.minion == "direwild/minion/bog-hound"
        # The battle itself through the command the view sends, with the hero set beside
        # the minion by the table's correction (reaching it by moves is the rounds' test).
        session.do("correct", {"path": "phase", "value": "adventure"})
        session.do("correct", {"path": "heroes.stormbringer.position", "value": "C2"})
        creature = {"attack": 5, "move": 1, "flight": 2, "knockback": 2}
        session.do("resolve_battle", {"hero": "stormbringer", "enemy": "red", "creature": creature})
        while session.request is not None:
            session.answer(1)
        battle = session.state.last_battle
        assert battle.enemy_total == 11 + red.stamina  # the attack entered on the tablet
        assert battle.winner == "enemy"
        assert session.state.heroes["stormbringer"].stamina == -2  # its 2 poison


KRADIA = "Kradia: Wild Hunt Festival"
SYMBOLS = ("sun", "moon", "star")


def every_way_up() -> list[tuple[str, ...]]:
    """The battlefield paths a board needs: every order of the three symbols, 1 to 3 deep."""
    from itertools import permutations

    paths: list[tuple[str, ...]] = []
    for order in permutations(SYMBOLS):
        for n in (1, 2, 3):
            if order[:n] not in paths:
                paths.append(order[:n])
    return paths


class TestOwnPackKradia(AppTestCase):
    @pytest.mark.timeout(900)  # some 300 touches: 4 heroes, a boss, a board of 15 spaces
    def test_a_pack_from_empty_boss_attack_reads_the_new_chart(self) -> None:
        self.start_app()
        d = EditorDriver(self)
        new_pack(d, KRADIA)

        new_card(d, "Heroes (", "New hero", "Ana")
        d.number(10, "hp")  # the template's HP, Mana tracks and Charge Attack #1-#6
        d.number(4, "red_max")
        d.add("Add level 3 skill card", "level3")
        d.add("Add level 3 skill card", "level3")
        d.shoot("kradia-hero")
        save_clean(d, "Ana")
        for name in ("Bo", "Cy", "Di"):  # four seats: three copies, each renamed
            d.count.since = (d.count.taps, d.count.typed)
            d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith("Heroes (")))
            d.tap("Ana")
            d.tap("Copy this card")
            d.type_text(name, "name")
            save_clean(d, name)

        # from its template: the Attack dice by HP and a chart covering every sum laid out
        new_card(d, "Bosses (", "New boss", "Big Boar")
        d.choose("Challenge", "level")  # a number, or the word the rules know: picked
        d.number(20, "hp")
        d.open("dice", 0)
        d.number(20, "dice", 0, "hp_at_most")
        d.open("dice", 1)
        d.number(8, "dice", 1, "hp_at_most")
        # every row's damage, as the printed chart gives it; the sum of 11 hits the Start
        # Player for 3
        for row, (target, damage) in enumerate(
            (
                ("Start Player", 2),
                ("Start Player", 1),
                ("2nd", 3),
                ("Start Player", 3),
                ("All heroes", 2),
            )
        ):
            d.open("chart", row)
            d.open("chart", row, "effects", 0)
            d.choose(target, "chart", row, "effects", 0, "target")
            d.number(damage, "chart", row, "effects", 0, "damage")
        d.number(3, "rage", "length")
        d.shoot("kradia-boss")
        save_clean(d, "Big Boar", BOSS_TASK)

        for symbol in SYMBOLS:
            new_card(d, "Battlefield cards (", "New battlefield card", f"{symbol.title()} Card")
            d.choose(symbol.title(), "symbol")
            save_clean(d, f"{symbol.title()} Card")
        card_ids = [c["id"] for c in workshop.cards("kradia", "our-kradia", "battlefield_cards")]

        new_card(d, "Battlefield boards (", "New battlefield board", "Festival Field")
        for i, symbol in enumerate(SYMBOLS):  # the pack's cards, picked by their names
            d.add("Add battlefield card", "cards")
            d.choose(f"{symbol.title()} Card", "cards", i)
        d.shoot("kradia-battlefield-board")
        for i, path in enumerate(every_way_up()):
            d.add("Add space", "spaces")
            for j, symbol in enumerate(path):
                d.add("Add symbol", "spaces", i, "path")
                d.choose(symbol.title(), "spaces", i, "path", j)
        save_clean(d, "Festival Field")
        (board,) = workshop.cards("kradia", "our-kradia", "battlefield_boards")
        assert board["cards"] == card_ids  # picked by name, kept as the cards' ids
        assert not workshop.pack_info("kradia", "our-kradia").draft

        new = start_with_pack(d, KRADIA, "Our Kradia")
        self.tap("Challenge: Level 4", within=new)
        self.tap("Start the game", within=new)
        assert self.app.root.current == "session", new.ids.notice.text
        session = self.app.session
        assert (
            session.state.boss.id == "kradia/boss/big-boar"
            if hasattr(session.state.boss, "id")
            else True
        )
        answer_draws(self)  # the round started by itself: its Battlefield card
        first = session.state.start_player  # the token passes when the round ends
        for hero in list(session.state.order):
            play_label(self, "Basic Attack")
            if session.state.turn == hero:
                title = session.content.get("heroes", session.state.heroes[hero].card).title
                play_label(self, f"End {title}'s turn")
        # the boss attacks by itself after the last hero
        assert session.request is not None and session.request.count == 2  # the band entered
        answer_dice(self, 6, 5)
        last = session.state.last_attack
        assert last.sum == 11 and [h.damage for h in last.effects] == [3]  # the chart entered
        assert session.state.heroes[first].hp == 10 - 3


class TestSharedPack(AppTestCase):
    def test_copy_the_demo_change_a_number_share_import_into_a_fresh_home_and_play(self) -> None:
        from companion.games import get_game, load_game_content

        self.start_app()
        d = EditorDriver(self)
        new_pack(d, KRADIA, copy_of=workshop.pack_info("kradia", "demo").title)  # by its name
        demo = load_game_content(get_game("kradia"), ["demo"])
        first_boss = demo.get("bosses", demo.all("story_sequences")[0].bosses[0])
        hp = first_boss.hp - 2  # fewer HP stay inside its dice bands
        d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith("Bosses (")))
        d.tap(first_boss.title)
        d.number(hp, "hp")
        save_clean(d, first_boss.title)
        d.tap("Share")
        shared = workshop.exports_dir() / "kradia-our-kradia.pack.zip"
        assert shared.exists() and str(shared) in d.notice(), d.notice()

        # another tablet: a fresh home with the file in its inbox
        self.stop_app()
        os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="ui-other-")
        (workshop.inbox_dir() / shared.name).write_bytes(shared.read_bytes())
        self.start_app()
        d = EditorDriver(self)
        d.tap("Your cards")
        d.tap("Import a pack")
        d.shoot("import")
        d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith(shared.name)))
        assert "Installed 'Our Kradia'" in d.notice(), d.notice()
        d.tap("Import a pack")
        d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith(shared.name)))
        assert "already a Kradia: Wild Hunt Festival pack called 'our-kradia'" in d.notice()

        new = start_with_pack(d, KRADIA, "Our Kradia")
        self.tap("Start the game", within=new)
        assert self.app.root.current == "session", new.ids.notice.text
        boss = self.app.session.state.boss
        assert (boss.id, boss.max_hp) == (first_boss.id, hp)
