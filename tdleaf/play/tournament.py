"""Tournaments: the report's pairings per variant ("paper"), a round robin or a gauntlet.
Each pairing is a :mod:`match` with its own PGN in the tournament folder, so a
tournament resumes pairing by pairing; the tables come out as Markdown and CSV.

The report (Droste & Fürnkranz 2008, tables 5.2, 6.2, 7.2, 8.2) played 2,000 games a
pairing between material-only players with different values, and the piece-square
player against the learnt material player; its numbers stand beside ours.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from search.files import write_json, write_text
from search.layout import average_psq_weights
from variants.errors import TdleafError
from variants.spec import SPECS

from . import stats
from .match import MatchConfig, PlayerConfig, Summary, run_match, stored_summary


@dataclass(frozen=True)
class Pairing:
    """One row of a tournament: ``a`` against ``b`` (labels and player specs), with the
    report's won/lost/drawn counts for it, if it has them."""

    label: str
    a: str
    b: str
    paper: tuple[int, int, int] | None = None


#: The report's tournaments: (configuration, A, B, (won, lost, draw) of A), and one of
#: ours it could not play: our learnt values against its learnt values (no numbers).
#: A and B are names resolved by :func:`paper_players`.
PAPER: dict[str, list[tuple[str, str, str, tuple[int, int, int] | None]]] = {
    "chess": [
        ("learnt vs. traditional", "learnt", "traditional", (1246, 715, 39)),
        ("learnt vs. original", "learnt", "original", (1037, 906, 57)),
        ("learnt vs. average p-sq", "learnt", "avg-psq", (971, 993, 36)),
        ("piece-square vs. learnt", "psq", "learnt", (1735, 245, 20)),
        ("piece-square vs. Sjeng", "psq", "sjeng-engine", (2, 1997, 1)),
        ("learnt vs. the report's learnt", "learnt", "report", None),
    ],
    "crazyhouse": [
        ("learnt vs. traditional", "learnt", "traditional", (1352, 646, 2)),
        ("learnt vs. original", "learnt", "original", (1317, 680, 3)),
        ("learnt vs. Sjeng (Values)", "learnt", "sjeng", (1322, 674, 4)),
        ("learnt vs. average p-sq", "learnt", "avg-psq", (813, 1184, 3)),
        ("piece-square vs. learnt", "psq", "learnt", (1928, 71, 1)),
        ("learnt vs. the report's learnt", "learnt", "report", None),
    ],
    "suicide": [
        ("learnt vs. traditional", "learnt", "traditional", (1018, 934, 48)),
        ("learnt vs. Sjeng (Suicide)", "learnt", "sjeng", (1790, 185, 25)),
        ("learnt vs. Sjeng (Losers)", "learnt", "losers", (984, 910, 106)),
        ("learnt vs. average p-sq", "learnt", "avg-psq", (986, 948, 66)),
        ("piece-square vs. learnt", "psq", "learnt", (1742, 243, 15)),
        ("learnt vs. the report's learnt", "learnt", "report", None),
    ],
    "atomic": [
        ("learnt vs. traditional", "learnt", "traditional", (1231, 753, 16)),
        ("learnt vs. average p-sq", "learnt", "avg-psq", (1186, 797, 17)),
        ("piece-square vs. learnt", "psq", "learnt", (1924, 75, 1)),
        ("learnt vs. the report's learnt", "learnt", "report", None),
    ],
}
# Giveaway and antichess: the suicide pairings (the report has no numbers for them and
# learnt no values).
for _v in [n for n, s in SPECS.items() if s.losing and n not in PAPER]:
    PAPER[_v] = [(label, a, b, None) for label, a, b, _ in PAPER["suicide"] if b != "report"]
    # Last, so that the pairings before it keep their numbers (and their files).
    PAPER[_v].append(("learnt vs. multi-variant Stockfish", "learnt", "stockfish", None))
# Lichess's other four variants (king of the hill, three-check, racing kings, horde):
# the report has none; the multi-variant
# Stockfish's tuned values (value set "stockfish") stand in for a hand-tuned set.
for _v in [n for n, s in SPECS.items() if not s.losing and n not in PAPER]:
    PAPER[_v] = [("learnt vs. traditional", "learnt", "traditional", None),
                 ("learnt vs. multi-variant Stockfish", "learnt", "stockfish", None),
                 ("learnt vs. average p-sq", "learnt", "avg-psq", None),
                 ("piece-square vs. learnt", "psq", "learnt", None)]

