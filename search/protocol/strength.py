"""Strength limits for a requested Elo (``UCI_LimitStrength`` / ``UCI_Elo``), looked up in
the measured strength ladder ``ladder.json`` (shipped in ``search/data``; a re-measured
one in the per-user data folder is read first, see :mod:`search.shipped`).

``tdleaf ladder --save`` writes that file: per variant, the search limits it measured
(``{"depth": d}``, ``{"nodes": n}`` or ``{"movetime": s}``) with the rating each earned
against Fairy-Stockfish at its own ``UCI_LimitStrength`` settings, and, in
``sources[variant]["evaluation"]``, the evaluation it measured: ``{"weights": name,
"digest": ...}`` (:func:`search.layout.weights_digest` of the weight vector).
:func:`ladder_warning` says when the engine plays another. The ratings are on
Fairy-Stockfish's ``UCI_Elo`` scale (see the README, "Strength ladder"): nominal Elo,
anchored only through Stockfish's own calibration of that option for chess.

This module reads data only: it imports nothing of ``tdleaf`` (the packages depend one
way, variants <- search <- tdleaf).

Only depth and node limits serve a requested Elo: they do not depend on the machine;
a time limit's strength does, so time rungs are in the file for information only.
A variant whose ladder has node rungs enough for a curve through them (rating against
log2 of the nodes, monotone, interpolated between the rungs: :func:`node_fit`) is served
by that curve alone: a requested Elo gets the node budget the curve rates at it, clamped
to the curve's range (the rungs lie a hundred Elo and more apart, and depth rungs rated
beside them would let a higher request search less). Any other variant, and one whose
ladder source says ``"serve": "nearest"`` (node rungs measured close enough to pick
from, where no curve passed its held-out rungs), gets the measured limit whose rating is
nearest the request (:func:`rung_for_elo`).
:func:`elo_note` says which limit plays, with its rating and interval or the curve's.

A level saved with a ``"bound"`` (``"lower"``: measured mostly against the top of the
engine's scale, and rated above it; or rated above the scale's bend, recorded as the
source's ``"bend"``, where the engine's settings play alike: see
``tdleaf.play.ladder.scale``) has no rating, only a bound: it never serves a requested
Elo. A request outside the measured levels is clamped to the nearest end, and the note
says so.
"""

from __future__ import annotations

import bisect
import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from variants.errors import TdleafError
from variants.spec import SPECS

from .. import shipped

#: The ladder file, relative to search/data (the per-user data folder's copy first).
LADDER_FILE = "ladder.json"

#: Limit kinds that may serve a requested Elo.
LOOKUP_KINDS = ("depth", "nodes")

#: Variants that use another variant's ladder where the file has none of their own (each
#: variant's :attr:`variants.spec.Variant.ladder_fallback`): suicide and antichess are
#: giveaway with other castling and stalemate rules (antichess has its own ladder since
#: issue 64; a ladder file saved before has none).
FALLBACK: dict[str, str] = {name: v.ladder_fallback for name, v in SPECS.items()
                            if v.ladder_fallback}


class StrengthError(TdleafError, ValueError):
    """No measured strength for that variant."""


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def ladder_path() -> Path | None:
    """The ladder file read by default: the user's re-measured one, else the shipped one."""
    return shipped.find(LADDER_FILE)


def load_ladder(path: str | Path | None = None) -> dict[str, Any]:
    """The ladder file as saved (an empty ladder when there is no file)."""
    p = Path(path) if path is not None else ladder_path()
    if p is None or not p.exists():
        return {"variants": {}}
    return _load(str(p), p.stat().st_mtime)


def _where(path: str | Path | None) -> str:
    if path is not None:
        return str(path)
    found = ladder_path()
    return shipped.describe(found) if found else f"{LADDER_FILE} (none found)"


def _canonical(variant: str) -> str:
    from variants import canonical_variant
    return canonical_variant(variant)


def ladder_variant(variant: str, path: str | Path | None = None) -> str | None:
    """The variant whose ladder serves ``variant`` (itself, a :data:`FALLBACK`, or None)."""
    v = _canonical(variant)
    for name in (v, FALLBACK.get(v)):
        if name and levels(name, path, fallback=False):
            return name
    return None


