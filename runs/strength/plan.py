"""Issue 63's measurements, variant by variant, each step resumable across sessions:

1. node rungs (``runs/ladders/<variant>-nodes``): node budgets a factor of 4 apart, from
   about depth 1's nodes to beyond depth 6's, 128 games a rung, saved into a candidate
   ladder, ``runs/strength/ladder.json`` (a copy of the shipped one at first);
2. held-out rungs between them (``runs/ladders/<variant>-nodes-holdout``), 256 games
   each, not saved, and the check of the candidate's fit against them (its
   ``check.json``): a rung of 128 games measures its own rating only to about +-61, so
   a fit can miss it by more than 50 Elo by the rung's noise alone (crazyhouse's hinge
   missed one by 69); at 256 games, +-43. Decided before crazyhouse's were carried on
   from 128 to 256 (2026-12-04), and the rule stays: each held-out rung within 50 Elo;
3. ship: the variant's entries copied from the candidate into the shipped ladder
   (search/data/ladder.json), where the fit serves UCI_Elo alone, only when the fit is
   within 50 Elo of every held-out rung;
4. the check that matters: ``tdleaf uci`` at UCI_Elo E against the ladder's engine at
   UCI_Elo E, both at 0.1 s a move, 100 games from openings of 8 random plies with both
   colours, at three settings across the variant's shipped range (``runs/strength/check/``).

    python runs/strength/plan.py [--only VARIANT ...] [--workers 2]
                                 [--steps more holdout ship-or-deeper check ...]

``--steps more`` carries a variant's node rungs on to 128 games each (a variant not begun
goes straight there: 32-game rungs chase their noise) and checks the new fit against the
held-out rungs again, if they are measured yet. The default steps are ``same-machine more
holdout ship-or-deeper check`` (``same-machine``: below): each resumes where it stopped,
and ship refuses a fit that fails.

``--steps deeper`` carries the node rungs on to 256 games each (their intervals about
+-43, as the held-out rungs'), then checks the new curve against the same held-out
rungs, by the same rule (each within 50 Elo, or not shipped). Decided 2026-12-04, before
any rung was carried past 128: for king of the hill, whose curve through 128-game rungs
missed its held-out rungs by +74 and +51, and for the lean of the checks above the
request (about +20 Elo over 26 measurements): a curve through rungs of half the variance.
Racing kings' 128-game curve missed its 4,096-node held-out rung by -75 (2026-12-05);
decided then, before any of its rungs was carried on, for it and every variant after it:
the default steps end in ``ship-or-deeper``, which ships a curve through 128-game rungs
that passes, and otherwise carries the rungs on to 256 games (``deeper``) and ships only
a curve that passes then.

Horde's curve through 256-game rungs still missed its 256-node held-out rung, by -77
(2026-12-05): its low end is flat (32, 128 and 256 nodes rate 1400 to 1445, each +-43),
so a curve through 32 and 128 nodes alone cannot meet it. Decided then, before any
further game, for it and every variant after it: ``--steps again`` saves the held-out
rungs into the candidate ladder, where they join the curve, and measures two new
held-out rungs, of 64 and 1,024 nodes, 256 games each (``runs/ladders/<variant>-nodes-
holdout2``), which the new curve must meet by the same rule (each within 50 Elo);
``ship-or-deeper`` ends with it where the curve through 256-game rungs misses. A curve
that misses the new held-out rungs too is not shipped (no third try): the variant keeps
its depth rungs.

Antichess's curve missed its new held-out rungs too (-69 and -80, 2026-12-05): not
shipped. Its node rungs' first 64 batches were played on one machine, their last 64 and
all its held-out rungs on the next session's, a new one, where Fairy-Stockfish at 0.1 s
a move searched 2.0 to 3.3 plies deeper in the same positions
(runs/strength/opponent-depth.md): the scale moved under the rungs. Decided then, before
any further game, for atomic and for antichess measured again: a variant's node rungs,
held-out rungs and checks are played on one machine. The default steps begin with
``same-machine``: the opponent asked again where it moved in the last four batches of
the variant's 32-node rung (``opponent_replay.py``); where its depth differs by more
than half a ply from what they recorded, the plan stops, and the variant is measured
again whole rather than carried on.

``--steps check-at-limit`` plays step 4 with the ladder's engine at the variant's node
limit (opponent-nodes.json) whatever the variant: for checks of a variant whose rungs
were played against the clock on another machine (racing kings' new settings once its
range ended at the bend, 2026-12-05), as runs/strength/check-nodes/ replayed them.

``--steps check-candidate`` plays step 4 with the candidate ladder instead (a data folder
of its own), before or without shipping it. ``--steps check-ladder-openings`` plays step
4 again from the openings of the variant's node rungs (the first 50 of the 64 every rung
shares, read from their PGN files) instead of its own, into
``runs/strength/check-ladder-openings/``: whether the checks and the rungs differ by
their openings.

From racing kings on, the node and held-out rungs play their games out
(``--resign-moves 0``), as the checks and a user's games do: the ladder's resign rule
(4 moves each, both agreeing on 10 pawns), replayed over the checks, would have turned
25 of crazyhouse's 300 games and 14 of giveaway's to tdleaf, none the other way
(runs/strength/resign-rule-check.txt): adjudicated rungs rate a search that scores
itself won but does not convert above what it plays. Decided 2026-12-04, before those
variants' rungs; the five variants measured before (:data:`ADJUDICATED`) keep their
adjudicated rungs.

The opponent at a node limit (:data:`NODE_LIMITED`). Fairy-Stockfish at a calibrated
node limit a move (``opponent_nodes.py``: where it searches as deep as at 0.1 s on the
machine that measured the variant's rungs; runs/strength/opponent-nodes.json) replays
the middle checks of seven shipped variants on a machine 2-3 times faster as they
scored on the first (runs/strength/check-nodes/), where 0.1 s a move there scored 56
Elo lower on average. Decided 2026-12-05, before any of their games: atomic, and
antichess measured again whole, play their node rungs, held-out rungs and checks
against the ladder's engine at the variant's node limit (``--engine-nodes``), tdleaf's
side as before (its node rungs; in the checks, UCI_Elo at 0.1 s a move). Their rungs
then mean the same on any machine and under any load, and may be carried on from
session to session (``same-machine`` has no clock to check there); antichess's go into
folders of their own (:func:`stem`), its rungs against the clock stay as the evidence
RESULTS cites.

The scale's top at the opponent's depth. Fairy-Stockfish picks its move when its search
reaches depth 1 + level (``Skill`` in its search.cpp), so every setting whose level lies
past the depth its search reaches picks from the same finished search; the scale bends
there, at ``scale.bend_elo(d)`` (level d - 1, d the opponent's mean depth at the
variant's limit: the depth its rungs recorded, opponent-nodes.md). Measured for atomic:
the wasm build at 17,000 nodes a move, UCI_Elo 2150 against 2600, both above its bend,
+7 [-35, +49] over 100 games (runs/strength/scale-atomic/). Decided 2026-12-05 20:28 UTC,
before the racing kings pairs below were scored, before atomic's 131,072-node rung was
carried to 256 games, its second held-out rungs and its checks: per variant whose
measured range passes its bend (atomic, racing kings), Fairy-Stockfish plays itself at
the variant's node limit, 100 games from the checks' openings, at two settings 450
nominal Elo apart both above the bend (``scale-<variant>/``); where the stronger one's
gain has a 95% interval whose upper end lies below 225 (half the nominal difference),
the scale is flat above the bend for that variant, and every rung rated above the bend
becomes a lower bound (``"bound": "lower"``: it never serves a request, and the offered
range ends at the dearest rung rated below the bend); ``ship`` marks them so, and the
``bend`` step marks a shipped variant's. A variant whose pair gains more keeps its
ratings. Added 2026-12-05 21:22 UTC, before antichess's pairs were played: antichess
too, whose node rungs on the first machine rose past its bend (2228) to 2414 at 32,768
nodes; its pairs at 29,000 nodes a move, 1750 against 2200 and 2250 against 2700.

Atomic's rungs close enough to pick from. No curve met atomic's held-out rungs, and its
depth rungs lie 165 and 262 Elo apart. Decided 2026-12-05 23:02 UTC, before any of the
games below: atomic's node rungs are served nearest-rung with no curve (the candidate's
source says ``"serve": "nearest"``: search.protocol.strength), its second held-out rungs (64 and
1,024 nodes) join them, and ``--steps fill`` adds rungs of 256 games against the same
opponent (the wasm build at 17,000 nodes a move), one at a time, each where the rungs
that serve (search.protocol.strength.levels, rated below the bend) lie furthest apart in rating
while that gap exceeds 50 Elo: at the geometric mean, rounded, of the dearer rung's
budget and the next smaller budget measured (serving or not: a rung rated below a
cheaper one serves no request, yet tells where the rise begins), into
``runs/ladders/atomic-nodes-fill``. It stops when no gap exceeds 50, when that budget is
measured already, or after :data:`FILL_MOST` rungs (a session's time; a fill stopped by
hand earlier says so). ``ship`` then ships the candidate with no held-out check (it has
no curve to check), its rungs above the bend marked, and ``check-at-limit`` plays the
three checks; the depth rungs' checks move to ``runs/strength/check-depth-rungs/``.

Atomic's fill carried on. The first nine rungs left five gaps over 50 Elo (85, 67, 105,
51, 81), the ninth's limit reached. Decided 2026-12-06 (UTC, committed before any of
the games below): ``fill`` goes on, resuming in the same folder, to :data:`FILL_MOST`
= 18 rungs in all, by the same rule; where a gap's rounded mean is one of its own two
budgets (no budget lies between them), that gap is passed over for the next widest
instead of ending the fill. The ladder now keeps its players from batch to batch (one
``MatchPool`` a ladder): the same openings, settings and seeds, the engine told
``ucinewgame`` and its new options between games instead of started again. Then
``ship``; a check whose setting the new ladder plays at another rung is played again,
its earlier folder moved to ``runs/strength/check-fill9/`` first (``played_at`` refuses
it otherwise); a check still played at its rung stands.

Giveaway measured again whole. Its node rungs were measured with the ladder's resign
rule, which rates a rung above what it plays (the rule's paragraph above), and its
checks all fell below the request; its low check, played again against the opponent at
its node limit, scored -108 [-183, -41] (runs/strength/check-nodes/giveaway-1650).
Decided 2026-12-06 (UTC, committed before any of its games): giveaway is measured again
whole as antichess was, played out, against Fairy-Stockfish at its node limit (22,000
nodes a move, opponent-nodes.json), into ``runs/ladders/giveaway-nodes-vs-nodes*`` (its
adjudicated rungs stay as the evidence RESULTS cites), by the default steps: ``more``
(128 games a rung), ``holdout`` (256 and 4,096 nodes, 256 games each), and
``ship-or-deeper``, which ships a curve only by the same held-out rule; then
``check-at-limit``, its adjudicated checks moved to
``runs/strength/check-adjudicated/`` first. Suicide plays giveaway's ladder, as before.

The checks played again. Every check above was played once, from the openings of
``--seed 63``, and some steered what was measured next (giveaway measured again whole,
racing kings' range ended at its bend), so none is a test the ladder has not seen.
Decided 2026-12-06 (UTC, committed before any of their games), with nothing shipped or
changed by them: ``--steps check-again`` plays each of the 27 checks again as an
out-of-sample test of the shipped ladder, tdleaf as before (UCI_Elo E at 0.1 s a move),
Fairy-Stockfish at UCI_Elo E and its variant's node limit (opponent-nodes.json: the
scale no machine moves, what the rungs played), 100 games from new openings
(:data:`AGAIN_SEED`), into ``runs/strength/check-again/``. ``report.py`` gives the new
checks alone (the issue's check, on a fresh sample) and each pooled with the check of
the same setting played before against the opponent at its node limit, game pairs
added (200 games: ``runs/strength/check-nodes/`` or, for the variants whose checks
were played so, ``check/``; racing kings at 1950 was played at 0.1 s a move only, and
stays a fresh 100); a pooled setting whose 95% interval excludes 0 is named a real
miss, for the next change of the ladder. In the order of :data:`VARIANTS`; checks
unplayed when a session ends are said so.

The real misses measured again whole. Played again (2026-12-06 04:14-05:08 UTC), 21 of
the 27 checks met the target, 16.3 expected of the 24 a curve chose; pooled, 22 of 27
(20.4 expected of 24), and five settings are real misses: crazyhouse 1750 (-92), racing
kings 2050 (-69), antichess 1600 (+60), three-check 1850 (+47) and horde 1500 (-42).
Four of those variants' rungs were played against the clock on the first machine
(crazyhouse's and three-check's adjudicated too), as giveaway's were before it was
measured again and met its checks. Decided then (UTC, committed before any of their
games): crazyhouse, racing kings, three-check and horde, in the order of their misses,
are measured again whole as giveaway was: played out, against Fairy-Stockfish at the
variant's node limit (opponent-nodes.json), into ``runs/ladders/<variant>-nodes-vs-nodes*``
(:data:`NODE_LIMITED`; their rungs against the clock stay as the evidence RESULTS cites),
by ``more holdout ship-or-deeper``, which ships a curve only by the held-out rule; then
``check-at-limit``, their checks against the clock moved to ``runs/strength/check-clock/``
first, and ``check-again``, their checks played again moved to
``runs/strength/check-again-clock/`` first. Resumable across sessions and machines (node
limits on both sides: no clock to move them); a variant not finished is said so.
Antichess, measured so already, keeps its ladder: its miss stands. Crazyhouse's new
curve missed its held-out rungs (4,096 nodes, then 64 nodes by +60: 06:08 UTC) and was
not shipped, so its checks stand. Racing kings' rungs and held-out rungs were played
06:08-06:36 UTC; its curve misses the 4,096-node one by -181, climbing toward its
8,192-node rung, which rates 2478, above its bend (2149): ``ship-or-deeper`` is next.

Racing kings' curve and its bend. Its scale was measured flat above the bend
(scale-racingkings/2200-2650: -31 [-87, +23]), so ``ship`` marks its rungs above the
bend (8,192 and 32,768 nodes) as lower bounds, and the curve that serves leaves them out
(search.protocol.strength.node_fit reads ratings, not bounds); the held-out check tested a curve
through them, which no user would ever be served. Decided 2026-12-06 07:01 UTC, before
any further game, for every variant whose scale is flat above its bend: the held-out
check marks the candidate's rungs above the bend first, as ``ship`` would
(:func:`mark_candidate`), and tests the curve that serves. Decided knowing racing kings'
held-out rungs (through the rungs below the bend its 128-game curve is 1880 at 256
nodes, -32, and ends at 2,048 nodes' 2054, +31 from 4,096 nodes' 2085): a check chosen
after its data are seen proves nothing, so it ships nothing. Racing kings goes straight
to ``again`` (``--steps again ship``): its held-out rungs join the curve, and the curve
through its 128-game rungs and them must meet two new held-out rungs, 64 and 1,024
nodes, 256 games each, by the same rule, or it is not shipped (no third try, its
shipped curve stays). Then, if shipped, its checks are moved and played again as the
paragraph above says. Its curve missed the new 64-node rung by -51 (07:05 UTC): not
shipped, so its checks stand. Three-check's curve met its held-out rungs at once (-3
and +47: 07:28 UTC) and shipped; its checks were moved and played again. Horde's
missed its 256-node held-out rung (+71, then +50.5 at 256 games a rung), met the new
ones (+3 and +18: 09:09 UTC) and shipped; its checks were moved and played again.

Every other step is timed against Fairy-Stockfish at 0.1 s a move: run it on a quiet
machine. Crazyhouse's first six rungs and its held-out rungs were played before this
plan (RESULTS.md, "Strength on request"); the plan adds its dearest rung.
"""

