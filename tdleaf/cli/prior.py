"""``tdleaf prior``: the heuristic prior (a probability for every legal move and a value
in [-1, 1]) of one position, or of every position of an EPD or PGN file as JSON lines."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import add_command
from .tools import CliError, depth_arg, positive_int

DESCRIPTION = """\
The heuristic prior of neural MCTS from the learnable evaluation: every legal move is
played and the position after it searched (quiescence at --depth 0, D plies more plus
quiescence at --depth D); the policy is the softmax of those scores (pawns, side to
move) at the temperature fitted for the weights (tdleaf bench prior --fit), the value
the best score converted to [-1, 1] for the side to move: 'squash' is the learning's
squash, tanh(omega s / 2) with omega 0.5 per pawn; 'crazyara' is CrazyAra's
sign(s) (1 - 1.2^-|s|). A finished game gives an empty policy and its exact value.

One position:   tdleaf prior --variant V [--fen FEN] [--json]
A file:         tdleaf prior --variant V --epd FILE | --pgn FILE [--every N] [--out FILE]

With --epd or --pgn every position is written as one JSON object per line: the EPD
lines' FEN (its first four fields, plus the clocks if given; operations after ';' are
ignored), or every N-th position of every game of a PGN file (the game's Variant header
must match --variant), with the game number, the ply and the move played there.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_command(subparsers, "prior", description=DESCRIPTION,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    from variants.spec import variant_list
    p.add_argument("--variant", default="chess", metavar="V",
                   help=f"{variant_list()} (default chess)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--fen", metavar="FEN", help="the position (default: the start position)")
    src.add_argument("--epd", metavar="FILE", help="every position of an EPD file, as JSON lines")
    src.add_argument("--pgn", metavar="FILE", help="positions of the games of a PGN file, as JSON lines")
    p.add_argument("--every", type=positive_int, default=1, metavar="N",
                   help="with --pgn, every N-th position of each game (default 1)")
    p.add_argument("--weights", metavar="W",
                   help="weights.json, a result folder or a value set (default: the variant's default)")
    p.add_argument("--depth", type=depth_arg, default=0, metavar="D",
                   help="plies searched after each move before quiescence (default 0)")
    p.add_argument("--temperature", type=float, metavar="T",
                   help="softmax temperature in pawns (default: the fitted one, else 1)")
    p.add_argument("--value", choices=["squash", "crazyara"], default="squash",
                   help="conversion of the score to a value (default squash)")
    p.add_argument("--omega", type=float, default=0.5, help="squash slope per pawn (default 0.5)")
    p.add_argument("--top", type=int, default=0, metavar="K",
                   help="text output: only the K most likely moves (default all)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    p.add_argument("--out", metavar="FILE", help="with --epd/--pgn: write the JSON lines here")
    p.set_defaults(run=run)


def _record(arr: Any, i: int, fen: str, ev: Any) -> dict[str, Any]:
    policy = arr.policy(i)
    scores = arr.move_scores(i)
    order = sorted(policy, key=lambda m: (-policy[m], m))
    return {"fen": fen, "variant": ev.variant, "depth": ev.depth,
            "temperature": ev.temperature, "win_logit": ev.win_logit, "value_mode": ev.value_mode,
            "value": float(arr.values[i]), "terminal": bool(arr.terminal[i]),
            "policy": {m: round(policy[m], 6) for m in order},
            "scores": {m: _score_json(scores[m]) for m in order}}


def _score_json(s: float) -> float | str:
    from search.alphabeta import MATE, MATE_BOUND
    if s > MATE_BOUND:
        return f"win in {round(MATE - s)} plies"
    if s < -MATE_BOUND:
        return f"loss in {round(MATE + s)} plies"
    return round(s, 4)


def _epd_positions(path: str) -> Iterator[tuple[dict[str, Any], str]]:
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split(";", 1)[0].split()
        if len(fields) < 4:
            raise CliError(f"{path}:{n}: expected a FEN or EPD, got {line!r}")
        fen = " ".join(fields[:6]) if len(fields) >= 6 and fields[4].isdigit() else " ".join(fields[:4]) + " 0 1"
        yield {"line": n}, fen


def _pgn_positions(path: str, variant: str, every: int) -> Iterator[tuple[dict[str, Any], Any]]:
    import chess.pgn

    from variants import canonical_variant
    from variants.spec import same_rules

    try:
        fh = open(path, encoding="utf-8-sig")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc}") from None
    with fh:
        g = 0
        while True:
            game = chess.pgn.read_game(fh)
            if game is None:
                break
            g += 1
            board = game.board()
            name = game.headers.get("Variant", "chess")
            try:
                gv = canonical_variant(board.uci_variant or name)
            except ValueError:
                gv = name
            if not same_rules(gv, variant):
                raise CliError(f"{path}: game {g} is {name!r}, not {variant}")
            for ply, move in enumerate(game.mainline_moves()):
                if ply % every == 0:
                    yield {"game": g, "ply": ply, "played": move.uci()}, board.fen()
                board.push(move)
            if board.ply() % every == 0:
                yield {"game": g, "ply": board.ply(), "played": None}, board.fen()


def run(args: argparse.Namespace) -> int:
    import variants
    from search.layout import WeightsError
    from search.prior import HeuristicPrior

    variant = variants.canonical_variant(args.variant)
    if args.temperature is not None and not args.temperature > 0:
        raise CliError("--temperature must be > 0")
    try:
        ev = HeuristicPrior(variant, args.weights, args.depth, args.temperature,
                            value=args.value, omega=args.omega)
    except WeightsError as exc:
        raise CliError(str(exc)) from None
    if args.epd is None and args.pgn is None:
        if args.out:
            raise CliError("--out needs --epd or --pgn")
        arr, pos = ev.batch([args.fen])
        rec = _record(arr, 0, pos[0].fen(), ev)
        if args.json:
            json.dump(rec, sys.stdout, indent=2)
            sys.stdout.write("\n")
            return 0
        print(f"fen: {rec['fen']}")
        print(f"value: {rec['value']:+.4f} ({ev.value_mode}, side to move)"
              + ("  [game over]" if rec["terminal"] else ""))
        print(f"temperature: {ev.temperature:g} pawns ({ev.temperature_source}), win logit "
              f"{ev.win_logit:g} pawns, depth {ev.depth}")
        moves = list(rec["policy"])
        if args.top > 0:
            moves = moves[:args.top]
        for m in moves:
            s = rec["scores"][m]
            s = f"{s:+.2f}" if isinstance(s, float) else s
            print(f"{m:7s} {rec['policy'][m]:.4f}  {s}")
        return 0
    items = (_epd_positions(args.epd) if args.epd is not None
             else _pgn_positions(args.pgn, variant, args.every))
    out = open(args.out, "w") if args.out else sys.stdout  # noqa: SIM115 (closed in finally)
    try:
        chunk: list[tuple[dict[str, Any], Any]] = []

        def flush() -> None:
            arr, pos = ev.batch([x for _, x in chunk])
            for i, (meta, _) in enumerate(chunk):
                rec = {**meta, **_record(arr, i, pos[i].fen(), ev)}
                out.write(json.dumps(rec) + "\n")
            chunk.clear()

        for meta, x in items:
            chunk.append((meta, x))
            if len(chunk) >= 64:
                flush()
        if chunk:
            flush()
    finally:
        if out is not sys.stdout:
            out.close()
    return 0
