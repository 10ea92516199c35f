"""Expert iteration's games: the MCTS plays itself and records its improved policy.

A *guide* names what leads the MCTS (:func:`guide_player`): ``prior:default`` or
``prior:<value set>`` (the heuristic prior of tdleaf's evaluation: the learnt default, the
traditional values), ``none`` (a uniform policy and value 0: nothing learnt) or
``net:<onnx file>`` or ``net:shipped`` (a network). The MCTS is the match player's (same settings, the win
check on for every guide), so what self-play records is what the matches measure.

A game (:func:`play_game`), after ``random_plies`` random opening plies, searches every
move with KataGo's playout cap randomisation: with probability ``full_share`` a full
search of ``playouts`` new playouts, with Dirichlet noise on the root's priors, whose
position is recorded; otherwise a fast search of ``fast_playouts`` without noise, played
and not recorded. The tree is kept from move to move. For the first ``temperature_plies``
plies the move is drawn from the root's visits; later it is the search's choice.

A recorded position keeps the teacher data's arrays (:mod:`.data`), so that one reader and
one trainer serve both: ``prior`` holds the search's improved policy over the legal moves
(:func:`improved_policy`: the visit distribution, or the completed-Q policy of Gumbel
AlphaZero), ``best`` the search's move, ``score`` the root's value as the pawns the
trainer squashes back (:func:`value_to_score`), ``z`` the game's result. Positions with
one legal move teach nothing and are not recorded; a root proved won records its
winning move as the whole target.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from search.mcts.encoding import legal_indices, repetitions
from variants import Position, canonical_variant, core, random_line
from variants.errors import TdleafError

from ..learn.selfplay import game_over
from ..play.players import InternalPlayer, make_player
from .data import POSITION_KEYS, game_arrays, game_seed

#: The improved policies a search can record (:func:`improved_policy`).
TARGETS = ("visits", "completed-q")
#: Gumbel AlphaZero's sigma: ``(C_VISIT + max N) * C_SCALE * q`` with q in [0, 1].
C_VISIT, C_SCALE = 50.0, 1.0
#: The learning's omega (:data:`.train.OMEGA`): ``tanh(OMEGA * score / 2)`` is a value.
OMEGA = 0.5


class GuideError(TdleafError, ValueError):
    """A guide that names nothing the MCTS can follow."""


def guide_player(guide: str, variant: str, **settings: Any) -> tuple[str, dict[str, Any]]:
    """The match player (spec, settings) of the MCTS that ``guide`` leads, with
    ``settings`` added (``playouts``, ``name``)."""
    base: dict[str, Any] = {"search": "mcts", "win_check": True, **settings}
    if guide == "none":
        return "default", {**base, "prior": "none"}
    kind, _, arg = guide.partition(":")
    if kind == "prior" and arg:
        return arg, base
    if kind == "net" and arg:
        return "default", {**base, "net": arg}
    raise GuideError(f"unknown guide {guide!r}: expected prior:<evaluation>, none or "
                     f"net:<onnx file>")


@dataclass
class SelfPlayConfig:
    """What decides a generation's self-play games (the data folder's manifest keeps it)."""

    variant: str
    guide: str = "prior:default"
    games: int = 100
    playouts: int = 400
    fast_playouts: int = 100
    full_share: float = 0.25
    target: str = "visits"
    random_plies: int = 8
    temperature_plies: int = 16
    dirichlet_alpha: float = 0.3
    dirichlet_epsilon: float = 0.25
    max_plies: int = 300
    seed: int = 0
    games_per_shard: int = 50

    def validate(self) -> SelfPlayConfig:
        try:
            self.variant = canonical_variant(self.variant)
        except ValueError as exc:
            raise GuideError(str(exc)) from None
        guide_player(self.guide, self.variant)
        for name, low in (("games", 1), ("playouts", 1), ("fast_playouts", 1), ("max_plies", 1),
                          ("random_plies", 0), ("temperature_plies", 0), ("games_per_shard", 1)):
            if getattr(self, name) < low:
                raise GuideError(f"--{name.replace('_', '-')} must be >= {low}, "
                                 f"got {getattr(self, name)}")
        for name in ("full_share", "dirichlet_epsilon"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise GuideError(f"--{name.replace('_', '-')} must be in [0, 1]")
        if self.target not in TARGETS:
            raise GuideError(f"--target must be one of {', '.join(TARGETS)}, got {self.target!r}")
        return self

    def decides(self) -> dict[str, Any]:
        """The settings that decide the games (all but how many and how they are kept);
        ``teacher`` and ``depth`` as a trainer's provenance reads them."""
        out = {k: v for k, v in asdict(self).items() if k not in ("games", "games_per_shard")}
        return {**out, "teacher": f"mcts {self.guide}", "depth": 0, "kind": "selfplay"}


# -- the improved policy ----------------------------------------------------------------------

