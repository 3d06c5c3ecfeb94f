"""Several pit processes starting at once on one empty database: each migrates it, one after
the other (an advisory lock on PostgreSQL, a write transaction on SQLite), and none fails."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from pit.db import Database
from pit.schema import MIGRATIONS

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 6

_CHILD = """
import sys, time
from pit.db import Database
db = Database(sys.argv[1])
start = float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
print(db.migrate())
"""


def test_pits_starting_at_once_migrate_one_after_the_other(pit_url: str) -> None:
    start = time.time() + 2.0  # every child imported and waiting by then
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, pit_url, str(start)],
                                 env={**os.environ, "PYTHONPATH": str(ROOT)},
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(PROCESSES)]
    results = [(child.wait(60), *child.communicate()) for child in children]
    latest = str(MIGRATIONS[-1][0])
    assert [(code, out.strip()) for code, out, _ in results] == [(0, latest)] * PROCESSES, \
        [err for _, _, err in results]
    db = Database(pit_url)
    try:
        assert sorted(db.query("SELECT version FROM pit_schema")) == [
            (version,) for version, _ in MIGRATIONS]  # each migration once
    finally:
        db.close()
