"""Labelled positions for measuring the heuristic prior: engine games, a strong engine's
move at a fixed depth, and the game's result.

The games are engine-vs-engine games, not the project's self-play: Fairy-Stockfish plays
both sides at a depth drawn per side and per game (3-7 plies), after a seeded opening of
2-7 uniformly random plies, so that the games differ. Each position reached after the
opening is kept with a fixed probability; it is then labelled by the *strong* engine at
a fixed depth, searched afresh (new game, empty hash): Fairy-Stockfish 11.1 (Debian) for
chess, crazyhouse, suicide, giveaway, king of the hill, three-check, racing kings and
horde, and the WebAssembly build of Fairy-Stockfish (npm ``fairy-stockfish-nnue.wasm``,
run under Node.js) for atomic, which the Debian build lacks. Suicide games start from the
start position *without castling rights*: Fairy-Stockfish's suicide forbids castling,
python-chess's ``SuicideBoard`` allows it, and without the rights the two agree on every
legal move. The four lichess variants added last start from python-chess's start
positions: on positions of Fairy-Stockfish's play and of random play, 11.1 and
python-chess 1.11.2 agree on every legal move (three-check's checks, horde's first-rank
double steps and en passant included), on the FENs they exchange (three-check's
``3+3`` counters) and on the FEN after each move. They differ only once a game is over
(Fairy-Stockfish 11.1 goes on searching a racing-kings race that python-chess calls
won, and names ponder moves there: see :mod:`tdleaf.play.engines`), and a game here
ends where python-chess says it does.

One line per position (``#`` comments)::

    FEN;bm e2e4;result 1;score 35;game 3;ply 17

``bm`` is the label engine's move, ``result`` the game's result for the side to move
(1, 0.5, 0), ``score`` the label engine's score in centipawns for the side to move
(``mate N`` as +-(100000 - plies)). They ship as ``search/data/prior_<variant>.epd``;
regenerate them with ``python tests/data/make_prior_epd.py``.
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import chess.engine

from search import shipped
from search.files import write_text
from tdleaf.play.engines import EngineProcess, fairy_stockfish_wasm_command, find_fairy_stockfish
from tdleaf.play.epd import EpdError, read_epd
from variants import board_class, canonical_variant
from variants.spec import RULE_FAMILIES
from variants.spec import get as spec

#: The label engine's depth. Depth 10 costs about as much in the four lichess variants
#: added last as in chess (20,000-31,000 nodes a position against chess's 26,000).
LABEL_DEPTH = {"chess": 10, "crazyhouse": 10, "suicide": 10, "giveaway": 10, "atomic": 9,
               "kingofthehill": 10, "3check": 10, "racingkings": 10, "horde": 10}
#: How many labelled positions ship: 400, and 2,000 for the two variants whose networks
#: are measured on them (issue 61).
POSITIONS = {"crazyhouse": 2000, "atomic": 2000}
DEFAULT_POSITIONS = 400
#: The variants with labelled positions (one per rule set: antichess reads giveaway's).
VARIANTS = tuple(v for v in RULE_FAMILIES if v in LABEL_DEPTH)
PLAY_DEPTHS = (3, 7)
OPENING_PLIES = (2, 7)
KEEP = 0.12
MAX_PLIES = 300
SUICIDE_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
#: Start positions other than python-chess's (suicide: without castling rights).
START_FENS = {"suicide": SUICIDE_START}
#: The label engine that replaces Debian's Fairy-Stockfish where the spec names it.
WASM_SPEC = "uci:fairy-stockfish-wasm"


@dataclass
class Labelled:
    fen: str
    bm: str
    result: float          # for the side to move
    score: int | None      # label engine's centipawns, side to move
    game: int
    ply: int

    def line(self) -> str:
        score = "" if self.score is None else f";score {self.score}"
        return f"{self.fen};bm {self.bm};result {self.result:g}{score};game {self.game};ply {self.ply}"


def engine_command(variant: str) -> tuple[list[str], str] | None:
    """(command, name) of the label engine for a variant, or None if it is missing."""
    variant = canonical_variant(variant)
    if WASM_SPEC in spec(variant).engines:      # Debian's 11.1 does not play it
        cmd = fairy_stockfish_wasm_command()   # tdleaf.play.engines: $TDLEAF_FSF_WASM, npm
        return None if cmd is None else (cmd, "Fairy-Stockfish (wasm, npm fairy-stockfish-nnue.wasm 1.1.12)")
    path = find_fairy_stockfish()
    return None if path is None else ([path], "Fairy-Stockfish 11.1 (Debian)")


def open_engine(variant: str) -> EngineProcess:
    """The label engine of ``variant``, started (:class:`~tdleaf.play.engines.EngineProcess`)."""
    found = engine_command(variant)
    if found is None:
        raise RuntimeError(f"no label engine for {variant}")
    return EngineProcess("uci", found[0])


def start_fen(variant: str) -> str:
    return START_FENS.get(variant) or board_class(variant)().fen()


def _score(info: Mapping[str, Any], turn: bool) -> int | None:
    s = info.get("score")
    if s is None:
        return None
    pov = s.pov(turn)
    if pov.is_mate():
        m = pov.mate()
        return (100000 - (2 * m - 1)) if m > 0 else -(100000 + 2 * m)
    return pov.score()


def _search(engine: chess.engine.SimpleEngine, variant: str, fen: str, depth: int):
    board = board_class(variant)(fen)    # fresh board: crazyhouse pockets are shared otherwise
    r = engine.play(board, chess.engine.Limit(depth=depth), info=chess.engine.INFO_SCORE,
                    game=object())
    if r.move is None or r.move not in board.legal_moves:
        raise RuntimeError(f"{variant}: engine move {r.move} not legal in {fen}")
    return r.move, _score(r.info, board.turn)


def make_positions(variant: str, n: int, seed: int = 1, label_depth: int | None = None,
                   progress: Callable[[int, int], None] | None = None) -> list[Labelled]:
    """``n`` labelled positions of ``variant`` from seeded engine games."""
    variant = canonical_variant(variant)
    depth = label_depth or LABEL_DEPTH[variant]
    rng = random.Random(f"prior:{variant}:{seed}")
    out: list[Labelled] = []
    game = 0
    with open_engine(variant) as play, open_engine(variant) as label:
        player, labeller = play.engine, label.engine
        while len(out) < n:
            game += 1
            board = board_class(variant)(start_fen(variant))
            depths = {chess.WHITE: rng.randint(*PLAY_DEPTHS), chess.BLACK: rng.randint(*PLAY_DEPTHS)}
            opening = rng.randint(*OPENING_PLIES)
            kept: list[tuple[str, int, bool]] = []
            while board.outcome(claim_draw=True) is None and board.ply() < MAX_PLIES:
                if board.ply() < opening:
                    move = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
                else:
                    if rng.random() < KEEP:
                        kept.append((board.fen(), board.ply(), board.turn))
                    move, _ = _search(player, variant, board.fen(), depths[board.turn])
                board.push(move)
            outcome = board.outcome(claim_draw=True)
            winner = None if outcome is None else outcome.winner
            for fen, ply, turn in kept:
                if len(out) >= n:
                    break
                bm, score = _search(labeller, variant, fen, depth)
                result = 0.5 if winner is None else (1.0 if winner == turn else 0.0)
                out.append(Labelled(fen, bm.uci(), result, score, game, ply))
                if progress:
                    progress(len(out), n)
    return out


def write_epd(rows: list[Labelled], path: str | os.PathLike[str], header: str) -> None:
    text = "".join(f"# {h}\n" for h in header.splitlines()) + "".join(r.line() + "\n" for r in rows)
    write_text(path, text)


def read_labelled(path: str | os.PathLike[str]) -> list[Labelled]:
    """The labelled positions of an EPD file written by :func:`write_epd`."""
    rows = []
    for e in read_epd(path):
        d = e.ops
        try:
            rows.append(Labelled(e.fen, d["bm"], float(d["result"]),
                                 int(d["score"]) if "score" in d else None,
                                 int(d.get("game", 0)), int(d.get("ply", 0))))
        except (KeyError, ValueError) as exc:
            raise EpdError(f"{path}:{e.line}: not a labelled position ({exc})") from None
    return rows


def label_of(path: str | os.PathLike[str]) -> str:
    """Who labelled the positions of a file :func:`main` wrote, as its header says:
    ``Fairy-Stockfish 11.1 (Debian) depth 10`` (whatever engine is installed here);
    ``unknown label engine`` when the header does not say."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("#"):
                break
            found = re.search(r"label: (.+) at depth (\d+)", line)
            if found:
                return f"{found.group(1)} depth {found.group(2)}"
    return "unknown label engine"


