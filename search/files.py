"""Writing files atomically: a reader (or a process resumed after a crash) finds the old
file or the new one, never half of one.

The text goes to a temporary file in the target's folder (``os.replace`` is atomic only
within one file system), is flushed and synced to the disk, made readable by everyone
(mode 0644: ``mkstemp`` makes it private, and results are for reading), and then takes
the target's name. On any failure the temporary file is removed and the target is left
as it was. Every writer of results and data in the project comes here.

Standard library only, and cheap to import (the UCI front end's modules read through
:mod:`search.shipped`, which imports it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically and durably; returns the path. The
    folder must exist."""
    return write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically and durably; returns the path. The folder
    must exist."""
    import tempfile  # here: ~10 ms the UCI handshake need not pay

    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def write_json(path: str | os.PathLike[str], data: Any, *, indent: int | None = None,
               sort_keys: bool = False) -> Path:
    """:func:`write_text` of ``data`` as JSON, with a final newline."""
    return write_text(path, json.dumps(data, indent=indent, sort_keys=sort_keys) + "\n")
