"""The dashboard's page of a table's configuration: the version the table runs (from its own
journal rows at the pit), the versions the pit signed, and a form to publish the next one
(checked as the table will check it, signed with the pit's key; the table takes it up between
rounds)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from kiosk.table.records import PitConfigApplied
from pit.configs import BadConfig
from pit.dashboard import csrf_ok, inspector_only, message, read_form, render
from pit.inspectors import Session
from pit.state import PitState
from pit.store import UnknownTable

EXAMPLE = """\
# Only what the pit sets: [table] game, name, currency; [chips]; the game's section.
# Each section named here replaces the table's own.
"""


def _running(pit: PitState, table_id: str) -> str:
    row = pit.store.last_row_of_kind(table_id, PitConfigApplied.kind)
    if row is None:
        return "its own table.toml (no version from the pit yet)"
    payload = row.entry().payload
    return (f"version {payload.get('version')} since row {row.seq} ({row.wall_time}): "
            f"{payload.get('summary', '')}")


def _config(pit: PitState, table_id: str, session: Session, text: str | None, problem: str
            ) -> dict[str, Any]:
    """What the table's configuration page shows: the version it runs, the versions signed,
    the text in the form (`text`, or the newest version's) and why it was not published."""
    if pit.store.closed_from(table_id) is not None:
        raise UnknownTable(table_id)  # an old card's journal: it takes no configuration
    pit.store.head(table_id)  # UnknownTable for a table that is not enrolled
    versions = pit.configs.versions(table_id)
    body_text = text if text is not None else (versions[0].body if versions else EXAMPLE)
    return {"title": f"Table {table_id}: configuration", "session": session,
            "table_id": table_id, "running": _running(pit, table_id), "versions": versions,
            "next_version": versions[0].version + 1 if versions else 1,
            "body_text": body_text, "problem": problem}


async def _unknown(request: Request, pit: PitState, table_id: str, session: Session
                   ) -> Response:
    """No such table, or an old card's closed journal, which takes no configuration: its
    table's page is named."""
    closed = await run_in_threadpool(pit.store.closed_from, table_id)
    if closed is None:
        return message(request, "No such table", 404, session)
    return message(request, "A closed journal", 404, session,
                   problem=f"{table_id} is the closed journal of an old card of table "
                           f"{closed[0]}: it takes no configuration.",
                   link=(f"/tables/{quote(closed[0])}/config",
                         f"Table {closed[0]}'s configuration"))


@inspector_only
async def config_page(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    try:
        context = await run_in_threadpool(_config, pit, table_id, session, None, "")
    except UnknownTable:
        return await _unknown(request, pit, table_id, session)
    return render(request, "config.html", context)


@inspector_only
async def publish(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    form = await read_form(request)
    if not csrf_ok(form, session.csrf):
        return message(request, "Refused", 403, session,
                       problem="The form's security token is missing or wrong; nothing was "
                               "published.")
    body = form.get("body", "").replace("\r\n", "\n")
    try:
        doc = await run_in_threadpool(pit.configs.publish, table_id, body, session.name)
    except UnknownTable:
        return await _unknown(request, pit, table_id, session)
    except BadConfig as exc:  # the one check, config check's (a body nested too deep too)
        context = await run_in_threadpool(_config, pit, table_id, session, body,
                                          f"Not published: {exc}")
        return render(request, "config.html", context, 400)
    await pit.tell({"type": "config", "table_id": table_id, "head": 0,
                     "version": doc.version})
    return RedirectResponse(f"/tables/{quote(table_id)}/config", status_code=303)


ROUTES = [
    Route("/tables/{table_id}/config", config_page, methods=["GET"]),
    Route("/tables/{table_id}/config", publish, methods=["POST"]),
]
