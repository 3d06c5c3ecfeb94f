"""The dashboard's page of a table's configuration: the version the table runs (from its own
journal rows at the pit), the versions the pit signed, and a form to publish the next one
(checked as the table will check it, signed with the pit's key; the table takes it up between
rounds)."""

from __future__ import annotations

from html import escape
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from kiosk.table.records import PitConfigApplied
from pit.configs import BadConfig
from pit.dashboard import _csrf_ok, _form, _page, inspector_only
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


def _html(pit: PitState, table_id: str, session: Session, text: str | None, problem: str
          ) -> str:
    pit.store.head(table_id)  # UnknownTable for a table that is not enrolled
    versions = pit.configs.versions(table_id)
    lines = "".join(
        f"<tr><td>{d.version}</td><td>{escape(d.created_at)}</td>"
        f"<td>{escape(d.created_by)}</td><td><code>{escape(d.signature[:16])}…</code></td></tr>"
        for d in versions) or "<tr><td colspan=4>None yet.</td></tr>"
    body_text = text if text is not None else (versions[0].body if versions else EXAMPLE)
    next_version = versions[0].version + 1 if versions else 1
    warning = f'<p class="alert" id="config-problem">{escape(problem)}</p>' if problem else ""
    return (f'<p id="config-running">The table runs {escape(_running(pit, table_id))}.</p>'
            f"<h2>Versions signed by this pit</h2><table id=config-versions><tr>"
            f"<th>Version</th><th>Made</th><th>By</th><th>Signature</th></tr>{lines}</table>"
            f"<h2>Publish version {next_version}</h2>{warning}"
            f'<form method="post" action="/tables/{quote(table_id)}/config">'
            f'<input type="hidden" name="csrf" value="{escape(session.csrf)}">'
            f'<p><textarea name="body" id="config-body" rows="16" cols="80">'
            f"{escape(body_text)}</textarea></p>"
            f'<p><button type="submit" id="config-publish">Sign and publish</button> '
            f"The table takes it up when no round is in play.</p></form>"
            f'<p><a href="/tables/{quote(table_id)}">Back to table {escape(table_id)}</a></p>')


@inspector_only
async def config_page(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    try:
        inner = await run_in_threadpool(_html, pit, table_id, session, None, "")
    except UnknownTable:
        return HTMLResponse(_page("No such table", "", session), status_code=404)
    return HTMLResponse(_page(f"Table {table_id}: configuration", inner, session))


@inspector_only
async def publish(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    form = await _form(request)
    if not _csrf_ok(form, session.csrf):
        return HTMLResponse(_page("Refused", "<p class=alert>The form's security token is "
                                  "missing or wrong; nothing was published.</p>", session),
                            status_code=403)
    body = form.get("body", "").replace("\r\n", "\n")
    try:
        doc = await run_in_threadpool(pit.configs.publish, table_id, body, session.name)
    except UnknownTable:
        return HTMLResponse(_page("No such table", "", session), status_code=404)
    except (BadConfig, RecursionError) as exc:
        # RecursionError: TOML's reader recurses into every nested array and inline table,
        # and gives up near 1,000 deep (the form holds 16 KiB, so some 2,700 deep).
        why = (str(exc) if isinstance(exc, BadConfig) else
               "arrays or inline tables are nested too deep to read")
        inner = await run_in_threadpool(_html, pit, table_id, session, body,
                                        f"Not published: {why}")
        return HTMLResponse(_page(f"Table {table_id}: configuration", inner, session),
                            status_code=400)
    await pit.tell({"type": "config", "table_id": table_id, "head": 0,
                     "version": doc.version})
    return RedirectResponse(f"/tables/{quote(table_id)}/config", status_code=303)


ROUTES = [
    Route("/tables/{table_id}/config", config_page, methods=["GET"]),
    Route("/tables/{table_id}/config", publish, methods=["POST"]),
]
