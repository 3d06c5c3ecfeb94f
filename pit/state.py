"""What one running pit holds: its store, the floor, the inspectors, its limits and the
live feed the dashboards listen to (with the other pit processes' events on PostgreSQL,
pit/fanout.py)."""

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
from pit.fanout import Fanout
from pit.floor import Floor, FloorTimes
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
    """Requests per authenticated table."""
    anonymous_rate: RateLimiter = field(default_factory=lambda: RateLimiter(5.0, 20))
    """Requests without a valid credential, per client address."""
    failed_logins_by_name: RateLimiter = field(
        default_factory=lambda: RateLimiter(1 / 60, 5))
    """Failed dashboard logins per inspector's name: 5, then one a minute."""
    failed_logins_by_address: RateLimiter = field(
        default_factory=lambda: RateLimiter(1 / 15, 20))
    """Failed dashboard logins per client address (any names): 20, then one in 15 s."""
    broker: Broker = field(default_factory=Broker)
    key: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)
    """The pit's signing key (`open_pit` reads it from its file; tests may leave a new one)."""
    times: FloorTimes = field(default_factory=FloorTimes)
    """The casino's time zone, and when a table is late or silent on the floor."""
    configs: Configs = field(init=False)
    floor: Floor = field(init=False)
    inspectors: Inspectors = field(init=False)
    rounds: Rounds = field(init=False)
    fanout: Fanout | None = field(init=False)
    """On PostgreSQL, the live events between this pit process and the others."""

    def __post_init__(self) -> None:
        self.configs = Configs(self.store, self.key)
        self.floor = Floor(self.store)
        self.inspectors = Inspectors(self.store)
        self.rounds = Rounds(self.store)
        self.fanout = Fanout(self.store.db) if self.store.db.dialect == "postgresql" else None

    async def tell(self, event: dict[str, Any]) -> None:
        """A live event to this process's dashboards and, on PostgreSQL, to the others'."""
        self.broker.publish(event)
        if self.fanout is not None:
            await run_in_threadpool(self.fanout.send, event)

    def hear_other_pits(self) -> None:
        """Pass the other pit processes' live events to this one's dashboards (from the
        first dashboard that listens; nothing to do on SQLite)."""
        if self.fanout is None:
            return
        loop = asyncio.get_running_loop()

        def deliver(event: dict[str, Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: the pit stops
                loop.call_soon_threadsafe(self.broker.publish, event)

        self.fanout.start(deliver)

    def close(self) -> None:
        if self.fanout is not None:
            self.fanout.stop()
        self.store.db.close()

    async def after_ingest(self, table_id: str, result: IngestResult) -> None:
        """Bring the floor up to date and tell the dashboards (after the batch committed)."""
        if not (result.stored or result.alerts):
            return
        try:
            summary = await run_in_threadpool(self.floor.catch_up, table_id)
        except Exception:  # the rows are stored; the floor catches up on the next batch
            log.exception("the floor could not fold table %s", table_id)
            summary = {}
        await self.tell({"type": "table", "table_id": table_id, "head": result.head[0],
                         "alerts": len(result.alerts), "summary": summary})
