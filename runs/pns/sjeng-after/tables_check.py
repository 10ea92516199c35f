"""Issue 64: which games of the match tdleaf played with its endgame tables. With them, a
move from a position of at most 3 pieces is a table lookup (a few milliseconds); without
them it is a search of its full second. Counts tdleaf's moves from such positions (more
than one legal move) and how many took under 0.05 s, for the games in file order: the
first 92 (played 2026-12-03 07:19-08:17 UTC) and the rest (08:55-09:32 UTC, after an
edit of search/solve/endgame.py had renamed the tables' file). Run from the repository root
after `gunzip -k runs/pns/sjeng-after/games.pgn.gz`."""
import io
import re

import chess.pgn

text = open("runs/pns/sjeng-after/games.pgn", encoding="utf-8").read()
stream = io.StringIO(text)
games = []
while (game := chess.pgn.read_game(stream)) is not None:
    games.append(game)


def endgame_moves(part: list[chess.pgn.Game]) -> tuple[int, int]:
    moves = quick = 0
    for game in part:
        ours = game.headers["White"] == "after-64"
        board = game.board()
        for node in game.mainline():
            took = re.search(r"(\d+\.\d+)s", node.comment)
            if (board.turn == ours and took and len(board.piece_map()) <= 3
                    and board.legal_moves.count() > 1):
                moves += 1
                quick += float(took.group(1)) < 0.05
            board.push(node.move)
    return moves, quick


for name, part in (("games 1-92 in the file", games[:92]), ("games 93-200", games[92:])):
    moves, quick = endgame_moves(part)
    print(f"{name}: {moves} moves from positions of at most 3 pieces, {quick} under 0.05 s")
