"""Figures drawn while a learning job runs (``tdleaf learn --plot-every N``), from the
files the job has written; a plotting failure never stops the learning."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


class LivePlots:
    """Figures of a learning job, drawn by ``tdleaf learn`` from the files it has written:
    refreshed every ``every`` games per run (on average over the runs) while it runs,
    and once at the end. A plotting failure is reported and never stops the learning."""

    def __init__(self, out: str | Path, runs: int, every: int | None, enabled: bool = True,
                 write: Callable[[str], object] | None = None) -> None:
        from tqdm import tqdm
        self.out, self.runs, self.every = Path(out), max(1, runs), every
        self.enabled = enabled
        self.write = write or tqdm.write      # prints above a progress bar, if any
        self.step: int | None = None     # the last multiple of `every` drawn
        self.warned = False

    def update(self, done: dict[int, int]) -> None:
        """Called with the games done per run after each game; redraws when due."""
        if not self.enabled or not self.every:
            return
        step = int(sum(done.values()) / self.runs) // self.every
        if self.step is None:            # the games already played on --resume
            self.step = step
            return
        if step > self.step:
            self.step = step
            self._plot(final=False)

    def final(self) -> None:
        if self.enabled:
            self._plot(final=True)

    def _plot(self, final: bool) -> None:
        from .api import plot_run
        from .runfolder import PlotError
        try:
            files = plot_run(self.out)
        except Exception as exc:  # noqa: BLE001 (a figure must never cost a learning run)
            if final or not self.warned:
                what = str(exc) if isinstance(exc, PlotError) else f"{type(exc).__name__}: {exc}"
                self.write(f"tdleaf learn: warning: could not draw the figures: {what}")
                self.warned = True
            return
        if final:
            self.write(f"figures in {files[0].parent} (overview: {files[-1]})")
