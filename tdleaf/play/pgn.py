"""The match's PGN file: written one finished game at a time, read back to resume.

Each game is appended in one write, flushed and synced, so a match killed at any moment
(Ctrl-C, ``kill -9``) leaves a file of complete games; a torn last game (a crash of the
machine in mid-write) is cut off when the match resumes. Moves after the opening carry
cutechess-cli's comments, ``{+0.35/5 0.120s}`` (the mover's score in pawns, the depth,
the time); the last comment says how the game ended. The ``WhiteSettings`` and
``BlackSettings`` tags record what each player played with, its limits and (for an
external engine) its options, ``movetime=0.1 UCI_LimitStrength=true UCI_Elo=2200``:
a game's file says who played it at what strength, whatever command started it.

A path ending in ``.pgn.gz`` is the same file compressed: a gzip file of gzip members,
each the text of what one append wrote (a game of a match, a batch of a ladder's rung),
which ``gunzip`` and ``zcat`` read as one PGN. An append writes one whole member, and a
torn last member is cut off as a torn last game is, so a compressed match is written,
killed and resumed as a plain one; :func:`read_members` gives the members' texts apart.
"""

from __future__ import annotations

import datetime
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.pgn

from variants import board_class

from .game import GameResult
from .gamefiles import gzip_member, gzip_members, is_packed, truncate
from .players import disputes_last_move

_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")      # "*": a rules dispute, unscored
_HEADER = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$')
#: Where a game starts: its Event tag, the first tag of a game :func:`game_text` writes.
_EVENT = re.compile(r"^\[Event ", flags=re.MULTILINE)
#: The time at the end of a move's comment, ``{+0.35/5 0.120s}`` (see :func:`_comment`).
_MOVE_TIME = re.compile(r"\{[^{}]*?(\d+\.\d+)s\}")
#: A scored move's comment as :func:`_comment` writes it, ``+0.35/5 0.120s`` or
#: ``-M3/12 0.101s``: sign, mate, score, depth, time.
_SCORED = re.compile(r"^([+-])(M)?(\d+(?:\.\d+)?)/(\d+) (\d+\.\d+)s")


@dataclass
class StoredGame:
    """What a resumed match needs of a game already in the file."""

    round: int             # 1-based game number of the match
    white: str
    black: str
    result: str
    failure: str | None
    plies: int
    white_time: tuple[int, float] = (0, 0.0)    # (moves, seconds) after the opening
    black_time: tuple[int, float] = (0, 0.0)
    white_settings: str = ""                    # the WhiteSettings / BlackSettings tags
    black_settings: str = ""
    white_to_move: bool = True                  # at the end: who failed, in a dispute


def _comment(game: GameResult, i: int) -> str:
    a = game.plies[i].answer
    parts = []
    if a.mate is not None:
        parts.append(f"{'+' if a.mate > 0 else '-'}M{abs(a.mate)}")
    elif a.score is not None:
        parts.append(f"{a.score:+.2f}")
    if parts and a.depth is not None:
        parts[-1] += f"/{a.depth}"
    parts.append(f"{a.seconds:.3f}s")
    return " ".join(parts)


def scored_comment(comment: str) -> tuple[float, int, float] | None:
    """(the mover's score in pawns, a mate as +-1000; the depth; the seconds) of a move's
    comment as :func:`_comment` writes it (python-chess joins the game's closing words
    after it), or None for a move without a score (a book move, one an engine gave no
    score for)."""
    m = _SCORED.match(comment.strip())
    if m is None:
        return None
    value = 1000.0 if m.group(2) else float(m.group(3))
    return (value if m.group(1) == "+" else -value), int(m.group(4)), float(m.group(5))


def game_text(game: GameResult, variant: str, round_: int, *, event: str = "tdleaf match",
              time_control: str = "-", date: datetime.date | None = None) -> str:
    """The PGN of one game, headers and movetext, ending with a blank line."""
    board = board_class(variant)(game.opening.fen)
    start_fen = board.fen()
    standard_start = start_fen == board_class(variant)().fen()
    headers = [
        ("Event", event), ("Site", "?"),
        ("Date", (date or datetime.date.today()).strftime("%Y.%m.%d")),
        ("Round", str(round_)), ("White", game.white), ("Black", game.black),
        ("Result", game.result),
    ]
    if type(board) is not chess.Board:      # standard chess goes without a Variant tag
        headers.append(("Variant", type(board).aliases[0]))
    if not standard_start:
        headers += [("SetUp", "1"), ("FEN", start_fen)]
    headers += [(tag, value) for tag, value in (("WhiteSettings", game.white_settings),
                                                ("BlackSettings", game.black_settings)) if value]
    headers += [("PlyCount", str(len(game.opening.moves) + len(game.plies))),
                ("TimeControl", time_control), ("Termination", game.termination)]
    if game.opening.name:
        headers.append(("Opening", game.opening.name))
    if game.failure:
        headers.append(("Failure", game.failure))
    lines = [f'[{k} "{_escape(v)}"]' for k, v in headers]

    tokens: list[str] = []
    opening_moves = list(game.opening.moves)
    engine_moves = [p.move for p in game.plies]
    for i, uci in enumerate(opening_moves + engine_moves):
        move = board.parse_uci(uci)
        if board.turn == chess.WHITE:
            tokens.append(f"{board.fullmove_number}.")
        elif i == 0:
            tokens.append(f"{board.fullmove_number}...")
        tokens.append(board.san(move))
        board.push(move)
        if i < len(opening_moves):
            if i == len(opening_moves) - 1:
                tokens.append("{book}")
        else:
            tokens.append("{" + _comment(game, i - len(opening_moves)) + "}")
    if game.reason:
        tokens.append("{" + game.reason.replace("}", ")") + "}")
    tokens.append(game.result)
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(tokens: list[str], width: int = 79) -> str:
    out, line = [], ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > width:
            out.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    if line:
        out.append(line)
    return "\n".join(out)


