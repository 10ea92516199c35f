"""The summaries of a finished learning job: the runs' final weights averaged into
``weights.json`` (with ``weights_std.json`` and, scaled as the report does for the
variant, ``weights_normalised.json``) and ``summary.json`` (normalised views,
frequency-weighted piece-square averages, the leaf blocks' entries), and the lines the
terminal shows of them.

Every normalised value is the mean over runs of the raw weights, then scaled by a
positive factor so that the variant's reference piece has the report's value
(:data:`CONVENTION`, :mod:`variants.normalise`, which the figures of :mod:`plots` use
too).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from search.files import write_json
from search.layout import (
    HAND,
    HAND_PIECES,
    MATERIAL,
    MATERIAL_BLACK,
    PIECES,
    PSQ,
    PSQ_BLACK,
    FeatureLayout,
    Weights,
    has_pockets,
    learnt_blocks,
    separate_colours,
    weights_from_json,
)
from variants import spec
from variants.normalise import (
    CONVENTION,
    convention_text,
    learnt_pieces,
    mean_then_normalise,
    normalise_averages,
    pawn_target,
    problem,
    typical_size,
)

from .config import LearnConfig, LearnError, run_layout
from .runs import load_checkpoint, run_dir


def _offsets(black: bool) -> tuple[int, int]:
    """(material offset, table offset) of one colour's values: Black's own blocks with
    ``black`` (variants with separate values per colour), else the shared ones."""
    return (MATERIAL_BLACK, PSQ_BLACK) if black else (MATERIAL, PSQ)


def psq_averages(w: np.ndarray, visits: np.ndarray, black: bool = False) -> dict[str, float]:
    """Frequency-weighted average value of each piece: material + its table entries
    weighted by how often the piece stood on each square (report, section 5.3); with
    ``black``, of Black's own values (``material_black``, ``psq_black``) and visits."""
    mat, tab = _offsets(black)
    out = {}
    for i, p in enumerate(PIECES):
        n = visits[i].sum()
        table = w[tab + 64 * i:tab + 64 * (i + 1)]
        out[p] = float(w[mat + i] + (table @ visits[i] / n if n else 0.0))
    return out


def _value_index(variant: str, black: bool = False) -> dict[str, int]:
    """Where each value of a summary's views lies in the weight vector: the material of
    every piece (the king's too, a constant 0 where it is not learnt; Black's own with
    ``black``) and, in crazyhouse, the pieces in hand (``P@hand``)."""
    idx = {p: _offsets(black)[0] + i for i, p in enumerate(PIECES)}
    if has_pockets(variant) and not black:
        idx.update({f"{p}@hand": HAND + i for i, p in enumerate(HAND_PIECES)})
    return idx


def _view(W: np.ndarray, variant: str, piece: str, target: float, black: bool = False,
          ) -> tuple[dict[str, float], dict[str, float], float, str | None]:
    """The values of :func:`~.normalise.mean_then_normalise` so that ``piece`` =
    ``target`` (Black's own with ``black``), their standard deviations, the factor and,
    when there is none (empty dicts, NaN), why not."""
    idx = _value_index(variant, black)
    keys = list(idx)
    learnt = [keys.index(p) for p in learnt_pieces(variant)] + \
        [i for i, k in enumerate(keys) if k.endswith("@hand")]
    raw = W[:, [idx[k] for k in keys]]
    m, sd, s = mean_then_normalise(raw, keys.index(piece), target, typical_of=learnt)
    s = float(s)
    if np.isnan(s):
        mean = raw.mean(axis=0)
        return {}, {}, s, problem(float(mean[keys.index(piece)]), target, piece,
                                  float(typical_size(mean[learnt])))
    return ({k: float(m[i]) for i, k in enumerate(keys)},
            {k: float(sd[i]) for i, k in enumerate(keys)}, s, None)


