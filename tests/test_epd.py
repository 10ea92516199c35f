"""The one EPD reader (tdleaf/play/epd.py): the forms the project's files use, and errors
that name the file and the line."""

from __future__ import annotations

import pytest

from tdleaf.play.epd import EpdError, parse_epd, read_epd

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def test_the_forms_of_epd_lines():
    text = "\n".join([
        "# a comment",
        "",
        f"{START} 0 1 ;D1 20 ;D2 400",                        # a perft suite
        f'{START} bm e4; id "start";',                        # EPD proper
        f"{START} 3+3 0 8;bm e2e4;result 1;score 35",         # three-check, labelled
        f"{START} 0 2 +2+1 ;D1 29",                           # lichess's checks given
        "4k3/8/8/8/8/8/8/4K2R[Qn] b K - 5 9",                 # pockets, clocks, no ops
    ])
    a, b, c, d, e = parse_epd(text)
    assert (a.line, a.fen, a.operations) == (3, f"{START} 0 1", (("D1", "20"), ("D2", "400")))
    assert (b.fen, b.ops) == (f"{START} 0 1", {"bm": "e4", "id": '"start"'})
    assert (c.fen, c.ops) == (f"{START} 3+3 0 8", {"bm": "e2e4", "result": "1", "score": "35"})
    assert (d.fen, d.ops) == (f"{START} 0 2 +2+1", {"D1": "29"})
    assert (e.line, e.fen, e.operations) == (7, "4k3/8/8/8/8/8/8/4K2R[Qn] b K - 5 9", ())


def test_errors_name_the_file_and_line(tmp_path):
    path = tmp_path / "x.epd"
    path.write_text(f"{START} 0 1\nnot a position\n")
    with pytest.raises(EpdError, match=r"x\.epd:2: expected an EPD position"):
        read_epd(path)
    with pytest.raises(EpdError, match="cannot read EPD file"):
        read_epd(tmp_path / "missing.epd")
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(EpdError, match="not UTF-8"):
        read_epd(path)
