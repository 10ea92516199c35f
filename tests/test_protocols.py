"""The UCI and XBoard front ends (``tdleaf uci`` / ``tdleaf xboard``).

* Complete games through python-chess's ``chess.engine`` (which raises on any illegal
  move) in every variant, engine against itself, with depth and time limits.
* Short real games against Debian's ``sjeng`` (XBoard, crazyhouse) and ``fairy-stockfish``
  (UCI, crazyhouse); skipped only when the binary is missing and TDLEAF_REQUIRE_ENGINES
  is not set (tests/helpers_engines.py).
* Hostile input: every malformed, truncated or out-of-order command, one per test, fed
  to an in-process front end (granular, fast); then whole sessions of garbage, binary
  junk and races sent to the real ``tdleaf uci`` / ``tdleaf xboard`` processes, which
  must keep answering isready/ping, play legal moves and exit cleanly on quit. Every
  wait has a timeout, so a hang fails instead of blocking CI.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import shutil
import sys
import threading
import time

import chess
import chess.engine
import chess.variant
import pytest

from search.protocol.uci import UciEngine
from search.protocol.xboard import XBoardEngine

from helpers_engines import engine_path
from helpers_search import REPLY_TIMEOUT, VARIANTS, LineEngine, new_board
from helpers_tiers import costly_in_full_tier, report_variants_in_fast_tier

MAX_PLIES = 80
XBOARD_VARIANTS = ("chess", "crazyhouse", "suicide", "giveaway", "antichess", "atomic")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tdleaf(*args: str) -> list[str]:
    """The installed console script, as a GUI would start it (else ``python -m tdleaf``).
    TDLEAF_TEST_COMMAND (e.g. "python -m tdleaf") overrides it, to test a checkout."""
    override = os.environ.get("TDLEAF_TEST_COMMAND")
    if override:
        return [*shlex.split(override), *args]
    exe = shutil.which("tdleaf")
    if exe:
        return [exe, *args]
    return [sys.executable, "-m", "tdleaf", *args]


# --------------------------------------------------------------------------------------
# Complete games through python-chess
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def uci_engine():
    engine = chess.engine.SimpleEngine.popen_uci(tdleaf("uci"), timeout=REPLY_TIMEOUT, cwd=ROOT)
    yield engine
    engine.quit()


@pytest.fixture(scope="module")
def xboard_engine():
    engine = chess.engine.SimpleEngine.popen_xboard(tdleaf("xboard"), timeout=REPLY_TIMEOUT, cwd=ROOT)
    yield engine
    engine.quit()


def replayed(variant: str, board: chess.Board) -> chess.Board:
    """A fresh board with the same moves. python-chess 1.11.2's crazyhouse root() shares
    the pocket objects of the first stack entry, and its XBoard driver pushes moves on
    that root, so reusing one board corrupts its root pockets (the next 'setboard' then
    carries pieces in hand that were never captured)."""
    fresh = new_board(variant)
    for move in board.move_stack:
        fresh.push(move)
    return fresh


def play_game(white, black, variant: str, limits, max_plies: int = MAX_PLIES,
              opponent=None) -> chess.Board:
    """Play until the game ends or max_plies; python-chess checks every move. Only the
    ``opponent`` (another program) may stop early, by resigning or claiming a draw."""
    board = new_board(variant)
    while board.outcome() is None and len(board.move_stack) < max_plies:
        engine = white if board.turn == chess.WHITE else black
        limit = limits[len(board.move_stack) % len(limits)]
        result = engine.play(replayed(variant, board), limit)
        if result.move is None and engine is opponent and (
                result.resigned or board.can_claim_draw()):
            break
        assert result.move is not None, f"no move in {board.fen()}"
        assert result.move in board.legal_moves, f"illegal {result.move} in {board.fen()}"
        board.push(result.move)
    return board


LIMITS = [chess.engine.Limit(depth=2), chess.engine.Limit(time=0.02), chess.engine.Limit(depth=1)]


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_uci_self_play_game(uci_engine, variant):
    assert "UCI_Variant" in uci_engine.options
    assert variant in uci_engine.options["UCI_Variant"].var
    board = play_game(uci_engine, uci_engine, variant, LIMITS)
    assert board.outcome() is not None or len(board.move_stack) == MAX_PLIES
    uci_engine.ping()


MCTS_LIMITS = [chess.engine.Limit(nodes=60), chess.engine.Limit(time=0.02)]


#: Each mode in one variant in the fast tier (test_uci_self_play_game plays the default,
#: selective, in the report's variants); every pair in the full tier.
FAST_MODES = {("chess", "plain"), ("atomic", "selective"), ("kingofthehill", "mcts")}


@pytest.mark.parametrize("variant, search", costly_in_full_tier(
    [(v, s) for v in VARIANTS for s in ("plain", "selective", "mcts")],
    [(v, s) for v in VARIANTS for s in ("plain", "selective", "mcts") if (v, s) not in FAST_MODES]))
def test_uci_self_play_game_in_every_search_mode(variant, search):
    """The option Search switches the engine; each mode plays whole legal games."""
    engine = chess.engine.SimpleEngine.popen_uci(tdleaf("uci"), timeout=REPLY_TIMEOUT, cwd=ROOT)
    try:
        assert engine.options["Search"].var == ["selective", "plain", "mcts"]
        engine.configure({"Search": search})
        limits = MCTS_LIMITS if search == "mcts" else LIMITS
        board = play_game(engine, engine, variant, limits, max_plies=40)
        assert board.outcome() is not None or len(board.move_stack) == 40
        info = engine.analyse(new_board(variant), limits[0])
        assert info["pv"] and info["pv"][0] in new_board(variant).legal_moves
        engine.ping()
    finally:
        engine.quit()


def test_uci_limit_strength_caps_the_search_by_the_ladder():
    """UCI_LimitStrength + UCI_Elo: the search stops at the depth (or node count) the
    measured ladder (search/ladder.json) gives for that Elo, whatever time it has."""
    from search.protocol import strength
    variant = next(v for v in ("crazyhouse", "chess") if strength.has_ladder(v))
    lo, hi = strength.elo_range(variant)
    engine = chess.engine.SimpleEngine.popen_uci(tdleaf("uci"), timeout=REPLY_TIMEOUT, cwd=ROOT)
    try:
        opt = engine.options["UCI_Elo"]
        assert opt.min <= lo and opt.max >= hi
        for elo in (lo, hi):
            cap = strength.limits_for_elo(variant, elo)
            engine.configure({"UCI_LimitStrength": True, "UCI_Elo": elo})
            info = engine.analyse(new_board(variant), chess.engine.Limit(time=1.0), game=object())
            if "depth" in cap:
                assert info["depth"] <= cap["depth"], (elo, cap, info)
            else:
                assert info["nodes"] <= cap["nodes"] + 2000, (elo, cap, info)
        engine.configure({"UCI_LimitStrength": False})
        free = engine.analyse(new_board(variant), chess.engine.Limit(depth=6), game=object())
        assert free["depth"] == 6
    finally:
        engine.quit()


def test_uci_rejects_an_unknown_search_mode():
    out = io.StringIO()
    UciEngine(io.StringIO("setoption name Search value fastest\nquit\n"), out).run()
    assert "Search must be one of selective, plain, mcts" in out.getvalue()


@pytest.mark.parametrize("variant", XBOARD_VARIANTS)
def test_xboard_self_play_game(xboard_engine, variant):
    assert type(new_board(variant)).xboard_variant in xboard_engine.protocol.features["variants"].split(",")
    board = play_game(xboard_engine, xboard_engine, variant, LIMITS)
    assert board.outcome() is not None or len(board.move_stack) == MAX_PLIES
    xboard_engine.ping()


def test_uci_options_and_analysis(uci_engine):
    """Weights and Hash options are accepted; analysis reports a legal PV and a score."""
    uci_engine.configure({"Weights": "sunsetter", "Hash": 8})
    board = chess.variant.CrazyhouseBoard("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3")
    info = uci_engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["pv"] and info["pv"][0] in board.legal_moves
    assert info["score"] is not None and info["depth"] >= 1
    uci_engine.configure({"Weights": "default", "Hash": 16})


def test_uci_mate_is_reported_as_mate(uci_engine):
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = uci_engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["pv"][0] == chess.Move.from_uci("a1a8")
    assert info["score"].relative == chess.engine.Mate(1)


# --------------------------------------------------------------------------------------
# Against other engines
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("tdleaf_white", [True, pytest.param(False, marks=pytest.mark.slow)],
                         ids=["tdleaf-white", "tdleaf-black"])
def test_game_against_sjeng_crazyhouse(tdleaf_white):
    sjeng_path = engine_path("sjeng")
    ours = chess.engine.SimpleEngine.popen_xboard(tdleaf("xboard"), timeout=REPLY_TIMEOUT, cwd=ROOT)
    sjeng = chess.engine.SimpleEngine.popen_xboard(sjeng_path, timeout=60)
    try:
        white, black = (ours, sjeng) if tdleaf_white else (sjeng, ours)
        board = play_game(white, black, "crazyhouse", [chess.engine.Limit(depth=2)], max_plies=60,
                          opponent=sjeng)
        assert len(board.move_stack) >= 20 or board.outcome() is not None
    finally:
        ours.quit()
        sjeng.quit()


@pytest.mark.parametrize("tdleaf_white", [True, pytest.param(False, marks=pytest.mark.slow)],
                         ids=["tdleaf-white", "tdleaf-black"])
def test_game_against_fairy_stockfish_crazyhouse(tdleaf_white):
    fsf_path = engine_path("fairy-stockfish")
    ours = chess.engine.SimpleEngine.popen_uci(tdleaf("uci"), timeout=REPLY_TIMEOUT, cwd=ROOT)
    fsf = chess.engine.SimpleEngine.popen_uci(fsf_path, timeout=60)
    try:
        white, black = (ours, fsf) if tdleaf_white else (fsf, ours)
        limits = [chess.engine.Limit(depth=2), chess.engine.Limit(time=0.02)]
        board = play_game(white, black, "crazyhouse", limits, max_plies=60, opponent=fsf)
        assert len(board.move_stack) >= 20 or board.outcome() is not None
    finally:
        ours.quit()
        fsf.quit()


# --------------------------------------------------------------------------------------
# Hostile input, one command at a time (in-process front ends)
# --------------------------------------------------------------------------------------


class Collector(io.TextIOBase):
    """A thread-safe output stream whose lines can be waited for."""

    def __init__(self) -> None:
        self._buf = ""
        self._cond = threading.Condition()

    def write(self, s: str) -> int:
        with self._cond:
            self._buf += s
            self._cond.notify_all()
        return len(s)

    def flush(self) -> None:
        pass

    @property
    def lines(self) -> list[str]:
        with self._cond:
            return self._buf.splitlines()

    def wait_for(self, predicate, what: str, start: int = 0, timeout: float = REPLY_TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self._buf.splitlines()[start:]:
                    if predicate(line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}; output: {self._buf[-2000:]}")
                self._cond.wait(left)


class Guarded:
    """A front end whose every ``handle`` call must return within REPLY_TIMEOUT (run in
    a helper thread), so that a deadlock fails the test instead of blocking CI."""

    def __init__(self, eng) -> None:
        self.eng = eng

    def handle(self, line: str, timeout: float = REPLY_TIMEOUT):
        box: dict = {}

        def run() -> None:
            try:
                box["result"] = self.eng.handle(line)
            except BaseException as exc:  # noqa: BLE001 (re-raised in the test's thread)
                box["error"] = exc

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        worker.join(timeout)
        if worker.is_alive():
            if self.eng._engine is not None:
                self.eng._engine.stop()
            raise AssertionError(f"handling {line[:60]!r} did not return within {timeout} s")
        if "error" in box:
            raise box["error"]
        return box["result"]


UCI_HOSTILE = [
    "hello", "xyzzy 1 2 3", "   ", "\t", "UCI", "isready now", "quit_not",
    "position", "position fen", "position moves e2e4", "position startpos moves",
    "position startpos e2e4", "position fen 8/8/8 w", "position fen not a fen at all",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position startpos moves e2e4 e7e5 g1g1", "position startpos moves e2e5",
    "position startpos moves e2e4 e2e4 e7e5", "position startpos moves e7e5",
    "position startpos moves e1g1", "position startpos moves P@e4", "position startpos moves 0000",
    "position startpos moves e2e4 " + "x" * 5000,
    "go depth", "go depth x", "go depth -3", "go depth 0", "go nodes", "go nodes 0",
    "go movetime", "go movetime -5", "go wtime", "go wtime 0 btime 0", "go foo bar",
    "go searchmoves", "go searchmoves zzzz", "go mate 1", "go ponder", "go infinite",
    "stop", "ponderhit", "ucinewgame",
    "setoption", "setoption name", "setoption name ", "setoption value 5",
    "setoption name Hash", "setoption name Hash value", "setoption name Hash value abc",
    "setoption name Hash value 0", "setoption name Hash value -1",
    "setoption name UCI_Variant", "setoption name UCI_Variant value nosuch",
    "setoption name UCI_Variant value", "setoption name Nope value 1",
    "setoption name Weights value /nonexistent/weights.json",
    "setoption name Weights value nosuch", "setoption name Weights value",
    "setoption name Net value /nonexistent/net.onnx", "setoption name Net value shipped",
    "setoption name Net value", "setoption name OwnBook value maybe",
    "debug", "debug on", "register later", "d", "x" * 100_000,
    "\x00\x01\x02", "\udcff\udcfe junk", "é ☃ 🐉", "\x1b[31mred\x1b[0m",
]


def _uci_session() -> tuple[Guarded, Collector]:
    out = Collector()
    eng = Guarded(UciEngine(io.StringIO(""), out))
    eng.handle("uci")
    out.wait_for(lambda l: l == "uciok", "uciok")
    return eng, out


def _uci_bestmove(eng: Guarded, out: Collector, board: chess.Board, position: str,
                  go: str = "go depth 1") -> str:
    start = len(out.lines)
    eng.handle(position)
    eng.handle(go)
    line = out.wait_for(lambda l: l.startswith("bestmove"), f"bestmove after {go!r}", start)
    move = line.split()[1]
    assert chess.Move.from_uci(move) in board.legal_moves, f"{line!r} illegal in {board.fen()}"
    return move


@pytest.mark.parametrize("line", UCI_HOSTILE, ids=[repr(x[:30]) for x in UCI_HOSTILE])
def test_uci_survives_hostile_line(line):
    eng, out = _uci_session()
    try:
        assert eng.handle(line) is True, "only 'quit' ends the session"
        start = len(out.lines)
        eng.handle("isready")
        out.wait_for(lambda l: l == "readyok", "readyok", start)
        eng.handle("setoption name UCI_Variant value chess")
        board = chess.Board()
        board.push_uci("e2e4")
        _uci_bestmove(eng, out, board, "position startpos moves e2e4")
    finally:
        eng.handle("stop")
    assert eng.handle("quit") is False


def test_uci_go_before_position_and_out_of_order():
    eng, out = _uci_session()
    # go before any position: the start position.
    start = len(out.lines)
    eng.handle("go depth 2")
    move = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove", start).split()[1]
    assert chess.Move.from_uci(move) in chess.Board().legal_moves
    # stop without go, twice; isready during an infinite search; stop ends it.
    eng.handle("stop")
    eng.handle("stop")
    start = len(out.lines)
    eng.handle("position startpos moves d2d4")
    eng.handle("go infinite")
    eng.handle("isready")
    out.wait_for(lambda l: l == "readyok", "readyok while searching", start)
    eng.handle("stop")
    board = chess.Board()
    board.push_uci("d2d4")
    move = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove after stop", start).split()[1]
    assert chess.Move.from_uci(move) in board.legal_moves
    # A new position while searching: the old search ends (with its own legal move).
    start = len(out.lines)
    eng.handle("go infinite")
    eng.handle("position startpos moves e2e4 e7e5")
    first = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove of the interrupted search", start)
    assert chess.Move.from_uci(first.split()[1]) in board.legal_moves
    board = chess.Board()
    for m in ("e2e4", "e7e5"):
        board.push_uci(m)
    _uci_bestmove(eng, out, board, "position startpos moves e2e4 e7e5", "go depth 2")
    # A rejected position (illegal move in the list) leaves no position behind: go
    # answers bestmove 0000 with the reason (see test_uci_refused_position_*).
    start = len(out.lines)
    eng.handle("position startpos moves g1f3 g1f3 b8c6")
    eng.handle("go depth 1")
    assert out.wait_for(lambda l: l.startswith("bestmove"), "bestmove", start) == "bestmove 0000"
    # No legal moves: the engine still answers.
    start = len(out.lines)
    eng.handle("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    eng.handle("go depth 2")
    line = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove in a mated position", start)
    assert line.split()[1] in ("(none)", "0000")
    assert eng.handle("quit") is False


XBOARD_HOSTILE = [
    "hello", "xyzzy 1 2 3", "   ", "\t", "protover", "protover x", "accepted", "rejected foo",
    "new extra args", "variant", "variant nosuch", "variant bughouse", "variant 3check",
    "setboard", "setboard garbage", "setboard 8/8/8 w", "setboard 8/8/8/8/8/8/8/8 w - - 0 1",
    "usermove", "usermove e2e5", "usermove zzzz", "usermove e2e4 e7e5", "e2e5", "e9e4", "a1a1",
    "P@e4", "usermove 0000", "undo", "remove", "sd", "sd x", "sd -1", "st", "st x", "st -1",
    "level", "level 40", "level 40 5", "level x y z", "level 40 5:xx 0", "time", "time x",
    "otim", "otim x", "ping", "ping", "force", "go", "playother", "?", "result", "result 1-0",
    "white", "black", "post", "nopost", "easy", "hard", "computer", "name", "rating", "ics",
    "draw", "option Foo=1", "option Search=nosuch", "option Net=/nonexistent.onnx", "option",
    "option Search", "memory 64", "cores 2", "bk", "hint", "analyze", "exit", ".",
    "x" * 100_000, "\x00\x01\x02", "\udcff\udcfe junk", "é ☃ 🐉", "\x1b[31mred\x1b[0m",
]


def _xboard_session() -> tuple[Guarded, Collector]:
    out = Collector()
    eng = Guarded(XBoardEngine(io.StringIO(""), out))
    eng.handle("xboard")
    eng.handle("protover 2")
    out.wait_for(lambda l: "done=1" in l, "feature done=1")
    return eng, out


def test_xboard_plays_mcts_and_says_when_a_network_is_not_used():
    """option Search=mcts plays the MCTS (the options are in the features); option Net
    with a network it cannot use says so in a # line, and the heuristic prior plays."""
    eng, out = _xboard_session()
    assert any('option="Search -combo *selective /// plain /// mcts"' in x for x in out.lines)
    assert any('option="Net -string none"' in x for x in out.lines)
    board = chess.Board()
    eng.handle("option Search=mcts")
    eng.handle("option Net=/nonexistent/net.onnx")
    eng.handle("st 1")
    start = len(out.lines)
    move = _xboard_move(eng, out, board, "go")
    assert any(x.startswith("# Net ignored, the MCTS uses the heuristic prior:")
               for x in out.lines[start:])
    board.push(board.parse_xboard(move))


