"""Sessions from the command line: new, sessions, state, do, answer, undo, redo, export."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core.library import SUFFIX, Library
from companion.core.store import SessionNotFound, SessionStorageError
from companion.core.transfer import (
    TargetExists,
    check_target,
    export_scenario,
    export_session,
    import_session,
    recover_session,
)
from companion.failures import CliError
from companion.games import get_game
from companion.jsontypes import JsonObject, JsonValue

if TYPE_CHECKING:
    from companion.core.session import Result, Session


def _json_arg(text: str, what: str) -> JsonValue:
    try:
        value: JsonValue = json.loads(text)
    except RecursionError:
        raise CliError(f"{what} is nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise CliError(f"{what} is not valid JSON ({exc.msg} at position {exc.pos})") from None
    except ValueError as exc:
        raise CliError(f"{what} is not valid JSON ({exc})") from None
    return value


def _answer_value(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _print_state(session: Session) -> None:
    print(json.dumps(session.to_json(), indent=2, sort_keys=True))


def _report(session: Session, result: Result) -> None:
    names = session.names()
    for event in result.events:
        line = session.game.describe(event, names) if event.type not in ("Undone", "Redone") else ""
        if line:
            print(line)
    if session.request is not None:
        print(f"waiting: {session.request.describe()}")


def cmd_new(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    options: JsonObject = {}
    define = None
    if args.setup:
        from companion.scenario.file import load_setup_file

        options, packs, define = load_setup_file(Path(args.setup))
        args.content = args.content or packs
    session = Library().new(game, options, args.content or None, define, args.name)
    print(session.id)
    session.close()
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    infos = Library().list()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "id": i.id,
                        "game": i.game,
                        "summary": i.summary,
                        "updated": i.updated,
                        "problem": i.problem,
                    }
                    for i in infos
                ],
                indent=2,
            )
        )
        return 0
    if not infos:
        print("no sessions yet: start one with 'companion new GAME'")
    for i in infos:
        when = datetime.fromtimestamp(i.updated).strftime("%Y-%m-%d %H:%M")
        print(f"{i.id:24} {i.game:10} {when}  {i.problem or i.summary}")
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        if args.json:
            _print_state(session)
        else:
            names = session.names()
            for tx in session.history():
                for row in tx:
                    text = session.describe(row, names)
                    if text:
                        print(text)
            if session.request:
                print(f"waiting: {session.request.describe()}")
    return 0


def cmd_do(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        payload = _json_arg(args.with_, "--with") if args.with_ else {}
        if not isinstance(payload, dict):
            raise CliError('--with must be a JSON object, e.g. \'{"hero": "stormbringer"}\'')
        _report(session, session.do(args.name, payload))
    return 0


def cmd_answer(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        values = [_answer_value(v) for v in args.values]
        request = session.request
        value: int | str | list[int | str] = values
        if request is not None and request.kind == "draw" and len(values) == 1:
            value = values[0]
        _report(session, session.answer(value, by="cli"))
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        session.undo()
        print("undone")
    return 0


def cmd_redo(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        session.redo()
        print("redone")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    lib = Library()
    output = Path(args.output) if args.output else None
    try:
        path = export_session(lib.resolve(args.session), output, force=args.force)
    except TargetExists as exc:
        raise CliError(f"{exc}; add --force to replace it") from None
    print(path)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    session_id = import_session(Path(args.file), Library(), args.name)
    print(session_id)
    return 0


def cmd_export_scenario(args: argparse.Namespace) -> int:
    output = Path(args.output) if args.output else None
    if output is not None:
        try:
            check_target(output, args.force)
        except TargetExists as exc:
            raise CliError(f"{exc}; add --force to replace it") from None
    with Library().open(args.session) as session:
        text = export_scenario(session)
    if output is not None:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise SessionStorageError(output, f"cannot be written ({exc.strerror})") from None
        print(output)
    else:
        sys.stdout.write(text)
    return 0


def cmd_recover(args: argparse.Namespace) -> int:
    lib = Library()
    path = Path(args.file)
    if not path.exists() and path.name == args.file and path.suffix != SUFFIX:
        path = lib.path_for(args.file)  # a session's name rather than a file
    if not path.exists():
        raise SessionNotFound(path, "no session file here")
    new_id, found = recover_session(path, lib)
    print(f"recovered into session {new_id}: {found.words}; {path.name} was left as it was")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("new", help="start a new session")
    p.add_argument("game")
    p.add_argument("--setup", help="YAML file with the game's set-up options")
    p.add_argument(
        "--content",
        action="append",
        help="content pack (repeatable; default: demo with your own packs over it)",
    )
    p.add_argument("--name", help="session name (default <game>-<n>)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("sessions", help="list the sessions on this device")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sessions)

    p = sub.add_parser("state", help="show a session's state (default: the latest session)")
    p.add_argument("session", nargs="?")
    p.add_argument("--json", action="store_true", help="the state as scenario `expect` sees it")
    p.set_defaults(func=cmd_state)

    p = sub.add_parser("do", help="run a game command")
    p.add_argument("session")
    p.add_argument("name", metavar="COMMAND")
    p.add_argument("--with", dest="with_", metavar="JSON", help="the command's arguments")
    p.set_defaults(func=cmd_do)

    p = sub.add_parser("answer", help="answer the waiting dice roll or card draw")
    p.add_argument("session")
    p.add_argument("values", nargs="+", metavar="VALUE")
    p.set_defaults(func=cmd_answer)

    for name, func in (("undo", cmd_undo), ("redo", cmd_redo)):
        p = sub.add_parser(name, help=f"{name} the last change (survives restarts)")
        p.add_argument("session", nargs="?")
        p.set_defaults(func=func)

    p = sub.add_parser("session", help="export, import, recover, or turn into a scenario")
    ss = p.add_subparsers(dest="session_command", metavar="ACTION")
    ss.required = True
    e = ss.add_parser("export", help="write a whole session to one file")
    e.add_argument("session", nargs="?")
    e.add_argument("-o", "--output", help="a .tcsave file, or a .session copy of the database")
    e.add_argument(
        "--force", action="store_true", help="replace an existing file (never a session)"
    )
    e.set_defaults(func=cmd_export)
    i = ss.add_parser("import", help="bring in a session file exported elsewhere")
    i.add_argument("file")
    i.add_argument("--name")
    i.set_defaults(func=cmd_import)
    x = ss.add_parser("export-scenario", help="turn a played session into a scenario file")
    x.add_argument("session", nargs="?")
    x.add_argument("-o", "--output")
    x.add_argument(
        "--force", action="store_true", help="replace an existing file (never a session)"
    )
    x.set_defaults(func=cmd_export_scenario)
    r = ss.add_parser("recover", help="copy what can be read from a damaged session")
    r.add_argument("file")
    r.set_defaults(func=cmd_recover)