import argparse
import gzip
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import chess.pgn
from opponent_depth import last_batch  # beside this file
from opponent_replay import replay, shift

from search.protocol import strength
from tdleaf.play.engines import resolve_command
from tdleaf.play.ladder import remeasure_plan, rung_batches
from tdleaf.play.ladder.shipped import compact, mark_bend
from tdleaf.play.openings import random_opening
from variants import board_class

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

TDLEAF = [sys.executable, "-m", "tdleaf"]
SHIPPED = "search/data/ladder.json"
LADDER = "runs/strength/ladder.json"        # the candidate
#: Crazyhouse's depths 1-6 take about 26 to 22,000 nodes; the other variants' are alike.
NODES = [32, 128, 512, 2048, 8192, 32768, 131072]
HELD_OUT = [256, 4096]
#: The second held-out rungs (``again``), once the first have joined the curve.
HELD_OUT_AGAIN = [64, 1024]
#: How far (plies) the opponent's mean depth, asked again here, may lie from what the
#: rungs recorded before the machine counts as another one (``same-machine``).
SAME_DEPTH = 0.5
#: The batches asked again: the last ones of the variant's 32-node rung.
REPLAYED_BATCHES = 4
#: The variants whose rungs and checks play the ladder's engine at a node limit (the
#: docstring), and where their games go.
NODE_LIMITED = {"atomic": "atomic-nodes", "antichess": "antichess-nodes-vs-nodes",
                "giveaway": "giveaway-nodes-vs-nodes",
                "crazyhouse": "crazyhouse-nodes-vs-nodes",
                "racingkings": "racingkings-nodes-vs-nodes",
                "3check": "3check-nodes-vs-nodes", "horde": "horde-nodes-vs-nodes"}
