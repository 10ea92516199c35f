"""Fairy-Stockfish's UCI_Elo scale: the strength settings a ladder plays against, the
Elo of each, and where a rung's figure is a bound rather than a rating.

A rung measured mostly against the scale's strongest setting, and rated above it, is
only known to be stronger than the scale's top: its figure extrapolates the fit past
the last setting that was played, and it is a lower bound (``"bound": "lower"``);
likewise a rung measured mostly against the weakest setting and rated below it is an
upper bound. "Mostly" is more than :data:`BOUND_SHARE` of its games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


def uci_elo_level(elo: float) -> float:
    """The fractional ``Skill Level`` Fairy-Stockfish plays at ``UCI_Elo`` = ``elo``:
    Stockfish's fit ``((E - 1346.6) / 143.4)^(1 / 0.806)`` (anchored to CCRL 40/4 with
    goldfish 1.13 = 2000, TC 60+0.6) above 1346.6, and below it Fairy-Stockfish's own
    extension to negative levels (May 2021), ``s / 143.4 + (s / 500)^5``, s = E - 1346.6.
    Clamped to [-20, 20]. Debian's 11.1 has only the first branch (UCI_Elo >= 1350)."""
    return min(20.0, max(-20.0, _raw_level(elo)))


def _raw_level(elo: float) -> float:
    s = elo - 1346.6
    return (s / 143.4) ** (1 / 0.806) if s > 0 else s / 143.4 + (s / 500.0) ** 5


def skill_level_elo(level: int) -> float:
    """The ``UCI_Elo`` at which later Fairy-Stockfish plays ``Skill Level`` = ``level``
    (the inverse of :func:`uci_elo_level`): e.g. -1 -> about 1203, -20 -> about 498.
    At exactly that UCI_Elo, later Fairy-Stockfish plays that level on every move (it
    rounds a negative fractional level towards zero)."""
    from scipy.optimize import brentq

    if not -20 <= level <= 20:
        raise ValueError(f"Skill Level is -20..20, got {level}")
    if level == 0:
        return 1346.6
    return float(brentq(lambda e: _raw_level(e) - level, 0.0, 4000.0, xtol=1e-6))


def bend_elo(depth: float) -> float:
    """The ``UCI_Elo`` above which Fairy-Stockfish's settings stop buying strength when its
    search reaches ``depth`` plies a move (a mean): a setting picks its move when the
    search reaches depth 1 + its level, so every level past ``depth - 1`` picks from the
    same finished search and differs only in the randomness of its pick. The scale bends
    there (measured for atomic and racing kings: RESULTS.md, "The scale's top at the
    opponent's depth"). The inverse of :func:`uci_elo_level` at level ``depth - 1``."""
    if depth <= 1:
        return 1346.6
    return 1346.6 + 143.4 * min(depth - 1, 20.0) ** 0.806


@dataclass(frozen=True)
class Setting:
    """One strength setting of the reference engine and its rating on the ladder's
    scale. ``kind`` is ``uci_elo`` (the engine's UCI_Elo), ``skill`` (a negative Skill
    Level at its extrapolated Elo) or ``fixed`` (the one setting of an engine without a
    strength knob, rated 0)."""

    label: str
    options: tuple[tuple[str, Any], ...]
    elo: float
    kind: str

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def extrapolated(self) -> bool:
        """Whether its Elo is Fairy-Stockfish's extrapolation below its calibrated range."""
        return self.kind == "skill" or (self.kind == "uci_elo" and self.elo < 1346.6)


@dataclass
class Scale:
    """The settings a ladder may play against, weakest first."""

    kind: str                       # "uci_elo" or "fixed"
    settings: list[Setting]
    description: str

    def by_label(self, label: str) -> Setting | None:
        return next((s for s in self.settings if s.label == label), None)

    def nearest(self, target: float) -> Setting:
        """The setting rated nearest to ``target`` (+-inf: the strongest / weakest)."""
        if target == math.inf:
            return self.settings[-1]
        if target == -math.inf:
            return self.settings[0]
        return min(self.settings, key=lambda s: (abs(s.elo - target), s.elo))

    @property
    def lowest(self) -> float:
        """The weakest setting's rating."""
        return self.settings[0].elo

    @property
    def highest(self) -> float:
        """The strongest setting's rating."""
        return self.settings[-1].elo

    @property
    def anchored_low(self) -> float:
        """The weakest setting that is not extrapolated."""
        return min(s.elo for s in self.settings if not s.extrapolated)


def build_scale(options: dict[str, Any], elo_step: int = 50,
                skill_levels: bool = True, limit_text: str = "") -> Scale:
    """The settings an engine offers: its UCI_Elo from min to max in ``elo_step``
    steps (and, when its UCI_Elo stops at 1350 or above, Skill Level -1..-20 below),
    or one fixed setting when it has no UCI_LimitStrength."""
    names = {n.lower(): n for n in options}
    elo_opt = options.get(names.get("uci_elo", ""))
    if "uci_limitstrength" not in names or elo_opt is None:
        return Scale("fixed", [Setting(limit_text or "as set", (), 0.0, "fixed")],
                     f"one setting ({limit_text or 'as set'}); figures are Elo differences to it")
    lo, hi = int(elo_opt.min), int(elo_opt.max)
    limit, elo = names["uci_limitstrength"], names["uci_elo"]
    values = list(range(lo, hi + 1, elo_step))
    if values[-1] != hi:
        values.append(hi)
    settings = [Setting(f"UCI_Elo {v}", ((limit, "true"), (elo, v)), float(v), "uci_elo")
                for v in values]
    desc = f"UCI_LimitStrength with UCI_Elo {lo}..{hi} in steps of {elo_step}"
    if skill_levels and lo >= 1350 and "skill level" in names:
        skill = names["skill level"]
        settings += [Setting(f"Skill Level {k}", ((skill, k),), skill_level_elo(k), "skill")
                     for k in range(-20, 0)]
        desc += ("; below, Skill Level -20..-1 (no Elo in this build) at the UCI_Elo later "
                 "Fairy-Stockfish gives them (extrapolated, e.g. -1 = 1203, -5 = 818, -20 = 498)")
    if lo < 1346.6:
        desc += "; its UCI_Elo below 1347 is its own extrapolation to negative skill levels"
    settings.sort(key=lambda s: s.elo)
    return Scale("uci_elo", settings, desc)


#: A rung is measured "mostly" against a setting when more than this share of its
#: games were played against it.
BOUND_SHARE = 0.5


def rung_bound(opponents: list[dict[str, Any]], elo: float, lowest: float,
               highest: float) -> str | None:
    """``"lower"`` when a rung rated ``elo`` played more than :data:`BOUND_SHARE` of its
    games against the scale's strongest setting (rated ``highest``) and is rated above
    it; ``"upper"`` for the weakest (``lowest``) and below it; else None.
    ``opponents``: ``{"elo": setting's rating, "games": n}`` per setting played."""
    games = sum(o["games"] for o in opponents)
    if not games or math.isnan(elo):
        return None
    for end, bound, beyond in ((highest, "lower", elo > highest),
                               (lowest, "upper", elo < lowest)):
        at_end = sum(o["games"] for o in opponents if o["elo"] == end)
        if beyond and at_end > BOUND_SHARE * games:
            return bound
    return None