def _xboard_ping(eng: Guarded, out: Collector, n: int) -> None:
    start = len(out.lines)
    eng.handle(f"ping {n}")
    out.wait_for(lambda l: l == f"pong {n}", f"pong {n}", start)


def _xboard_move(eng: Guarded, out: Collector, board: chess.Board, *setup: str) -> str:
    start = len(out.lines)
    for cmd in setup:
        eng.handle(cmd)
    line = out.wait_for(lambda l: l.startswith("move "), "move", start)
    move = line.split()[1]
    assert board.parse_xboard(move) in board.legal_moves, f"{line!r} illegal in {board.fen()}"
    return move


@pytest.mark.parametrize("line", XBOARD_HOSTILE, ids=[repr(x[:30]) for x in XBOARD_HOSTILE])
def test_xboard_survives_hostile_line(line):
    eng, out = _xboard_session()
    try:
        eng.handle("sd 1")
        assert eng.handle(line) is True, "only 'quit' ends the session"
        # A line that starts a search ('go', 'playother', ...) may still be thinking:
        # 'force' ends it without a move, so no late move is taken for the next one's.
        eng.handle("force")
        _xboard_ping(eng, out, 7)
        board = chess.Board()
        board.push_uci("e2e4")
        _xboard_move(eng, out, board, "new", "force", "usermove e2e4", "sd 1", "go")
    finally:
        eng.handle("force")
    assert eng.handle("quit") is False


