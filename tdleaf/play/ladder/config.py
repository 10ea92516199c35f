"""What decides a ladder's games: its rungs (tdleaf's search limits) and its settings,
with their defaults (which ``tdleaf ladder`` reads from here), their checks, and the
command line that reproduces them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

from variants.errors import TdleafError

from ...backend import Backend, BackendError
from ..game import Adjudication


class LadderError(TdleafError, ValueError):
    """A ladder that cannot be measured as asked."""


# -- rungs -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rung:
    """A tdleaf search limit: ``{"depth": 3}``, ``{"nodes": 5000}`` or ``{"movetime": 0.1}``."""

    kind: str
    value: float

    @property
    def level(self) -> dict[str, Any]:
        return {self.kind: int(self.value) if self.kind != "movetime" else self.value}

    @property
    def label(self) -> str:
        if self.kind == "movetime":
            return f"{self.value:g} s"
        return f"{self.kind} {int(self.value)}"

    @property
    def slug(self) -> str:
        return f"{self.kind}-{self.value:g}"


#: The rungs a ladder measures unless told otherwise: depths 1-6, 0.1 s and 1 s a move.
DEFAULT_DEPTHS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DEFAULT_NODES: tuple[int, ...] = ()
DEFAULT_MOVETIMES: tuple[float, ...] = (0.1, 1.0)


def make_rungs(depths: list[int] | tuple[int, ...], nodes: list[int] | tuple[int, ...],
               movetimes: list[float] | tuple[float, ...]) -> list[Rung]:
    """The rungs of these depths, node counts and move times (in that order)."""
    rungs = [Rung("depth", d) for d in depths] + [Rung("nodes", n) for n in nodes] + \
            [Rung("movetime", t) for t in movetimes]
    if not rungs:
        raise LadderError("no rungs: give --depths, --nodes or --movetimes")
    if len(set(rungs)) != len(rungs):
        raise LadderError("a rung is listed twice")
    return rungs


# -- the settings ----------------------------------------------------------------------------

@dataclass
class LadderConfig:
    """What decides a ladder's games; the defaults are ``tdleaf ladder``'s."""

    player: str = "default"               # tdleaf's weights (a match player spec)
    player_settings: dict[str, Any] = field(default_factory=dict)   # e.g. hash
    rungs: list[Rung] = field(default_factory=lambda: make_rungs(DEFAULT_DEPTHS, DEFAULT_NODES,
                                                                 DEFAULT_MOVETIMES))
    games: int = 16                       # per rung
    batch: int = 2                        # games per batch (one opponent setting)
    random_plies: int = 8
    seed: int = 0
    adjudication: Adjudication = field(default_factory=lambda: Adjudication(
        max_plies=400, resign_moves=4, resign_score=10.0, draw_from=40))
    backend: Backend = field(default_factory=Backend)     # where a batch's games run
    engine_limits: dict[str, Any] | None = None     # None: the engine's default
    engine_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # engine or "*" -> options
    elo_step: int = 50
    max_step: float = 400.0
    start_elo: float | None = None
    skill_levels: bool = True

    def validate(self) -> LadderConfig:
        """Check every setting; :class:`LadderError` says which is wrong."""
        if not self.rungs:
            raise LadderError("no rungs: give --depths, --nodes or --movetimes")
        if self.player_settings.get("search") == "mcts" and any(
                r.kind == "depth" for r in self.rungs):
            raise LadderError("the MCTS has no depth: give --depths '' and its playouts as "
                              "--nodes (or --movetimes)")
        for name, low in (("games", 1), ("batch", 1), ("elo_step", 1),
                          ("random_plies", 0)):
            if getattr(self, name) < low:
                raise LadderError(f"{name.replace('_', ' ')} must be >= {low}, "
                                  f"got {getattr(self, name)}")
        try:
            self.backend.validate()
        except BackendError as exc:
            raise LadderError(str(exc)) from None
        if not self.max_step > 0:
            raise LadderError(f"max step must be > 0, got {self.max_step}")
        if self.engine_limits is not None:
            if not any(k in self.engine_limits for k in ("depth", "nodes", "movetime")):
                raise LadderError("the engine needs a move limit (--engine-movetime, "
                                  "--engine-depth or --engine-nodes)")
            for key, value in self.engine_limits.items():
                if not value > 0:
                    raise LadderError(f"the engine's {key} must be > 0, got {value}")
        try:
            self.adjudication.validate()
        except ValueError as exc:
            raise LadderError(str(exc)) from None
        return self


def default(name: str) -> Any:
    """The default of the :class:`LadderConfig` field ``name`` (or of its adjudication's,
    for a field of :class:`~tdleaf.play.game.Adjudication`)."""
    config = LadderConfig()
    if name in {f.name for f in fields(LadderConfig)}:
        return getattr(config, name)
    return getattr(config.adjudication, name)


def command_line(cfg: LadderConfig, *, remeasure: bool = False, variants: list[str] | None = None,
                 engine: str | None = None) -> list[str]:
    """The options of ``tdleaf ladder`` that reproduce ``cfg``'s measurement (those at
    their defaults left out, but for the rungs and the games)."""
    out: list[str] = ["--remeasure"] if remeasure else []
    for v in variants or []:
        out += ["--variant", v]
    if engine:
        out += ["--engine", engine]
    if cfg.player != default("player"):
        out += ["--player", cfg.player]
    for name in ("search", "net"):
        value = cfg.player_settings.get(name)
        if value not in (None, "selective", "none"):
            out += [f"--{name}", str(value)]
    kinds: dict[str, list[float]] = {"depth": [], "nodes": [], "movetime": []}
    for r in cfg.rungs:
        kinds[r.kind].append(r.value)
    out += ["--depths", ",".join(str(int(d)) for d in kinds["depth"]),
            "--movetimes", ",".join(f"{t:g}" for t in kinds["movetime"]),
            "--games", str(cfg.games)]
    if kinds["nodes"]:
        out += ["--nodes", ",".join(str(int(n)) for n in kinds["nodes"])]
    limits = cfg.engine_limits or {}
    values: list[tuple[str, Any, Any]] = [
        ("batch", cfg.batch, default("batch")),
        ("engine_movetime", limits.get("movetime"), None),
        ("engine_depth", limits.get("depth"), None),
        ("engine_nodes", limits.get("nodes"), None),
        ("elo_step", cfg.elo_step, default("elo_step")),
        ("max_step", cfg.max_step, default("max_step")),
        ("start_elo", cfg.start_elo, None),
        ("random_plies", cfg.random_plies, default("random_plies")),
        ("seed", cfg.seed, default("seed"))]
    values += [(name, getattr(cfg.adjudication, name), default(name))
               for name in ("max_plies", "resign_moves", "resign_score", "draw_moves",
                            "draw_score", "draw_from")]
    for name, value, usual in values:
        if value is not None and value != usual:
            out += [f"--{name.replace('_', '-')}",
                    f"{value:g}" if isinstance(value, float) else str(value)]
    for target, options in cfg.engine_options.items():
        for name, value in options.items():
            out += ["--engine-option", f"{name}={value}" if target == "*"
                    else f"{target}.{name}={value}"]
    if not cfg.skill_levels:
        out.append("--no-skill-levels")
    return out


# -- numbers in the ladder's JSON ------------------------------------------------------------

def json_number(x: float) -> float | str | None:
    """JSON has no infinities: ``"+inf"`` / ``"-inf"``, NaN as null, else rounded."""
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return round(x, 1)


def from_json_number(x: Any) -> float:
    """The number :func:`json_number` wrote."""
    if x is None:
        return math.nan
    if isinstance(x, str):
        return math.inf if x == "+inf" else -math.inf
    return float(x)


def engine_limit_text(limits: dict[str, Any]) -> str:
    """An engine's move limits in words: ``0.1 s a move``, ``depth 6``."""
    parts = []
    if "movetime" in limits:
        parts.append(f"{float(limits['movetime']):g} s a move")
    if "depth" in limits:
        parts.append(f"depth {limits['depth']}")
    if "nodes" in limits:
        parts.append(f"{limits['nodes']} nodes")
    return ", ".join(parts) or "its own limits"