def data_path(variant: str) -> Path:
    """The labelled positions of ``variant``: ``prior_<variant>.epd`` of the per-user data
    folder when there is one, else the shipped one (search/data; see search.shipped)."""
    name = epd_name(variant)
    return shipped.find(name) or shipped.package_data_dir() / name


def epd_name(variant: str) -> str:
    return f"prior_{canonical_variant(variant)}.epd"


def main(argv: list[str] | None = None) -> int:
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", nargs="+", default=list(VARIANTS))
    p.add_argument("--positions", type=int, default=None,
                   help=f"positions per variant (default {DEFAULT_POSITIONS}, "
                        f"{', '.join(f'{v} {n}' for v, n in POSITIONS.items())})")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", type=Path, default=None,
                   help="folder to write prior_<variant>.epd into (default: the per-user "
                        "data folder, read before the shipped files)")
    args = p.parse_args(argv)
    folder = args.dir if args.dir is not None else shipped.user_data_dir()
    for v in args.variant:
        v = canonical_variant(v)
        found = engine_command(v)
        if found is None:
            print(f"{v}: no label engine, skipped", file=sys.stderr)
            continue

        def tick(i: int, n: int, v: str = v) -> None:
            if i % 50 == 0 or i == n:
                print(f"{v}: {i}/{n}", file=sys.stderr, flush=True)

        n = args.positions or POSITIONS.get(v, DEFAULT_POSITIONS)
        rows = make_positions(v, n, args.seed, progress=tick)
        header = (f"{v}: {len(rows)} positions from {rows[-1].game} engine games (seed {args.seed}); "
                  f"label: {found[1]} at depth {LABEL_DEPTH[v]}\n"
                  f"games: Fairy-Stockfish both sides at depths {PLAY_DEPTHS[0]}-{PLAY_DEPTHS[1]} after "
                  f"{OPENING_PLIES[0]}-{OPENING_PLIES[1]} random plies; python tests/data/make_prior_epd.py")
        folder.mkdir(parents=True, exist_ok=True)
        write_epd(rows, folder / epd_name(v), header)
        print(f"{v}: wrote {folder / epd_name(v)}", file=sys.stderr)
    return 0
