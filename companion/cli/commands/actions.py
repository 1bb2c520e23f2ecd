"""`companion actions` and `companion selfplay`: what the rules allow now, and a game
played by nothing but that."""

from __future__ import annotations

import argparse
import json

from companion.core.library import Library
from companion.core.selfplay import DEFAULT_STEPS, selfplay
from companion.games import get_game


def cmd_actions(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        now = session.actions()
    if args.json:
        print(json.dumps(now, indent=2, sort_keys=True))
        return 0
    if now["waiting"] is not None:
        print(f"waiting: {now['actions'][0].get('label', '')}")
    else:
        for action in now["actions"]:
            mark = "> " if action.get("primary") else "  "
            label = action.get("label") or action["do"]
            print(f"{mark}{label}: {action['do']} {json.dumps(action['with'])}")
    if now["outcome"]:
        print(f"outcome: {now['outcome']}")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    report = selfplay(
        get_game(args.game), args.seed, args.steps, args.content or None, auto=args.auto
    )
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(
            f"{report.game} seed {report.seed}: {report.steps} steps "
            f"({report.commands} commands, {report.answers} answers), "
            f"{report.refusals} refused, outcome {report.outcome or 'none'}"
            + (" (stuck: nothing legal and no ending)" if report.stuck else "")
        )
        for message in report.refused:
            print(f"  refused: {message}")
    return 1 if report.refusals or report.stuck else 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("actions", help="the commands the rules accept now")
    p.add_argument("session", nargs="?")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_actions)

    p = sub.add_parser("selfplay", help="play a game's default set-up at random, legally")
    p.add_argument("game")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--steps", type=int, default=DEFAULT_STEPS)
    p.add_argument("--content", action="append", help="content pack (default: demo)")
    p.add_argument(
        "--auto",
        action="store_true",
        help="take the steps with no choice by themselves, as the app",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_selfplay)