#: The openings of the checks (``--seed``), and of the checks played again (``check-again``).
CHECK_SEED = 63
AGAIN_SEED = 64
#: The most rungs ``fill`` adds in one go, and the widest gap it leaves (the issue's).
FILL_MOST = 18
GAP = 50
#: What the stronger of two settings above the bend must gain, at most (the upper end of
#: its 95% interval), for the scale to count as flat there: half their nominal difference.
FLAT_GAIN = 225
#: The variants whose node rungs were measured with the ladder's resign rule (giveaway's,
#: crazyhouse's and three-check's first ones too: measured again played out, in
#: :data:`NODE_LIMITED`'s folders).
ADJUDICATED = ("chess", "kingofthehill")
VARIANTS = ["crazyhouse", "chess", "3check", "kingofthehill", "giveaway", "atomic",
            "racingkings", "horde", "antichess"]


def stem(variant: str) -> str:
    """The name of the variant's node-rung folder in runs/ladders (its held-out rungs'
    add ``-holdout``, ``-holdout2``)."""
    return NODE_LIMITED.get(variant, f"{variant}-nodes")


def node_limit(variant: str) -> int:
    """The variant's node limit a move for the ladder's engine (opponent-nodes.json)."""
    return int(json.loads((HERE / "opponent-nodes.json").read_text())[variant])


