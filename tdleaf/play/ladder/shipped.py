"""The shipped ladder: the UCI_Elo ladders a measurement saves into ``ladder.json``
(the per-user one, or a file given), which :mod:`search.protocol.strength` reads to map
``UCI_Elo`` to a search limit. A rung that is a bound (:func:`.scale.rung_bound`) is
saved with its ``"bound"``, and ``UCI_Elo`` never maps a request to it."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from search.protocol import strength
from search.shipped import save_text, user_data_dir

from .config import LadderError, from_json_number
from .scale import bend_elo, rung_bound, skill_level_elo


def save_ladder(data: dict[str, Any], path: Path | None = None, note: str = "") -> dict[str, Any]:
    """Write the UCI_Elo ladders of ``data`` (a :func:`results_json`) into the ladder file
    ``path`` (default: ``ladder.json`` in the per-user data folder, which
    :mod:`search.protocol.strength` reads before the shipped one; never the package's), keeping
    the variants this run did not measure: those of ``path`` when it exists, else of
    the ladder read now (the user's or the shipped one).

    A variant already in the file against the same engine, engine limits, player and
    search keeps the levels this run did not measure (a later run adding depth 6 keeps
    depths 1-5), its bend (:func:`mark_bend`: a new rung rated above it is a lower
    bound) and how it is served (``"serve": "nearest"``: :mod:`search.protocol.strength`), and its
    source lists every run that contributed; a variant measured
    otherwise is replaced whole."""
    target = path if path is not None else user_data_dir() / strength.LADDER_FILE
    base = target if target.exists() else strength.ladder_path()
    shipped: dict[str, Any] = {"variants": {}}
    if base is not None:
        try:
            shipped = json.loads(base.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise LadderError(f"{base}: not a ladder file: {exc}") from None
        shipped.setdefault("variants", {})
    shipped["scale"] = ("Fairy-Stockfish's UCI_Elo (UCI_LimitStrength): nominal Elo, anchored "
                        "by Stockfish's calibration of that option (CCRL 40/4, goldfish 1.13 = "
                        "2000, chess at 60+0.6); see the README, 'Strength ladder'")
    sources = shipped.setdefault("sources", {})
    saved = 0
    for lad in data["ladders"]:
        if lad["scale"] != "uci_elo":
            continue
        entries = []
        for r in lad["rungs"]:
            elo = from_json_number(r["elo"])
            entries.append({"level": r["level"],
                            "elo": round(elo, 1) if math.isfinite(elo) else None,
                            "elo_ci": r["elo_ci"], "games": r["games"],
                            "wins": r["wins"], "losses": r["losses"], "draws": r["draws"],
                            "extrapolated": r.get("extrapolated", False),
                            **({"bound": r["bound"]} if r.get("bound") else {})})
        variant = lad["variant"]
        # Another evaluation is another ladder: the source must match to merge levels.
        # Its name and digest say which; where this machine loaded it from does not.
        evaluation = {k: v for k, v in (lad.get("evaluation") or {}).items() if k != "source"}
        source = {"engine": lad["engine"], "engine_limits": lad["engine_limits"],
                  "player": data["player"], "evaluation": evaluation,
                  "search": data.get("player_settings", {}).get("search", "selective")}
        run = {"date": data["date"], "games_per_rung": data["games_per_rung"],
               "command": data["command"], "note": note,
               "levels": [e["level"] for e in entries]}
        old, old_entries = sources.get(variant), shipped["variants"].get(variant, [])
        if old and all(old.get(k) == v for k, v in source.items() if k != "evaluation") \
                and evaluation_key(old.get("evaluation")) == evaluation_key(source["evaluation"]):
            measured = run["levels"]
            entries = [e for e in old_entries if e["level"] not in measured] + entries
            runs = [dict(r, levels=[lv for lv in r["levels"] if lv not in measured])
                    for r in _source_runs(old, old_entries)]
            runs = [r for r in runs if r["levels"]] + [run]
            # The same opponent at the same limits: the same bend, served the same way.
            source.update({k: old[k] for k in ("bend", "serve") if k in old})
        else:
            runs = [run]
        shipped["variants"][variant] = sorted(entries, key=lambda e: _level_order(e["level"]))
        sources[variant] = {**source, "runs": runs}
        _bound_above_bend(shipped, variant)
        saved += 1
    if not saved:
        raise LadderError("no ladder on the UCI_Elo scale to save (Sjeng's figures are "
                          "differences to Sjeng, not ratings)")
    shipped["variants"] = dict(sorted(shipped["variants"].items()))
    shipped["sources"] = dict(sorted(sources.items()))
    save_text(strength.LADDER_FILE, compact(shipped), target)
    return shipped


def evaluation_key(evaluation: Any) -> str | None:
    """What identifies an evaluation: its digest, else its name (a ladder saved before
    evaluations were recorded has neither)."""
    if not isinstance(evaluation, dict):
        return None
    return evaluation.get("digest") or evaluation.get("weights")


def _source_runs(source: dict[str, Any], entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs of a shipped source; a source saved before runs were listed is one run
    that measured all of its levels."""
    if "runs" in source:
        return source["runs"]
    return [{"date": source.get("date", ""), "games_per_rung": source.get("games_per_rung"),
             "command": source.get("command", ""), "note": source.get("note", ""),
             "levels": [e["level"] for e in entries]}]


_KIND_ORDER = {"depth": 0, "nodes": 1, "movetime": 2}


def _level_order(level: dict[str, Any]) -> tuple[int, float]:
    kind, value = next(iter(level.items()))
    return _KIND_ORDER.get(kind, 3), float(value)


def compact(shipped: dict[str, Any]) -> str:
    """The ladder file with one line per level and per source, for readable diffs."""
    def block(name: str, value: Any) -> str:
        if name == "variants":
            rows = [f'    {json.dumps(v)}: [\n      ' + ",\n      ".join(json.dumps(e) for e in entries)
                    + "]" for v, entries in value.items()]
            return '  "variants": {\n' + ",\n".join(rows) + "\n  }"
        if name == "sources":
            rows = [f"    {json.dumps(v)}: {json.dumps(s)}" for v, s in value.items()]
            return '  "sources": {\n' + ",\n".join(rows) + "\n  }"
        return f"  {json.dumps(name)}: {json.dumps(value)}"

    order = ["scale"] + [k for k in shipped if k not in ("scale", "variants", "sources")] + \
        ["variants", "sources"]
    return "{\n" + ",\n".join(block(k, shipped[k]) for k in order if k in shipped) + "\n}\n"


def scale_range(ladder: dict[str, Any]) -> tuple[float, float]:
    """The ratings of the weakest and the strongest setting of a ladder's scale (from
    ``ladder.json``; one written before the range was recorded gives it in words)."""
    if "scale_range" in ladder:
        lo, hi = ladder["scale_range"]
        return float(lo), float(hi)
    found = re.search(r"UCI_Elo (\d+)\.\.(\d+)", ladder.get("scale_description", ""))
    if found is None:
        raise LadderError(f"{ladder.get('variant')}: no UCI_Elo range in its scale")
    lo, hi = float(found.group(1)), float(found.group(2))
    if "Skill Level -20" in ladder["scale_description"]:
        lo = skill_level_elo(-20)
    return lo, hi


def mark_bounds(shipped: dict[str, Any], results: dict[str, Any]) -> list[str]:
    """Mark in ``shipped`` (a ladder file's content) the bounds among its rungs that
    ``results`` (the ``ladder.json`` of the measurement that wrote them) measured: an
    entry whose level and games match the measured rung's gets that rung's bound (or
    loses a stale one); a rung rated above the bend its source records
    (:func:`mark_bend`) is a lower bound. Returns what changed, as ``variant level:
    bound`` lines."""
    changed = []
    for lad in results.get("ladders", []):
        if lad.get("scale") != "uci_elo":
            continue
        lo, hi = scale_range(lad)
        entries = shipped.get("variants", {}).get(lad["variant"], [])
        for r in lad["rungs"]:
            elo = from_json_number(r["elo"])
            bound = rung_bound(r["opponents"], elo, lo, hi)
            if bound is None and _above_bend(shipped, lad["variant"], elo):
                bound = "lower"
            for e in entries:
                same = all(e.get(k) == r[k] for k in ("level", "games", "wins", "losses", "draws"))
                if same and e.get("bound") != bound:
                    if bound:
                        e["bound"] = bound
                    else:
                        e.pop("bound", None)
                    changed.append(f"{lad['variant']} {r['label']}: {bound}")
    return changed


def rewrite_bounds(ladder_file: Path, results_file: Path) -> list[str]:
    """:func:`mark_bounds` of a ladder file from a measurement's ``ladder.json``, written
    back in the ladder file's layout; returns what changed."""
    shipped = json.loads(ladder_file.read_text())
    changed = mark_bounds(shipped, json.loads(results_file.read_text()))
    if changed:
        save_text(strength.LADDER_FILE, compact(shipped), ladder_file)
    return changed


def mark_bend(shipped: dict[str, Any], variant: str, depth: float, evidence: str) -> list[str]:
    """Mark in ``shipped`` (a ladder file's content) every rung of ``variant`` rated above
    the bend of its opponent's scale (:func:`.scale.bend_elo` of ``depth``, the mean depth
    the opponent searched in its rungs) as a lower bound: above the bend the opponent's
    settings play alike, so such a figure says only "stronger than the bend". The bend
    and ``evidence`` (where its flatness was measured) go into the variant's source,
    where :func:`mark_bounds` reads it too. Returns what changed, as ``variant level:
    bound`` lines."""
    source = shipped.setdefault("sources", {}).setdefault(variant, {})
    depth = round(depth, 2)
    source["bend"] = {"uci_elo": round(bend_elo(depth)), "opponent_depth": depth,
                      "evidence": evidence}
    return _bound_above_bend(shipped, variant)


def _bound_above_bend(shipped: dict[str, Any], variant: str) -> list[str]:
    """Every rung of ``variant`` rated above the bend its source records made a lower
    bound; what changed, as ``variant level: bound`` lines."""
    changed = []
    for e in shipped.get("variants", {}).get(variant, []):
        if _above_bend(shipped, variant, e.get("elo")) and e.get("bound") != "lower":
            e["bound"] = "lower"
            changed.append(f"{variant} {strength.level_label(e['level'])}: lower (above the bend)")
    return changed


def _above_bend(shipped: dict[str, Any], variant: str, elo: Any) -> bool:
    """Whether a rating lies above the bend the variant's source records (False where it
    records none)."""
    bend = shipped.get("sources", {}).get(variant, {}).get("bend")
    return (isinstance(bend, dict) and isinstance(elo, (int, float)) and math.isfinite(elo)
            and elo > bend_elo(bend["opponent_depth"]))
