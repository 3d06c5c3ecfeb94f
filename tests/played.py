"""A journal played once a process, copied for every test case that needs it.

Layout tests lay the same long day out at every size and in every language; playing it again
for each case wrote the same hundreds of durable rows (each synced to disk) every time. Here it
is played the first time a process asks for it, closed, and its file copied to each case's
path: the cases' sessions resume from the same rows, as a table does after a restart."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

_FOLDER: Path | None = None
_PLAYED: dict[str, Path] = {}


def _folder() -> Path:
    global _FOLDER
    if _FOLDER is None:
        _FOLDER = Path(tempfile.mkdtemp(prefix="tableside-played-"))
        atexit.register(shutil.rmtree, _FOLDER, True)
    return _FOLDER


def played_once(path: Path, play: Callable[[Path], Any]) -> None:
    """Put at `path` the journal `play(path)` writes (`play` returns a session or a
    journal, which is closed here), played only at the first call for that `play`."""
    key = f"{play.__module__}.{play.__qualname__}"
    if key not in _PLAYED:
        first = _folder() / f"{len(_PLAYED)}.db"
        played = play(first)
        getattr(played, "journal", played).close()
        assert not first.with_name(first.name + "-wal").exists(), "the journal was not closed"
        _PLAYED[key] = first
    shutil.copyfile(_PLAYED[key], path)
