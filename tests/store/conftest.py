"""Fixtures for the journal tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kiosk.store.journal import Journal
from tests.store.store_helpers import TickingClock


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "journal.db"


@pytest.fixture
def make_journal(db_path: Path) -> Iterator[Callable[..., Journal]]:
    opened: list[Journal] = []

    def make(table_id: str = "T1", **kwargs: object) -> Journal:
        kwargs.setdefault("clock", TickingClock())
        journal = Journal.open(db_path, table_id, **kwargs)  # type: ignore[arg-type]
        opened.append(journal)
        return journal

    yield make
    for journal in opened:
        journal.close()