PLANS = ("paper", "roundrobin", "gauntlet")
#: The report's player names, in the order a paper plan's sides are listed.
PAPER_NAMES = ("learnt", "psq", "traditional", "original", "report", "sjeng", "losers",
               "avg-psq", "sjeng-engine")
#: A side's limit where neither the tournament nor the side's own options set one: a
#: depth for tdleaf's alpha-beta, seconds a move for an external engine.
DEFAULT_DEPTH = 4
DEFAULT_ENGINE_MOVETIME = 0.1
LIMITS = ("depth", "nodes", "movetime", "playouts")


def side_settings(spec: str, own: dict[str, Any], limited: bool) -> dict[str, Any]:
    """A side's settings: its ``own`` options, with the default limit added unless the
    tournament sets one for every side (``limited``: a depth, node or time limit, or a
    clock), the side sets its own, or it plays MCTS (whose playouts default apart)."""
    from .players import is_external

    settings = dict(own)
    if not limited and settings.get("search") != "mcts" \
            and not any(k in settings for k in LIMITS):
        if is_external(spec):
            settings["movetime"] = DEFAULT_ENGINE_MOVETIME
        else:
            settings["depth"] = DEFAULT_DEPTH
    return settings


class TournamentError(TdleafError, ValueError):
    """A tournament that cannot be played as asked."""


def paper_players(variant: str, out: Path, learnt: str | None = None,
                  psq: str | None = None) -> dict[str, str]:
    """Player specs for the report's names. ``learnt`` and ``psq`` are result folders
    (default: the shipped reference weights); ``avg-psq`` is derived from ``psq``'s
    tables and written into the tournament folder."""
    names = {"traditional": "traditional", "original": "sunsetter", "sjeng": "sjeng",
             "losers": "losers", "sjeng-engine": "xboard:sjeng",
             "report": "report", "stockfish": "stockfish",
             "learnt": learnt or "learnt-material",
             "psq": psq or "learnt-psq"}
    if psq is None:
        names["avg-psq"] = "avg-psq"
    else:
        try:
            weights = average_psq_weights(psq, variant)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
        path = out / "avg-psq.json"
        out.mkdir(parents=True, exist_ok=True)
        weights.save(path)
        names["avg-psq"] = str(path)
    return names


def plan_pairings(plan: str, variant: str, players: list[str],
                  names: dict[str, str] | None = None) -> list[Pairing]:
    """The pairings of a plan: the report's for ``paper`` (its names resolved through
    ``names``, see :func:`paper_players`); every pair of ``players`` for
    ``roundrobin``; the first player against each other for ``gauntlet``."""
    if plan == "paper":
        if variant not in PAPER:
            raise TournamentError(f"the report has no tournament for {variant}")
        if names is None:
            raise TournamentError("the paper plan needs its players' names resolved")
        return [Pairing(label, names[a], names[b], paper) for label, a, b, paper in PAPER[variant]]
    if len(players) < 2:
        raise TournamentError(f"--plan {plan} needs at least two --players")
    if len(set(players)) != len(players):
        raise TournamentError("--players lists a player twice")
    if plan == "roundrobin":
        return [Pairing(f"{a} vs. {b}", a, b) for i, a in enumerate(players)
                for b in players[i + 1:]]
    if plan == "gauntlet":
        return [Pairing(f"{players[0]} vs. {b}", players[0], b) for b in players[1:]]
    raise TournamentError(f"unknown plan {plan!r}; expected one of {', '.join(PLANS)}")


def chosen_pairings(pairings: list[Pairing], only: frozenset[int] | None,
                    ) -> list[tuple[int, Pairing]]:
    """``(position in the plan, pairing)`` of the pairings to play: those in ``only``
    (0-based), or all."""
    return [(k, p) for k, p in enumerate(pairings) if only is None or k in only]


