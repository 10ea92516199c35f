"""``tdleaf bench suites``: two suites of positions from real games against an opponent
(Sjeng 11.2) in the losing variants, each position checked by the proof-number search
and by Fairy-Stockfish, and how many of them tdleaf solves in a given time (issue 64).

Building (``--build PGN``) keeps at most one position of each game of the PGN, after
its opening (the moves up to the one a match's PGN comments ``book``, which no engine
chose):

* **wins**, from a game the opponent won: the earliest position with the opponent to
  move that the proof search proves won for the side to move within ``--proof-nodes``
  (found by bisection over the opponent's positions, as the winner's positions stay
  won once one is: a later one, where the game wandered, may be kept instead), unless
  Fairy-Stockfish sees a loss for the side to move there (its mate, or ``none`` where
  it sees none, is ``fsf`` in the suite: many proofs run deeper than its depth).
  Solved when tdleaf, playing the winner, keeps the win: the position after its move
  is proved won for it (by the proof search, else by Fairy-Stockfish's mate).
* **defence**, from a game tdleaf lost: the earliest position with tdleaf to move whose
  move in the game left a position proved lost, where neither the proof search nor
  Fairy-Stockfish sees a forced loss before that move. Solved when tdleaf now plays a
  move after which neither sees a forced loss.

The suites are EPD files, ``wins.epd`` and ``defence.epd`` in ``--out``, each line with
the game and ply it came from (``id``), the move played there (``pm``), the moves the
proof search proved to win (``bm``) or the move that lost (``am``), the proof's length
in plies (``plies``), Fairy-Stockfish's mate (``fsf``, moves, the mover's view) and the
depth it reached (``fsfdepth``: ``--fsf-depth``, or less where ``--fsf-nodes`` came
first).
``build.jsonl`` records each game as it is done, so that ``--resume`` carries on.

Solving (``--movetime S``, repeatable) searches each position as tdleaf plays it (the
variant's default evaluation and search, or ``--flags``, ``--proof-share`` and
``--proof-check``, a fresh table each position), one position at a time, and writes
``solve.json`` (or ``--report``): each position's move, nodes and verdict, the solve
rate of each suite at each time with its Wilson 95% interval, and how many endgame
tables the engine had (``tdleaf warmup --tables`` builds them). The searches are timed
(a quiet machine); every check is a fixed amount of work (a proof search of at most ``--proof-nodes``, a
Fairy-Stockfish search to ``--fsf-depth`` or ``--fsf-nodes``), outside them, so that the
suites and the verdicts do not depend on the machine's load (the proof search keeps
the wins it proved from check to check, in the same order every run).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.files import write_json, write_text
from tdleaf.play.stats import wilson
from variants import Position, board_class
from variants.spec import SPECS
from variants.spec import get as spec

#: The variants whose games the suites are drawn from: where captures are compulsory.
VARIANTS = tuple(name for name, v in SPECS.items() if v.must_capture)
SUITES = ("wins", "defence")
#: The opponent's name in the PGN's White and Black tags (a part of it, any case).
OPPONENT = "sjeng"


@dataclass(frozen=True)
class Checks:
    """How a position is judged: a proof search of at most ``proof_nodes`` nodes (about
    1.3 s here), and Fairy-Stockfish to ``fsf_depth`` or ``fsf_nodes``, whichever comes
    first (some positions take it minutes to depth 18), from a cleared table: the same
    work whatever the machine's load."""

    proof_nodes: int = 1 << 19
    fsf_depth: int = 18
    fsf_nodes: int = 10_000_000


