"""The strength ladder: tdleaf at fixed depths, node counts and move times ("rungs")
measured against a real engine, one ladder per (variant, engine).

Against an engine with a strength knob (Fairy-Stockfish's ``UCI_LimitStrength`` and
``UCI_Elo``), each rung is put on the engine's own scale: the rung plays pairs of games
(one opening, both colours) against settings chosen adaptively near its strength, and
its rating R is the maximum-likelihood fit of ``P(score) = 1 / (1 + 10^((E - R) / 400))``
over all its games, E being each game's ``UCI_Elo`` (:func:`stats.fit_rating`, with a
profile-likelihood interval). Debian's Fairy-Stockfish 11.1 goes no lower than
``UCI_Elo`` 1350; below it the ladder uses ``Skill Level`` -1 to -20, which have no Elo
in that build, at the Elo that later Fairy-Stockfish (May 2021 on, the wasm build
among them) gives them when it maps ``UCI_Elo`` 500-1346 onto negative skill levels
(:func:`skill_level_elo`): an extrapolation of the engine's author, not a measurement,
and the tables mark it.

Against an engine without one (Sjeng), every game is played at one stated limit and a
rung's figure is its Elo difference to that engine, with the same fit (all opponents
at 0), so a rung that lost or won every game gets an honest one-sided interval.

Every series of games (a batch) is a :func:`match.run_match`. A rung's folder,
``<variant>-<engine>/<rung>/`` in the ladder folder, holds two files:

* ``batches.json``: one entry a batch, ``{"batch": k, "pgn": "games.pgn.gz",
  "member": k, "setting", "elo", "options"}``, the opponent setting chosen, recorded
  before the batch is played;
* ``games.pgn.gz``: the rung's games, one gzip member a batch in batch order (member k,
  from 1, holds batch k's games), which ``zcat`` reads as one PGN
  (:func:`~tdleaf.play.gamefiles.read_members` gives the members apart).

A batch is played into a plain working file, ``b001.pgn`` for batch 1, which
:func:`match.run_match` resumes game by game; once the batch is complete its text is
appended to ``games.pgn.gz`` as one member and the working file deleted. So a killed
ladder carries on with ``resume``: the complete members are the batches done (a torn
last member is cut off), a working file of a batch already packed (killed between the
two steps) is deleted, and a partial one is carried on. A rung measured before the games
were packed (``"file": "b001.pgn"`` entries, one PGN a batch) is refused: ``python
runs/ladders/repack.py FOLDER`` packs it.

The package, one concern a module:

* :mod:`.config`: rungs and :class:`LadderConfig`, the settings and their defaults;
* :mod:`.registry`: the reference engines and which ladders a command measures;
* :mod:`.scale`: Fairy-Stockfish's UCI_Elo scale, and which rungs are bounds;
* :mod:`.measure`: playing the rungs (resumable), and the results' JSON;
* :mod:`.report`: ``ladder.md``'s tables;
* :mod:`.shipped`: saving the UCI_Elo ladders into ``ladder.json`` for ``UCI_Elo``.
"""

from __future__ import annotations

from .config import (
    DEFAULT_DEPTHS,
    DEFAULT_MOVETIMES,
    DEFAULT_NODES,
    LadderConfig,
    LadderError,
    Rung,
    command_line,
    default,
    engine_limit_text,
    make_rungs,
)
from .measure import (
    RUNG_GAMES,
    Ladder,
    Played,
    Progress,
    RungResult,
    choose_setting,
    measure_ladder,
    player_evaluation,
    probe_engine,
    results_json,
    run_ladders,
    rung_batches,
    write_results,
)
from .registry import (
    DEFAULT_PLAN,
    ELO_SCALE_ENGINES,
    ENGINE_ALIASES,
    KNOWN_ENGINES,
    LADDER_VARIANTS,
    KnownEngine,
    check_saveable,
    engines_for,
    plan_ladders,
    remeasure_plan,
    resolve_engine,
)
from .report import markdown, write_ladder_files
from .scale import (
    BOUND_SHARE,
    Scale,
    Setting,
    bend_elo,
    build_scale,
    rung_bound,
    skill_level_elo,
    uci_elo_level,
)
from .shipped import (
    evaluation_key,
    mark_bend,
    mark_bounds,
    rewrite_bounds,
    save_ladder,
    scale_range,
)

__all__ = [
    "BOUND_SHARE",
    "DEFAULT_DEPTHS",
    "DEFAULT_MOVETIMES",
    "DEFAULT_NODES",
    "DEFAULT_PLAN",
    "ELO_SCALE_ENGINES",
    "ENGINE_ALIASES",
    "KNOWN_ENGINES",
    "LADDER_VARIANTS",
    "RUNG_GAMES",
    "KnownEngine",
    "Ladder",
    "LadderConfig",
    "LadderError",
    "Played",
    "Progress",
    "Rung",
    "RungResult",
    "Scale",
    "Setting",
    "bend_elo",
    "build_scale",
    "check_saveable",
    "choose_setting",
    "command_line",
    "default",
    "engine_limit_text",
    "engines_for",
    "evaluation_key",
    "make_rungs",
    "mark_bend",
    "mark_bounds",
    "markdown",
    "measure_ladder",
    "plan_ladders",
    "player_evaluation",
    "probe_engine",
    "remeasure_plan",
    "resolve_engine",
    "results_json",
    "rewrite_bounds",
    "run_ladders",
    "rung_batches",
    "rung_bound",
    "save_ladder",
    "scale_range",
    "skill_level_elo",
    "uci_elo_level",
    "write_ladder_files",
    "write_results",
]
