"""`companion scan IMAGE_OR_DIR... [--json] [--answer SESSION]`: read the codes in photos;
`companion scan --watch SOURCE`: scan a camera, video or folder as the app does.

Anyone can check printed labels with it: photograph a sheet (or scan it) and every code
is listed with its raw text and, for our labels, the card it names.  Codes from other
products are listed as unknown and never opened.  With `--answer`, the cards read answer
the session's pending draw, as holding them up to the camera would.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from companion.failures import CliError

if TYPE_CHECKING:
    from companion.content.pack import Content
    from vision.tracker import Sighting

Names = Callable[[str], str | None]  # a card id's name in its game's content, if any


class ScannedCode(TypedDict):
    """One code read in a photo, as `--json` prints it (the reading's `to_json`, its
    card's name and the stage that read it)."""

    text: str
    kind: str
    card: str | None
    note: str
    name: str | None
    stage: str


class ScannedFile(TypedDict):
    file: str
    codes: list[ScannedCode]
    error: str | None


def _names() -> Names:
    """Card names from each game's installed content, loaded once per game when needed."""
    from companion.content.pack import ContentError, available_packs
    from companion.games import UnknownGame, get_game, load_game_content

    cache: dict[str, Content | None] = {}

    def name(card_id: str) -> str | None:
        game_id = card_id.split("/", 1)[0]
        if game_id not in cache:
            try:
                game = get_game(game_id)
                cache[game_id] = load_game_content(game, available_packs(game_id))
            except (UnknownGame, ContentError):
                cache[game_id] = None
        content = cache[game_id]
        item = content.by_id(card_id) if content is not None else None
        return getattr(item, "title", None) if item is not None else None

    return name


def _printable(text: str) -> str:
    """The raw text with control characters escaped, so a hostile code cannot drive the
    terminal."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def scan_files(paths: list[str]) -> list[ScannedFile]:
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
    out: list[ScannedFile] = []
    for path in files:
        source = ImageSource([path])
        frame = source.read()
        if frame is None:
            out.append({"file": str(path), "codes": [], "error": "not an image this app can read"})
            continue
        codes: list[ScannedCode] = []
        for found in cascade(frame):
            r = found.reading
            codes.append(
                {
                    "text": r.text,
                    "kind": r.kind,
                    "card": r.card_id,
                    "note": r.note,
                    "name": name(r.card_id) if r.card_id else None,
                    "stage": found.stage,
                }
            )
        out.append({"file": str(path), "codes": codes, "error": None})
    return out


def _answer(session_ref: str, results: list[ScannedFile]) -> list[str]:
    from companion.core.library import Library
    from companion.table.card_answers import offer_card

    lines = []
    with Library().open(session_ref) as session:
        for r in results:
            for code in r["codes"]:
                if code["kind"] == "card":
                    lines.append(offer_card(session, code["text"], by="scan").message)
        if session.request is not None:
            lines.append(f"waiting: {session.request.describe()}")
    return lines


def _sighting_line(sighting: Sighting, name: Names) -> str:
    r = sighting.reading
    if r.card_id:
        what = f"card {r.card_id}" + (f" ({name(r.card_id)})" if name(r.card_id) else "")
    else:
        what = f"{r.kind} '{_printable(r.text)}'"
    return f"frame {sighting.frame}: {sighting.change} {what}"


def cmd_watch(args: argparse.Namespace) -> int:
    """Scan a camera, a video or a folder as the app does, printing cards as they come."""
    import queue

    from companion.table.card_answers import offer_card
    from vision.frames import SourceError, open_source
    from vision.scanner import Scanner
    from vision.tracker import SEEN

    try:
        source = open_source(args.watch)
    except SourceError as exc:
        raise CliError(str(exc)) from None
    scanner, name = Scanner(source), _names()
    session = None
    if args.answer:
        from companion.core.library import Library

        session = Library().open(args.answer)
    scanner.start()
    try:
        while scanner.running or not scanner.sightings.empty():
            try:
                sighting = scanner.sightings.get(timeout=0.2)
            except queue.Empty:
                continue
            if args.json:
                print(
                    json.dumps(
                        {
                            "frame": sighting.frame,
                            "change": sighting.change,
                            **sighting.reading.to_json(),
                        },
                        ensure_ascii=False,
                    ),
                    flush=True,
                )
            else:
                print(_sighting_line(sighting, name), flush=True)
            if session is not None and sighting.change == SEEN and sighting.reading.card_id:
                print(offer_card(session, sighting.reading).message, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        scanner.stop()
        if session is not None:
            session.close()
    if scanner.error:
        raise CliError(scanner.error)
    print(
        f"{scanner.stats.frames} frames, {scanner.stats.mean_ms:.1f} ms a frame to decode",
        file=sys.stderr,
    )
    return 0


def cmd_scan(args: argparse.Namespace) -> int:
    if args.watch is not None:
        if args.paths:
            raise CliError("give either photos to read or --watch SOURCE, not both")
        return cmd_watch(args)
    if not args.paths:
        raise CliError("name the photos or folders to read, or --watch a camera or video")
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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("scan", help="read the QR codes in photos (check printed labels)")
    p.add_argument("paths", nargs="*", metavar="IMAGE_OR_DIR")
    p.add_argument(
        "--watch",
        metavar="SOURCE",
        help="scan live: a camera index (0), a video "
        "file or a folder of frames; prints cards as they are seen and leave",
    )
    p.add_argument(
        "--json", action="store_true", help="print JSON: every code's raw text and card id"
    )
    p.add_argument(
        "--answer", metavar="SESSION", help="answer SESSION's pending draw with the cards read"
    )
    p.set_defaults(func=cmd_scan)
