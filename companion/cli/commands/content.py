"""`companion content check [PATH]`: every problem with file, line and field."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.content.pack import ContentError, Problem, add_items, available_packs, yaml_files
from companion.content.yamlines import YamlSyntaxError, load_file
from companion.games import available_games, get_game, load_game_content
from companion.paths import content_roots


def _game_of(path: Path, games: list[str]) -> str | None:
    try:
        data = load_file(str(path)).data
        if isinstance(data, dict) and isinstance(data.get("game"), str):
            return data["game"]
    except YamlSyntaxError:
        pass
    for part in reversed(path.resolve().parts):
        if part in games:
            return part
    return None


def check_path(root: Path) -> list[Problem]:
    """Check a file or folder of content on its own (a pack someone is writing)."""
    from companion.content.pack import Content

    games = available_games()
    problems: list[Problem] = []
    by_game: dict[str, Content] = {}
    for path in yaml_files(root):
        game_id = _game_of(path, games)
        if game_id is None:
            problems.append(Problem(str(path), 1, "game", "cannot tell which game this is for: "
                                    "add 'game: <id>' or keep it under content/<game>/"))
            continue
        game = get_game(game_id)
        content = by_game.setdefault(game_id, Content(game=game_id))
        try:
            doc = load_file(str(path))
        except YamlSyntaxError as exc:
            problems.append(Problem(exc.filename, exc.line, "", str(exc).split(": ", 1)[1]))
            continue
        add_items(content, doc, game.content_kinds, problems)
    for game_id, content in by_game.items():
        validate = getattr(get_game(game_id), "validate_content", None)
        if validate and not problems:
            for item_id, message in validate(content):
                src = content.sources.get(item_id, "content:1")
                file, _, line = src.rpartition(":")
                problems.append(Problem(file, int(line or 1), item_id, message))
    return problems


def cmd_check(args: argparse.Namespace) -> int:
    if args.path:
        problems = check_path(Path(args.path))
        checked = str(args.path)
    else:
        problems, names = [], []
        for game_id in available_games():
            game = get_game(game_id)
            for pack in available_packs(game_id):
                names.append(f"{game_id}/{pack}")
                try:
                    load_game_content(game, [pack])
                except ContentError as exc:
                    problems.extend(exc.problems)
        checked = ", ".join(names) or "nothing under " + ", ".join(map(str, content_roots()))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s) in {checked}")
        return 2
    print(f"ok: {checked}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("content", help="check content packs")
    ss = p.add_subparsers(dest="content_command", metavar="ACTION")
    ss.required = True
    c = ss.add_parser("check", help="check the shipped and user packs, or one file or folder")
    c.add_argument("path", nargs="?")
    c.set_defaults(func=cmd_check)
