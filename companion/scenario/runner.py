"""Running scenario files: the rules' acceptance tests (SCENARIOS.md).

Each scenario runs in a fresh session file in a temporary folder, through the same
`Session` the app uses, so a scenario checks exactly what a table would see.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from companion.content.pack import ContentError
from companion.core.rules import RuleError
from companion.core.session import Session
from companion.games import UnknownGame, get_game, load_game_content
from companion.scenario.file import Scenario, ScenarioInvalid, Step, parse

MISSING = object()


@dataclass
class Outcome:
    path: str
    failures: list[str] = field(default_factory=list)
    invalid: str | None = None

    @property
    def passed(self) -> bool:
        return not self.failures and self.invalid is None

    @property
    def code(self) -> int:
        return 2 if self.invalid else (1 if self.failures else 0)


class StepFailed(Exception):
    pass


def lookup(state: object, path: str) -> object:
    node = state
    for part in str(path).split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif (
            isinstance(node, list)
            and part.lstrip("-").isdigit()
            and -len(node) <= int(part) < len(node)
        ):
            node = node[int(part)]
        else:
            return MISSING
    return node


def same(wanted: object, got: object) -> bool:
    """Equal as a player means it: numbers by value (not bool), lists and maps whole."""
    if isinstance(wanted, bool) or isinstance(got, bool):
        return type(wanted) is type(got) and wanted == got
    if isinstance(wanted, int | float) and isinstance(got, int | float):
        return wanted == got
    if isinstance(wanted, list) and isinstance(got, list):
        return len(wanted) == len(got) and all(same(w, g) for w, g in zip(wanted, got, strict=True))
    if isinstance(wanted, dict) and isinstance(got, dict):
        return wanted.keys() == got.keys() and all(same(wanted[k], got[k]) for k in wanted)
    return bool(wanted == got)


def _show(value: object) -> str:
    return "(missing)" if value is MISSING else json.dumps(value, sort_keys=True)


def _take_answer(step: Step, session: Session) -> object:
    request = session.request
    assert request is not None
    if request.kind == "dice":
        if not step.dice:
            raise StepFailed(f"unanswered request: {request.describe()}")
        if isinstance(step.dice[0], list):
            return step.dice.pop(0)
        if len(step.dice) < request.count:
            raise StepFailed(
                f"unanswered request: {request.describe()} (only {len(step.dice)} dice left)"
            )
        values, step.dice[:] = step.dice[: request.count], step.dice[request.count :]
        return values
    if not step.cards:
        raise StepFailed(f"unanswered request: {request.describe()}")
    return step.cards.pop(0)


def run_step(session: Session, step: Step) -> None:
    if step.expect is not None:
        state = session.to_json()
        wrong = []
        for path, wanted in step.expect.items():
            got = lookup(state, path)
            if got is MISSING or not same(wanted, got):
                wrong.append(f"{path}: wanted {_show(wanted)}, got {_show(got)}")
        if wrong:
            raise StepFailed("; ".join(wrong))
        return
    dice, cards = list(step.dice), list(step.cards)
    step = Step(step.index, step.line, step.do, step.args, dice, cards, step.refused)
    try:
        session.do(step.do or "", step.args)
        while session.request is not None and (step.dice or step.cards or step.refused is None):
            session.answer(_take_answer(step, session), by="scenario")
    except RuleError as exc:
        if step.refused is None:
            raise StepFailed(f"refused: {exc.message}") from None
        if step.refused.lower() not in exc.message.lower():
            raise StepFailed(
                f"refused with '{exc.message}', wanted a refusal containing '{step.refused}'"
            ) from None
        return
    if step.refused is not None:
        raise StepFailed(f"wanted a refusal containing '{step.refused}', but it was accepted")
    left = step.dice + step.cards
    if left:
        raise StepFailed(f"answers left over: {left}")


def start(scenario: Scenario, folder: Path) -> Session:
    try:
        game = get_game(scenario.game)
    except UnknownGame as exc:
        raise ScenarioInvalid(scenario.path, scenario.doc.line_of(("game",)), str(exc)) from None
    try:
        content = load_game_content(game, scenario.content, scenario.define)
    except ContentError as exc:
        raise ScenarioInvalid(
            scenario.path, exc.problems[0].line, "content problems:\n" + str(exc)
        ) from None
    try:
        return Session.create(
            folder / "scenario.session",
            game,
            scenario.setup,
            scenario.content,
            scenario.define_text,
            content=content,
        )
    except RuleError as exc:
        raise ScenarioInvalid(
            scenario.path, scenario.doc.line_of(("setup",)), f"setup refused: {exc.message}"
        ) from None


def run_file(path: Path | str) -> Outcome:
    outcome = Outcome(str(path))
    try:
        scenario = parse(path)
        with tempfile.TemporaryDirectory(prefix="scenario-") as tmp:
            session = start(scenario, Path(tmp))
            try:
                for step in scenario.steps:
                    try:
                        run_step(session, step)
                    except StepFailed as exc:
                        what = f"do {step.do}" if step.do else "expect"
                        outcome.failures.append(
                            f"{scenario.path}:{step.line}: step {step.index + 1} ({what}): {exc}"
                        )
                        break
            finally:
                session.close()
    except ScenarioInvalid as exc:
        outcome.invalid = str(exc)
    return outcome


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml")))
        else:
            files.append(p)
    return files


def run_paths(paths: list[str]) -> list[Outcome]:
    return [run_file(f) for f in collect(paths)]
