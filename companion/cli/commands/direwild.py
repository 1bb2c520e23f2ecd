"""`companion direwild board [BOARD] [--session S]`: a board file drawn as text.

For players transcribing their land board: the walls, trails and spawns as the app reads
them, with the units of a session on top if one is named.
"""

from __future__ import annotations

import argparse

from companion.failures import CliError


def cmd_board(args: argparse.Namespace) -> int:
    from companion.content.pack import ContentError
    from companion.games import get_game, load_game_content
    from companion.games.direwild.picture import draw

    game = get_game("direwild")
    state = None
    if args.session:
        from companion.core.library import Library

        with Library().open(args.session) as session:
            if session.game.id != "direwild":
                raise CliError(f"session {session.id} is a game of {session.game.title}")
            state, content = session.state, session.content
            board_id = args.board or state.board
    else:
        try:
            content = load_game_content(game, args.content or ["demo"])
        except ContentError as exc:
            raise CliError(f"the content has problems:\n{exc}") from None
        board_id = args.board
    boards = {b.id: b for b in content.all("boards")}
    slugs = {i.rsplit("/", 1)[-1]: i for i in boards}
    if board_id is None:
        for b in boards.values():
            print(f"{b.id.rsplit('/', 1)[-1]:20} {b.land:11} {b.size:6} {b.name}")
        return 0
    board = boards.get(board_id) or boards.get(slugs.get(board_id, ""))
    if board is None:
        raise CliError(f"no board '{board_id}' (boards: {', '.join(slugs)})")
    print(
        f"{board.name or board.id} ({board.size}, combat square "
        + ", ".join(
            f"{n} {d}" for d, n in sorted(board.combat_square.items(), key=lambda kv: kv[1])
        )
        + ")"
    )
    print(draw(board, state))
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("direwild", help="Direwild tools (draw a board file)")
    ss = p.add_subparsers(dest="direwild_command", metavar="ACTION")
    ss.required = True
    b = ss.add_parser("board", help="draw a land board as text, or list the boards")
    b.add_argument("board", nargs="?", help="board id or short name (default: list them)")
    b.add_argument("--session", help="draw this session's board with its units on it")
    b.add_argument("--content", action="append", help="content pack (default: demo)")
    b.set_defaults(func=cmd_board)