def bend_of(variant: str) -> dict[str, float]:
    """The variant's bend and the opponent's depth it follows from (bends.json)."""
    return dict(json.loads((HERE / "bends.json").read_text())[variant])


def opponent_nodes(variant: str) -> int | None:
    """The ladder's engine's node limit a move for the variant (None: 0.1 s a move)."""
    return node_limit(variant) if variant in NODE_LIMITED else None


def opponent_limit(variant: str) -> list[str]:
    """The ladder's options that give its engine the variant's node limit, if any."""
    nodes = opponent_nodes(variant)
    return ["--engine-nodes", str(nodes)] if nodes else []


def run(args: list[str], folder: Path, what: str, data: str | None = None) -> None:
    """``tdleaf ARGS``, its command in ``folder``/command.sh (a command that differs from
    those written there already is added after them: the file tells the folder's
    history); ``data``: the per-user data folder it reads (TDLEAF_DATA), e.g. one holding
    the candidate ladder."""
    folder.mkdir(parents=True, exist_ok=True)
    quoted = " ".join(shlex.quote(a) for a in args)
    env_text = f"TDLEAF_DATA={data} " if data else ""
    line = f"{env_text}tdleaf {quoted}\n"
    script = folder / "command.sh"
    if not script.exists():
        script.write_text(f"# Issue 63: {what}. The same command carries on.\n{line}")
    elif line not in script.read_text():
        with open(script, "a") as out:
            out.write(f"# Then: {what}.\n{line}")
    env = {**os.environ, "TDLEAF_DATA": str(ROOT / data)} if data else None
    subprocess.run([*TDLEAF, *args], check=True, cwd=ROOT, env=env)


def played_out(variant: str) -> list[str]:
    """The ladder's options that play a variant's games out (none where its rungs were
    measured adjudicated)."""
    return [] if variant in ADJUDICATED else ["--resign-moves", "0"]


def rungs(variant: str, workers: int, games: int = 32) -> None:
    if not (ROOT / LADDER).exists():
        shutil.copyfile(ROOT / SHIPPED, ROOT / LADDER)
    run(["ladder", "--remeasure", "--variant", variant, "--depths", "", "--movetimes", "",
         "--nodes", ",".join(map(str, NODES)), "--games", str(games), "--workers", str(workers),
         *played_out(variant), *opponent_limit(variant), "--out", f"runs/ladders/{stem(variant)}",
         "--save", LADDER,
         "--note", f"{variant}'s node rungs (issue 63), two games at a time", "--no-progress"],
        ROOT / f"runs/ladders/{stem(variant)}",
        f"{variant}'s node rungs, {games} games each, saved into the candidate ladder")


