"""Figures from run folders (reads files only, never the engine).

``plot_run(run_dir)`` draws everything for a ``tdleaf learn`` result folder: learning
curves, final values, piece-square heatmaps (psq runs), bars of the leaf blocks
(``block-hill`` ...; :mod:`plots.blocks`), a one-page summary and a ``report.md``. Matplotlib only, on the Agg canvas, so it works without a display.

>>> import plots
>>> files = plots.plot_run("runs/chess-psq", compare_paper=True)   # doctest: +SKIP
>>> geo = plots.read_board_geometry("runs/chess-psq/figures/heatmap-P.png")  # doctest: +SKIP
>>> geo["P"].square_center("e4")                                      # doctest: +SKIP
"""

from .api import FORMATS, plot_run
from .curves import plot_curves
from .figures import PIECE_COLOURS, BoardGeometry, board_geometry, read_board_geometry
from .runfolder import CONVENTION, REPORT_NORMALISATION, PlotError, RunData, load_run

__all__ = [
           "CONVENTION",
           "FORMATS",
           "PIECE_COLOURS",
           "REPORT_NORMALISATION",
           "BoardGeometry",
           "PlotError",
           "RunData",
           "board_geometry",
           "load_run",
           "plot_curves",
           "plot_run",
           "read_board_geometry",
]