@dataclass
class Row:
    pairing: Pairing
    summary: Summary

    def to_json(self) -> dict[str, Any]:
        data = self.summary.to_json()
        data["configuration"] = self.pairing.label
        data["a_spec"], data["b_spec"] = self.pairing.a, self.pairing.b
        if self.pairing.paper:
            w, lost, d = self.pairing.paper
            data["paper"] = {"won": w, "lost": lost, "draw": d,
                             "ratio": (w + d / 2) / (w + lost + d),
                             "sign_test_p": stats.sign_test_p(w, lost)}
        return data


@dataclass
class Tournament:
    """A plan's pairings played as matches that share every other setting."""

    base: MatchConfig                     # variant, limits, openings, adjudication, workers
    pairings: list[Pairing]
    out: Path
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)   # per spec
    #: The pairings to play (0-based positions in ``pairings``); None: all. A pairing
    #: keeps its file name from its position in the whole plan, so a later run of the
    #: whole plan with ``resume`` carries on from the ones played here.
    only: frozenset[int] | None = None

    def pgn_of(self, k: int, pairing: Pairing) -> Path:
        slug = re.sub(r"[^A-Za-z0-9]+", "-", pairing.label).strip("-").lower()
        return self.out / f"{k + 1:02d}-{slug}.pgn"

    def config_of(self, k: int, pairing: Pairing) -> MatchConfig:
        def player(spec: str) -> PlayerConfig:
            own = dict(self.base.a.settings)          # the shared limits
            own.update(self.settings.get(spec, {}))
            return PlayerConfig(spec, own)
        return replace(self.base, a=player(pairing.a), b=player(pairing.b),
                       pgn=str(self.pgn_of(k, pairing)), event=f"tdleaf tournament: {pairing.label}")

    def run(self, resume: bool = False,
            progress: Callable[[int, Pairing, Summary, Any], None] | None = None) -> list[Row]:
        """Play every pairing in turn (carrying on from their PGNs with ``resume``) and
        rewrite the tables after each one. With ``only``, the tables also hold the games
        of the plan's other pairings already in the folder; the rows returned are the
        pairings played."""
        chosen = chosen_pairings(self.pairings, self.only)
        played = [self.pgn_of(k, p) for k, p in chosen]
        if not resume and any(p.exists() and p.stat().st_size for p in played):
            raise TournamentError(f"{self.out} already holds games: use --resume to carry on, "
                                  f"or another --out folder")
        self.out.mkdir(parents=True, exist_ok=True)
        rows: list[Row] = []
        shown: dict[int, Row] = {}          # by position in the plan
        for k, p in enumerate(self.pairings):
            if (self.only is not None and k not in self.only
                    and (s := stored_summary(self.config_of(k, p))) is not None):
                shown[k] = Row(p, s)
        for k, pairing in chosen:

            def report(summary: Summary, outcome: Any, k: int = k, pairing: Pairing = pairing) -> None:
                if progress:
                    progress(k, pairing, summary, outcome)

            summary = run_match(self.config_of(k, pairing), resume=resume, progress=report)
            rows.append(Row(pairing, summary))
            shown[k] = rows[-1]
            self.write_tables([shown[j] for j in sorted(shown)])
        return rows

    # -- tables --------------------------------------------------------------------------

    def write_tables(self, rows: list[Row]) -> None:
        write_text(self.out / "table.md", markdown_table(rows, self.base, self.settings))
        write_text(self.out / "table.csv", csv_table(rows))
        write_json(self.out / "summary.json",
                   {"variant": self.base.variant, "settings": self.settings,
                    "rows": [r.to_json() for r in rows]}, indent=2)


def _ratio(w: int, lost: int, d: int) -> str:
    n = w + lost + d
    return f"{100 * (w + d / 2) / n:.2f}%" if n else "-"