def test_xboard_out_of_order():
    eng, out = _xboard_session()
    eng.handle("sd 1")
    # go before anything: the engine plays White's first move.
    _xboard_move(eng, out, chess.Board(), "go")
    # moves after an illegal move: the illegal one is refused, the rest still apply.
    eng.handle("new")
    eng.handle("force")
    start = len(out.lines)
    for cmd in ("usermove e2e4", "usermove e2e4", "usermove e7e5"):
        eng.handle(cmd)
    out.wait_for(lambda l: l.startswith("Illegal move"), "Illegal move", start)
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    eng.handle("sd 1")
    _xboard_move(eng, out, board, "go")
    # "?" and "force" while thinking, then undo/remove beyond the start.
    eng.handle("new")
    eng.handle("st 5")
    _xboard_move(eng, out, chess.Board(), "go", "?")
    for cmd in ("remove", "remove", "undo", "undo"):
        eng.handle(cmd)
    _xboard_ping(eng, out, 11)
    eng.handle("new")
    eng.handle("variant crazyhouse")
    eng.handle("setboard 6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1")
    eng.handle("sd 3")
    start = len(out.lines)
    eng.handle("go")
    assert out.wait_for(lambda l: l.startswith("move "), "drop mate", start) == "move N@f7"
    assert eng.handle("quit") is False


