"""A table's sync in a process of its own, for kill -9 at any moment:
    python -m tests.pit.sync_child JOURNAL TABLE URL CREDENTIAL BATCH
It sends until the journal is all acknowledged, then exits 0."""

from __future__ import annotations

import sys

from kiosk.sync.client import SyncClient


def main() -> None:
    journal, table, url, credential, batch = sys.argv[1:6]
    client = SyncClient(journal, table, url, credential, batch=int(batch))
    client.sync_all()
    client.close()


if __name__ == "__main__":
    main()
