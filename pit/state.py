"""What one running pit holds: its store, the floor, the inspectors, its limits and the
live feed the dashboards listen to."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from starlette.concurrency import run_in_threadpool

from pit.configs import Configs
from pit.floor import Floor
from pit.inspectors import Inspectors
from pit.limits import MAX_BODY, RateLimiter
from pit.rounds import Rounds
from pit.store import IngestResult, PitStore

log = logging.getLogger(__name__)


class Broker:
    """Live events to every open dashboard (server-sent events); a slow listener loses old
    events, never blocks the ingest."""

    def __init__(self) -> None:
        self._queues: set[asyncio.Queue[str]] = set()

    def publish(self, event: dict[str, Any]) -> None:
        text = json.dumps(event, sort_keys=True)
        for queue in list(self._queues):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(text)

    @contextlib.asynccontextmanager
    async def listen(self) -> AsyncIterator[asyncio.Queue[str]]:
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=100)
        self._queues.add(queue)
        try:
            yield queue
        finally:
            self._queues.discard(queue)


@dataclass
class PitState:
    store: PitStore
    max_body: int = MAX_BODY
    rate: RateLimiter = field(default_factory=lambda: RateLimiter(50.0, 100))
    login_rate: RateLimiter = field(default_factory=lambda: RateLimiter(0.2, 5))
    broker: Broker = field(default_factory=Broker)
    key: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)
    """The pit's signing key (`open_pit` reads it from its file; tests may leave a new one)."""
    configs: Configs = field(init=False)
    floor: Floor = field(init=False)
    inspectors: Inspectors = field(init=False)
    rounds: Rounds = field(init=False)

    def __post_init__(self) -> None:
        self.configs = Configs(self.store, self.key)
        self.floor = Floor(self.store)
        self.inspectors = Inspectors(self.store)
        self.rounds = Rounds(self.store)

    async def after_ingest(self, table_id: str, result: IngestResult) -> None:
        """Bring the floor up to date and tell the dashboards (after the batch committed)."""
        if not (result.stored or result.alerts):
            return
        try:
            summary = await run_in_threadpool(self.floor.catch_up, table_id)
        except Exception:  # the rows are stored; the floor catches up on the next batch
            log.exception("the floor could not fold table %s", table_id)
            summary = {}
        self.broker.publish({"type": "table", "table_id": table_id, "head": result.head[0],
                             "alerts": len(result.alerts), "summary": summary})