def test_uci_stop_right_after_go_is_not_lost():
    """'go infinite' then 'stop' at once (a GUI's quick click): the stop must end the
    search even if it arrives before the search thread has started. A tiny thread
    switch interval makes that interleaving likely; a lost stop hangs the search."""
    guarded, out = _uci_session()
    guarded.handle("isready")
    out.wait_for(lambda l: l == "readyok", "readyok")
    eng = guarded.eng
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for i in range(40):
            done = threading.Event()

            def go_stop(done: threading.Event = done) -> None:
                eng.handle("go infinite")
                eng.handle("stop")
                done.set()

            threading.Thread(target=go_stop, daemon=True).start()
            if not done.wait(10):
                eng._engine.stop()           # release the hung search before failing
                done.wait(10)
                pytest.fail(f"'stop' sent right after 'go infinite' was lost (attempt {i}): "
                            "the search ran on until stopped again")
    finally:
        sys.setswitchinterval(old)
    assert sum(l.startswith("bestmove") for l in out.lines) == 40
    assert eng.handle("quit") is False


# --------------------------------------------------------------------------------------
# Whole hostile sessions through the real processes
# --------------------------------------------------------------------------------------

JUNK = [b"\x00\x01\x02\x03\n", b"\xff\xfe\xfd binary junk\n", b"\x89PNG\r\n\x1a\n",
        b"caf\xc3\xa9 \xe2\x98\x83\n", b"\x1b[31mred\x1b[0m\n", b"isready\r\n",
        b"half a li", b"ne\n", bytes(range(256)) + b"\n"]


def _uci_process(env=None) -> LineEngine:
    eng = LineEngine(tdleaf("uci"), env)
    eng.send("uci")
    eng.expect(lambda l: l == "uciok", "uciok")
    return eng


def _isready(eng: LineEngine) -> None:
    eng.send("isready")
    eng.expect(lambda l: l == "readyok", "readyok")


def _bestmove(eng: LineEngine, board: chess.Board) -> None:
    line = eng.expect(lambda l: l.startswith("bestmove"), "bestmove")
    move = chess.Move.from_uci(line.split()[1])
    assert move in board.legal_moves, eng.describe(f"{line!r} illegal in {board.fen()}")


def test_uci_process_survives_garbage_session():
    with _uci_process() as eng:
        eng.send("go depth 2")                          # go before position
        _bestmove(eng, chess.Board())
        for chunk in (UCI_HOSTILE[:25], UCI_HOSTILE[25:50], UCI_HOSTILE[50:]):
            for line in chunk:
                if line.startswith("go"):
                    continue                            # searches are checked below
                eng.send(line.encode("utf-8", "surrogateescape") + b"\n")
            for junk in JUNK:
                eng.send(junk)
            _isready(eng)
        eng.send("setoption name UCI_Variant value atomic")
        eng.send("ucinewgame")
        eng.send("position startpos moves g1f3 f7f6")
        eng.send("go depth 2")
        board = chess.variant.AtomicBoard()
        board.push_uci("g1f3")
        board.push_uci("f7f6")
        _bestmove(eng, board)
        eng.send("go infinite")
        _isready(eng)
        eng.send("stop")
        _bestmove(eng, board)
        eng.send("stop")
        _isready(eng)
        assert eng.quit() == 0, eng.describe("bad exit code")


def test_uci_process_survives_binary_junk_under_strict_utf8():
    """As under a desktop locale (en_US.UTF-8: stdin decodes strictly, unlike C.UTF-8)."""
    with _uci_process({"PYTHONIOENCODING": "utf-8:strict"}) as eng:
        for junk in JUNK:
            eng.send(junk)
        _isready(eng)
        eng.send("position startpos")
        eng.send("go depth 1")
        _bestmove(eng, chess.Board())
        assert eng.quit() == 0


def _xboard_process(env=None) -> LineEngine:
    eng = LineEngine(tdleaf("xboard"), env)
    eng.send("xboard")
    eng.send("protover 2")
    eng.expect(lambda l: "done=1" in l, "feature done=1")
    return eng


def _pong(eng: LineEngine, n: int) -> None:
    eng.send(f"ping {n}")
    eng.expect(lambda l: l == f"pong {n}", f"pong {n}")


def _xmove(eng: LineEngine, board: chess.Board) -> None:
    line = eng.expect(lambda l: l.startswith("move "), "move")
    move = board.parse_xboard(line.split()[1])
    assert move in board.legal_moves, eng.describe(f"{line!r} illegal in {board.fen()}")


def test_xboard_process_survives_garbage_session():
    with _xboard_process() as eng:
        eng.send("sd 1")
        eng.send("go")                                  # go straight away: White's move
        _xmove(eng, chess.Board())
        n = 1
        for chunk in (XBOARD_HOSTILE[:30], XBOARD_HOSTILE[30:60], XBOARD_HOSTILE[60:]):
            eng.send("force")
            for line in chunk:
                if line in ("go", "playother"):
                    continue                            # moves are checked below
                eng.send(line.encode("utf-8", "surrogateescape") + b"\n")
            for junk in JUNK:
                eng.send(junk)
            _pong(eng, n)
            n += 1
        eng.send("new")
        eng.send("variant suicide")
        eng.send("force")
        eng.send("usermove e2e3")
        eng.send("usermove e7e5")
        eng.send("usermove e3e4")
        eng.send("sd 2")
        eng.send("go")
        board = chess.variant.SuicideBoard()
        for m in ("e2e3", "e7e5", "e3e4"):
            board.push_uci(m)
        _xmove(eng, board)
        _pong(eng, 99)
        assert eng.quit() == 0, eng.describe("bad exit code")


def test_xboard_process_survives_binary_junk_under_strict_utf8():
    with _xboard_process({"PYTHONIOENCODING": "utf-8:strict"}) as eng:
        for junk in JUNK:
            eng.send(junk)
        _pong(eng, 7)
        eng.send("sd 1")
        eng.send("go")
        _xmove(eng, chess.Board())
        assert eng.quit() == 0


