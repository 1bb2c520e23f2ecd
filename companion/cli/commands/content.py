"""`companion content check | list | new | export | import | cards | set | add`.

`check` names every problem with file, line and field; `list`, `new`, `export` and
`import` make, list and share the group's own packs through the same workshop the
tablet's pack editor uses; `cards`, `set` and `add` read and write one card at a time in
the group's pack over the demo (the logic is in `companion/core/edits.py`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion.content.pack import ContentError, Problem, add_items, available_packs, yaml_files
from companion.content.yamlines import YamlSyntaxError, load_file
from companion.core import edits, workshop
from companion.failures import CliError
from companion.games import available_games, get_game, load_game_content
from companion.paths import content_roots


def _game_of(path: Path, games: list[str]) -> str | None:
    try:
        data = load_file(str(path)).data
        game = data.get("game") if isinstance(data, dict) else None
        if isinstance(game, str):
            return game
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
            problems.append(
                Problem(
                    str(path),
                    1,
                    "game",
                    "cannot tell which game this is for: "
                    "add 'game: <id>' or keep it under content/<game>/",
                )
            )
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
        if not problems:
            for item_id, message in get_game(game_id).validate_content(content):
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


def _workshop(action: object, *args: object, **kwargs: object) -> object:
    try:
        return action(*args, **kwargs)  # type: ignore[operator]
    except workshop.WorkshopError as exc:
        raise CliError(str(exc)) from None


def cmd_list(args: argparse.Namespace) -> int:
    games = [args.game] if args.game else available_games()
    for game_id in games:
        game = get_game(game_id)
        packs = workshop.list_packs(game_id)
        print(f"{game.title}:" + ("" if packs else " no packs installed"))
        for info in packs:
            where = "shipped" if info.shipped else "yours"
            state = "  DRAFT (has problems: see 'companion content check')" if info.draft else ""
            print(f"  {info.slug:<16} {info.title:<24} {where:<8} {info.cards:>3} cards{state}")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    info = _workshop(workshop.new_pack, get_game(args.game).id, args.name, args.copy)
    assert isinstance(info, workshop.PackInfo)
    made = f"a copy of '{args.copy}'" if args.copy else "empty"
    print(f"made {info.game} pack '{info.slug}' ({made}, {info.cards} cards) in {info.path}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    out = _workshop(workshop.export_pack, get_game(args.game).id, args.pack, args.output)
    print(f"wrote {out}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    info = _workshop(workshop.import_pack, Path(args.file), args.replace, args.as_name)
    assert isinstance(info, workshop.PackInfo)
    print(f"installed {info.game} pack '{info.slug}' ({info.title}, {info.cards} cards)")
    return 0


def _edit(action: object, *args: object, **kwargs: object) -> edits.Edit:
    try:
        done = action(*args, **kwargs)  # type: ignore[operator]
    except (edits.EditError, workshop.WorkshopError) as exc:
        raise CliError(str(exc)) from None
    assert isinstance(done, edits.Edit)
    return done


def _assignments(texts: list[str]) -> list[edits.Assignment]:
    try:
        return [edits.parse_assignment(t) for t in texts]
    except edits.EditError as exc:
        raise CliError(str(exc)) from None


def _shown(value: object) -> str:
    return (
        "none"
        if value is None
        else json.dumps(value)
        if isinstance(value, list | dict)
        else str(value)
    )


def _made(done: edits.Edit) -> None:
    if done.made_pack:
        print(f"made your {done.game} pack '{done.pack_title}' ({done.pack})")
    for problem in done.problems:
        print(f"note: your pack '{done.pack}' still has a problem: {problem}")


def cmd_cards(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    content = edits.in_play(game.id)
    rows = edits.card_rows(content, game.content_kinds)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max((len(r["name"]) for r in rows), default=4)
    for kind in game.content_kinds:
        mine = [r for r in rows if r["kind"] == kind]
        if not mine:
            continue
        print(f"{kind.replace('_', ' ').capitalize()} ({len(mine)}):")
        for r in mine:
            state = "checked" if r["checked"] else "unchecked"
            print(f"  {r['name']:<{width}}  {state:<9}  {r['pack']:<12}  {r['id']}")
    done = sum(1 for r in rows if r["checked"])
    print(f"{done} of {len(rows)} cards checked against your copy")
    return 0


def cmd_set(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    assignments = _assignments(args.fields)
    done = _edit(edits.set_card, game.id, args.card, assignments, args.pack, args.matches)
    _made(done)
    if done.unchanged:
        where = f"in your pack '{done.pack}'" if done.own else "its numbers are the rulebook's"
        print(f"{done.name} is already checked ({where}): nothing to write")
        return 0
    what = "; ".join(
        f"{edits.dotted(path)} {_shown(old)} -> {_shown(new)}" for path, old, new in done.changes
    )
    said = f": {what}" if what else ": it matches"
    print(f"{done.name} ({done.card_id}) checked in your pack '{done.pack}'{said}")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    assignments = _assignments(args.fields)
    done = _edit(edits.add_card, game.id, args.kind, assignments, args.pack)
    _made(done)
    print(done.card_id)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("content", help="check, list, make and share content packs")
    ss = p.add_subparsers(dest="content_command", metavar="ACTION")
    ss.required = True
    c = ss.add_parser("check", help="check the shipped and user packs, or one file or folder")
    c.add_argument("path", nargs="?")
    c.set_defaults(func=cmd_check)
    ls = ss.add_parser("list", help="the installed packs of each game, with their cards")
    ls.add_argument("game", nargs="?")
    ls.set_defaults(func=cmd_list)
    n = ss.add_parser("new", help="make a pack of your own: empty, or a copy (--copy demo)")
    n.add_argument("game")
    n.add_argument("name")
    n.add_argument("--copy", metavar="PACK", help="start from a copy of this installed pack")
    n.set_defaults(func=cmd_new)
    e = ss.add_parser("export", help="one file holding a pack, to share it")
    e.add_argument("game")
    e.add_argument("pack")
    e.add_argument("-o", "--output", help="the file to write (default: the exports folder)")
    e.set_defaults(func=cmd_export)
    i = ss.add_parser("import", help="install a shared pack file, once every card checks")
    i.add_argument("file")
    i.add_argument("--replace", action="store_true", help="replace your pack of that name")
    i.add_argument("--as", dest="as_name", metavar="NAME", help="install it under this name")
    i.set_defaults(func=cmd_import)
    cs = ss.add_parser(
        "cards", help="every card in play: the demo with your packs over it, and which are checked"
    )
    cs.add_argument("game")
    cs.add_argument("--json", action="store_true", help="id, name, kind, pack, checked for each")
    cs.set_defaults(func=cmd_cards)
    st = ss.add_parser(
        "set", help="write a card into your pack as your copy prints it: FIELD=VALUE..."
    )
    st.add_argument("game")
    st.add_argument("card", help="its id, its name, or its id's last part")
    st.add_argument("fields", nargs="*", metavar="FIELD=VALUE", help="e.g. attack=6, hp=4")
    st.add_argument("--pack", help="which of your packs (when you have more than one)")
    st.add_argument(
        "--matches", action="store_true", help="the card matches your copy: mark it checked"
    )
    st.set_defaults(func=cmd_set)
    ad = ss.add_parser("add", help="a new card of your own from its kind's template")
    ad.add_argument("game")
    ad.add_argument("kind", help="e.g. minion, boss, opponent")
    ad.add_argument("fields", nargs="*", metavar="FIELD=VALUE", help="e.g. name=Ink Wraith")
    ad.add_argument("--pack", help="which of your packs (when you have more than one)")
    ad.set_defaults(func=cmd_add)
