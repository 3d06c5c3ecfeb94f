"""The pit server: the tables' API (pit/api.py) and the inspectors' dashboard
(pit/dashboard.py) on one Starlette app, served by uvicorn (`tableside pit serve`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp

from pit import api, config_pages, dashboard
from pit.configs import claim_key, key_path_for
from pit.db import Database, PitDatabaseError
from pit.floor import FloorTimes, SilenceWatch
from pit.headers import SecurityHeaders
from pit.state import PitState
from pit.store import PitStore

WATCH_STOP = 15.0
"""Seconds the pit's stop waits for a look for silent tables under way (a database that
went away answers within its 10 s connect timeout)."""


class PitApp(Starlette):
    """Starlette with the pit's security headers on every answer, error pages included
    (pit/headers.py): they wrap Starlette's whole stack, its 500 page too."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


async def database_unreachable(request: Request, exc: Exception) -> Response:
    """The database went away under a request: 503 in words (the API's JSON error, a plain
    page for the dashboard), never a bare 500; the table's sync tries again later."""
    why = f"the pit cannot use its database now: {exc}"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": why}, status_code=503)
    return PlainTextResponse(why[0].upper() + why[1:] + ". Try again in a minute.",
                             status_code=503)


def create_app(pit: PitState, watch: SilenceWatch | None = None) -> Starlette:
    """The pit's app on `pit`. While it runs (its lifespan), `watch` (by default every 5 s
    on the real clock) raises a "Table silent" alert for a quiet table, whether or not
    anyone has the floor open."""
    watch = watch or SilenceWatch(pit.store, pit.times, tell=pit.tell)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stop = asyncio.Event()
        task = asyncio.create_task(watch.run(stop), name="silence watch")
        try:
            yield
        finally:
            stop.set()  # a look under way ends before the database closes
            done, _ = await asyncio.wait({task}, timeout=WATCH_STOP)
            if not done:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            pit.close()

    app = PitApp(routes=[*api.ROUTES, *dashboard.ROUTES, *config_pages.ROUTES],
                    lifespan=lifespan,
                    exception_handlers={PitDatabaseError: database_unreachable})
    app.state.pit = pit
    app.state.watch = watch
    return app


def open_pit(db_url: str, key_path: str | Path | None = None,
             times: FloorTimes | None = None) -> PitState:
    """The pit on the database at `db_url` (a file path or postgresql://...), migrated, with
    its signing key from `key_path` (default `key_path_for`), checked against the key the
    database recorded on its first use (made there only on first use: `claim_key`)."""
    path = Path(key_path) if key_path else key_path_for(db_url)
    store = PitStore(Database(db_url))
    try:
        key = claim_key(store, path)
    except BaseException:
        store.db.close()
        raise
    return PitState(store, key=key, times=times or FloorTimes())