# --------------------------------------------------------------------------------------
# Refused positions: no move for a position the GUI did not send
# --------------------------------------------------------------------------------------

REFUSED_POSITIONS = [
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",                    # no kings: cannot be played
    "position fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",              # the side to move gives check
    "position fen not a fen",
    "position startpos moves e2e4 e2e4",                         # an illegal move in the list
    "position startpos e2e4",                                    # 'moves' missing
    "position",
]


@pytest.mark.parametrize("command", REFUSED_POSITIONS)
def test_uci_refused_position_answers_0000(command):
    """After a refused 'position', go answers 'bestmove 0000' with an info string saying
    why -- also after ucinewgame or a variant change -- until a valid position arrives."""
    eng, out = _uci_session()
    board = chess.Board()
    board.push_uci("d2d4")
    _uci_bestmove(eng, out, board, "position startpos moves d2d4")   # an old position exists
    start = len(out.lines)
    eng.handle(command)
    out.wait_for(lambda l: l.startswith("info string error"), "the refusal", start)
    for before in ([], ["ucinewgame"], ["setoption name UCI_Variant value atomic"]):
        for cmd in before:
            eng.handle(cmd)
        start = len(out.lines)
        eng.handle("go depth 2")
        line = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove", start)
        assert line == "bestmove 0000"
        why = [l for l in out.lines[start:] if l.startswith("info string no position")]
        assert why and "refused" in why[0], out.lines[start:]
    start = len(out.lines)
    eng.handle("d")
    assert out.wait_for(lambda l: l.startswith("info string"), "d", start).startswith("info string no position")
    eng.handle("setoption name UCI_Variant value chess")
    _uci_bestmove(eng, out, board, "position startpos moves d2d4")
    assert eng.handle("quit") is False


def test_uci_impossible_position_warns_and_plays():
    """A position python-chess plays but calls impossible: an info string warning, then
    a legal move (python-chess's move generation decides what is legal)."""
    eng, out = _uci_session()
    fen = "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1"
    start = len(out.lines)
    eng.handle(f"position fen {fen}")
    warning = out.wait_for(lambda l: l.startswith("info string"), "warning", start)
    assert warning.startswith("info string warning") and "impossible_check" in warning
    _uci_bestmove(eng, out, chess.Board(fen), f"position fen {fen}", "go depth 3")
    assert eng.handle("quit") is False


def _xboard_no_move(eng: Guarded, out: Collector, command: str, n: int) -> list[str]:
    """Send ``command``; the lines up to a pong (there must be no move among them)."""
    start = len(out.lines)
    eng.handle(command)
    _xboard_ping(eng, out, n)
    lines = out.lines[start:]
    assert not any(l.startswith("move ") for l in lines), lines
    return lines


def test_xboard_refused_setboard_leaves_no_position():
    eng, out = _xboard_session()
    eng.handle("sd 1")
    eng.handle("new")
    eng.handle("force")
    eng.handle("usermove e2e4")                    # an old position exists
    lines = _xboard_no_move(eng, out, "setboard 8/8/8/8/8/8/8/8 w - - 0 1", 1)
    assert any(l.startswith("Error") for l in lines)
    for n, cmd in enumerate(["go", "playother", "variant crazyhouse", "go", "undo"], 2):
        lines = _xboard_no_move(eng, out, cmd, n)
        if cmd != "variant crazyhouse":
            assert any(l.startswith("Error (no position: setboard refused") for l in lines), lines
    lines = _xboard_no_move(eng, out, "usermove e7e5", 10)
    assert any(l.startswith("Illegal move (no position") for l in lines), lines
    board = chess.Board()
    board.push_uci("e2e4")
    _xboard_move(eng, out, board, "new", "force", "usermove e2e4", "sd 1", "go")
    # a valid setboard ends the refusal too
    _xboard_no_move(eng, out, "setboard garbage", 11)
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    _xboard_move(eng, out, chess.Board(fen), "force", f"setboard {fen}", "go")
    assert eng.handle("quit") is False


def test_xboard_impossible_setboard_warns_and_plays():
    eng, out = _xboard_session()
    fen = "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1"
    start = len(out.lines)
    eng.handle("new")
    eng.handle("force")
    eng.handle(f"setboard {fen}")
    warning = out.wait_for(lambda l: l.startswith("#"), "warning", start)
    assert "impossible_check" in warning
    eng.handle("sd 2")
    _xboard_move(eng, out, chess.Board(fen), "go")
    assert eng.handle("quit") is False


# --------------------------------------------------------------------------------------
# GUI analysis features: MultiPV, searchmoves, go mate, ponder, UCI_AnalyseMode
# --------------------------------------------------------------------------------------

#: A forced win in one move per variant (from tests/test_search.py's FORCED_WINS).
MATE_IN_ONE = {
    "chess": ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", {"a1a8"}),
    "crazyhouse": ("6rk/6pp/8/8/8/8/8/6K1[N] w - - 0 1", {"N@f7"}),
    "atomic": ("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", {"d1d7"}),
    "suicide": ("8/8/8/8/8/1p6/8/R7 w - - 0 1", {"a1a2"}),
    "giveaway": ("8/8/8/8/8/1p6/8/R7 w - - 0 1", {"a1a2"}),
    "antichess": ("8/8/8/8/8/1p6/8/R7 w - - 0 1", {"a1a2"}),
}


