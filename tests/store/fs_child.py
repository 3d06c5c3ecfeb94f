"""Child process for the store tests: a real filesystem that fills up or turns read-only.

    python fs_child.py full DIR
    python fs_child.py readonly DIR

Run inside a private mount namespace with a small tmpfs mounted on DIR. "full" appends until
the disk is full, checks the journal is still whole, frees space and appends again; "readonly"
remounts DIR read-only under a written journal and tries to append. Each prints a JSON report
(the tmpfs vanishes with the namespace, so every check is made here and reported).
"""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path

from kiosk.store.journal import Journal, JournalWriteError, iter_entries, verify


def fill_the_disk(folder: Path) -> None:
    db = folder / "journal.db"
    report: dict[str, object] = {}
    journal = Journal.open(db, "T-full")
    journal.append("opened", {"n": 0})
    filler = folder / "filler.bin"
    # Take every free block, then give a little back so a few appends fit before the wall.
    with filler.open("wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as exc:
            report["filler_errno"] = errno.errorcode.get(exc.errno or 0, str(exc.errno))
    size = filler.stat().st_size
    with filler.open("r+b") as fh:
        fh.truncate(max(0, size - 24 * 1024))
    appended = 1
    failure = None
    for n in range(1, 500):
        try:
            journal.append("bet_placed", {"n": n, "amount": 2500, "note": "x" * 200})
        except JournalWriteError as exc:
            failure = exc
            break
        appended += 1
    report["appended_before_full"] = appended
    report["failure"] = failure.failure.value if failure else None
    report["message"] = str(failure) if failure else None
    report["count_after_full"] = len(journal)
    report["verify_after_full"] = verify(db).ok
    filler.unlink()
    entry = journal.append("after_space_freed", {"n": appended})
    report["next_seq"] = entry.seq
    journal.close()
    final = verify(db)
    report["verify_final"] = final.ok
    report["rows_final"] = final.rows
    print(json.dumps(report))


def turn_read_only(folder: Path) -> None:
    db = folder / "journal.db"
    report: dict[str, object] = {}
    with Journal.open(db, "T-ro") as journal:
        for n in range(3):
            journal.append("bet_placed", {"n": n, "amount": 500})
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    try:
        with Journal.open(db, "T-ro") as journal:
            journal.append("bet_placed", {"n": 3, "amount": 500})
        report["failure"] = None
    except JournalWriteError as exc:
        report["failure"] = exc.failure.value
        report["message"] = str(exc)
    report["rows_readable"] = [entry.seq for entry in iter_entries(db)]
    report["verify"] = verify(db).ok
    print(json.dumps(report))


if __name__ == "__main__":
    {"full": fill_the_disk, "readonly": turn_read_only}[sys.argv[1]](Path(sys.argv[2]))
