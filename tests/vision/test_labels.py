"""Labels: what is printed reads back as the card it names."""

from __future__ import annotations

import subprocess
import sys

import cv2
import pytest
import zxingcpp

from companion.content.pack import Content
from companion.content.schema import Item
from tests.fixtures.tinygame import TinyGame, Token
from vision.labels import Label, Sheet, labels_for, qr_code, write_pdf, write_png
from vision.payload import classify


def read_all(path) -> list[str]:
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    assert image is not None, path
    return sorted(b.text for b in zxingcpp.read_barcodes(image))


def companion(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_png_label_reads_back_as_its_card(tmp_path):
    path = write_png(Label("tiny/token/silver", "Silver"), tmp_path / "silver.png")
    texts = read_all(path)
    assert len(texts) == 1
    assert classify(texts[0]).card_id == "tiny/token/silver"


def test_long_and_accented_names_still_give_a_readable_label(tmp_path):
    name = "Élowen's Errand of the Very Long Name That Cannot Fit On Two Lines At All"
    path = write_png(Label("hexplore/circumstance/elowens-errand", name), tmp_path / "e.png")
    assert [classify(t).card_id for t in read_all(path)] == ["hexplore/circumstance/elowens-errand"]


def test_codes_stay_small_and_glare_proof():
    qr = qr_code("direwild/ai/hardcore-standard-12")
    assert qr.version <= 3
    assert qr.error in ("Q", "H")


class Board(Item):
    size: int = 1


class CardsAndBoards(TinyGame):
    content_kinds = {"tokens": Token, "boards": Board}
    card_kinds = ("tokens",)


def content_with(n_tokens: int) -> Content:
    tokens = {
        f"tiny/token/t{i}": Token(id=f"tiny/token/t{i}", name=f"Token {i}", value=i)
        for i in range(n_tokens)
    }
    boards = {"tiny/board/main": Board(id="tiny/board/main", name="Main board")}
    return Content(game="tiny", items={"tokens": tokens, "boards": boards})


def test_only_the_games_card_kinds_get_labels():
    labels = labels_for(CardsAndBoards(), content_with(3))
    assert [lb.card_id for lb in labels] == ["tiny/token/t0", "tiny/token/t1", "tiny/token/t2"]


def test_without_card_kinds_every_kind_gets_labels():
    class NoCardKinds(CardsAndBoards):
        card_kinds = ()

    ids = {lb.card_id for lb in labels_for(NoCardKinds(), content_with(1))}
    assert ids == {"tiny/token/t0", "tiny/board/main"}


def test_kind_filter_takes_the_content_kind_or_the_ids_kind():
    game, content = CardsAndBoards(), content_with(2)
    assert len(labels_for(game, content, "tokens")) == 2
    assert len(labels_for(game, content, "token")) == 2
    with pytest.raises(LookupError, match="no card kind 'coin'"):
        labels_for(game, content, "coin")


def test_sheet_never_overlaps_and_stays_on_the_paper():
    for paper in ("a4", "letter"):
        sheet = Sheet(paper, 24.0)
        cw, ch = sheet.cell
        spots = [sheet.place(i) for i in range(sheet.per_page * 2)]
        assert spots[sheet.per_page][0] == 1
        for _page, x, y in spots:
            assert x + cw <= {"a4": 210, "letter": 215.9}[paper] - 7
            assert y + ch <= {"a4": 297, "letter": 279.4}[paper] - 7
        assert len({s for s in spots}) == len(spots)


def test_every_sticker_on_a_printed_sheet_reads_back(tmp_path):
    labels = labels_for(CardsAndBoards(), content_with(60))
    pdf = tmp_path / "labels.pdf"
    pages = write_pdf(labels, pdf)
    per_page = Sheet().per_page
    assert pages == -(-60 // per_page) and pages >= 2
    subprocess.run(
        [
            "gs",
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-sDEVICE=pnggray",
            "-r200",
            f"-sOutputFile={tmp_path}/page-%d.png",
            str(pdf),
        ],
        check=True,
        timeout=120,
    )
    read = []
    for n in range(1, pages + 1):
        read += [classify(t).card_id for t in read_all(tmp_path / f"page-{n}.png")]
    assert sorted(read) == sorted(lb.card_id for lb in labels)


def test_cli_prints_a_sheet_and_a_png(tmp_path):
    result = companion("labels", "tiny", "-o", str(tmp_path / "tiny.pdf"))
    assert result.returncode == 0, result.stderr
    assert "2 label(s) on 1 page(s)" in result.stdout
    assert (tmp_path / "tiny.pdf").read_bytes().startswith(b"%PDF")
    result = companion(
        "labels", "tiny", "--card", "tiny/token/copper", "-o", str(tmp_path / "c.png")
    )
    assert result.returncode == 0, result.stderr
    assert [classify(t).card_id for t in read_all(tmp_path / "c.png")] == ["tiny/token/copper"]


def test_cli_explains_what_it_cannot_do(tmp_path):
    cases = [
        (["--card", "tiny/token/gold"], "no card 'tiny/token/gold'"),
        (["--kind", "coin"], "no card kind 'coin'"),
        (["-o", str(tmp_path / "x.png")], "a PNG holds one card"),
        (["-o", str(tmp_path / "x.svg")], "must end in .pdf"),
        (["--size", "5"], "between 12 and 80 mm"),
        (["-o", str(tmp_path / "no" / "x.pdf")], "does not exist"),
    ]
    for extra, words in cases:
        args = ["labels", "tiny", *extra]
        if "-o" not in extra:
            args += ["-o", str(tmp_path / "x.pdf")]
        result = companion(*args)
        assert result.returncode == 2, (extra, result.stdout, result.stderr)
        assert words in result.stderr, (extra, result.stderr)
        assert "Traceback" not in result.stderr