def _replay(board: chess.Board, pv) -> None:
    b = board.copy()
    for move in pv:
        assert move in b.legal_moves, f"PV move {move} illegal in {b.fen()}"
        b.push(move)


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_uci_multipv_through_python_chess(uci_engine, variant):
    """analyse(..., multipv=3): three lines, best first, distinct moves, legal PVs; each
    line's score is the score of that move searched alone (root_moves, fresh game)."""
    from helpers_search import random_positions
    for fen in random_positions(variant, "uci-multipv", 2):
        board = new_board(variant, fen)
        lines = uci_engine.analyse(board, chess.engine.Limit(depth=2), multipv=3, game=object())
        assert len(lines) == min(3, board.legal_moves.count())
        assert [info["multipv"] for info in lines] == list(range(1, len(lines) + 1))
        assert len({info["pv"][0] for info in lines}) == len(lines)
        scores = []
        for info in lines:
            _replay(board, info["pv"])
            assert info["depth"] == 2
            alone = uci_engine.analyse(board, chess.engine.Limit(depth=2),
                                       root_moves=[info["pv"][0]], game=object())
            assert alone["pv"][0] == info["pv"][0]
            assert alone["score"] == info["score"], (fen, info["pv"])
            scores.append(info["score"].relative)
        assert scores == sorted(scores, reverse=True)
    # MultiPV goes back to 1 for play (python-chess resets it) and single analysis
    info = uci_engine.analyse(new_board(variant), chess.engine.Limit(depth=1))
    assert info.get("multipv", 1) == 1


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_uci_searchmoves_through_python_chess(uci_engine, variant):
    board = new_board(variant, MATE_IN_ONE[variant][0])
    winners = MATE_IN_ONE[variant][1]
    others = sorted((m for m in board.legal_moves if m.uci() not in winners), key=lambda m: m.uci())
    pick = others[:2]
    info = uci_engine.analyse(board, chess.engine.Limit(depth=2), root_moves=pick)
    assert info["pv"][0] in pick                       # the winning move is not searched
    lines = uci_engine.analyse(board, chess.engine.Limit(depth=2), multipv=5, root_moves=pick)
    assert {info["pv"][0] for info in lines} == set(pick)
    result = uci_engine.play(board, chess.engine.Limit(depth=2), root_moves=[pick[0]])
    assert result.move == pick[0]
    winner = chess.Move.from_uci(min(winners))
    result = uci_engine.play(board, chess.engine.Limit(depth=2), root_moves=[pick[0], winner])
    assert result.move == winner


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_uci_go_mate_through_python_chess(uci_engine, variant):
    fen, winners = MATE_IN_ONE[variant]
    board = new_board(variant, fen)
    info = uci_engine.analyse(board, chess.engine.Limit(mate=1))
    assert info["pv"][0].uci() in winners
    assert info["score"].relative == chess.engine.Mate(1)
    assert uci_engine.play(board, chess.engine.Limit(mate=1)).move.uci() in winners
    # no mate to find: still a legal move, after at most 2 * N plies
    start = new_board(variant)
    info = uci_engine.analyse(start, chess.engine.Limit(mate=1))
    assert info["pv"][0] in start.legal_moves and info["depth"] <= 4   # 2N (+2 selective)


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_uci_ponder_through_python_chess(uci_engine, variant, caplog):
    """play(..., ponder=True): a ponder move comes with the best move; when the
    opponent plays it, python-chess sends ponderhit and gets the answer of the search
    that pondered; when the opponent plays something else, stop, then a new search."""
    import logging
    caplog.set_level(logging.DEBUG, logger="chess.engine")
    board = new_board(variant)
    limit = chess.engine.Limit(depth=2)
    hits = 0
    for _ in range(3):
        result = uci_engine.play(board, limit, ponder=True)
        assert result.move in board.legal_moves
        board.push(result.move)
        if board.outcome() is not None or result.ponder is None:
            break
        assert result.ponder in board.legal_moves
        board.push(result.ponder)
        if board.outcome() is not None:
            break
        caplog.clear()
        result = uci_engine.play(board, limit, ponder=True)       # the expected reply
        hits += any("<< ponderhit" in r.getMessage() for r in caplog.records)
        assert result.move in board.legal_moves
        board.push(result.move)
        replies = sorted(board.legal_moves, key=lambda m: m.uci())
        if board.outcome() is not None or not replies:
            break
        unexpected = [m for m in replies if m != result.ponder]
        if not unexpected:
            break
        board.push(unexpected[0])                              # not the expected reply
        if board.outcome() is not None:
            break
    assert hits >= 1
    result = uci_engine.play(board, limit)                      # pondering ends
    if board.outcome() is None:
        assert result.move in board.legal_moves
    else:                                                       # a finished game: 0000
        assert not result.move, result.move


@pytest.mark.parametrize("variant", report_variants_in_fast_tier(VARIANTS))
def test_uci_plays_impossible_positions_through_python_chess(uci_engine, variant):
    """The positions of tests/data/perft_<variant>_impossible.epd (python-chess plays
    them, its status() calls them impossible): a legal move in each."""
    path = os.path.join(ROOT, "tests", "data", f"perft_{variant}_impossible.epd")
    with open(path) as fh:
        fens = [line.split(" ;")[0] for line in fh if line.strip() and not line.startswith("#")]
    for fen in fens:
        board = new_board(variant, fen)
        assert not board.is_valid()
        result = uci_engine.play(board, chess.engine.Limit(depth=2))
        assert result.move in board.legal_moves, fen


def test_uci_options_multipv_ponder_analysemode():
    eng, out = _uci_session()
    options = [l for l in out.lines if l.startswith("option name")]
    assert any(l.startswith("option name MultiPV type spin default 1 min 1 max") for l in options)
    assert "option name Ponder type check default false" in options
    assert "option name UCI_AnalyseMode type check default false" in options
    for good in ("MultiPV value 4", "Ponder value true", "UCI_AnalyseMode value true",
                 "UCI_AnalyseMode value false", "MultiPV value 1"):
        start = len(out.lines)
        eng.handle(f"setoption name {good}")
        eng.handle("isready")
        out.wait_for(lambda l: l == "readyok", "readyok", start)
        complaints = [l for l in out.lines[start:] if l.startswith("info string")
                      and not l.startswith("info string weights for ")]   # what it loaded
        assert not complaints, (good, complaints)
    for bad in ("MultiPV value 0", "MultiPV value 100000", "MultiPV value x",
                "UCI_AnalyseMode value maybe", "Ponder value 2"):
        start = len(out.lines)
        eng.handle(f"setoption name {bad}")
        out.wait_for(lambda l: l.startswith("info string error"), f"error for {bad}", start)
    assert eng.handle("quit") is False


def test_uci_multipv_info_lines():
    """MultiPV 3: every iteration reports lines 1..3; bestmove is line 1's move and
    carries line 1's second move as the ponder move; searchmoves limit the lines."""
    eng, out = _uci_session()
    eng.handle("setoption name MultiPV value 3")
    start = len(out.lines)
    eng.handle("position startpos")
    eng.handle("go depth 3")
    best = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove", start)
    infos = [l.split() for l in out.lines[start:] if l.startswith("info depth")]
    by_depth = {}
    for words in infos:
        by_depth.setdefault(int(words[2]), []).append(words)
    assert sorted(by_depth) == [1, 2, 3]
    for words in by_depth.values():
        assert [w[w.index("multipv") + 1] for w in words] == ["1", "2", "3"]
    last = by_depth[3]
    pv1 = last[0][last[0].index("pv") + 1:]
    assert best.split() == ["bestmove", pv1[0], "ponder", pv1[1]]
    assert len({w[w.index("pv") + 1] for w in last}) == 3
    start = len(out.lines)
    eng.handle("go depth 2 searchmoves a2a3 h2h4 zz9 e2e5")
    best = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove", start)
    assert best.split()[1] in ("a2a3", "h2h4")
    lines = out.lines[start:]
    assert sum("ignoring" in l for l in lines) == 2                 # zz9, e2e5 reported
    depth2 = [l.split() for l in lines if l.startswith("info depth 2 ")]
    assert {w[w.index("pv") + 1] for w in depth2} == {"a2a3", "h2h4"}
    start = len(out.lines)
    eng.handle("go depth 2 searchmoves e2e5")
    assert out.wait_for(lambda l: l.startswith("bestmove"), "bestmove", start) == "bestmove 0000"
    assert eng.handle("quit") is False


def _no_bestmove_yet(eng: Guarded, out: Collector, start: int) -> None:
    """isready is answered while the search holds its result: no bestmove before it."""
    mark = len(out.lines)
    eng.handle("isready")
    out.wait_for(lambda l: l == "readyok", "readyok", mark)
    assert not any(l.startswith("bestmove") for l in out.lines[start:]), out.lines[start:]