def _colour_parts(summary: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(who, part) of a summary: the summary itself, and where the colours have separate
    values its ``black`` part (who: ``White's ``, ``Black's ``; empty otherwise)."""
    if "black" not in summary:
        return [("", summary)]
    return [("White's ", summary), ("Black's ", summary["black"])]


#: A leaf-block entry non-zero in fewer positions than this is reported as rare (it
#: learns little: the yardstick of starved table entries).
RARE_VISITS = 100


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """What the terminal shows of a summary: the values and their convention (raw
    weights, with the reason in :func:`summary_problems`, where they cannot be
    normalised); White's and Black's apart where the colours have separate values."""
    runs = summary["runs"]
    valued = learnt_pieces(summary["variant"])
    of_runs = f"{runs} runs" if runs != 1 else "1 run"

    def line(what: str, values: dict[str, float], std: dict[str, float]) -> str:
        return f"{what}: " + ", ".join(f"{k} {v:.2f} \u00b1 {std[k]:.2f}"
                                       for k, v in values.items() if k.split("@")[0] in valued)

    out = []
    for who, part in _colour_parts(summary):
        norm = part["normalisation"]
        piece, target = norm["piece"], norm["value"]
        view = part["normalised"][norm["view"]]
        if view:
            out.append(line(f"{who}learnt values ({convention_text(piece, target, runs)}; "
                            f"\u00b1 sd over runs)", view, part["normalised_std"][norm["view"]]))
        else:
            raw = {**part["material"], **{f"{p}@hand": v for p, v in part["hand"].items()}}
            std = {**part["material_std"],
                   **{f"{p}@hand": v for p, v in part["hand_std"].items()}}
            out.append(line(f"{who}learnt values (mean of {of_runs}, raw weights: not "
                            f"normalised so that {piece} = {target:g}, see the warning; "
                            f"\u00b1 sd over runs)", raw, std))
        if part.get("psq_average_normalised"):
            out.append(line(f"{who}table averages (mean weights and summed visits of {of_runs}, "
                            f"then normalised so that {piece}'s average = {target:g})",
                            part["psq_average_normalised"], part["psq_average_normalised_std"]))
        elif part.get("psq_average"):
            out.append(line(f"{who}table averages (mean weights and summed visits of {of_runs}, "
                            f"raw: not normalised so that {piece}'s average = "
                            f"{target:g}, see the warning)",
                            part["psq_average"], part["psq_average_std"]))
    for name, visits in summary.get("block_visits", {}).items():
        rare = sum(1 for n in visits.values() if n < RARE_VISITS)
        out.append(f"leaf block {name}: {len(visits)} weights (summary.json: blocks), "
                   + (f"{rare} of them non-zero in fewer than {RARE_VISITS} positions "
                      "(they learn little)" if rare else
                      f"each non-zero in at least {RARE_VISITS} positions"))
    return out


def summary_problems(summary: dict[str, Any]) -> list[str]:
    """Why values that :func:`summary_lines` shows could not be normalised (the main
    view's, the table averages'; summary.json's ``normalisation.problems`` also has the
    pawn view's), one sentence each, Black's prefixed where the colours have separate
    values; empty when all were."""
    out = []
    for who, part in _colour_parts(summary):
        problems = part["normalisation"].get("problems", {})
        out += [f"{who}{problems[k]}" for k in (part["normalisation"]["view"], "psq_average")
                if k in problems]
    return out


def _side(cfg: LearnConfig, W: np.ndarray, ws: list[np.ndarray], visits: list[np.ndarray],
          tables: bool, black: bool) -> tuple[dict[str, Any], float]:
    """One colour's part of summary.json (both colours' where they share their values):
    raw, std, normalised views (by the spec's rule for that colour), table averages; and
    the factor of its main view (NaN: none)."""
    mean, std = W.mean(axis=0), W.std(axis=0)
    mat = _offsets(black)[0]
    piece, target = spec.get(cfg.variant).normalisation(black)
    pawn = pawn_target(cfg.variant)
    views: dict[str, dict[str, float]] = {}
    views_std: dict[str, dict[str, float]] = {}
    problems: dict[str, str] = {}
    main_scale = float("nan")
    for p, t in ((piece, target), ("P", pawn)):
        name = f"{p}={t:g}"
        views[name], views_std[name], scale, why = _view(W, cfg.variant, p, t, black)
        if why:
            problems[name] = why
        if p == piece:
            main_scale = scale
    whose = ("Black's own values (material_black, psq_black), " if black else
             "White's values, " if separate_colours(cfg.variant) else "")
    vis = np.sum(visits, axis=0)
    hand = has_pockets(cfg.variant) and not black
    part: dict[str, Any] = {
        "normalisation": {
            "convention": CONVENTION, "piece": piece, "value": target,
            "view": f"{piece}={target:g}",
            "scale": None if np.isnan(main_scale) else main_scale,
            "description": (
                f"normalised views: {whose}the mean over the {cfg.runs} runs of the raw "
                f"weights, scaled so that {piece} = {target:g} (the report's normalisation "
                f"for {cfg.variant}), or so that P = {pawn:g} (Table 9.1); normalised_std: "
                f"the standard deviation over runs of the raw weights times the same factor; "
                f"only a positive factor is used: a view whose reference mean is near 0 or "
                f"of the wrong sign is empty and 'problems' says why"
                + ("; psq_average: the visit-weighted table averages of the mean weights "
                   "with the visits summed over runs, psq_average_normalised scaled so that "
                   f"{piece}'s average = {target:g}, psq_average_normalised_std the standard "
                   "deviation of each run's own averages times the same factor"
                   if tables else "")),
            "problems": problems,
        },
        "material": {p: float(mean[mat + i]) for i, p in enumerate(PIECES)},
        "hand": {p: float(mean[HAND + i]) for i, p in enumerate(HAND_PIECES)} if hand else {},
        "material_std": {p: float(std[mat + i]) for i, p in enumerate(PIECES)},
        "hand_std": {p: float(std[HAND + i]) for i, p in enumerate(HAND_PIECES)} if hand else {},
        "normalised": views,
        "normalised_std": views_std,
        "psq_average": psq_averages(mean, vis, black) if tables else {},
        "visits": vis.tolist(),
    }
    if tables:
        per_run = [psq_averages(w, v, black) for w, v in zip(ws, visits)]
        part["psq_average_std"] = {p: float(np.std([r[p] for r in per_run])) for p in PIECES}
        pm, psd, s2, why = normalise_averages(part["psq_average"], per_run, piece, target,
                                              learnt_pieces(cfg.variant))
        part["normalisation"]["psq_scale"] = None if np.isnan(s2) else s2
        part["psq_average_normalised"] = pm
        part["psq_average_normalised_std"] = psd
        if why:
            problems["psq_average"] = why
    return part, main_scale


def _leaf_part(out: Path, cfg: LearnConfig, layout: FeatureLayout, mean: np.ndarray,
               std: np.ndarray) -> dict[str, Any]:
    """summary.json's leaf blocks (none: empty): each entry's mean and standard deviation
    over runs (raw weights: a leaf block has no normalised view) and its visits, the
    positions of all runs' games where its feature was not zero (a starved entry learns
    nothing)."""
    leaf = [b for b in layout.blocks if b.evaluation == "leaf"]
    if not leaf:
        return {}
    visits = np.zeros(layout.size - layout.leaf_start, dtype=np.int64)
    for r in range(cfg.runs):
        ck = load_checkpoint(run_dir(out, r)) or {}
        visits += np.array(ck.get("block_visits", np.zeros(visits.size)), dtype=np.int64)
    part: dict[str, Any] = {"blocks": {}, "blocks_std": {}, "block_visits": {}}
    for b in leaf:
        span = layout.span(b.name)
        at = span.start - layout.leaf_start
        part["blocks"][b.name] = dict(zip(b.entries, map(float, mean[span])))
        part["blocks_std"][b.name] = dict(zip(b.entries, map(float, std[span])))
        part["block_visits"][b.name] = dict(zip(b.entries, map(int, visits[at:at + b.size])))
    return part


#: What tools add to a finished job's weights.json (``tdleaf bench prior --save``): kept
#: when the job is summarised again (``--resume`` of a finished job) with the same weights.
ADDED_META = ("prior_temperature", "prior_win_logit")


def _kept_meta(path: Path, variant: str, mean: np.ndarray) -> dict[str, Any]:
    """The :data:`ADDED_META` entries of the weights file at ``path`` if its weights are
    ``mean`` (fitted to these weights, they still hold); nothing otherwise."""
    try:
        old = weights_from_json(json.loads(path.read_text(encoding="utf-8")), variant)
    except (OSError, ValueError):
        return {}
    if old.w.shape != mean.shape or not np.array_equal(old.w, mean):
        return {}
    return {k: old.meta[k] for k in ADDED_META if k in old.meta}


def summarise(out: Path, cfg: LearnConfig) -> dict[str, Any]:
    """Average the runs' final weights and write weights.json, weights_std.json and
    summary.json (raw, std, normalised views, piece-square averages): every normalised
    value is the mean over runs of the raw weights, then scaled (:data:`CONVENTION`) by
    a positive factor. A view whose reference mean is near 0 or of the wrong sign is
    left empty, and ``normalisation.problems`` says why. Where the colours have separate
    values (horde), summary.json's ``black`` holds Black's own, normalised by the spec's
    rule for Black (``Variant.normalisation(black=True)``)."""
    tables = "psq" in learnt_blocks(cfg.variant, cfg.features)   # psq, psq+mobility, ...
    colours = separate_colours(cfg.variant)
    ws, visits, visits_black = [], [], []
    for r in range(cfg.runs):
        ck = load_checkpoint(run_dir(out, r))
        if ck is None or ck.get("games") != cfg.games:
            raise LearnError(f"run {r} in {out} is not finished")
        ws.append(np.array(ck["w"]))
        visits.append(np.array(ck["visits"], dtype=np.int64))
        visits_black.append(np.array(ck.get("visits_black", np.zeros((6, 64))), dtype=np.int64))
    W = np.array(ws)
    mean, std = W.mean(axis=0), W.std(axis=0)
    meta = {"runs": cfg.runs, "games": cfg.games, "features": cfg.features, "depth": cfg.depth,
            "source": "tdleaf learn", "config": cfg.to_json()}
    layout = run_layout(cfg)
    # Only weights.json keeps them: a temperature fitted to the raw scale would be wrong
    # beside the normalised weights, and means nothing beside the standard deviations.
    kept = _kept_meta(out / "weights.json", cfg.variant, mean)
    Weights(cfg.variant, mean, {**meta, **kept}, layout=layout).save(out / "weights.json")
    Weights(cfg.variant, std, {"what": "standard deviation over runs", **meta},
            layout=layout).save(out / "weights_std.json")
    white, main_scale = _side(cfg, W, ws, visits, tables, black=False)
    black, black_scale = _side(cfg, W, ws, visits_black, tables, black=True) if colours \
        else ({}, 1.0)
    piece, target = white["normalisation"]["piece"], white["normalisation"]["value"]
    scaled_path = out / "weights_normalised.json"
    if np.isnan(main_scale) or np.isnan(black_scale):
        scaled_path.unlink(missing_ok=True)     # never a stale one beside this summary
    else:
        scaled = mean * main_scale
        scaled[MATERIAL + PIECES.index(piece)] = target          # exactly, not nearly
        what = f"{piece} = {target:g}"
        if colours:
            # Black's own values by Black's rule: a view, not an evaluation to play (the
            # two colours' scales differ).
            bpiece, btarget = black["normalisation"]["piece"], black["normalisation"]["value"]
            for name in ("material_black", "psq_black"):
                scaled[layout.span(name)] = mean[layout.span(name)] * black_scale
            scaled[MATERIAL_BLACK + PIECES.index(bpiece)] = btarget
            what = (f"White's {what} and Black's {bpiece} = {btarget:g}, each colour by its "
                    f"own factor (a view of the values: it does not play as weights.json)")
        Weights(cfg.variant, scaled,
                {"what": f"weights.json scaled so that {what} (the report's "
                         f"normalisation for {cfg.variant}: {CONVENTION})", **meta},
                layout=layout).save(scaled_path)
    summary: dict[str, Any] = {
        "variant": cfg.variant, "features": cfg.features, "runs": cfg.runs, "games": cfg.games,
        **white,
    }
    if colours:
        summary["black"] = black
    summary.update(_leaf_part(out, cfg, layout, mean, std))
    write_json(out / "summary.json", summary)
    return summary
