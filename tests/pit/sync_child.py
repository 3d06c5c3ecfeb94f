"""A table's sync in a process of its own, for kill -9 at any moment:
    python -m tests.pit.sync_child JOURNAL TABLE URL CREDENTIAL BATCH [MARKER]
It sends until the journal is all acknowledged, then exits 0. With MARKER it stops in the
middle of a batch instead, whatever the machine's speed: on the first batch the pit
acknowledges with new rows stored, before the table records that, it writes MARKER (JSON:
the head the table had recorded and the pit's new one) and waits to be killed."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from kiosk.sync.client import SyncClient


class StopsUnrecorded(SyncClient):
    marker: Path
    stored = False  # the last answer was to a batch, and the pit stored rows of it

    def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        answer = super()._call(method, path, **kwargs)
        self.stored = method == "POST" and bool(answer.get("stored"))
        return answer

    def _acked(self, head: tuple[int, str]) -> None:
        if self.stored:
            tmp = self.marker.with_name(self.marker.name + ".tmp")
            tmp.write_text(json.dumps({"recorded": self.state.acked_seq, "pit": head[0]}))
            os.replace(tmp, self.marker)
            threading.Event().wait()
        super()._acked(head)


def main() -> None:
    journal, table, url, credential, batch, *marker = sys.argv[1:7]
    if marker:
        client: SyncClient = StopsUnrecorded(journal, table, url, credential, batch=int(batch))
        assert isinstance(client, StopsUnrecorded)
        client.marker = Path(marker[0])
    else:
        client = SyncClient(journal, table, url, credential, batch=int(batch))
    client.sync_all()
    client.close()


if __name__ == "__main__":
    main()
