"""The inspectors' dashboard: the floor, alerts to acknowledge, a table's rounds, the replay of
any round, search by table and time, live updates by server-sent events.

Inspectors log in (passwords hashed with scrypt, pit/inspectors.py); the session cookie is
HttpOnly and SameSite=Strict, and every form carries the session's CSRF token (the login form a
double-submit cookie), checked before anything changes.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from kiosk.store.canonical import is_wall_time
from pit.alerts import ANCHOR_BROKEN, CHAIN_BREAK
from pit.api import read_body
from pit.breaks import FIELDS, Break, compare
from pit.cash import DAYS_SHOWN, buy_ins_by_shift, exchanges
from pit.db import PitDatabaseError
from pit.drawing import card_face, drawing_of, money, who_did_what
from pit.floor import FloorTimes, raise_silent
from pit.inspectors import Session
from pit.limits import TooLarge
from pit.rounds import Rounds
from pit.state import PitState
from pit.store import TABLE_ID, Alert, UnknownTable

COOKIE = "pit_session"
LOGIN_COOKIE = "pit_login_csrf"
FORM_LIMIT = 16 * 1024
KEEPALIVE = 15.0
"""Seconds of quiet after which the live feed sends a comment line, and looks whether its
browser went away and whether its session still holds (ended: logged out, or expired)."""
BREAK_KINDS = frozenset({CHAIN_BREAK, ANCHOR_BROKEN})
"""Alerts that lead to the chain break's page (the quarantined row beside the pit's)."""

_CSS = """
body{font-family:DejaVu Sans,Arial,sans-serif;margin:0;background:#0f1f17;color:#f4f1e8}
header{display:flex;gap:1.5em;align-items:center;padding:.6em 1em;background:#163a28}
header a,header button{color:#f4f1e8}
main{padding:1em}
table{border-collapse:collapse;width:100%;margin-bottom:1.5em}
th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #2e5a43}
th{background:#163a28}
a{color:#ffd98a}
.alert{color:#ffb4a8;font-weight:bold}
.ok{color:#b8f0c8}
.live-heard{color:#b8f0c8}
.late{color:#ffc940;font-weight:bold}
.silent{color:#ff6b5a;font-weight:bold}
.live{font-size:.85em;color:#b8f0c8}
form.inline{display:inline}
button{background:#2e5a43;color:#f4f1e8;border:1px solid #8fbfa3;padding:.3em .8em;cursor:pointer}
input{padding:.3em}
pre{background:#163a28;padding:.8em;white-space:pre-wrap}
#drawn{display:flex;flex-wrap:wrap;gap:1em;margin-bottom:1em}
.hand{background:#163a28;padding:.5em .8em;border-radius:.4em}
.hand h3{margin:.1em 0 .4em;font-size:1em}
.card{display:inline-block;min-width:2.2em;padding:.35em .3em;margin-right:.3em;background:#fffdf6;
 border-radius:.3em;text-align:center;font-size:1.4em;font-weight:bold}
.card.black{color:#111}
.card.red{color:#b3001b}
.card.unknown{color:#555}
.card.tile{color:#111;border:2px solid #111;font-size:1.1em}
#steps li{margin:.2em 0}
#steps .money{margin-left:.5em;font-weight:bold}
#steps .clause{margin-left:.5em;color:#b8f0c8;font-size:.9em}
.total{font-size:1.2em;font-weight:bold;margin:.3em 0}
.result{font-size:1.4em;font-weight:bold;color:#ffd98a}
.pocket{display:inline-block;font-size:2.2em;font-weight:bold;padding:.2em .6em;border-radius:.3em;
 color:#fff;border:2px solid #f4f1e8}
.pocket.red{background:#b3001b}
.pocket.black{background:#111}
.pocket.green{background:#0a7a35}
.pocket-word{font-size:.45em;font-weight:normal}
td.money,th.money{text-align:right;font-variant-numeric:tabular-nums}
tr.sum td{font-weight:bold}
table.break code{word-break:break-all}
tr.differs td{background:#5a1f1a}
"""

GAP_MS = 250
"""A fragment of a live page is fetched at most once in this time, however many events come:
the events in between are coalesced into the next fetch (docs/pit.md, "The dashboard")."""

QUIET_MS = 5000
"""The floor is fetched again this often even when no event comes: a table that goes quiet
sends none, and must still turn amber, then red (and raise its alert)."""

AGAIN_MS = 10_000
"""When the pit refuses a page's events (401: the inspector's session ended), they are asked
for again this often, so that once the inspector logs in again every open page updates."""

_LIVE_JS = """
const live = document.getElementById('live');
const GAP = GAP_MS_VALUE;
const parts = new Map();
const pause = (ms) => new Promise((done) => setTimeout(done, ms));
async function refresh(part) {
  let s = parts.get(part);
  if (!s) { s = {busy: false, again: false, last: 0}; parts.set(part, s); }
  if (s.busy) { s.again = true; return; }
  s.busy = true;
  try {
    do {
      const wait = s.last + GAP - Date.now();
      if (wait > 0) await pause(wait);
      s.again = false;
      s.last = Date.now();
      try {
        const r = await fetch(part.dataset.fragment, {credentials: 'same-origin'});
        if (r.ok) part.innerHTML = await r.text();
      } catch (err) { s.again = true; await pause(1000); }
    } while (s.again);
  } finally { s.busy = false; }
}
const refreshAll = () => {
  for (const part of document.querySelectorAll('[data-fragment]')) refresh(part);
};
function heard(data) {
  const event = JSON.parse(data);
  live.textContent = 'updated ' + new Date().toLocaleTimeString() + ' (table ' +
                     event.table_id + ', row ' + event.head + ')';
  for (const part of document.querySelectorAll('[data-fragment]')) {
    const table = part.dataset.table;
    if (!table || !event.table_id || event.table_id === table) refresh(part);
  }
}
let away = false;
function lost() {
  away = true;
  live.dataset.events = 'lost';
  live.textContent = 'reconnecting to the pit...';
}
function refused() {
  away = true;
  live.dataset.events = 'refused';
  live.textContent = 'not updating: log in again';
}
function opened() {
  live.dataset.events = 'open';
  if (!away) return;
  away = false;
  live.textContent = 'live';
  refreshAll();
}
let events = null;
function own() {
  const source = new EventSource('/events');
  events = source;
  source.onopen = opened;
  source.onmessage = (e) => heard(e.data);
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) { lost(); return; }
    refused();
    setTimeout(() => { if (events === source) own(); }, AGAIN_MS_VALUE);
  };
}
function listen() {
  let worker = null;
  try {
    if (window.SharedWorker) worker = new SharedWorker('/static/events.js');
  } catch (err) { worker = null; }
  if (!worker) { own(); return; }
  const port = worker.port;
  const shared = {close: () => { port.postMessage('bye'); port.close(); }};
  events = shared;
  worker.onerror = () => { if (events === shared) own(); };
  port.onmessage = (e) => {
    const m = e.data;
    if (m.lost) lost(); else if (m.refused) refused(); else if (m.open) opened();
    else heard(m.event);
  };
}
listen();
window.addEventListener('pagehide', () => {
  const leaving = events;
  events = null;
  if (leaving) leaving.close();
});
window.addEventListener('pageshow', (e) => {
  if (!e.persisted) return;
  away = true;
  live.dataset.events = 'away';
  listen();
});
const floor = document.getElementById('floor');
if (floor) setInterval(() => refresh(floor), QUIET_MS_VALUE);
""".replace("GAP_MS_VALUE", str(GAP_MS)).replace("QUIET_MS_VALUE", str(QUIET_MS)).replace(
    "AGAIN_MS_VALUE", str(AGAIN_MS))
"""A live page's script: it listens to the pit's events and fetches its fragments again.

- One connection for all pages. A browser opens at most six connections to one pit over
  HTTP/1.1, and the events hold one open. So every live page in the browser hears them
  through one shared worker (`_EVENTS_JS`), which holds the one connection. Before, each
  page held its own: with the floor and five tables in tabs, the sixth table's page never
  loaded, nor, on a quiet floor, the seventh page opened one after another (Chrome keeps six
  pages for Back, each with its connection). A browser without shared workers, or whose
  worker fails to start, gives each page its own connection.
- Nothing missed. When the events come back after the pit or the network was away, and
  when Back brings a page back, the page fetches its parts again once it hears them.
- Refused (401, the session ended): the page says "not updating: log in again", and the
  events are asked for again every `AGAIN_MS`, and at once when another page starts to
  listen, so after logging in again every open page updates.
- A part of one table (`data-table`) is fetched again for that table's events and for
  those of no table (an alert acknowledged), not for every table's on the floor.
- `#live`'s `data-events` says whether the page hears the events: "open", "lost",
  "refused", or "away" (back from Back, not heard yet)."""

_EVENTS_JS = """
const ports = new Set();
let source = null;
let state = 'connecting';
const tell = (message) => { for (const port of ports) port.postMessage(message); };
function open() {
  const mine = new EventSource('/events');
  source = mine;
  state = 'connecting';
  mine.onopen = () => { state = 'open'; tell({open: true}); };
  mine.onmessage = (m) => tell({event: m.data});
  mine.onerror = () => {
    if (mine.readyState !== EventSource.CLOSED) { state = 'lost'; tell({lost: true}); return; }
    state = 'refused';
    tell({refused: true});
    setTimeout(() => { if (source === mine && ports.size) open(); }, AGAIN_MS_VALUE);
  };
}
function drop(port) {
  ports.delete(port);
  if (ports.size === 0 && source) { source.close(); source = null; }
}
onconnect = (e) => {
  const port = e.ports[0];
  ports.add(port);
  port.onmessage = (m) => { if (m.data === 'bye') drop(port); };
  port.addEventListener('close', () => drop(port));
  if (!source || state === 'refused') open();
  else if (state === 'open') port.postMessage({open: true});
  else if (state === 'lost') port.postMessage({lost: true});
};
""".replace("AGAIN_MS_VALUE", str(AGAIN_MS))
"""The shared worker behind every live page of the dashboard in one browser: one connection
to the pit's events, each event passed to every page listening, and every page told how
the connection is (a page that starts to listen is told at once). It closes the connection
when the last page lets go ('bye' on pagehide, or the port's close where the browser tells
it); the browser ends the worker when no page is left."""


TEMPLATES = Jinja2Templates(env=Environment(
    loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"),
    autoescape=True, undefined=StrictUndefined))
"""The dashboard's pages, one template each in pit/templates. Every value put in a page is
escaped (autoescape), and a name a template uses but is not given is an error, not blank."""
TEMPLATES.env.filters["quote"] = quote


def render(request: Request, name: str, context: dict[str, Any], status: int = 200
           ) -> Response:
    """The page `name` (pit/templates) filled in with `context`: its title, and its session
    (None: no header links) and whether it updates live, when it has them."""
    filled = {"session": None, "live": False, **context}
    return TEMPLATES.TemplateResponse(request, name, filled, status_code=status)


def message(request: Request, title: str, status: int, session: Session | None = None, *,
            problem: str = "", link: tuple[str, str] | None = None, text: str = "",
            search: bool = False) -> Response:
    """A page that only says something: `problem` in red (with a `link`, its address and
    words, after it), `text`, and the search form when `search`."""
    where = {"href": link[0], "words": link[1]} if link else None
    return render(request, "message.html",
                  {"title": title, "session": session, "problem": problem, "link": where,
                   "text": text, "search": search}, status)


async def _session(request: Request) -> Session | None:
    pit: PitState = request.app.state.pit
    return await run_in_threadpool(pit.inspectors.session, request.cookies.get(COOKIE))


def inspector_only(handler: Callable[[Request, Session], Awaitable[Response]]
                   ) -> Callable[[Request], Awaitable[Response]]:
    """A page for logged-in inspectors only: the others go to the login page (a fragment or
    the live feed answers 401)."""

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        session = await _session(request)
        if session is None:
            return _to_login(request)
        return await handler(request, session)

    return endpoint


def _to_login(request: Request) -> Response:
    if request.url.path.startswith(("/floor", "/fragments", "/events")):
        return Response("log in first", status_code=401)
    return RedirectResponse(f"/login?next={quote(request.url.path)}", status_code=303)


async def read_form(request: Request) -> dict[str, str]:
    try:
        raw = await read_body(request, FORM_LIMIT)
    except TooLarge:
        return {}
    from urllib.parse import parse_qsl

    return dict(parse_qsl(raw.decode("utf-8", "replace")))


def csrf_ok(form: dict[str, str], expected: str) -> bool:
    return hmac.compare_digest(form.get("csrf", ""), expected)


# --- login ----------------------------------------------------------------------------------


async def login_page(request: Request) -> Response:
    token = secrets.token_urlsafe(24)
    response = render(request, "login.html", {
        "title": "Inspector login", "csrf": token,
        "next": request.query_params.get("next", "/"),
        "problem": request.query_params.get("problem", "")})
    response.set_cookie(LOGIN_COOKIE, token, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https")
    return response


async def login(request: Request) -> Response:
    pit: PitState = request.app.state.pit
    form = await read_form(request)
    if not csrf_ok(form, request.cookies.get(LOGIN_COOKIE, "") or "-"):
        return message(request, "Inspector login", 403, problem="The form expired;",
                       link=("/login", "log in again"))
    client = request.client.host if request.client else "?"
    name = form.get("name", "")
    # Only failures count: after too many for this name, or from this address, the password
    # is not even checked until the wait is over (the wrong guesses are what is limited).
    # Each attempt reserves a failure from both budgets before its password is checked, and
    # a success gives it back: guesses sent all at once are counted as they arrive, not
    # after scrypt, so no more of them are checked than the budget allows.
    wait = _reserve_failure(pit, name, client)
    if wait:
        problem = (f"Too many failed logins for this name or from this computer; try again "
                   f"in {max(1, round(wait))} s.")
        return RedirectResponse("/login?problem=" + quote(problem), status_code=303)
    token = await run_in_threadpool(pit.inspectors.login, name, form.get("password", ""))
    if token is None:
        return RedirectResponse("/login?problem=" + quote("Wrong name or password."),
                                status_code=303)
    pit.failed_logins_by_address.refund(client)
    pit.failed_logins_by_name.forget(name)
    nxt = form.get("next", "/")
    # Only a page of this pit: browsers read /\host as //host, another site's address.
    if not nxt.startswith("/") or nxt.startswith("//") or not nxt.isprintable() \
            or "\\" in nxt:
        nxt = "/"
    response = RedirectResponse(nxt, status_code=303)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", max_age=12 * 3600)
    response.delete_cookie(LOGIN_COOKIE)
    return response


def _reserve_failure(pit: PitState, name: str, client: str) -> float:
    """0 when a failure is reserved from both the name's and the address's budget (the
    password may be checked), else the seconds to wait (nothing reserved)."""
    wait = pit.failed_logins_by_name.allow(name)
    if wait:
        return wait
    wait = pit.failed_logins_by_address.allow(client)
    if wait:
        pit.failed_logins_by_name.refund(name)
    return wait


async def logout(request: Request) -> Response:
    pit: PitState = request.app.state.pit
    session = await _session(request)
    form = await read_form(request)
    if session is not None and csrf_ok(form, session.csrf):
        await run_in_threadpool(pit.inspectors.logout, request.cookies.get(COOKIE, ""))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE)
    return response


# --- the floor ------------------------------------------------------------------------------


def _floor(pit: PitState, session: Session) -> dict[str, Any]:
    """What the floor shows: every table with its state in words and when it was last heard
    from (late: amber; silent: red, and a "Table silent" alert), and the open alerts."""
    now = datetime.now(UTC)
    # The pit raises them itself too (pit/floor.py SilenceWatch), once per silence.
    raise_silent(pit.store, pit.times, now)
    tables = []
    for table in pit.store.floor():  # its count of open alerts with it
        state = str(table.summary.get("state", "not opened"))
        if table.summary.get("inspector_called"):
            state += " (inspector called)"
        tables.append((table, state, pit.times.heard(table.last_sync_at, now)))
    return {"tables": tables, "zone": pit.times.timezone,
            **_alerts(pit.store.alerts(limit=20), session, times=pit.times)}


def _alerts(alerts: list[Alert], session: Session, title: str = "Open alerts", *,
            times: FloorTimes | None = None) -> dict[str, Any]:
    from pit.alerts import TITLES

    return {"alerts": alerts, "alerts_title": title, "alert_titles": TITLES, "session": session,
            "local": (times or FloorTimes()).local, "break_kinds": BREAK_KINDS}


def _floor_html(pit: PitState, session: Session) -> str:
    return TEMPLATES.get_template("floor_part.html").render(_floor(pit, session))


@inspector_only
async def floor(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    context = await run_in_threadpool(_floor, pit, session)
    return render(request, "floor.html", {"title": "The floor", "live": True, **context})


@inspector_only
async def floor_fragment(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    return HTMLResponse(await run_in_threadpool(_floor_html, pit, session))


@inspector_only
async def alerts_page(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    found = await run_in_threadpool(lambda: pit.store.alerts(open_only=False, limit=500))
    return render(request, "alerts.html",
                  {"title": "Alerts",
                   **_alerts(found, session, "All alerts", times=pit.times)})


@inspector_only
async def acknowledge(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    form = await read_form(request)
    if not csrf_ok(form, session.csrf):
        return message(request, "Refused", 403, session,
                       problem="The form's security token is missing or wrong; nothing was "
                               "changed.")
    try:
        alert_id = int(request.path_params["alert_id"])
    except ValueError:
        return message(request, "No such alert", 404, session)
    done = await run_in_threadpool(pit.store.acknowledge, alert_id, session.name)
    if done:
        await pit.tell({"type": "alert", "table_id": "", "head": 0, "alert": alert_id})
    return RedirectResponse(request.headers.get("referer") or "/", status_code=303)


# --- a table's rounds and their replay ------------------------------------------------------


def _rounds(pit: PitState, table_id: str, start: str, end: str) -> dict[str, Any]:
    """A table's rounds between two times (its recent ones when neither is given)."""
    rounds: Rounds = pit.rounds
    view = rounds.between(table_id, start, end) if start or end else rounds.recent(table_id)
    chain = "intact" if view.chain_ok else f"BROKEN: {view.chain_reason}"
    # The rows the pit holds may replay cleanly while a break is open: what was sent after
    # them is in quarantine. The page says so as long as the alert is open.
    breaks = [a for a in rounds.store.alerts(table_id=table_id) if a.kind in BREAK_KINDS]
    if breaks:
        chain = f"BROKEN: {breaks[0].message}"
    # A search by time points to the table's other journals (its other cards') that hold
    # rows of that time too.
    elsewhere = [(name, pit.times.local(first), pit.times.local(last)) for name, first, last
                 in (rounds.elsewhere(table_id, start, end) if start or end else [])]
    return {"view": view, "chain": chain, "table_id": table_id,
            "chain_breaks": [a.seq for a in breaks if a.seq], "elsewhere": elsewhere,
            "searched": urlencode({"from": start, "to": end})}


def _rounds_html(pit: PitState, table_id: str, start: str, end: str) -> str:
    return TEMPLATES.get_template("rounds_part.html").render(
        _rounds(pit, table_id, start, end))


def _times(request: Request) -> tuple[str, str] | None:
    out = []
    for name in ("from", "to"):
        value = request.query_params.get(name, "").strip()
        if value and len(value) == 16:  # 2026-11-25T18:00
            value += ":00.000Z" if name == "from" else ":59.999Z"
        if value and not is_wall_time(value):
            return None
        out.append(value)
    return out[0], out[1]


@inspector_only
async def table_page(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    times = _times(request)
    if times is None:
        return message(request, "Search", 400, session,
                       problem="Times are written like 2026-11-25T18:00 (UTC).", search=True)
    try:
        summary = await run_in_threadpool(pit.floor.catch_up, table_id)
        rounds = await run_in_threadpool(_rounds, pit, table_id, *times)
    except UnknownTable:
        return message(request, "No such table", 404, session,
                       text=f"No table {table_id} is enrolled.")
    alerts = await run_in_threadpool(lambda: pit.store.alerts(table_id=table_id))
    closed = await run_in_threadpool(pit.store.closed_from, table_id)
    earlier = await run_in_threadpool(pit.store.closed_journals, table_id)
    shifts = await run_in_threadpool(buy_ins_by_shift, pit.store, table_id, pit.times,
                                     datetime.now(UTC))
    changes = await run_in_threadpool(exchanges, pit.store, table_id, pit.times,
                                      datetime.now(UTC))
    asked = {name: request.query_params.get(name, "").strip() for name in ("from", "to")}
    return render(request, "table.html",
                  {"title": f"Table {table_id}", "live": True, "summary": summary,
                   "query": urlencode(asked), **rounds, "shifts": shifts,
                   "shift_days": DAYS_SHOWN, "exchanges": changes, "closed": closed,
                   "earlier_cards": earlier, "search_table": table_id,
                   "search_from": asked["from"], "search_to": asked["to"],
                   **_alerts(alerts, session, times=pit.times)})


@inspector_only
async def rounds_fragment(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    times = _times(request) or ("", "")
    try:
        inner = await run_in_threadpool(_rounds_html, pit, str(request.path_params["table_id"]),
                                        *times)
    except UnknownTable:
        return Response("no such table", status_code=404)
    return HTMLResponse(inner)


async def search(request: Request) -> Response:
    table_id = request.query_params.get("table", "").strip()
    if not TABLE_ID.fullmatch(table_id):
        return RedirectResponse("/", status_code=303)
    query = urlencode({"from": request.query_params.get("from", ""),
                       "to": request.query_params.get("to", "")})
    return RedirectResponse(f"/tables/{quote(table_id)}?{query}", status_code=303)


@inspector_only
async def round_page(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    try:
        seq = int(request.path_params["seq"])
        played = await run_in_threadpool(pit.rounds.round_at, table_id, seq)
    except (ValueError, UnknownTable):
        return message(request, "No such round", 404, session)
    if played is None:
        rows = await run_in_threadpool(pit.store.rows, table_id, seq - 1, 1)
        text = (f"Row {seq}: {rows[0].kind} {rows[0].payload}" if rows
                else f"No row {seq} at the pit.")
        return render(request, "row.html", {"title": f"Table {table_id}, row {seq}",
                                            "session": session, "text": text})
    return render(request, "round.html",
                  {"title": f"Table {table_id}, round {played.number} (row {played.seq})",
                   "session": session, "played": played, "table_id": table_id,
                   "drawing": drawing_of(played), "who": who_did_what(played),
                   "card_face": card_face, "money": money,
                   "local": pit.times.local})


@inspector_only
async def round_raw(request: Request, session: Session) -> Response:
    """The round's raw record, to download: the round as replay recomputed it, and its
    journal rows (from the one after the round before to the one that settled or voided it),
    each exactly as the table hashed it."""
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    try:
        seq = int(request.path_params["seq"])
        played, first = await run_in_threadpool(pit.rounds.round_and_start, table_id, seq)
    except (ValueError, UnknownTable):
        return Response("no such round", status_code=404)
    if played is None:
        return Response("no such round", status_code=404)
    rows = await run_in_threadpool(pit.store.rows, table_id, first - 1,
                                   min(played.seq - first + 1, 10_000))
    body = {"table_id": table_id, "round": played.as_json(),
            "rows": [row.as_json() for row in rows]}
    name = f"{table_id}-round-{played.number}-row-{played.seq}.json"
    return Response(json.dumps(body, indent=2, sort_keys=True), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _break(pit: PitState, table_id: str, seq: int) -> dict[str, Any]:
    """The quarantined rows at row `seq` of the table, each beside the pit's own row there
    (or the row it should have followed), with what differs (UnknownTable if none such)."""
    pit.store.head(table_id)
    found = pit.store.rows(table_id, seq - 1, 1)
    held = found[0] if found and found[0].seq == seq else None
    found = pit.store.rows(table_id, seq - 2, 1) if seq > 1 else []
    before = found[0] if found and found[0].seq == seq - 1 else None
    breaks = [Break(seq, sent, reason, at, held, before, compare(sent, held, before))
              for sent, reason, at in pit.store.quarantined_rows(table_id, seq)]
    alerts = [a for a in pit.store.alerts(open_only=False, table_id=table_id)
              if a.seq == seq and a.kind in BREAK_KINDS]
    return {"breaks": breaks, "held": held, "before": before, "seq": seq,
            "table_id": table_id, "break_alerts": alerts, "fields": FIELDS,
            "local": pit.times.local}


@inspector_only
async def break_page(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit
    table_id = str(request.path_params["table_id"])
    try:
        seq = int(request.path_params["seq"])
        context = await run_in_threadpool(_break, pit, table_id, seq)
    except (ValueError, UnknownTable):
        return message(request, "No such row", 404, session)
    return render(request, "break.html",
                  {"title": f"Table {table_id}, chain break at row {seq}", "session": session,
                   "alert_titles": _titles(), **context})


def _titles() -> dict[str, str]:
    from pit.alerts import TITLES

    return TITLES


# --- the pages' style and script (their own files: pit/headers.py) ------------------------


async def stylesheet(request: Request) -> Response:
    return Response(_CSS, media_type="text/css",
                    headers={"Cache-Control": "no-cache"})


async def live_script(request: Request) -> Response:
    return Response(_LIVE_JS, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


async def events_script(request: Request) -> Response:
    return Response(_EVENTS_JS, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


# --- live -----------------------------------------------------------------------------------


@inspector_only
async def events(request: Request, session: Session) -> Response:
    pit: PitState = request.app.state.pit

    pit.hear_other_pits()

    async def stream() -> AsyncIterator[str]:
        clock = asyncio.get_running_loop().time
        async with pit.broker.listen() as queue:
            yield "retry: 1000\n\n"
            due = clock() + KEEPALIVE  # however busy the floor: events do not put it off
            while True:
                try:
                    text = await asyncio.wait_for(queue.get(), max(0.0, due - clock()))
                    yield f"data: {text}\n\n"
                    continue
                except TimeoutError:
                    due = clock() + KEEPALIVE
                if await request.is_disconnected():
                    return
                try:
                    if await _session(request) is None:
                        return  # logged out: the browser asks again and is refused (401)
                except PitDatabaseError:
                    pass  # the database is away: the feed goes on, and looks again
                yield ": still here\n\n"

    # A reverse proxy doing TLS in front of the pit must pass each event on as it comes:
    # nginx holds a response back in its buffers unless told not to (X-Accel-Buffering).
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


ROUTES = [
    Route("/", floor, methods=["GET"]),
    Route("/login", login_page, methods=["GET"]),
    Route("/login", login, methods=["POST"]),
    Route("/logout", logout, methods=["POST"]),
    Route("/alerts", alerts_page, methods=["GET"]),
    Route("/alerts/{alert_id}/ack", acknowledge, methods=["POST"]),
    Route("/fragments/floor", floor_fragment, methods=["GET"]),
    Route("/fragments/tables/{table_id}", rounds_fragment, methods=["GET"]),
    Route("/search", search, methods=["GET"]),
    Route("/tables/{table_id}", table_page, methods=["GET"]),
    Route("/tables/{table_id}/rounds/{seq}", round_page, methods=["GET"]),
    Route("/tables/{table_id}/rounds/{seq}/raw", round_raw, methods=["GET"]),
    Route("/tables/{table_id}/breaks/{seq}", break_page, methods=["GET"]),
    Route("/events", events, methods=["GET"]),
    Route("/static/pit.css", stylesheet, methods=["GET"]),
    Route("/static/live.js", live_script, methods=["GET"]),
    Route("/static/events.js", events_script, methods=["GET"]),
]