def levels(variant: str, path: str | Path | None = None, *, fallback: bool = True,
           kinds: tuple[str, ...] = LOOKUP_KINDS) -> list[dict[str, Any]]:
    """The measured levels of ``variant`` that may serve a requested Elo, weakest first:
    each ``{"level": {"depth": 3}, "elo": 1612.0, ...}`` with a finite rating that is
    not a bound. Of one
    kind, a level rated no higher than a cheaper one (a smaller depth or node count) is
    left out: measurement noise must not make a higher Elo search less deeply."""
    out = _rated(variant, path, fallback, kinds)
    kept = []
    for kind in kinds:
        best = -math.inf
        for e in sorted((e for e in out if kind in e["level"]), key=lambda e: e["level"][kind]):
            if e["elo"] > best:
                kept.append(e)
                best = e["elo"]
    return sorted(kept, key=lambda e: e["elo"])


def _rated(variant: str, path: str | Path | None, fallback: bool,
           kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every level of ``variant`` of those kinds with a finite rating that is not a
    bound, in the file's order."""
    v = _canonical(variant)
    table = load_ladder(path).get("variants", {})
    entries = table.get(v)
    if not entries and fallback and v in FALLBACK:
        entries = table.get(FALLBACK[v])
    out = []
    for e in entries or []:
        level = e.get("level", {})
        elo = e.get("elo")
        if (len(level) == 1 and next(iter(level)) in kinds and isinstance(elo, (int, float))
                and math.isfinite(elo) and not e.get("bound")):
            out.append(e)
    return out


def has_ladder(variant: str, path: str | Path | None = None) -> bool:
    """Whether :func:`limits_for_elo` can serve ``variant``."""
    return bool(levels(variant, path))


def elo_range(variant: str, path: str | Path | None = None) -> tuple[int, int]:
    """The range a UCI front end may offer as ``UCI_Elo``, rounded to whole Elo: that of
    ``variant``'s node curve (:func:`node_fit`: from its floor to its dearest rung) where it
    has one, else the lowest and highest rating among its measured depth and node
    limits."""
    fit = node_fit(variant, path)
    if fit is not None:
        return math.floor(fit.floor), math.ceil(fit.elo(fit.hi))
    found = levels(variant, path)
    if not found:
        raise StrengthError(f"no strength ladder for {variant} in {_where(path)}")
    return math.floor(found[0]["elo"]), math.ceil(found[-1]["elo"])


@dataclass(frozen=True)
class NodeFit:
    """Rating against node budget through a variant's node rungs: their isotonic
    regression (games-weighted: a rung rated below a cheaper one is pooled with it, so
    that a higher request never searches less), joined by straight lines in log2 of the
    nodes, valid between the cheapest and the dearest rung (no extrapolation). A curve
    that bends wherever the rungs do: the one straight line or hinge tried before rated
    the budgets just past the rise too low in every variant measured (RESULTS.md, "A
    curve that bends")."""

    budgets: tuple[int, ...]    # the rungs' node budgets, cheapest first
    ratings: tuple[float, ...]  # their pooled ratings, non-decreasing
    pools: tuple[int, ...]      # each rung's pool, numbered from the cheapest
    games: tuple[float, ...]    # each rung's weight in its pool
    residual_sd: float          # of the rungs' ratings about the curve (games-weighted)
    #: Each rung's rating error (its 95% interval's half-width over 1.96), for
    #: :meth:`interval`; None where a rung has no interval.
    errors: tuple[float, ...] | None = field(default=None, repr=False)

    @property
    def lo(self) -> int:
        return self.budgets[0]

    @property
    def hi(self) -> int:
        return self.budgets[-1]

    @property
    def rungs(self) -> int:
        return len(self.budgets)

    def _segment(self, nodes: float) -> tuple[int, float]:
        """The rung ``i`` that ``nodes`` lies above (``i + 1`` below, when there is one)
        and how far towards ``i + 1``, in log2 nodes, clamped to the rungs."""
        x, xs = math.log2(nodes), [math.log2(n) for n in self.budgets]
        if x <= xs[0]:
            return 0, 0.0
        if x >= xs[-1]:
            return len(xs) - 2, 1.0
        i = bisect.bisect_right(xs, x) - 1
        return i, (x - xs[i]) / (xs[i + 1] - xs[i])

    def elo(self, nodes: float) -> float:
        i, t = self._segment(nodes)
        return self.ratings[i] + t * (self.ratings[i + 1] - self.ratings[i])

    def interval(self, nodes: float) -> tuple[float, float] | None:
        """The 95% interval of :meth:`elo` at ``nodes``, from the rungs' own errors (the
        curve is linear in their ratings, the pools taken as known). None where a rung
        has no interval."""
        if not self.errors:
            return None
        i, t = self._segment(nodes)
        share = [0.0] * self.rungs          # each rung's coefficient in the rating
        for k, part in ((i, 1 - t), (i + 1, t)):
            members = [j for j, p in enumerate(self.pools) if p == self.pools[k]]
            weight = sum(self.games[j] for j in members)
            for j in members:
                share[j] += part * self.games[j] / weight
        half = 1.96 * math.sqrt(sum((c * sd) ** 2 for c, sd in zip(share, self.errors)))
        centre = self.elo(nodes)
        return centre - half, centre + half

    def between(self, nodes: float) -> tuple[int, int]:
        """The budgets of the two rungs whose segment of the curve rates ``nodes``."""
        i, _ = self._segment(nodes)
        return self.budgets[i], self.budgets[i + 1]

    @property
    def floor(self) -> float:
        """The rating of the cheapest pool: the weakest the curve offers."""
        return self.ratings[0]

    @property
    def knee_nodes(self) -> int:
        """The dearest budget rated :attr:`floor` (the last rung of the cheapest pool),
        where a request at or below it plays."""
        return max(n for n, p in zip(self.budgets, self.pools) if p == self.pools[0])

    def nodes(self, elo: float) -> int:
        """The cheapest node budget the curve rates ``elo``, within [knee_nodes, hi]."""
        if elo <= self.floor:
            return self.knee_nodes
        if elo >= self.ratings[-1]:
            return self.hi
        i = next(i for i, y in enumerate(self.ratings) if y >= elo)
        y0, y1 = self.ratings[i - 1], self.ratings[i]
        x0, x1 = math.log2(self.budgets[i - 1]), math.log2(self.budgets[i])
        n = 2.0 ** (x0 + (elo - y0) / (y1 - y0) * (x1 - x0))
        return round(min(max(n, self.knee_nodes), self.hi))


#: Node rungs a fit needs.
MIN_FIT_RUNGS = 3


def isotonic(ratings: list[float], games: list[float]) -> tuple[list[float], list[int]]:
    """The games-weighted isotonic regression of ``ratings`` (in budget order; pool
    adjacent violators): each rating pooled, and each one's pool."""
    pools: list[list[float]] = []            # [sum of games * rating, sum of games, rungs]
    for y, w in zip(ratings, games):
        pools.append([w * y, w, 1])
        while len(pools) > 1 and pools[-2][0] / pools[-2][1] >= pools[-1][0] / pools[-1][1]:
            last = pools.pop()
            pools[-1] = [a + b for a, b in zip(pools[-1], last)]
    pooled = [s / w for s, w, n in pools for _ in range(int(n))]
    index = [k for k, (_, _, n) in enumerate(pools) for _ in range(int(n))]
    return pooled, index


def node_fit(variant: str, path: str | Path | None = None) -> NodeFit | None:
    """The :class:`NodeFit` of ``variant``'s node rungs (their ratings, not bounds; all
    of them, a rung rated below a cheaper one too: pooling is what averages their
    noise there), or None with fewer than :data:`MIN_FIT_RUNGS` of them, a curve that
    does not rise, or a ladder served nearest-rung (:func:`serves_nearest`)."""
    if serves_nearest(variant, path):
        return None
    rungs = _rated(variant, path, True, ("nodes",))
    return fit_rungs(tuple(sorted((int(e["level"]["nodes"]), float(e["elo"]),
                                   float(e.get("games") or 1), _error(e)) for e in rungs)))


def _source(variant: str, path: str | Path | None) -> dict[str, Any]:
    """The source record of the ladder serving ``variant`` (empty where there is none)."""
    name = ladder_variant(variant, path)
    found = load_ladder(path).get("sources", {}).get(name, {}) if name else {}
    return found if isinstance(found, dict) else {}


def serves_nearest(variant: str, path: str | Path | None = None) -> bool:
    """Whether ``variant``'s ladder serves its node rungs nearest-rung, with no curve
    (its source's ``"serve": "nearest"``)."""
    return _source(variant, path).get("serve") == "nearest"


def _interval(entry: dict[str, Any]) -> tuple[float, float] | None:
    """A rung's 95% interval, or None where it has none (or a malformed one)."""
    ci = entry.get("elo_ci")
    if (isinstance(ci, (list, tuple)) and len(ci) == 2
            and all(isinstance(x, (int, float)) and math.isfinite(x) for x in ci)):
        return float(ci[0]), float(ci[1])
    return None


def _error(entry: dict[str, Any]) -> float | None:
    """A rung's rating error (standard deviation) from its 95% interval, or None."""
    ci = _interval(entry)
    return (ci[1] - ci[0]) / (2 * 1.96) if ci else None


@lru_cache(maxsize=64)
def fit_rungs(rungs: tuple[tuple[int, float, float, float | None], ...]) -> NodeFit | None:
    """:func:`node_fit` of (nodes, rating, games, rating error or None) rungs, cheapest
    first; cached, as every ``go`` under ``UCI_Elo`` asks for it."""
    if len(rungs) < MIN_FIT_RUNGS or len({n for n, *_ in rungs}) < len(rungs):
        return None
    ys = [y for _, y, _, _ in rungs]
    ws = [w for _, _, w, _ in rungs]
    pooled, pools = isotonic(ys, ws)
    if pooled[-1] <= pooled[0]:
        return None
    msr = sum(w * (y - p) ** 2 for w, y, p in zip(ws, ys, pooled)) / sum(ws)
    errors = tuple(sd for *_, sd in rungs if sd is not None and sd > 0)
    return NodeFit(tuple(n for n, *_ in rungs), tuple(pooled), tuple(pools), tuple(ws),
                   math.sqrt(msr), errors if len(errors) == len(rungs) else None)


def rung_for_elo(variant: str, elo: float, path: str | Path | None = None) -> dict[str, Any]:
    """The measured level (an entry of :func:`levels`) whose rating is nearest ``elo``;
    of two equally near, the weaker. Non-decreasing in ``elo``."""
    found = levels(variant, path)
    if not found:
        raise StrengthError(f"no strength ladder for {variant} in {_where(path)}")
    return min(found, key=lambda e: (abs(e["elo"] - elo), e["elo"]))


def limits_for_elo(variant: str, elo: float, path: str | Path | None = None) -> dict[str, int]:
    """The search limit for a requested Elo: where the variant has a node curve
    (:func:`node_fit`), the node budget it rates ``elo`` (clamped to its cheapest and
    dearest rungs); elsewhere that of :func:`rung_for_elo`. E.g. ``{"depth": 3}`` or
    ``{"nodes": 2000}``. Non-decreasing in ``elo``."""
    fit = node_fit(variant, path)
    if fit is not None:
        return {"nodes": fit.nodes(elo)}
    kind, value = next(iter(rung_for_elo(variant, elo, path)["level"].items()))
    return {kind: int(value)}


def level_label(level: dict[str, Any]) -> str:
    """A level as a user reads it: ``depth 3``, ``nodes 2048``, ``0.1 s``."""
    kind, value = next(iter(level.items()))
    return f"{value:g} s" if kind == "movetime" else f"{kind} {value}"


def clamp_note(variant: str, elo: float, path: str | Path | None = None) -> str | None:
    """What to tell a user whose requested ``elo`` lies outside ``variant``'s measured
    range (:func:`elo_range`): that it plays the curve's dearest node rung or, below its
    floor, its knee's budget (the dearest it rates at the floor), or the highest
    (lowest) measured level and, above, which stronger levels are bounds, not ratings
    (None when ``elo`` is within the range, or there is no ladder)."""
    found = levels(variant, path)
    name = ladder_variant(variant, path)
    fit = node_fit(variant, path)
    if fit is not None:
        lo, hi = fit.floor, fit.elo(fit.hi)
        if lo <= elo <= hi:
            return None
        if elo < lo:
            return (f"UCI_Elo {elo:g} is below the weakest the {name} ladder's node rungs "
                    f"offer: playing nodes {fit.knee_nodes} (the curve rates it and every "
                    f"smaller budget {lo:.0f})")
        clamped = (f"UCI_Elo {elo:g} is above the dearest node rung of the {name} ladder's "
                   f"curve: playing nodes {fit.hi} (the curve rates it {hi:.0f})")
        return "; ".join([clamped, *_beyond(name, path)])
    if not found or found[0]["elo"] <= elo <= found[-1]["elo"]:
        return None
    if elo < found[0]["elo"]:
        low = found[0]
        return (f"UCI_Elo {elo:g} is below the lowest measured level of the {name} ladder: "
                f"playing {level_label(low['level'])} (rated {low['elo']:.0f})")
    top = found[-1]
    clamped = (f"UCI_Elo {elo:g} is above the highest measured level of the {name} ladder: "
               f"playing {level_label(top['level'])} (rated {top['elo']:.0f})")
    return "; ".join([clamped, *_beyond(name, path)])


def _beyond(name: str | None, path: str | Path | None) -> list[str]:
    """What lies above a ladder's range: its bend, where its source records one (above
    it the opponent's settings play alike), and its levels that are bounds."""
    ladder = load_ladder(path)
    bend = _source(name, path).get("bend") if name else None
    out = []
    if isinstance(bend, dict):
        out.append(f"above UCI_Elo {bend['uci_elo']} the opponent's settings play alike at "
                   f"the ladder's limit (its scale bends there)")
    return out + [f"{level_label(e['level'])} is only a {e['bound']} bound ({e['elo']:.0f}), "
                  f"not a rating" for e in ladder.get("variants", {}).get(name, [])
                  if e.get("bound") and next(iter(e.get("level", {})), None) in LOOKUP_KINDS]


def elo_note(variant: str, elo: float, path: str | Path | None = None) -> str:
    """The line a front end shows for a requested ``elo``: the rung it plays, with that
    rung's rating and 95% interval (or the node budget the curve rates at ``elo``, with
    its interval there), or :func:`clamp_note` outside the measured range."""
    clamped = clamp_note(variant, elo, path)
    if clamped:
        return clamped
    fit = node_fit(variant, path)
    if fit is not None:
        nodes = fit.nodes(elo)
        band = fit.interval(nodes)
        rated = f"{fit.elo(nodes):.0f}" + (f" [{band[0]:.0f}, {band[1]:.0f}]" if band else "")
        a, b = fit.between(nodes)
        return (f"UCI_Elo {elo:g}: playing nodes {nodes}, rated {rated} by the curve "
                f"through the {ladder_variant(variant, path)} ladder's {fit.rungs} node "
                f"rungs (between nodes {a}, rated {fit.elo(a):.0f}, and nodes {b}, "
                f"{fit.elo(b):.0f})")
    rung = rung_for_elo(variant, elo, path)
    ci = _interval(rung)
    interval = f" [{ci[0]:.0f}, {ci[1]:.0f}]" if ci else ""
    games = f", {rung['games']} games" if rung.get("games") else ""
    return (f"UCI_Elo {elo:g}: playing {level_label(rung['level'])}, rated {rung['elo']:.0f}"
            f"{interval}{games}, the nearest measured level of the "
            f"{ladder_variant(variant, path)} ladder")


def ladder_search(variant: str, path: str | Path | None = None) -> str:
    """The search mode (``selective`` or ``plain``) the variant's ladder was measured
    with, which a strength-limited engine must play to be worth the ladder's Elo."""
    name = ladder_variant(variant, path)
    if name is None:
        raise StrengthError(f"no strength ladder for {variant} in {_where(path)}")
    return str(_source(variant, path).get("search", "selective"))


def offered_range(path: str | Path | None = None) -> tuple[int, int]:
    """The UCI_Elo range to declare once for every variant: from the lowest to the
    highest measured rating over all ladders (a variant serves what it has)."""
    los, his = [], []
    for name in load_ladder(path).get("variants", {}):
        try:
            lo, hi = elo_range(name, path)
        except StrengthError:
            continue
        los.append(lo)
        his.append(hi)
    return (min(los), max(his)) if los else (1350, 2850)


def ladder_evaluation(variant: str, path: str | Path | None = None) -> dict[str, Any] | None:
    """The evaluation the ladder serving ``variant`` measured (``{"weights": name,
    "digest": ...}``), or None when its ladder does not say (or there is none)."""
    found = _source(variant, path).get("evaluation")
    return found if isinstance(found, dict) else None


def ladder_warning(variant: str, weights_name: str | None, weights_digest: str | None,
                   path: str | Path | None = None) -> str | None:
    """A one-line warning when the engine plays other weights than ``variant``'s ladder
    measured, else None (also None without a ladder: then UCI_Elo has nothing to map).

    ``weights_name``: what the engine plays, for people (``Weights.source``; None for
    weights of no known origin);
    ``weights_digest``: :func:`search.layout.weights_digest` of its vector, compared with
    the ladder's; without one on either side the names are compared."""
    name = ladder_variant(variant, path)
    if name is None:
        return None
    weights_name = weights_name or "unnamed weights"
    which = f"the {name} ladder" if name == _canonical(variant) else \
        f"the {name} ladder (which {_canonical(variant)} uses)"
    measured = ladder_evaluation(variant, path)
    if measured is None:
        return (f"UCI_Elo: {which} does not name the evaluation it measured; this engine "
                f"plays {weights_name}: its strength may differ")
    if weights_digest and measured.get("digest"):
        if weights_digest == measured["digest"]:
            return None
    elif _bare(weights_name) == _bare(str(measured.get("weights", ""))):
        return None
    what = _bare(str(measured.get("weights", "unnamed weights")))
    if what.isalpha():                  # a value set's name: "the traditional values"
        what = f"the {what} values"
    return (f"UCI_Elo: {which} was measured with {what}; this engine plays {weights_name}: "
            f"its strength may differ")


def _bare(name: str) -> str:
    """A weights name without the "value set " or the " (where)" of Weights.source."""
    return name.removeprefix("value set ").split(" (", 1)[0]