def carried_on(variant: str, workers: int, games: int) -> None:
    """The node rungs carried on to ``games`` each (never back: rungs carried further
    before stay so), then the held-out check again with the new fit, once the held-out
    rungs are measured."""
    rungs(variant, workers, games=max(games, most_games(variant)))
    held = held_out(variant)
    if (held / "ladder.json").exists():
        check_fit(variant, held)


def most_games(variant: str) -> int:
    """The most games of any of the variant's node rungs measured so far (their folder's
    ladder.json, written after each rung; 0: none yet): a remeasure with fewer reads
    only that many of a rung's batches."""
    measured = ROOT / f"runs/ladders/{stem(variant)}/ladder.json"
    if not measured.exists():
        return 0
    return max((r["games"] for lad in json.loads(measured.read_text())["ladders"]
                for r in lad["rungs"]), default=0)


def more(variant: str, workers: int) -> None:
    """To 128 games a rung (a fit through 32-game rungs chases their noise:
    crazyhouse's)."""
    carried_on(variant, workers, 128)


def deeper(variant: str, workers: int) -> None:
    """To 256 games a rung (the docstring's ``deeper``)."""
    carried_on(variant, workers, 256)


def held_out(variant: str) -> Path:
    """The folder of the variant's held-out rungs that test its curve: the second
    (``again``) once measured, else the first."""
    second = ROOT / f"runs/ladders/{stem(variant)}-holdout2"
    return second if (second / "ladder.json").exists() else \
        ROOT / f"runs/ladders/{stem(variant)}-holdout"


def measure_held_out(variant: str, workers: int, nodes: list[int], name: str,
                     save: str | None, games: int = 256, why: str | None = None) -> Path:
    """Held-out node rungs into ``runs/ladders/<stem>-<name>`` (:func:`stem`); ``save``: the
    ladder they join (the candidate), or None (not saved); ``why``: what saved rungs they
    are (by default the first held-out rungs, joining the curve)."""
    out = f"runs/ladders/{stem(variant)}-{name}"
    if save:
        why = why or "first held-out rungs, joined to the curve"
        what = f"{variant}'s {why}, {games} games each, saved into {save}"
        note = ["--note", f"{variant}'s {why} (issue 63)"]
    else:
        what, note = f"{variant}'s held-out node rungs, {games} games each, not saved", []
    run(["ladder", "--remeasure", "--variant", variant, "--depths", "", "--movetimes", "",
         "--nodes", ",".join(map(str, nodes)), "--games", str(games),
         "--workers", str(workers), *played_out(variant), *opponent_limit(variant), "--out", out,
         "--save", save or f"scratch/{name}-{variant}.json", *note, "--no-progress"],
        ROOT / out, what)
    return ROOT / out


def holdout(variant: str, workers: int) -> None:
    check_fit(variant, measure_held_out(variant, workers, HELD_OUT, "holdout", None))


def again(variant: str, workers: int) -> None:
    """The first held-out rungs saved into the candidate (their games are played: the
    same rungs, saved), and the new curve checked against two new ones (the
    docstring's ``again``)."""
    measure_held_out(variant, workers, HELD_OUT, "holdout", LADDER)
    check_fit(variant, measure_held_out(variant, workers, HELD_OUT_AGAIN, "holdout2", None))


def mark_candidate(variant: str) -> None:
    """The candidate's rungs rated above the variant's bend marked as lower bounds, as
    ``ship`` marks them, where its scale is flat there (the docstring's rule for the
    held-out check: the curve tested is the curve that serves)."""
    for line in mark_above_bend(variant, LADDER) or []:
        print(f"{line} (the candidate)", file=sys.stderr, flush=True)


def check_fit(variant: str, folder: Path) -> None:
    """The shipped curve (search.protocol.strength.node_fit) against the held-out rungs (the
    hinge served before it was checked so too: check-hinge.json, RESULTS.md), its rungs
    above a flat bend marked first (:func:`mark_candidate`)."""
    mark_candidate(variant)
    fit = strength.node_fit(variant, ROOT / LADDER)
    assert fit is not None, f"{variant}: no node fit in {LADDER}"
    held = json.loads((folder / "ladder.json").read_text())
    out = []
    for r in (r for lad in held["ladders"] for r in lad["rungs"] if "nodes" in r["level"]):
        line = fit.elo(r["level"]["nodes"])
        lo, hi = r["elo_ci"]
        diff = r["elo"] - line
        out.append({"nodes": r["level"]["nodes"], "measured": r["elo"], "ci": [lo, hi],
                    "games": r["games"], "fit": round(line, 1), "difference": round(diff, 1),
                    "fit_in_ci": lo <= line <= hi, "within_50": abs(diff) <= 50})
        print(f"{variant}: held-out {r['level']['nodes']} nodes {r['elo']:.0f} "
              f"[{lo:.0f}, {hi:.0f}], the curve {line:.0f}: {diff:+.0f}", file=sys.stderr)
    (folder / "check.json").write_text(json.dumps(
        {"ladder": LADDER, "curve": {"nodes": list(fit.budgets),
                                     "ratings": [round(r, 1) for r in fit.ratings]},
         "rungs": fit.rungs, "residual_sd": round(fit.residual_sd, 1), "held_out": out},
        indent=1) + "\n")


