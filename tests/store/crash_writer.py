"""Child process for the store tests: append rows in a tight loop, print each committed one.

    python crash_writer.py DB RUN BATCH [LIMIT]

Prints "open" once the journal is open, then "<seq> <hash>" for every row whose transaction has
committed (after append returns), flushed at once, so the parent knows what must survive a
SIGKILL. BATCH > 1 uses append_many, whose rows must appear all together or not at all. Without
LIMIT it runs until killed.
"""

from __future__ import annotations

import sys

from kiosk.store.journal import Journal


def main() -> None:
    path, run, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else None
    out = sys.stdout
    with Journal.open(path, "T-crash") as journal:
        out.write("open\n")
        out.flush()
        i = 0
        while limit is None or i < limit:
            items = [
                ("crash_probe", {"run": run, "i": i + k, "amount": 100 * (i + k)})
                for k in range(batch)
            ]
            for entry in journal.append_many(items):
                out.write(f"{entry.seq} {entry.hash}\n")
            out.flush()
            i += batch


if __name__ == "__main__":
    main()