def test_uci_ponder_and_ponderhit():
    eng, out = _uci_session()
    board = chess.Board()
    board.push_uci("e2e4")
    eng.handle("position startpos moves e2e4")
    # Pondering with clocks: no time limit until ponderhit (a 0.03 s budget after it).
    start = len(out.lines)
    eng.handle("go ponder wtime 1000 btime 1000")
    out.wait_for(lambda l: l.startswith("info depth 2 "), "an iteration", start)
    _no_bestmove_yet(eng, out, start)
    eng.handle("ponderhit")
    line = out.wait_for(lambda l: l.startswith("bestmove"), "bestmove after ponderhit", start)
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves
    # A pondering search that finishes (depth 1) holds its move until ponderhit.
    start = len(out.lines)
    eng.handle("go ponder depth 1")
    out.wait_for(lambda l: l.startswith("info depth 1 "), "depth 1", start)
    _no_bestmove_yet(eng, out, start)
    eng.handle("ponderhit")
    out.wait_for(lambda l: l.startswith("bestmove"), "bestmove after ponderhit", start)
    # stop while pondering: the move at once; a new position while pondering: the same.
    for end in ("stop", "position startpos"):
        start = len(out.lines)
        eng.handle("go ponder wtime 1000 btime 1000")
        out.wait_for(lambda l: l.startswith("info depth 1 "), "depth 1", start)
        eng.handle(end)
        out.wait_for(lambda l: l.startswith("bestmove"), f"bestmove after {end}", start)
        assert sum(l.startswith("bestmove") for l in out.lines[start:]) == 1
    # ponderhit when not pondering: ignored
    start = len(out.lines)
    eng.handle("ponderhit")
    _no_bestmove_yet(eng, out, start)
    assert eng.handle("quit") is False