def missed(variant: str) -> str | None:
    """Why the variant's curve may not ship (it misses a held-out rung), or None; a
    candidate served nearest-rung has no curve to miss (the docstring's ``fill``)."""
    if strength.serves_nearest(variant, ROOT / LADDER):
        return None
    checked = held_out(variant) / "check.json"
    if all(h["within_50"] for h in json.loads(checked.read_text())["held_out"]):
        return None
    return (f"{variant}: the curve misses a held-out rung by more than 50 Elo "
            f"({checked.relative_to(ROOT)})")


def gaps(variant: str) -> list[tuple[float, int, int]]:
    """The gaps in rating between the candidate's rungs that serve, rated below the
    bend, widest first: (its Elo, the dearer rung's budget, the next smaller budget
    measured)."""
    top = bend_of(variant)["bend"]
    serving = [e for e in strength.levels(variant, ROOT / LADDER, kinds=("nodes",))
               if e["elo"] < top]
    measured = [e["level"]["nodes"] for e in
                strength.load_ladder(ROOT / LADDER)["variants"][variant] if "nodes" in e["level"]]
    return sorted(((b["elo"] - a["elo"], b["level"]["nodes"],
                    max(n for n in measured if n < b["level"]["nodes"]))
                   for a, b in pairwise(serving)), reverse=True)


def widest_gap(variant: str) -> tuple[float, int, int] | None:
    """The widest of :func:`gaps`, or None with fewer than two rungs that serve."""
    return next(iter(gaps(variant)), None)


def fill(variant: str, workers: int) -> None:
    """Rungs of 256 games where the served rungs lie more than :data:`GAP` apart, the
    widest gap first, until none does or :data:`FILL_MOST` are added (the docstring's
    ``fill``, carried on); resumes from the rungs in its folder."""
    candidate = json.loads((ROOT / LADDER).read_text())
    if candidate["sources"][variant].get("serve") != "nearest":
        candidate["sources"][variant]["serve"] = "nearest"
        (ROOT / LADDER).write_text(compact(candidate))
    measure_held_out(variant, workers, HELD_OUT_AGAIN, "holdout2", LADDER,   # played: saved
                     why="second held-out rungs, joined to the rungs served nearest")
    out = ROOT / f"runs/ladders/{stem(variant)}-fill"
    added: list[int] = []
    if (out / "ladder.json").exists():
        added = [r["level"]["nodes"] for lad in json.loads((out / "ladder.json").read_text())
                 ["ladders"] for r in lad["rungs"]]
    while len(added) < FILL_MOST:
        # Widest first; a gap with no budget between its two is passed over.
        found = next(((gap, dearer, nodes) for gap, dearer, cheaper in gaps(variant)
                      if gap > GAP and (nodes := round(math.sqrt(dearer * cheaper)))
                      not in (dearer, cheaper, *added)), None)
        if found is None:
            break
        gap, dearer, nodes = found
        print(f"{variant}: a gap of {gap:.0f} Elo below nodes {dearer}: a rung of {nodes} "
              f"nodes", file=sys.stderr, flush=True)
        added.append(nodes)
        measure_held_out(variant, workers, sorted(added), "fill", LADDER,
                         why=f"rungs where the served ones lie more than {GAP} Elo apart")
    widest = widest_gap(variant)
    print(f"{variant}: {len(added)} rungs added ({sorted(added)}); the widest gap now "
          f"{widest[0] if widest else 0:.0f} Elo", file=sys.stderr, flush=True)


def ship(variant: str, workers: int) -> None:
    """The variant's levels and sources from the candidate into the shipped ladder, when
    its held-out check passed; its rungs above the bend marked (:func:`bend`)."""
    if why := missed(variant):
        raise SystemExit(f"{why}; not shipped")
    candidate = json.loads((ROOT / LADDER).read_text())
    shipped = json.loads((ROOT / SHIPPED).read_text())
    for key in ("variants", "sources"):
        shipped[key][variant] = candidate[key][variant]
    (ROOT / SHIPPED).write_text(compact(shipped))
    bend(variant, workers)


def flat_above_bend(variant: str) -> Path | None:
    """The folder of the variant's pair of settings above the bend (``scale-<variant>/``,
    the docstring's rule) where the stronger gained less than :data:`FLAT_GAIN` (the upper
    end of its 95% interval, game pairs), else None (no such pair, or it gained more)."""
    top = bend_of(variant)["bend"]
    for folder in sorted((HERE / f"scale-{variant}").glob("*-*")):
        weaker = int(folder.name.split("-")[0])
        summary = folder / "summary.json"
        if weaker > top and summary.exists():
            ci = json.loads(summary.read_text())["elo_pentanomial_ci"]   # the weaker's
            return folder if -ci[0] < FLAT_GAIN else None
    return None


def mark_above_bend(variant: str, ladder: str) -> list[str] | None:
    """The variant's rungs in ``ladder`` rated above its bend marked as lower bounds,
    where its scale is flat there (:func:`flat_above_bend`; the docstring's rule): what
    changed, as :func:`mark_bend` gives it, or None where the scale is not flat."""
    folder = flat_above_bend(variant)
    if folder is None:
        return None
    content = json.loads((ROOT / ladder).read_text())
    changed = mark_bend(content, variant, bend_of(variant)["depth"],
                        str(folder.parent.relative_to(ROOT)) + "/")
    (ROOT / ladder).write_text(compact(content))
    return changed


