"""The sync started beside the table (`tableside run` with a [sync] pit); the demo's whole
local pit is kiosk/demo_pit.py."""

from __future__ import annotations

import logging

from kiosk.config import TableConfig
from kiosk.rules.errors import TablesideError
from kiosk.sync.client import SyncClient

log = logging.getLogger(__name__)



def start_sync(cfg: TableConfig) -> tuple[SyncClient | None, str]:
    """The table's sync on its own thread when [sync] names a pit; else (None, why not)."""
    if not cfg.sync.enabled:
        return None, "no [sync] pit configured: the journal stays on this table"
    try:
        credential = cfg.sync.credential()
    except TablesideError as exc:
        return None, f"the sync is off: {exc}"
    client = SyncClient(cfg.journal, cfg.table_id, cfg.sync.pit, credential,
                        verify=cfg.sync.tls())
    client.start()
    return client, f"syncing to the pit at {cfg.sync.pit}"
