"""`companion scan IMAGE_OR_DIR... [--json] [--answer SESSION]`: read the codes in photos.

Anyone can check printed labels with it: photograph a sheet (or scan it) and every code
is listed with its raw text and, for our labels, the card it names.  Codes from other
products are listed as unknown and never opened.  With `--answer`, the cards read answer
the session's pending draw, as holding them up to the camera would.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.cli.errors import CliError


def _names() -> Any:
    """Card names from each game's installed content, loaded once per game when needed."""
    from companion.content.pack import ContentError, available_packs
    from companion.games import UnknownGame, get_game, load_game_content

    cache: dict[str, Any] = {}

    def name(card_id: str) -> str | None:
        game_id = card_id.split("/", 1)[0]
        if game_id not in cache:
            try:
                game = get_game(game_id)
                cache[game_id] = load_game_content(game, available_packs(game_id))
            except (UnknownGame, ContentError):
                cache[game_id] = None
        item = cache[game_id].by_id(card_id) if cache[game_id] is not None else None
        return getattr(item, "title", None) if item is not None else None

    return name


def _printable(text: str) -> str:
    """The raw text with control characters escaped, so a hostile code cannot drive the
    terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def scan_files(paths: list[str]) -> list[dict[str, Any]]:
    from vision.decode import Cascade
    from vision.frames import ImageSource, SourceError

    files: list[Path] = []
    for p in paths:
        try:
            files += ImageSource([p]).files
        except SourceError as exc:
            raise CliError(str(exc)) from None
    if not files:
        raise CliError("no images found (looked for .png, .jpg, .jpeg, .bmp, .webp, .tif)")
    cascade, name = Cascade(), _names()
    out = []
    for path in files:
        source = ImageSource([path])
        frame = source.read()
        if frame is None:
            out.append({"file": str(path), "codes": [], "error": "not an image this app can read"})
            continue
        codes = []
        for found in cascade(frame):
            entry = found.reading.to_json()
            entry["name"] = name(entry["card"]) if entry["card"] else None
            entry["stage"] = found.stage
            codes.append(entry)
        out.append({"file": str(path), "codes": codes, "error": None})
    return out


def _answer(session_ref: str, results: list[dict[str, Any]]) -> list[str]:
    from companion.core.library import Library
    from vision.answering import offer_card

    lines = []
    with Library().open(session_ref) as session:
        for r in results:
            for code in r["codes"]:
                if code["kind"] == "card":
                    lines.append(offer_card(session, code["text"], by="scan").message)
        if session.request is not None:
            lines.append(f"waiting: {session.request.describe()}")
    return lines


def cmd_scan(args: argparse.Namespace) -> int:
    results = scan_files(args.paths)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        for r in results:
            if r["error"]:
                print(f"{r['file']}: {r['error']}")
            elif not r["codes"]:
                print(f"{r['file']}: no code read")
            for c in r["codes"]:
                if c["kind"] == "card":
                    named = f" ({c['name']})" if c["name"] else " (not in the installed content)"
                    print(f"{r['file']}: card {c['card']}{named}")
                else:
                    print(f"{r['file']}: {c['kind']} '{_printable(c['text'])}': {c['note']}")
    if args.answer:
        for line in _answer(args.answer, results):
            print(line)
    return 0 if all(r["codes"] for r in results) else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scan", help="read the QR codes in photos (check printed labels)")
    p.add_argument("paths", nargs="+", metavar="IMAGE_OR_DIR")
    p.add_argument(
        "--json", action="store_true", help="print JSON: every code's raw text and card id"
    )
    p.add_argument(
        "--answer", metavar="SESSION", help="answer SESSION's pending draw with the cards read"
    )
    p.set_defaults(func=cmd_scan)
