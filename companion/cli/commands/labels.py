"""`companion labels GAME [--kind KIND] [--card ID] -o FILE.pdf|FILE.png`: QR stickers."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.content.pack import available_packs
from companion.failures import CliError
from companion.games import get_game, load_game_content


def cmd_labels(args: argparse.Namespace) -> int:
    from vision.labels import DEFAULT_SIZE_MM, PAPERS, Label, labels_for, write_pdf, write_png

    game = get_game(args.game)
    packs = args.content or available_packs(game.id)
    if not packs:
        raise CliError(f"no content packs are installed for {game.title}")
    content = load_game_content(game, packs)
    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise CliError("the output must end in .pdf (sheets of stickers) or .png (one card)")
    if args.card:
        item = content.by_id(args.card)
        if item is None:
            raise CliError(
                f"there is no card '{args.card}' in {game.title}'s content ({', '.join(packs)})"
            )
        labels = [Label(item.id, item.title)]
    else:
        try:
            labels = labels_for(game, content, args.kind)
        except LookupError as exc:
            raise CliError(str(exc.args[0])) from None
    if not labels:
        raise CliError(f"there are no cards to print in {game.title}'s content")
    if not out.parent.is_dir():
        raise CliError(f"the folder {out.parent} does not exist")
    if suffix == ".png":
        if len(labels) != 1:
            raise CliError(f"a PNG holds one card: name it with --card ({len(labels)} match)")
        write_png(labels[0], out)
        print(f"wrote {out}: {labels[0].card_id}")
        return 0
    if args.paper not in PAPERS:
        raise CliError(f"unknown paper '{args.paper}' (choose {', '.join(PAPERS)})")
    size = args.size or DEFAULT_SIZE_MM
    try:
        pages = write_pdf(labels, out, args.paper, size)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    print(f"wrote {out}: {len(labels)} label(s) on {pages} page(s)")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "labels", help="print QR stickers for a game's cards (PDF) or one card (PNG)"
    )
    p.add_argument("game")
    p.add_argument("--kind", help="only this kind of card (e.g. ai, minion, battlefield)")
    p.add_argument("--card", help="only this card id (needed for a PNG)")
    p.add_argument(
        "--content",
        action="append",
        metavar="PACK",
        help="content pack to load (repeatable; default: every installed pack)",
    )
    p.add_argument("--paper", default="a4", help="a4 or letter (default a4)")
    p.add_argument("--size", type=float, help="sticker width in mm (default 24)")
    p.add_argument("-o", "--output", required=True, help="FILE.pdf or FILE.png")
    p.set_defaults(func=cmd_labels)