def bend(variant: str, workers: int) -> None:
    """The shipped variant's rungs rated above its bend marked (:func:`mark_above_bend`)."""
    changed = mark_above_bend(variant, SHIPPED)
    if changed is None:
        print(f"{variant}: no pair above the bend measured flat: its ratings stay",
              file=sys.stderr, flush=True)
        return
    print("\n".join(changed) or f"{variant}: nothing above the bend", file=sys.stderr,
          flush=True)


def ship_or_deeper(variant: str, workers: int) -> None:
    """Ship; where the curve misses a held-out rung, carry the rungs on to 256 games
    first (``deeper``), where it misses then, test it ``again``, and ship only a curve
    that passes."""
    if why := missed(variant):
        print(f"{why}; carrying the rungs on to 256 games", file=sys.stderr, flush=True)
        deeper(variant, workers)
    if why := missed(variant):
        print(f"{why}; the held-out rungs join the curve, two new ones test it",
              file=sys.stderr, flush=True)
        again(variant, workers)
    ship(variant, workers)


def settings(variant: str, ladder: str = SHIPPED) -> list[int]:
    """Three UCI_Elo settings across the variant's range in ``ladder`` (Fairy-Stockfish's
    UCI_Elo starts at 1350), rounded to 50."""
    lo, hi = strength.elo_range(variant, ROOT / ladder)
    lo = max(lo, 1350)
    return sorted({50 * round((lo + (hi - lo) * f) / 50) for f in (0.15, 0.5, 0.85)})


def ladder_openings(variant: str, out: Path, pairs: int = 50) -> None:
    """The openings of the first ``pairs`` batches of the variant's node rungs (every rung
    plays the same ones), as a PGN file for ``tdleaf match --openings``: each batch's
    ``Opening`` tag names its seed, and the same seed gives the same moves."""
    rung = node_rung(variant, 32)
    batches = rung_batches(rung)[:pairs]
    assert len(batches) == pairs, f"{rung}: {len(batches)} batches, not {pairs}"
    games = []
    for entry, text in batches:
        b = entry["batch"]
        tag = re.search(r'\[Opening "random (\d+) plies, seed (\d+)"\]', text)
        assert tag, f"{rung}, batch {b}: no random opening"
        opening = random_opening(variant, int(tag.group(1)), int(tag.group(2)))
        board = board_class(variant)(opening.fen)
        for move in opening.moves:
            board.push_uci(move)
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"{variant}-nodes batch {b}: {opening.name}"
        games.append(str(game))
    out.write_text("\n\n".join(games) + "\n")


def ladder_engine(variant: str) -> str:
    """The engine of the variant's ladder: ``fairy-stockfish``, atomic's the wasm build."""
    return next(e for v, e in remeasure_plan([variant]) if v == variant)


def node_rung(variant: str, nodes: int) -> Path:
    """The folder of one of the variant's node rungs, its batches' PGN files."""
    return (ROOT / f"runs/ladders/{stem(variant)}/{variant}-{ladder_engine(variant)}"
            / f"nodes-{nodes}")


def check_nodes(variant: str, at_limit: bool = False) -> int | None:
    """The ladder's engine's node limit a move in a check: the variant's where it plays
    one (:func:`opponent_nodes`) or, ``at_limit``, whatever the variant; None: 0.1 s."""
    return node_limit(variant) if at_limit else opponent_nodes(variant)


def check_limits(variant: str, at_limit: bool = False) -> list[str]:
    """The move limits of a check: 0.1 s a move for both, or for tdleaf alone where the
    ladder's engine plays a node limit (:func:`check_nodes`)."""
    nodes = check_nodes(variant, at_limit)
    return ["-o", "A.movetime=0.1", "-o", f"B.nodes={nodes}"] if nodes else ["--movetime", "0.1"]


