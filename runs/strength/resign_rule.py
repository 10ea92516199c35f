"""Issue 63: would the ladder's resign rule have changed the checks' results?

The ladder adjudicates (``tdleaf.play.ladder.config``: a side loses after 4 moves each in
a row at which it scored itself 10 pawns behind and its opponent scored itself 10 ahead,
``tdleaf.play.game.ResignRule``, which play_game applies); the checks, like a user's
games, play on.
This replays that rule over the scores in each check's PGN comments (``{+0.35/5
0.120s}``, the mover's view; a mate counts as beyond 10) and counts the games where it
fires and those whose result it would change, with tdleaf's score change.

    python runs/strength/resign_rule.py [--check runs/strength/check]

(The hinge's checks, which RESULTS.md quotes this on, are in runs/strength/check-hinge.)
"""

import argparse
import gzip
from pathlib import Path

import chess.pgn

from tdleaf.play.game import ResignRule
from tdleaf.play.gamefiles import read_pgn_games
from tdleaf.play.ladder.config import LadderConfig
from tdleaf.play.pgn import scored_comment

HERE = Path(__file__).resolve().parent
#: The ladder's adjudication: its resign rule's moves and pawns.
LADDER = LadderConfig().adjudication


def adjudicated(game: chess.pgn.Game) -> str | None:
    """The result the ladder's resign rule gives ``game``, or None where it never fires."""
    rule = ResignRule(LADDER.resign_moves, LADDER.resign_score)
    for node in game.mainline():
        comment = scored_comment(node.comment)
        loser = rule.loser(not node.turn(), None if comment is None else comment[0])
        if loser is not None:
            return "0-1" if loser == chess.WHITE else "1-0"
    return None


def _tdleaf_points(result: str, tdleaf_white: bool) -> float:
    white = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    return white if tdleaf_white else 1.0 - white


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", default=str(HERE / "check"))
    args = parser.parse_args()
    print("| check | games | the rule fires | results it changes | tdleaf's points |")
    print("|---|---|---|---|---|")
    for packed in sorted(Path(args.check).glob("*/games.pgn.gz")):
        variant = packed.parent.name.rsplit("-", 1)[0]          # <variant>-<elo>
        with gzip.open(packed, "rt") as fh:
            games = [g for _, g, _ in read_pgn_games(fh.read(), variant, str(packed))]
        fired = changed = 0
        delta = 0.0
        for game in games:
            verdict = adjudicated(game)
            if verdict is None:
                continue
            fired += 1
            played = game.headers["Result"]
            if verdict != played:
                changed += 1
                white = game.headers["White"] == "tdleaf"
                delta += _tdleaf_points(verdict, white) - _tdleaf_points(played, white)
        print(f"| {packed.parent.name} | {len(games)} | {fired} | {changed} | {delta:+.1f} |")


if __name__ == "__main__":
    main()
