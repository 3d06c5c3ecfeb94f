"""The journal in real trouble: kill -9 mid-write, two writer processes, a full or read-only disk.

docs/architecture.md, "How it is proven": store and sync survive kill -9 in the middle of writes.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from kiosk.store.journal import Journal, verify
from tests.store.store_helpers import raw_rows

HERE = Path(__file__).parent
WRITER = HERE / "crash_writer.py"
FS_CHILD = HERE / "fs_child.py"
# The children import this checkout's kiosk, whatever the virtualenv has installed.
CHILD_ENV = {**os.environ, "PYTHONPATH": str(HERE.parents[1])}


def _start_writer(
    db: Path, run: int, batch: int, limit: int | None = None
) -> subprocess.Popen[str]:
    args = [sys.executable, str(WRITER), str(db), str(run), str(batch)]
    if limit is not None:
        args.append(str(limit))
    return subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CHILD_ENV
    )


def test_kill_9_loses_nothing_committed(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    rng = random.Random(20250301)  # fixed: a failure can be replayed
    committed: dict[int, str] = {}
    for run in range(5):
        batch = 1 if run % 2 == 0 else 5
        child = _start_writer(db, run, batch)
        assert child.stdout is not None
        assert child.stdout.readline() == "open\n", child.stderr.read() if child.stderr else ""
        time.sleep(rng.uniform(0.05, 0.3))  # let it append for a while, then pull the plug
        child.send_signal(signal.SIGKILL)
        rest, _ = child.communicate(timeout=10)
        assert child.returncode == -signal.SIGKILL
        # The last line may be cut short by the kill; whole lines name committed rows.
        printed = [line.split() for line in rest.splitlines()]
        committed.update((int(p[0]), p[1]) for p in printed if len(p) == 2 and len(p[1]) == 64)

        report = verify(db)
        rows = raw_rows(db)
        assert report.ok, report.reason
        assert [row[0] for row in rows] == list(range(1, len(rows) + 1))  # gap-free
        stored = {row[0]: row[6] for row in rows}
        assert all(stored.get(seq) == hsh for seq, hsh in committed.items())  # nothing lost
        # append_many is all or none: a killed batch leaves whole batches only.
        per_run = Counter(json.loads(row[4])["run"] for row in rows)
        assert per_run[run] % batch == 0

    assert len(committed) >= 5, "the children committed too little before the kills to prove much"
    with Journal.open(db, "T-crash") as journal:  # and the chain goes on after the crashes
        entry = journal.append("after_crashes", {"runs": 5})
    assert entry.seq == len(raw_rows(db)) and verify(db).ok


def test_two_writer_processes_never_fork_the_chain(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    Journal.open(db, "T-crash").close()  # schema first, so both children only append
    children = [_start_writer(db, run, batch=1, limit=150) for run in (1, 2)]
    for child in children:
        _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
    rows = raw_rows(db)
    report = verify(db)
    assert report.ok and report.rows == 300
    for run in (1, 2):
        mine = [json.loads(row[4])["i"] for row in rows if json.loads(row[4])["run"] == run]
        assert mine == list(range(150))  # each writer's rows in its own order, none lost


def _unshare_works() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
        capture_output=True,
    )
    return probe.returncode == 0


needs_private_mounts = pytest.mark.skipif(
    not _unshare_works(), reason="needs unshare -rm to mount a private tmpfs"
)


def _run_in_tiny_fs(mode: str, folder: Path) -> dict[str, object]:
    # A private mount namespace: the 256 KiB tmpfs exists for this child alone.
    script = 'mount -t tmpfs -o size=256k tmpfs "$1" && exec "$2" "$3" "$4" "$1"'
    args = [str(folder), sys.executable, str(FS_CHILD), mode]
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=CHILD_ENV,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@needs_private_mounts
def test_real_full_disk(tmp_path: Path) -> None:
    report = _run_in_tiny_fs("full", tmp_path)
    assert report["filler_errno"] == "ENOSPC"
    assert report["failure"] == "disk_full"
    assert "full" in str(report["message"])
    appended = report["appended_before_full"]
    assert isinstance(appended, int) and appended >= 1
    assert report["count_after_full"] == appended  # the failed append left nothing
    assert report["verify_after_full"] is True
    assert report["next_seq"] == appended + 1  # the chain continues once space is freed
    assert report["verify_final"] is True and report["rows_final"] == appended + 1


@needs_private_mounts
def test_real_read_only_filesystem(tmp_path: Path) -> None:
    report = _run_in_tiny_fs("readonly", tmp_path)
    assert report["failure"] == "read_only"
    assert "read-only" in str(report["message"])
    assert report["rows_readable"] == [1, 2, 3]  # an auditor can still read the card
    assert report["verify"] is True