def test_uci_infinite_search_holds_bestmove_until_stop():
    """'go infinite' on a mate in one: the search ends at once (the mate is proven), but
    UCI forbids bestmove before 'stop'."""
    eng, out = _uci_session()
    start = len(out.lines)
    eng.handle("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    eng.handle("go infinite")
    out.wait_for(lambda l: "score mate 1" in l, "the mate", start)
    _no_bestmove_yet(eng, out, start)
    eng.handle("stop")
    assert out.wait_for(lambda l: l.startswith("bestmove"), "bestmove", start) == "bestmove a1a8"
    assert eng.handle("quit") is False


def test_uci_process_refused_position_and_ponderhit():
    """The same through the real process: a refused position, then pondering."""
    with _uci_process() as eng:
        eng.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1")
        eng.send("go depth 1")
        eng.expect(lambda l: l.startswith("info string no position"), "why")
        assert eng.expect(lambda l: l.startswith("bestmove"), "bestmove") == "bestmove 0000"
        eng.send("position startpos moves e2e4")
        eng.send("go ponder wtime 2000 btime 2000")
        eng.expect(lambda l: l.startswith("info depth 1 "), "depth 1")
        eng.send("isready")
        line = eng.expect(lambda l: l == "readyok" or l.startswith("bestmove"), "readyok")
        assert line == "readyok", eng.describe("bestmove while pondering")
        eng.send("ponderhit")
        board = chess.Board()
        board.push_uci("e2e4")
        _bestmove(eng, board)
        assert eng.quit() == 0


def test_xboard_process_refused_setboard():
    with _xboard_process() as eng:
        eng.send("new")
        eng.send("force")
        eng.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1")
        eng.expect(lambda l: l.startswith("Error"), "the refusal")
        eng.send("sd 1")
        eng.send("go")
        eng.expect(lambda l: l.startswith("Error (no position"), "no position")
        eng.send("ping 5")
        line = eng.expect(lambda l: l == "pong 5" or l.startswith("move "), "pong")
        assert line == "pong 5", eng.describe("a move for a refused position")
        eng.send("new")
        eng.send("sd 1")
        eng.send("go")
        _xmove(eng, chess.Board())
        assert eng.quit() == 0


# --------------------------------------------------------------------------------------
# Refused limits: negative or malformed values search nothing
# --------------------------------------------------------------------------------------

#: go commands to refuse, each with the argument its error must name.
UCI_REFUSED_GO = [("go depth -3", "depth"), ("go nodes -5", "nodes"),
                  ("go movetime -100", "movetime"), ("go wtime -1 btime 1000", "wtime"),
                  ("go btime -1", "btime"), ("go winc -10", "winc"), ("go binc -10", "binc"),
                  ("go movestogo -2", "movestogo"), ("go mate -1", "mate"),
                  ("go depth 0", "depth"), ("go nodes 0", "nodes"), ("go movestogo 0", "movestogo"),
                  ("go mate 0", "mate"), ("go depth 2.5", "depth"), ("go movetime 1e3", "movetime"),
                  ("go depth", "depth"), ("go wtime 1000 btime", "btime")]


@pytest.mark.parametrize("command,named", UCI_REFUSED_GO, ids=[c for c, _ in UCI_REFUSED_GO])
def test_uci_refuses_a_go_with_a_bad_value_and_searches_nothing(command, named):
    """A refused go says why in an info string error and searches nothing: the next go
    gets the only bestmove (a refused go that searched would send one more)."""
    eng, out = _uci_session()
    start = len(out.lines)
    eng.handle(command)
    out.wait_for(lambda line: line.startswith(f"info string error: go {named}"), "the refusal",
                 start)
    board = chess.Board()
    board.push_uci("e2e4")
    _uci_bestmove(eng, out, board, "position startpos moves e2e4", "go depth 1")
    eng.handle("isready")
    out.wait_for(lambda line: line == "readyok", "readyok", start)
    assert sum(x.startswith("bestmove") for x in out.lines[start:]) == 1, out.lines[start:]
    assert eng.handle("quit") is False


@pytest.mark.parametrize("command", ["go movetime 0", "go wtime 0 btime 0", "go wtime 0 winc 0"])
def test_uci_zero_time_moves_at_once(command):
    """A clock or move time of 0 is not refused: the engine plays its first iteration."""
    eng, out = _uci_session()
    board = chess.Board()
    _uci_bestmove(eng, out, board, "position startpos", command)
    assert not any(x.startswith("info string error") for x in out.lines)


def test_uci_refused_go_leaves_a_running_search_alone():
    eng, out = _uci_session()
    start = len(out.lines)
    eng.handle("position startpos")
    eng.handle("go infinite")
    eng.handle("go depth -3")
    out.wait_for(lambda line: line.startswith("info string error: go depth"), "the refusal", start)
    _no_bestmove_yet(eng, out, start)
    eng.handle("stop")
    move = out.wait_for(lambda line: line.startswith("bestmove"), "bestmove after stop",
                        start).split()[1]
    assert chess.Move.from_uci(move) in chess.Board().legal_moves


@pytest.mark.parametrize("command", ["sd -1", "sd 0", "sd x", "sd", "sd 2.5", "sd 3 4",
                                     "st -1", "st x", "st", "st nan", "st inf", "st -0.5"])
def test_xboard_refuses_bad_sd_and_st(command):
    """sd/st with a bad value: Error (...), and the limit in force stays."""
    eng, out = _xboard_session()
    eng.handle("sd 3")
    eng.handle("st 2")
    start = len(out.lines)
    eng.handle(command)
    line = out.wait_for(lambda line: line.startswith("Error"), "the refusal", start)
    assert command.split()[0] in line
    assert (eng.eng.depth, eng.eng.st) == (3, 2.0)
    assert eng.handle("quit") is False


@pytest.mark.slow
def test_xboard_st_zero_moves_at_once():
    eng, out = _xboard_session()
    start = len(out.lines)
    eng.handle("st 0")
    _xboard_move(eng, out, chess.Board(), "new", "go")
    assert not any(x.startswith("Error") for x in out.lines[start:])


# --------------------------------------------------------------------------------------
# What the UCI engine says about its weights
# --------------------------------------------------------------------------------------


def test_uci_names_the_weights_it_loaded_once_per_change():
    from search.layout import default_weights
    eng, out = _uci_session()
    start = len(out.lines)
    eng.handle("setoption name UCI_Variant value crazyhouse")
    eng.handle("isready")
    out.wait_for(lambda line: line == "readyok", "readyok", start)
    source = default_weights("crazyhouse").source
    assert source, "the default weights say where they come from"
    assert f"info string weights for crazyhouse: {source}" in out.lines[start:]
    # A second isready, a new game: the same weights, not said again.
    eng.handle("ucinewgame")
    eng.handle("isready")
    eng.handle("setoption name Weights value sunsetter")
    eng.handle("isready")
    eng.handle("go depth 1")
    out.wait_for(lambda line: line.startswith("bestmove"), "bestmove", start)
    said = [x for x in out.lines[start:] if x.startswith("info string weights")]
    assert said == [f"info string weights for crazyhouse: {source}",
                    "info string weights for crazyhouse: value set sunsetter"], said


def test_uci_elo_warns_when_the_engine_plays_other_weights_than_the_ladder_measured():
    from search.protocol import strength
    variant = next(v for v in ("crazyhouse", "chess") if strength.has_ladder(v))
    eng, out = _uci_session()
    start = len(out.lines)
    for line in (f"setoption name UCI_Variant value {variant}",
                 "setoption name Weights value sunsetter", "isready"):
        eng.handle(line)
    out.wait_for(lambda line: line == "readyok", "readyok", start)
    assert not any("UCI_Elo:" in x for x in out.lines[start:]), "no warning without the limit"
    eng.handle("setoption name UCI_LimitStrength value true")
    eng.handle("isready")
    warning = out.wait_for(lambda line: line.startswith("info string UCI_Elo:"), "the warning",
                           start)
    assert "sunsetter" in warning
    # Once per change: another isready and a search say nothing more.
    eng.handle("isready")
    eng.handle("go depth 1")
    out.wait_for(lambda line: line.startswith("bestmove"), "bestmove", start)
    assert sum(x.startswith("info string UCI_Elo:") for x in out.lines[start:]) == 1


def test_uci_elo_is_ignored_in_a_variant_the_ladder_file_lacks(tmp_path, monkeypatch):
    """Every variant has a shipped ladder; a per-user ladder file (read first) may lack
    one: the search then plays unlimited, and an info string says why at go."""
    from search.protocol import strength
    shipped = strength.load_ladder()
    chess_only = dict(shipped, variants={"chess": shipped["variants"]["chess"]},
                      sources={"chess": shipped["sources"]["chess"]})
    (tmp_path / "ladder.json").write_text(json.dumps(chess_only))
    monkeypatch.setenv("TDLEAF_DATA", str(tmp_path))
    assert strength.has_ladder("chess") and not strength.has_ladder("horde")
    eng, out = _uci_session()
    start = len(out.lines)
    for line in ("setoption name UCI_Variant value horde",
                 "setoption name UCI_LimitStrength value true", "isready"):
        eng.handle(line)
    out.wait_for(lambda line: line == "readyok", "readyok", start)
    eng.handle("position startpos")
    eng.handle("go depth 1")
    out.wait_for(lambda line: line.startswith("bestmove"), "bestmove", start)
    said = [x for x in out.lines[start:] if "UCI_LimitStrength ignored" in x]
    assert len(said) == 1 and "no strength ladder for horde" in said[0], said


def test_uci_elo_above_the_measured_rungs_plays_the_highest_and_says_so(tmp_path, monkeypatch):
    """A rung measured mostly against the top of the engine's scale is a bound, not a
    rating (tdleaf.play.ladder.scale): UCI_Elo never maps to it. A request above the
    highest measured rung plays that rung, and an info string says so, once; a request
    within the range plays the nearest rung, and says which."""
    from search.protocol import strength
    ladder = {"variants": {"atomic": [
        {"level": {"depth": 1}, "elo": 1500.0}, {"level": {"depth": 2}, "elo": 1700.0},
        {"level": {"depth": 3}, "elo": 2900.0, "bound": "lower"}]}}
    (tmp_path / "ladder.json").write_text(json.dumps(ladder))
    monkeypatch.setenv("TDLEAF_DATA", str(tmp_path))
    assert strength.limits_for_elo("atomic", 2000) == {"depth": 2}
    eng, out = _uci_session()
    start = len(out.lines)
    for line in ("setoption name UCI_Variant value atomic",
                 "setoption name UCI_LimitStrength value true",
                 "setoption name UCI_Elo value 2000", "isready"):
        eng.handle(line)
    out.wait_for(lambda line: line == "readyok", "readyok", start)
    for _ in range(2):
        mark = len(out.lines)
        eng.handle("position startpos")
        eng.handle("go")
        out.wait_for(lambda line: line.startswith("bestmove"), "bestmove", mark)
    said = [x for x in out.lines[start:] if "UCI_Elo 2000" in x]
    assert said == [("info string UCI_Elo 2000 is above the highest measured level of the "
                     "atomic ladder: playing depth 2 (rated 1700); depth 3 is only a lower "
                     "bound (2900), not a rating")], said
    mark = len(out.lines)
    eng.handle("setoption name UCI_Elo value 1650")
    eng.handle("position startpos")
    eng.handle("go")
    out.wait_for(lambda line: line.startswith("bestmove"), "bestmove", mark)
    said = [x for x in out.lines[mark:] if "UCI_Elo 1650" in x]
    assert said == [("info string UCI_Elo 1650: playing depth 2, rated 1700, the nearest "
                     "measured level of the atomic ladder")], said
    depths = [int(x.split(" depth ")[1].split()[0]) for x in out.lines[start:]
              if x.startswith("info depth ")]
    assert depths and max(depths) <= 2, "the search stops at the highest measured rung"
    mark = len(out.lines)
    eng.handle("setoption name Search value mcts")
    eng.handle("go nodes 50")
    out.wait_for(lambda line: line.startswith("bestmove"), "bestmove", mark)
    assert any("UCI_LimitStrength ignored: the ladder rates the alpha-beta search" in x
               for x in out.lines[mark:]), out.lines[mark:]