def append_game(path: Path, text: str) -> None:
    """Append a game's text (or a batch's, several games) in one write and make it
    durable: the text itself, or to a ``.pgn.gz`` file one gzip member of it."""
    data = text.encode("utf-8")
    if is_packed(path):
        data = gzip_member(data)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        while data:
            n = os.write(fd, data)
            data = data[n:]
        os.fsync(fd)
    finally:
        os.close(fd)


def read_games(path: Path, repair: bool = False) -> list[StoredGame]:
    """The complete games of a match file, plain or ``.pgn.gz``. With ``repair``, a torn
    last game (a torn last member) is cut off the file (what a resumed match does before
    appending)."""
    if not path.exists():
        return []
    if is_packed(path):
        return _read_packed(path, repair)
    text = path.read_bytes().decode("utf-8", errors="replace")
    games, good_end = _complete_games(text)
    if repair and good_end < len(text) and text[good_end:].strip():
        truncate(path, len(text[:good_end].encode("utf-8")))
    return games


def parse_games(text: str) -> list[StoredGame]:
    """The complete games of a PGN text (a member of a ``.pgn.gz`` file, say)."""
    return _complete_games(text)[0]


def _read_packed(path: Path, repair: bool) -> list[StoredGame]:
    """:func:`read_games` of a ``.pgn.gz`` file: the games of its whole members, up to
    a torn member or one that does not hold whole games (cut off with ``repair``)."""
    raw = path.read_bytes()
    games: list[StoredGame] = []
    good_end = 0
    for data, end in gzip_members(raw):
        text = data.decode("utf-8", errors="replace")
        found, used = _complete_games(text)
        if text[used:].strip():
            break
        games += found
        good_end = end
    if repair and good_end < len(raw):
        truncate(path, good_end)
    return games


def _complete_games(text: str) -> tuple[list[StoredGame], int]:
    """The complete games at the start of ``text``, and where the last of them ends."""
    games: list[StoredGame] = []
    starts = [m.start() for m in _EVENT.finditer(text)]
    good_end = 0
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(text)
        stored = _parse(text[start:end])
        if stored is None:
            break
        games.append(stored)
        good_end = end
    return games, good_end


def _parse(chunk: str) -> StoredGame | None:
    headers: dict[str, str] = {}
    lines = chunk.splitlines()
    movetext_from = len(lines)          # the movetext's first line: no tag after it
    for k, line in enumerate(lines):
        m = _HEADER.match(line)
        if m:
            headers[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
        elif line.strip():
            movetext_from = k
            break
    body = [line for line in lines[movetext_from:] if line.strip()]
    result = headers.get("Result")
    if result not in _RESULTS or not chunk.endswith("\n\n"):
        return None
    movetext = " ".join(body).rstrip()
    if not movetext.endswith(result):
        return None
    try:
        round_ = int(headers.get("Round", ""))
        plies = int(headers.get("PlyCount", "0"))
    except ValueError:
        return None
    # The players' moves carry their times; the first of them follows the opening's plies.
    seconds = [float(t) for t in _MOVE_TIME.findall(movetext)]
    white_starts = " b " not in headers.get("FEN", " w ")
    first_white = white_starts == ((plies - len(seconds)) % 2 == 0)
    first, second = seconds[0::2], seconds[1::2]
    white, black = (first, second) if first_white else (second, first)
    failure = headers.get("Failure")
    if failure == "illegal move" and _refused_last_move(chunk):
        result, failure = "*", "dispute"
    return StoredGame(round_, headers.get("White", "?"), headers.get("Black", "?"), result,
                      failure, plies, (len(white), sum(white)),
                      (len(black), sum(black)), headers.get("WhiteSettings", ""),
                      headers.get("BlackSettings", ""), white_starts == (plies % 2 == 0))


#: The closing comment of a game lost by an illegal move, with the engine's words:
#: ``{White makes an illegal move (Illegal move: e8g8)}``.
_ILLEGAL_DETAIL = re.compile(r"makes an illegal move[^{}]*\(([^(){}]*)\)\}\s*\S+\s*$")


def _refused_last_move(chunk: str) -> bool:
    """Whether a game scored as an illegal move (files written before disputes were set
    apart) ended with an engine refusing its opponent's legal last move."""
    m = _ILLEGAL_DETAIL.search(chunk)
    if m is None:
        return False
    game = chess.pgn.read_game(io.StringIO(chunk))
    if game is None or game.errors:
        return False
    return disputes_last_move(game.end().board(), m.group(1))