def check(variant: str, workers: int, candidate: bool = False,
          openings_of_rungs: bool = False, at_limit: bool = False, again: bool = False) -> None:
    """The matches at the same UCI_Elo; ``candidate``: with the candidate ladder (in a
    data folder of its own, scratch/candidate-data), into runs/strength/check-candidate;
    ``openings_of_rungs``: from the node rungs' openings, into
    runs/strength/check-ladder-openings; ``at_limit``: the opponent at the variant's node
    limit (``check-at-limit``, the docstring); ``again``: from new openings, into
    runs/strength/check-again (``check-again``, the docstring)."""
    engine = ladder_engine(variant)
    spec = "uci:" + engine
    data = None
    if candidate:
        data = "scratch/candidate-data"
        (ROOT / data).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / LADDER, ROOT / data / "ladder.json")
    kind = "check-candidate" if candidate else (
        "check-ladder-openings" if openings_of_rungs else "check-again" if again else "check")
    ladder = LADDER if candidate else SHIPPED
    for elo in settings(variant, ladder):
        folder = HERE / kind / f"{variant}-{elo}"
        played_at(folder, variant, elo, ladder)
        summary = folder / "summary.json"
        if summary.exists() and json.loads(summary.read_text())["games"] >= 100:
            print(f"{variant}: UCI_Elo {elo} checked ({summary.relative_to(ROOT)})",
                  file=sys.stderr, flush=True)
            continue        # played, perhaps under other limits: its command.sh says which
        pgn, packed = folder / "games.pgn", folder / "games.pgn.gz"
        if packed.exists() and not pgn.exists():
            with gzip.open(packed, "rb") as src, open(pgn, "wb") as dst:
                shutil.copyfileobj(src, dst)
        if openings_of_rungs:
            folder.mkdir(parents=True, exist_ok=True)
            ladder_openings(variant, folder / "openings.pgn")
            start = ["--openings", str((folder / "openings.pgn").relative_to(ROOT))]
        else:
            start = ["--random-plies", "8", "--seed", str(AGAIN_SEED if again else CHECK_SEED)]
        nodes = check_nodes(variant, at_limit)
        args = ["match", "uci:tdleaf uci", spec, "--variant", variant, "--games", "100",
                *check_limits(variant, at_limit), *start,
                "-o", "A.UCI_LimitStrength=true", "-o", f"A.UCI_Elo={elo}",
                "-o", "B.UCI_LimitStrength=true", "-o", f"B.UCI_Elo={elo}",
                "--workers", str(workers), "--pgn", str(pgn.relative_to(ROOT)),
                "--json", str((folder / "summary.json").relative_to(ROOT)), "--no-progress"]
        try:
            run([*args, *(["--resume"] if pgn.exists() else [])], folder,
                f"{variant}, tdleaf at UCI_Elo {elo} against {engine} at UCI_Elo {elo}, "
                + (f"tdleaf 0.1 s a move, {engine} {nodes} nodes a move" if nodes
                   else "0.1 s a move")
                + ", 100 games (gunzip -k games.pgn.gz and add --resume)"
                + ("; new openings, the check played again" if again else "")
                + (f"; the candidate ladder ({LADDER}) copied into {data}" if data else "")
                + ("; the openings of the node rungs' first 50 batches (openings.pgn, "
                   "written by plan.py's ladder_openings)" if openings_of_rungs else ""),
                data)
        finally:
            if pgn.exists():
                with open(pgn, "rb") as src, gzip.open(packed, "wb") as dst:
                    shutil.copyfileobj(src, dst)


def played_at(folder: Path, variant: str, elo: int, ladder: str) -> None:
    """The limit ``ladder`` plays at ``elo``, recorded in ``folder``/limit.json (what
    report.py shows), or a refusal where a check there was played at another one (the
    ladder or its curve changed since: move the folder away to check again)."""
    limit = strength.limits_for_elo(variant, elo, ROOT / ladder)
    recorded = folder / "limit.json"
    if recorded.exists():
        before = json.loads(recorded.read_text())["limit"]
        if before != limit:
            raise SystemExit(f"{folder}: played at {before}, but {ladder} "
                             f"now plays {limit} at UCI_Elo {elo}: move the folder away to "
                             f"check again")
        return
    folder.mkdir(parents=True, exist_ok=True)
    recorded.write_text(json.dumps({"UCI_Elo": elo, "limit": limit, "ladder": ladder}) + "\n")


def check_at_limit(variant: str, workers: int) -> None:
    check(variant, workers, at_limit=True)


def check_again(variant: str, workers: int) -> None:
    check(variant, workers, at_limit=True, again=True)


def check_candidate(variant: str, workers: int) -> None:
    check(variant, workers, candidate=True)


def check_ladder_openings(variant: str, workers: int) -> None:
    check(variant, workers, openings_of_rungs=True)


def same_machine(variant: str, workers: int) -> None:
    """Refuse to carry a variant's rungs on where the opponent, asked again in the
    positions of the last batches of its 32-node rung, searches more than
    :data:`SAME_DEPTH` plies deeper or shallower than it did (the docstring's rule):
    those rungs were played on another machine, or under another load."""
    if opponent_nodes(variant):
        print(f"{variant}: its opponent plays at a node limit: no clock to check",
              file=sys.stderr, flush=True)
        return
    rung = node_rung(variant, 32)
    last = last_batch(rung)
    if not last:
        return
    first = max(1, last - REPLAYED_BATCHES + 1)
    pairs = replay(rung, first, last, resolve_command([ladder_engine(variant)]))
    moved = shift(pairs)[0] if pairs else 0.0
    print(f"{variant}: the opponent asked again in batches {first}-{last} of "
          f"{rung.relative_to(ROOT)}: {moved:+.2f} plies ({len(pairs)} moves)",
          file=sys.stderr, flush=True)
    if abs(moved) > SAME_DEPTH:
        raise SystemExit(f"{variant}: the opponent searches {moved:+.2f} plies from what its "
                         f"rungs recorded: another machine; measure the variant again whole "
                         f"(move runs/ladders/{stem(variant)}* away) rather than carry it on")


STEPS = {"same-machine": same_machine, "rungs": rungs, "holdout": holdout, "more": more,
         "deeper": deeper, "again": again, "fill": fill, "ship": ship,
         "ship-or-deeper": ship_or_deeper, "bend": bend,
         "check": check, "check-at-limit": check_at_limit, "check-again": check_again,
         "check-candidate": check_candidate,
         "check-ladder-openings": check_ladder_openings}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--only", nargs="*", default=VARIANTS)
    p.add_argument("--steps", nargs="*", choices=list(STEPS),
                   default=["same-machine", "more", "holdout", "ship-or-deeper", "check"])
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    for variant in args.only:
        for step in args.steps:
            print(f"{variant}: {step}", file=sys.stderr, flush=True)
            STEPS[step](variant, args.workers)


if __name__ == "__main__":
    main()