def improved_policy(moves: list[str], visits: dict[str, int], q: dict[str, float],
                    prior: dict[str, float], chosen: str, proven: str | None,
                    target: str = "visits") -> np.ndarray:
    """The search's policy over ``moves`` (a distribution): a proved win's move alone;
    otherwise the root's visit shares (``visits``), or Gumbel AlphaZero's completed-Q
    policy ``softmax(log prior + sigma(q))`` (``completed-q``), where an unvisited move's
    q is the prior-weighted mean of the visited ones and ``sigma(q) = (50 + max N) q``
    for q in [0, 1]."""
    n = np.array([visits.get(m, 0) for m in moves], dtype=np.float64)
    onehot = np.array([m == chosen for m in moves], dtype=np.float64)
    if proven == "win" or n.sum() == 0:
        return onehot
    if target == "visits":
        return n / n.sum()
    p = np.array([max(prior.get(m, 0.0), 1e-12) for m in moves])
    p /= p.sum()
    qs = (np.array([q.get(m, -1.0) for m in moves]) + 1.0) / 2.0
    seen = n > 0
    v_mix = float((p[seen] * qs[seen]).sum() / p[seen].sum())
    completed = np.where(seen, qs, v_mix)
    logits = np.log(p) + (C_VISIT + n.max()) * C_SCALE * completed
    w = np.exp(logits - logits.max())
    return w / w.sum()


def value_to_score(v: float) -> float:
    """The pawns ``s`` whose squashed value ``tanh(OMEGA s / 2)`` is ``v`` (clipped at
    +-0.999): how the data's ``score`` keeps a root's value."""
    v = min(max(v, -0.999), 0.999)
    return 2.0 / OMEGA * math.atanh(v)


# -- playing (in a worker) --------------------------------------------------------------------

@dataclass
class SelfPlayer:
    """The backend's job: a worker's MCTS (the guide's match player), one game per unit."""

    cfg: SelfPlayConfig

    def start(self) -> InternalPlayer:
        spec, settings = guide_player(self.cfg.guide, self.cfg.variant, name="self")
        player = make_player(spec, settings)
        assert isinstance(player, InternalPlayer)
        player.start(self.cfg.variant)
        return player

    def run(self, player: InternalPlayer, game: int) -> Iterator[dict[str, np.ndarray]]:
        yield play_game(self.cfg, player, game)

    def close(self, player: InternalPlayer) -> None:
        player.close()


def play_game(cfg: SelfPlayConfig, player: InternalPlayer, game: int) -> dict[str, np.ndarray]:
    """Game ``game`` of the generation: its recorded positions (:data:`.data.POSITION_KEYS`,
    :data:`.data.MOVE_KEYS`) and the CPU seconds it took (``cpu_seconds``)."""
    t0 = time.process_time()
    seed = game_seed(cfg.seed, game)
    rng = np.random.default_rng(seed)
    mcts = player.mcts
    mcts.new_game(seed)
    pos = Position.start(cfg.variant)
    for uci in (random_line(cfg.variant, cfg.random_plies, seed) or ()):
        pos.push_uci(uci)
    keys: dict[int, int] = {}
    rows: dict[str, list] = {k: [] for k in (*POSITION_KEYS, "legal", "prior")}
    turns: list[int] = []
    plies = 0
    while True:
        keys[pos.key] = keys.get(pos.key, 0) + 1
        over = game_over(pos, keys, cfg.max_plies)
        if over is not None:
            break
        full = bool(rng.random() < cfg.full_share)
        mcts.dirichlet_epsilon = cfg.dirichlet_epsilon if full else 0.0
        warm = plies < cfg.temperature_plies
        r = mcts.search(pos, playouts=cfg.playouts if full else cfg.fast_playouts,
                        temperature=1.0 if warm else 0.0)
        assert r.move is not None
        moves, idx = legal_indices(pos)
        if full and len(moves) > 1:
            # The search's own choice is the target's top move; a sampled one is only played.
            chosen = r.move if not warm else max(r.visits, key=lambda m: r.visits[m])
            pi = improved_policy(moves, r.visits, r.q, r.prior, chosen, r.proven, cfg.target)
            rows["bb"].append(pos.bb.copy())
            rows["st"].append(pos.st.astype(np.int16))
            rows["reps"].append(repetitions(pos))
            rows["n_legal"].append(len(moves))
            rows["legal"].append(idx.astype(np.int16))
            rows["prior"].append(pi.astype(np.float32))
            rows["best"].append(int(idx[moves.index(chosen)]))
            rows["score"].append(value_to_score(r.value))
            rows["ply"].append(len(pos.move_stack))
            turns.append(int(pos.st[core.TURN]))
        pos.push_uci(r.move)
        plies += 1
    assert over is not None
    return game_arrays(rows, turns, over[0], game, time.process_time() - t0)