class Judge:
    """The two checks of a position: tdleaf's proof search and Fairy-Stockfish."""

    def __init__(self, variant: str, checks: Checks) -> None:
        from search.solve.pns import ProofSearch
        from tdleaf.play.engines import EngineProcess, find_fairy_stockfish

        self.variant, self.checks = variant, checks
        self.proofs = ProofSearch(checks.proof_nodes)
        command = find_fairy_stockfish()
        if command is None:
            raise FileNotFoundError("the suites are checked by Fairy-Stockfish "
                                    "(Debian: apt install fairy-stockfish)")
        self.fsf = EngineProcess("uci", [command])

    def close(self) -> None:
        self.fsf.close()

    def proved(self, fen: str, target: str = "mover") -> tuple[bool, int, list[str]]:
        """Whether the proof search proves a win for ``target`` (``mover`` or
        ``other``): (proved, plies, the proved winning moves when ``target`` moves)."""
        from search.solve.pns import PROVED

        result = self.proofs.solve(Position.from_fen(fen, self.variant), target=target)
        won = [m for m, (status, _plies) in result.moves.items() if status == PROVED]
        return result.status == PROVED, result.plies, sorted(won)

    def fsf_mate(self, fen: str) -> tuple[int | None, int]:
        """Fairy-Stockfish's mate in moves from the mover's view (positive: the mover
        wins; None when it sees none), and the depth it reached."""
        import chess.engine

        board = board_class(self.variant)(fen)
        limit = chess.engine.Limit(depth=self.checks.fsf_depth, nodes=self.checks.fsf_nodes)
        info = self.fsf.engine.analyse(board, limit, game=object())   # a new game: ucinewgame
        score = info.get("score")
        return (None if score is None else score.pov(board.turn).mate()), int(info.get("depth", 0))

    def won(self, fen: str, side: str) -> bool:
        """Whether ``side`` (``mover`` or ``other``) has a forced win seen by either
        check: the proof search first, Fairy-Stockfish when it proves nothing."""
        if self.proved(fen, side)[0]:
            return True
        mate, _depth = self.fsf_mate(fen)
        return mate is not None and (mate > 0) == (side == "mover")


def _games(pgn: Path, variant: str,
           ) -> Iterator[tuple[int, str, list[tuple[str, str]], bool, int]]:
    """Each game as (number, result, [(FEN, move played)] in order, tdleaf is White,
    the plies of its opening that no engine chose)."""
    from tdleaf.play.gamefiles import PgnError, book_plies, read_pgn_games

    try:
        text = pgn.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise PgnError(f"cannot read PGN file {str(pgn)!r}: "
                       f"{getattr(exc, 'strerror', None) or exc}") from None
    for number, game, board in read_pgn_games(text, variant, str(pgn)):
        white, black = (game.headers.get(k, "").lower() for k in ("White", "Black"))
        if (OPPONENT in white) == (OPPONENT in black):
            continue                # not a game between tdleaf and the opponent
        plies = []
        for move in game.mainline_moves():
            plies.append((board.fen(), move.uci()))
            board.push(move)
        yield number, game.headers.get("Result", "*"), plies, OPPONENT in black, book_plies(game)


