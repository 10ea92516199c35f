"""Perft of :mod:`variants` against a plain recursive python-chess perft.

Per variant, at least 100 seeded positions (see ``helpers_rules.perft_positions``):
known perft/EPD positions, samples along random and capture/check/drop-biased games
from the start position, and positions built to be rich in the variant's special rules
(crazyhouse pockets and promoted pieces, atomic explosions next to kings and castling
next to the enemy king, suicide king promotions and castling, en-passant pins, double
checks...). ``test_special_cases_present`` proves that those cases really are in the
set. Depth 2 runs on every position, depth 3 on a deterministic subset.
"""

from __future__ import annotations

import collections
import functools

import pytest

import variants
from variants import VARIANTS, Position

import helpers_rules as H
from helpers_tiers import costly_in_full_tier

MIN_POSITIONS = 100

#: Depth 3 runs on positions whose python-chess depth-2 count is at most ``max_d2``,
#: spread evenly over the set and at most ``count`` of them (keeps the suite fast).
DEPTH3 = {
    "chess": {"max_d2": 5000, "count": 100},
    "crazyhouse": {"max_d2": 5000, "count": 50},
    "atomic": {"max_d2": 3000, "count": 50},
    "suicide": {"max_d2": 5000, "count": 120},
    "giveaway": {"max_d2": 5000, "count": 120},
    "antichess": {"max_d2": 5000, "count": 120},
    "kingofthehill": {"max_d2": 3000, "count": 50},
    "3check": {"max_d2": 3000, "count": 50},
    "racingkings": {"max_d2": 3000, "count": 50},
    "horde": {"max_d2": 3000, "count": 50},
}
MIN_DEPTH3 = 30

#: Minimum number of positions (per variant) showing each special case; the generators
#: produce comfortably more, these floors make sure a change to them cannot silently
#: drop a rule from the comparison.
MIN_FEATURES = {
    "chess": {"castling": 10, "castling_prevented": 6, "check": 20, "double_check": 5,
              "ep_legal": 10, "ep_illegal": 4, "promotion": 10, "mate_in_1": 5},
    "crazyhouse": {"promoted_pieces": 20, "capture_promoted": 8, "full_pocket": 15,
                   "promotion": 8, "drop_check": 20, "drop_mate": 5, "check_with_pocket": 10,
                   "blocking_drops": 8, "double_check": 3, "ep_legal": 3, "castling": 3},
    "atomic": {"kings_adjacent": 5, "capture_explodes_enemy_king": 10,
               "capture_explodes_own_king": 15, "capture_next_to_king": 8, "castling": 8,
               "castling_path_attacked": 3, "ep_legal": 5, "check": 10, "promotion": 5,
               "mate_in_1": 4},
    "suicide": {"forced_capture": 40, "king_promotion": 8, "castling": 8,
                "castling_path_attacked": 5, "few_pieces": 25, "no_king": 30,
                "stalemate_in_1": 5, "no_moves": 5, "ep_legal": 3},
}
MIN_FEATURES["giveaway"] = MIN_FEATURES["antichess"] = MIN_FEATURES["suicide"]
MIN_FEATURES.update({
    "kingofthehill": {"ends_in_1": 12, "check": 20, "double_check": 5, "castling": 8,
                      "castling_prevented": 5, "ep_legal": 6, "promotion": 10, "no_moves": 2},
    "3check": {"third_check_in_1": 20, "check": 20, "double_check": 5, "castling": 6,
               "ep_legal": 6, "promotion": 10, "no_moves": 10},
    "racingkings": {"checks_refused": 80, "ends_in_1": 15, "black_may_follow": 3,
                    "no_moves": 5},
    "horde": {"first_rank_double": 15, "promotion": 20, "check": 10, "castling": 4,
              "ep_legal": 2, "horde_insufficient": 2, "ends_in_1": 2},
})


@functools.cache
def reference(variant: str, depth: int) -> tuple[int, ...]:
    """python-chess perft of every position of the variant's set."""
    return tuple(H.pc_perft(H.new_board(variant, fen), depth) for fen in H.perft_positions(variant))


