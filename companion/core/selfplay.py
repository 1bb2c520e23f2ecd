"""Self-play: a game played by nothing but its own legal actions and random answers.

Why: `legal_actions` is a promise that every listed command is accepted.  Playing a whole
game from the default set-up, choosing only among listed actions and answering every roll
and draw from the request's own faces and options, checks that promise end to end through
the real session (log, fold, requests): any refusal is a rule and its listing disagreeing,
and a state with nothing listed and no ending is a game the table could not finish.
"""

from __future__ import annotations

import copy
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core.game import Game
from companion.core.rules import Action, RuleError
from companion.core.session import Session

DEFAULT_STEPS = 3000
KEPT_REFUSALS = 5  # how many refusal messages a report keeps, to say what went wrong


@dataclass
class SelfPlayReport:
    """What one self-played game did; `refusals` must be 0 and `stuck` False."""

    game: str
    seed: int
    steps: int = 0
    commands: int = 0
    answers: int = 0
    refusals: int = 0
    refused: list[str] = field(default_factory=list)
    outcome: str | None = None
    stuck: bool = False

    @property
    def ended(self) -> bool:
        return self.outcome is not None and self.outcome in ("won", "lost")

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "seed": self.seed,
            "steps": self.steps,
            "commands": self.commands,
            "answers": self.answers,
            "refusals": self.refusals,
            "refused": self.refused,
            "outcome": self.outcome,
            "ended": self.ended,
            "stuck": self.stuck,
        }


def fill_inputs(action: Action, rng: random.Random) -> dict[str, Any]:
    """The action's arguments with each table fact set to a random value it allows."""
    args = copy.deepcopy(action["with"])
    for path, spec in action.get("inputs", {}).items():
        if "choices" in spec:
            if not spec["choices"]:
                continue
            value: object = rng.choice(list(spec["choices"]))
        else:
            value = rng.randint(int(spec["min"]), int(spec["max"]))
        _set_path(args, path.split("."), value)
    return args


def _set_path(target: dict[str, Any], parts: list[str], value: Any) -> None:
    for part in parts[:-1]:
        target = target.setdefault(part, {})
    target[parts[-1]] = value


def random_answer(waiting: dict[str, Any], rng: random.Random, session: Session) -> object:
    """Random values a real die or deck could give, read off the request itself."""
    if waiting["kind"] == "dice":
        return [rng.choice(waiting["faces"]) for _ in range(waiting["count"])]
    options = waiting.get("options") or session.content.ids(waiting.get("deck", ""))
    if not options:
        raise LookupError(f"nothing can answer: {waiting.get('why', '')}")
    return rng.choice(list(options))


def play(
    session: Session, seed: int, steps: int = DEFAULT_STEPS, *, game_id: str = ""
) -> SelfPlayReport:
    """Play `session` on from where it is, for at most `steps` commands and answers."""
    rng = random.Random(seed)
    report = SelfPlayReport(game=game_id or session.game.id, seed=seed)
    while report.steps < steps:
        now = session.actions()
        report.outcome = now["outcome"]
        waiting = now["waiting"]
        try:
            if waiting is not None:
                try:
                    answer = random_answer(waiting, rng, session)
                except LookupError:
                    report.stuck = True
                    break
                report.steps += 1
                report.answers += 1
                session.answer(answer, by="selfplay")
                continue
            actions = [a for a in now["actions"] if a["do"] != "answer"]
            if not actions:
                report.stuck = report.outcome not in ("won", "lost")
                break
            action = rng.choice(actions)
            report.steps += 1
            report.commands += 1
            session.do(action["do"], fill_inputs(action, rng))
        except RuleError as exc:
            report.refusals += 1
            if len(report.refused) < KEPT_REFUSALS:
                report.refused.append(exc.message)
    report.outcome = session.game.outcome(session.state)
    return report


def selfplay(
    game: Game,
    seed: int,
    steps: int = DEFAULT_STEPS,
    packs: list[str] | None = None,
    folder: Path | None = None,
    auto: bool = False,
) -> SelfPlayReport:
    """Start `game`'s default set-up with the demo pack and play it at random; with `auto`,
    as the app does, taking the steps the rules mark `auto` by themselves."""
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        session = Session.create(Path(tmp) / "selfplay.session", game, {}, packs or ["demo"])
        session.auto_steps = auto
        # A throw-away game needs no fsync per command: same log and fold, far less waiting.
        session.store.db.execute("PRAGMA synchronous = OFF")
        try:
            return play(session, seed, steps, game_id=game.id)
        finally:
            session.close()