def _earliest(n: int, test: Callable[[int], bool]) -> int | None:
    """The first ``i < n`` with ``test(i)``, by bisection (``test`` taken as false then
    true along the range); None when ``test(n - 1)`` is false."""
    if n == 0 or not test(n - 1):
        return None
    lo, hi = 0, n - 1                  # test(hi) holds
    while lo < hi:
        mid = (lo + hi) // 2
        if test(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _after(fen: str, move: str, variant: str) -> str:
    pos = Position.from_fen(fen, variant)
    pos.push_uci(move)
    return pos.fen()


def win_entry(judge: Judge, plies: list[tuple[str, str]], winner_moves_first: bool,
              book: int = 0) -> dict[str, Any] | None:
    """The wins suite's position of a game the opponent won (whose positions to move are
    the odd or even plies, ``winner_moves_first`` for the even; none of the ``book``
    plies of the opening), or None."""
    mine = [i for i in range(book, len(plies)) if (i % 2 == 0) == winner_moves_first]
    k = _earliest(len(mine), lambda j: judge.proved(plies[mine[j]][0])[0])
    if k is None:
        return None
    ply = mine[k]
    fen, played = plies[ply]
    _, length, won = judge.proved(fen)
    mate, depth = judge.fsf_mate(fen)
    if mate is not None and mate < 0:
        return None                        # Fairy-Stockfish sees the opposite: left out
    return {"fen": fen, "ply": ply, "played": played, "best": won, "plies": length,
            "fsf": mate, "fsf_depth": depth}


def defence_entry(judge: Judge, plies: list[tuple[str, str]], variant: str,
                  loser_moves_first: bool, book: int = 0) -> dict[str, Any] | None:
    """The defence suite's position of a game tdleaf lost (its own moves only, after
    the ``book`` plies), or None."""
    mine = [i for i in range(book, len(plies)) if (i % 2 == 0) == loser_moves_first]
    afters = [_after(*plies[i], variant) for i in mine]
    k = _earliest(len(mine), lambda j: judge.proved(afters[j])[0])
    if k is None:
        return None
    ply = mine[k]
    fen, played = plies[ply]
    if judge.proved(fen, "other")[0]:
        return None                        # lost already: the loss came earlier
    mate, depth = judge.fsf_mate(fen)
    if mate is not None and mate < 0:
        return None
    _, length, _ = judge.proved(afters[k])
    return {"fen": fen, "ply": ply, "played": played, "plies": length, "fsf": mate,
            "fsf_depth": depth}


def _epd(entries: list[dict[str, Any]], suite: str) -> str:
    from tdleaf.play.epd import format_line

    lines = []
    for e in entries:
        ops = [("id", f'"game {e["game"]} ply {e["ply"]}"'), ("pm", e["played"])]
        ops += [("bm", " ".join(e["best"]))] if suite == "wins" else [("am", e["played"])]
        ops += [("plies", str(e["plies"])), ("fsf", "none" if e["fsf"] is None else str(e["fsf"])),
                ("fsfdepth", str(e["fsf_depth"]))]
        lines.append(format_line(e["fen"], ops))
    return "".join(line + "\n" for line in lines)


def _journal(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break                          # a torn last line: that game is done again
    return rows


def build(pgn: Path, variant: str, out: Path, checks: Checks = Checks(), *,
          resume: bool = False, progress: Callable[[str], None] | None = None,
          ) -> dict[str, int]:
    """Build both suites from the games of ``pgn`` into ``out`` (see the module's
    docstring); returns the number of positions of each."""
    out.mkdir(parents=True, exist_ok=True)
    journal = out / "build.jsonl"
    if journal.exists() and not resume:
        raise FileExistsError(f"{journal} exists: --resume carries it on")
    done = _journal(journal)
    seen = {row["game"] for row in done}
    games = list(_games(pgn, variant))
    if not games:
        raise ValueError(f"{pgn}: no game between tdleaf and an opponent named "
                         f"*{OPPONENT}* (the White and Black tags)")
    judge = Judge(variant, checks)
    try:
        with open(journal, "a") as log:
            for number, result, plies, tdleaf_white, book in games:
                if number in seen or result not in ("1-0", "0-1"):
                    continue
                opponent_won = (result == "1-0") != tdleaf_white
                row: dict[str, Any] = {"game": number, "wins": None, "defence": None}
                if opponent_won:
                    row["wins"] = win_entry(judge, plies, not tdleaf_white, book)
                    row["defence"] = defence_entry(judge, plies, variant, tdleaf_white, book)
                log.write(json.dumps(row) + "\n")
                log.flush()
                done.append(row)
                if progress:
                    progress(f"game {number}: wins {'yes' if row['wins'] else 'no'}, "
                             f"defence {'yes' if row['defence'] else 'no'}")
    finally:
        judge.close()
    counts = {}
    for suite in SUITES:
        entries = [{**r[suite], "game": r["game"]} for r in done if r[suite]]
        write_text(out / f"{suite}.epd", _epd(entries, suite))
        counts[suite] = len(entries)
    return counts


def read_suite(path: Path, variant: str) -> list[dict[str, Any]]:
    """A suite's positions: FEN, id, the move played and the suite's moves."""
    from tdleaf.play.epd import read_epd

    rows = []
    for line in read_epd(path):
        ops = line.ops
        Position.from_fen(line.fen, variant)           # a bad FEN is an error here
        rows.append({"fen": line.fen, "id": ops.get("id", "").strip('"'),
                     "played": ops.get("pm"), "best": ops.get("bm", "").split()})
    return rows


def _verdict(judge: Judge, suite: str, fen: str, move: str, played: str | None) -> bool:
    after = _after(fen, move, judge.variant)
    if suite == "wins":
        return judge.won(after, "other")       # the winner, now the side not to move
    return move != played and not judge.won(after, "mover")


def solve(out: Path, variant: str, movetimes: list[float], checks: Checks = Checks(), *,
          flags: int | None = None, proof_share: float | None = None,
          proof_check: float | None = None, report_path: Path | None = None,
          progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Search every position of ``out``'s suites at each of ``movetimes`` and judge the
    moves; the report is written to ``report_path`` (default ``out/solve.json``) and
    returned."""
    from search import Engine

    engine = Engine(variant, None, flags=flags)
    if proof_share is not None:
        engine.proof_share = proof_share
    if proof_check is not None:
        engine.proof_check = proof_check
    engine.load_compiled()
    judge = Judge(variant, checks)
    rows, summary = [], []
    try:
        for suite in SUITES:
            positions = read_suite(out / f"{suite}.epd", variant)
            for movetime in movetimes:
                solved = nodes = 0
                for p in positions:
                    engine.new_game()
                    t0 = time.perf_counter()
                    result = engine.search(p["fen"], movetime=movetime, leaf=False)
                    seconds = time.perf_counter() - t0
                    # A suite's position always has a move (it was played in the game).
                    ok = result.move is not None and _verdict(judge, suite, p["fen"],
                                                              result.move, p["played"])
                    solved += ok
                    nodes += result.nodes
                    rows.append({"suite": suite, "movetime": movetime, "id": p["id"],
                                 "move": result.move, "nodes": result.nodes,
                                 "seconds": round(seconds, 4), "solved": ok})
                    if progress:
                        progress(f"{suite} {movetime:g} s {p['id']}: {result.move} "
                                 f"{'solved' if ok else 'not solved'}")
                n = len(positions)
                lo, hi = wilson(solved, n)
                summary.append({"suite": suite, "movetime": movetime, "positions": n,
                                "solved": solved, "rate": solved / n if n else 0.0,
                                "interval": [lo, hi], "nodes_per_position": nodes / n if n else 0})
    finally:
        judge.close()
    report = {"variant": variant, "flags": engine.flags, "proof_share": engine.proof_share,
              "proof_check": engine.proof_check, "endgame_tables": _tables_loaded(variant),
              "checks": vars(checks), "summary": summary, "positions": rows}
    write_json(report_path or out / "solve.json", report)
    return report


def _tables_loaded(variant: str) -> int:
    """How many endgame tables the engine had (none where they were not built: the
    searches at the root of 3-piece positions differ)."""
    if not spec(variant).endgame_pieces:
        return 0
    from search.solve.endgame import tables
    return len(tables(variant).tables)


def format_report(report: dict[str, Any]) -> str:
    """The solve rates as a table."""
    head = f"{report['variant']}, search flags {report['flags']}, proof share "
    columns = f"{'suite':<9}{'time':>7}{'solved':>12}{'rate':>8}  {'95% interval':<16}"
    head += (f"{report['proof_share']:g}, proof check {report.get('proof_check', 0):g}, "
             f"endgame tables {report.get('endgame_tables', '?')}")
    lines = [head, columns + f"{'nodes':>10}"]
    for s in report["summary"]:
        lo, hi = s["interval"]
        lines.append(f"{s['suite']:<9}{s['movetime']:>6g}s{s['solved']:>6} / {s['positions']:<4}"
                     f"{100 * s['rate']:>7.1f}%  [{100 * lo:.1f}, {100 * hi:.1f}]%"
                     f"{s['nodes_per_position']:>12,.0f}")
    return "\n".join(lines)


def check_variant(variant: str) -> str:
    """``variant`` if the suites serve it (:data:`VARIANTS`), else ValueError."""
    name = spec(variant).name
    if name not in VARIANTS:
        raise ValueError(f"the suites are for {', '.join(VARIANTS)}, not {name}")
    return name