def depth3_positions(variant: str) -> list[str]:
    cfg = DEPTH3[variant]
    eligible = [fen for fen, n in zip(H.perft_positions(variant), reference(variant, 2))
                if 0 < n <= cfg["max_d2"]]
    n = min(cfg["count"], len(eligible))
    return [eligible[i * len(eligible) // n] for i in range(n)]


def explain(variant: str, fen: str, depth: int) -> str:
    """The root moves whose subtree counts differ (python-chess divide vs ours)."""
    theirs = H.pc_divide(H.new_board(variant, fen), depth)
    try:
        ours = variants.divide(variant, fen, depth)
    except Exception as exc:  # noqa: BLE001 (report, do not hide, a crash)
        return f"divide raised {exc!r}"
    diff = {m: (ours.get(m), theirs.get(m)) for m in set(ours) | set(theirs)
            if ours.get(m) != theirs.get(m)}
    return "root moves (ours, python-chess): " + ", ".join(
        f"{m}: {c}" for m, c in sorted(diff.items())[:8])


def compare(variant: str, fens, depth: int, expected) -> None:
    bad = []
    for fen, want in zip(fens, expected):
        got = variants.perft(variant, fen, depth)
        if got != want:
            bad.append(f"{variant} {fen!r} depth {depth}: perft {got} != python-chess {want}; "
                       + explain(variant, fen, depth))
    assert not bad, f"{len(bad)} of {len(fens)} positions differ:\n" + "\n".join(bad[:10])


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("crazyhouse",)))
def test_position_set_is_large_and_valid(variant):
    fens = H.perft_positions(variant)
    assert len(fens) >= MIN_POSITIONS
    assert len(set(fens)) == len(fens)
    for fen in fens:
        assert H.new_board(variant, fen).is_valid(), fen
    # a good share of them are outside the start-position game trees
    assert sum(1 for n in reference(variant, 2) if n > 0) >= MIN_POSITIONS - 10


@pytest.mark.parametrize("variant", VARIANTS)
def test_special_cases_present(variant):
    counts = collections.Counter()
    for fen in H.perft_positions(variant):
        counts.update(H.features(variant, fen))
    short = {k: (counts[k], n) for k, n in MIN_FEATURES[variant].items() if counts[k] < n}
    assert not short, f"{variant}: special cases under-represented (have, need): {short}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_moves_match(variant):
    """Depth 1 with the move lists themselves, for the most readable failures."""
    bad = []
    for fen in H.perft_positions(variant):
        ours = Position.from_fen(fen, variant).legal_moves()
        theirs = H.pc_moves(H.new_board(variant, fen))
        if sorted(ours) != theirs:
            bad.append(f"{fen!r}: only ours {sorted(set(ours) - set(theirs))}, "
                       f"only python-chess {sorted(set(theirs) - set(ours))}, "
                       f"{len(ours) - len(set(ours))} duplicates")
    assert not bad, "\n".join(bad[:10])


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("crazyhouse",)))
def test_perft_depth2(variant):
    compare(variant, H.perft_positions(variant), 2, reference(variant, 2))


@pytest.mark.parametrize("variant", costly_in_full_tier(VARIANTS, ("atomic", "crazyhouse", "racingkings", "chess")))
def test_perft_depth3(variant):
    fens = depth3_positions(variant)
    assert len(fens) >= MIN_DEPTH3, f"only {len(fens)} positions for depth 3"
    compare(variant, fens, 3, [H.pc_perft(H.new_board(variant, f), 3) for f in fens])


@pytest.mark.parametrize("variant", VARIANTS)
def test_divide_matches(variant):
    """divide() splits the count by root move exactly as python-chess does."""
    fens = H.perft_positions(variant)[::10]
    for fen in fens:
        ours = variants.divide(variant, fen, 2)
        theirs = H.pc_divide(H.new_board(variant, fen), 2)
        assert ours == theirs, f"{variant} {fen!r}: " + explain(variant, fen, 2)
        assert sum(ours.values()) == variants.perft(variant, fen, 2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_start_position_perft(variant):
    """From the start position (fen=None) to depth 3, and depth 0 is one node."""
    board = H.new_board(variant)
    assert variants.perft(variant, None, 3) == H.pc_perft(board, 3)
    assert variants.perft(variant, board.fen(), 0) == 1