def _p(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else "<1e-4"


def _elo(row: dict[str, Any]) -> str:
    lo, hi = row["elo_ci"]
    if row["elo"] is None:
        return "+inf" if row["score"] == 1 else "-inf"
    elo = row["elo"] + 0.0                   # + 0.0: no "-0"
    if lo is None and hi is None:            # every game drawn: no interval
        return f"{elo:+.0f}"
    return f"{elo:+.0f} [{'-inf' if lo is None else f'{lo:+.0f}'}, " \
           f"{'+inf' if hi is None else f'{hi:+.0f}'}]"


def markdown_table(rows: list[Row], base: MatchConfig,
                   settings: dict[str, dict[str, Any]] | None = None) -> str:
    """The report's table (won, lost, draw, ratio, significance), ours beside its;
    ``settings``: the players' own settings (--option), named under the limits."""
    limits = {k: v for k, v in base.a.settings.items() if k in ("depth", "nodes", "movetime")}
    setting = ", ".join(f"{k} {v}" for k, v in limits.items()) or "-"
    if base.tc:
        setting += f", clock {base.tc}"
    lines = [f"# Tournament: {base.variant}", "",
             (f"Limits: {setting}; openings: "
             f"{base.openings_file or f'{base.random_plies} random plies (seed {base.seed})'}, "
             f"each played with both colours. Ratio = (won + draw/2) / games; p = the report's "
             f"sign test (wins against losses, two-sided); Elo with its 95% interval.")]
    own = [f"{spec} " + ", ".join(f"{k}={v}" for k, v in kv.items())
           for spec, kv in (settings or {}).items() if kv]
    if own:
        lines.append(f"Players' own settings: {'; '.join(own)}.")
    lines.append("")
    # The report's columns only where it played one of these pairings (the paper plan).
    with_report = any(r.pairing.paper for r in rows)
    head = "| configuration | won | lost | draw | ratio | p | Elo | s/move A, B |"
    if with_report:
        lines += [head + " report: won | lost | draw | ratio | p |", "|---" * 13 + "|"]
    else:
        lines += [head, "|---" * 8 + "|"]
    warnings = []
    for r in rows:
        d = r.to_json()
        ours = f"{d['wins']} | {d['losses']} | {d['draws']} | {_ratio(d['wins'], d['losses'], d['draws'])} " \
               f"| {_p(d['sign_test_p'])} | {_elo(d)} | {_seconds(d['time_per_move'])}"
        warnings += [f"{d['configuration']}: {w}" for w in d["warnings"]]
        if with_report:
            p = d.get("paper")
            ours += " | " + (f"{p['won']} | {p['lost']} | {p['draw']} | "
                             f"{_ratio(p['won'], p['lost'], p['draw'])} | {_p(p['sign_test_p'])}"
                             if p else "- | - | - | - | -")
        lines.append(f"| {d['configuration']} | {ours} |")
    if warnings:
        lines += [""] + [f"Warning: {w}" for w in warnings]
    if len(rows) > 1:
        lines += ["", standings(rows)]
    return "\n".join(lines) + "\n"


def _seconds(per_move: dict[str, float | None]) -> str:
    """A's and B's mean seconds per move, ``0.50, 0.51``."""
    return ", ".join("-" if x is None else f"{x:.2f}" for x in (per_move["a"], per_move["b"]))


def standings(rows: list[Row]) -> str:
    """Points per player over all its pairings (a round robin's cross table, summed)."""
    table: dict[str, list[float]] = {}
    for r in rows:
        s = r.summary
        a = table.setdefault(s.a, [0.0, 0])
        b = table.setdefault(s.b, [0.0, 0])
        a[0] += s.wins + s.draws / 2
        b[0] += s.losses + s.draws / 2
        a[1] += s.games
        b[1] += s.games
    order = sorted(table.items(), key=lambda kv: -kv[1][0] / max(1, kv[1][1]))
    out = ["| player | points | games | score |", "|---|---|---|---|"]
    for name, (pts, games) in order:
        out.append(f"| {name} | {pts:g} | {games} | {100 * pts / games:.1f}% |" if games else
                   f"| {name} | 0 | 0 | - |")
    return "\n".join(out)


def csv_table(rows: list[Row]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["configuration", "a", "b", "games", "won", "lost", "draw", "ratio", "sign_test_p",
                "elo", "elo_low", "elo_high", "a_seconds_per_move", "b_seconds_per_move",
                "paper_won", "paper_lost", "paper_draw", "paper_ratio", "paper_sign_test_p"])
    for r in rows:
        d = r.to_json()
        p = d.get("paper") or {}
        w.writerow([d["configuration"], d["a"], d["b"], d["games"], d["wins"], d["losses"],
                    d["draws"], d["score"], d["sign_test_p"], d["elo"], *d["elo_ci"],
                    d["time_per_move"]["a"], d["time_per_move"]["b"],
                    p.get("won"), p.get("lost"), p.get("draw"), p.get("ratio"),
                    p.get("sign_test_p")])
    return buf.getvalue()
