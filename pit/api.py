"""The tables' side of the pit: /api/v1, JSON in and out, one credential per table.

Every refusal is a 4xx with `{"error": "..."}` in words: 400 not a batch, 401 no or wrong
credential, 403 another table's rows or credential, 404 no such table, 409 the batch does not
extend the chain the pit holds (the body says the head to resume from), 413 too large,
429 too many requests (with Retry-After): per authenticated table, and per client address for
requests without a valid credential.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kiosk.anchor import Anchor, BadAnchor
from pit.db import PitDatabaseError
from pit.ingest import BadBatch, ForeignRow, parse_batch
from pit.limits import TooDeep, TooLarge, check_depth
from pit.openapi import document
from pit.state import PitState
from pit.store import AnchorRefused, CredentialReplaced, UnknownTable, credential_hash

log = logging.getLogger(__name__)


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    """The API's refusal in words; each goes to the pit's log too (one line, journald's)."""
    log.warning("refused %d: %s", status, message)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if status == 429:
        headers = {"Retry-After": str(max(1, round(extra.pop("retry_after", 1))))}
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers)


async def read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body is {declared} bytes; at most {limit}")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise TooLarge(f"the body is over {limit} bytes")
    return bytes(body)


def _slow_down(wait: float, who: str) -> JSONResponse:
    return error(429, f"too many requests from {who}; slow down", retry_after=wait)


def _bearer(request: Request) -> str:
    """The credential the request carries (Authorization: Bearer <it>), or ""."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def _authorise(request: Request, pit: PitState) -> tuple[str, Response | None]:
    """The table of the URL if the request carries its credential, else a refusal.

    The credential is checked first (a hash compared with the table's, one primary-key
    read), and only then the rate: an authenticated table spends its own budget, wherever it
    asks, and a request without a valid credential spends its client address's, so nobody
    can use up a table's budget by naming it in the URL."""
    table_id = str(request.path_params["table_id"])
    address = request.client.host if request.client else "?"
    token = _bearer(request)
    if not token:
        if wait := pit.anonymous_rate.allow(f"address:{address}"):
            return table_id, _slow_down(wait, "this address without a credential")
        return table_id, error(401, "send the table's credential: Authorization: Bearer <it>")
    ok = await run_in_threadpool(pit.store.authenticate, table_id, token)
    if ok:
        if wait := pit.rate.allow(f"table:{table_id}"):
            return table_id, _slow_down(wait, "this table")
        return table_id, None
    owner = await run_in_threadpool(
        pit.store.db.one, "SELECT table_id FROM pit_tables WHERE credential_hash = ?",
        (credential_hash(token),))
    if owner is not None:
        if wait := pit.rate.allow(f"table:{owner[0]}"):
            return table_id, _slow_down(wait, f"table {owner[0]}")
        return table_id, error(403, f"this credential is table {owner[0]}'s; it cannot write "
                                    f"or read table {table_id}")
    if wait := pit.anonymous_rate.allow(f"address:{address}"):
        return table_id, _slow_down(wait, "this address without a valid credential")
    return table_id, error(401, f"the credential is not table {table_id}'s: enrol it again "
                                "(tableside pit enroll), or, for a table started again on a new "
                                "card, give that card the credential new-card made")


async def head(request: Request) -> Response:
    pit: PitState = request.app.state.pit
    table_id, refused = await _authorise(request, pit)
    if refused:
        return refused
    try:
        seq, digest = await run_in_threadpool(pit.store.head, table_id)
    except UnknownTable:
        return error(404, f"no table {table_id} is enrolled here")
    anchored = await run_in_threadpool(pit.store.newest_anchor, table_id)
    return JSONResponse({"seq": seq, "hash": digest,
                         "anchor": {"seq": anchored[0], "hash": anchored[1]}})


async def _json_body(request: Request, limit: int, what: str) -> tuple[Any, Response | None]:
    """The request's JSON body, or the answer refusing it: 413 over `limit` bytes, 400 nested
    too deep (checked before parsing: the parser recurses, and gives up near 1,000) or not
    JSON."""
    try:
        raw = await read_body(request, limit)
    except TooLarge as exc:
        return None, error(413, str(exc))
    try:
        text = raw.decode("utf-8")
        check_depth(text)
        return json.loads(text), None
    except TooDeep as exc:
        return None, error(400, f"the body is not {what}: {exc}")
    except (ValueError, UnicodeDecodeError):
        return None, error(400, "the body is not JSON")


async def anchor(request: Request) -> Response:
    """Keep the table's signed head; 409 with a STOP alert raised when its journal no
    longer extends what the pit holds, 409 `stale` when it named an older anchor."""
    pit: PitState = request.app.state.pit
    table_id, refused = await _authorise(request, pit)
    if refused:
        return refused
    body, bad = await _json_body(request, 4096, "an anchor")
    if bad is not None:
        return bad
    try:
        made, signature = Anchor.from_json(table_id, body)
    except BadAnchor as exc:
        return error(400, str(exc))
    try:
        result = await run_in_threadpool(pit.store.anchor, made, signature)
    except UnknownTable:
        return error(404, f"no table {table_id} is enrolled here")
    except AnchorRefused as exc:
        return error(403, str(exc))
    except CredentialReplaced as exc:
        return error(401, str(exc))
    log.info("%s: head anchored at row %d", table_id, result.anchor[0])
    if result.alerts:
        log.warning("%s: %d alert(s) raised", table_id, len(result.alerts))
    out = {"anchor": {"seq": result.anchor[0], "hash": result.anchor[1]}}
    if result.alerts:
        await pit.tell({"type": "table", "table_id": table_id, "head": result.anchor[0],
                        "alerts": len(result.alerts), "summary": {}})
    if result.broken:
        return error(409, result.broken, **out)
    if result.stale:
        return error(409, f"the newest head anchored here is row {result.anchor[0]}",
                     stale=True, **out)
    return JSONResponse(out)


async def anchors(request: Request) -> Response:
    """The heads the table anchored (after `?after=N`, at most `?limit=M`), and the last row
    the pit holds: what `journal verify --pit` checks a journal against."""
    pit: PitState = request.app.state.pit
    table_id, refused = await _authorise(request, pit)
    if refused:
        return refused
    after, limit = request.query_params.get("after", "0"), request.query_params.get("limit",
                                                                                   "5000")
    if not (after.isdigit() and len(after) <= 12 and limit.isdigit() and len(limit) <= 5
            and 1 <= int(limit) <= 10000):
        return error(400, "after: a row number; limit: 1 to 10000")
    try:
        seq, digest = await run_in_threadpool(pit.store.head, table_id)
    except UnknownTable:
        return error(404, f"no table {table_id} is enrolled here")
    found = await run_in_threadpool(pit.store.anchors, table_id, int(after), int(limit))
    return JSONResponse({"anchors": [{"seq": s, "hash": h} for s, h in found],
                         "head": {"seq": seq, "hash": digest}})


async def row_hash(request: Request) -> Response:
    """The hash the pit holds for one row of the table (a row it holds, or a head the table
    anchored), `null` when it holds none: the sync's search for the first row that differs."""
    pit: PitState = request.app.state.pit
    table_id, refused = await _authorise(request, pit)
    if refused:
        return refused
    text = str(request.path_params["seq"])
    if not text.isdigit() or len(text) > 12 or int(text) < 1:
        return error(400, "the row number is a whole number from 1")
    try:
        await run_in_threadpool(pit.store.head, table_id)
    except UnknownTable:
        return error(404, f"no table {table_id} is enrolled here")
    digest = await run_in_threadpool(pit.store.known_hash, table_id, int(text))
    return JSONResponse({"seq": int(text), "hash": digest})


async def rows(request: Request) -> Response:
    pit: PitState = request.app.state.pit
    table_id, refused = await _authorise(request, pit)
    if refused:
        return refused
    body, bad = await _json_body(request, pit.max_body, "a batch")
    if bad is not None:
        return bad
    try:
        batch, waiting = parse_batch(body, table_id)
    except BadBatch as exc:
        return error(400, str(exc))
    except ForeignRow as exc:
        return error(403, str(exc))
    try:
        result = await run_in_threadpool(pit.store.ingest, table_id, batch, waiting,
                                         _bearer(request))
    except UnknownTable:
        return error(404, f"no table {table_id} is enrolled here")
    except CredentialReplaced as exc:
        return error(401, str(exc))
    await pit.after_ingest(table_id, result)
    log.info("%s: %d row(s) stored, %d resent, head %d%s", table_id, result.stored,
             result.duplicates, result.head[0],
             f", {result.quarantined} quarantined" if result.quarantined else "")
    if result.alerts:
        log.warning("%s: %d alert(s) raised", table_id, len(result.alerts))
    out = result.as_json()
    if result.quarantined:
        return error(409, f"quarantined: {result.break_reason}", **out)
    if result.expected_seq is not None:
        return error(409, f"rows are missing: send from row {result.expected_seq}", **out)
    return JSONResponse(out)


async def config(request: Request) -> Response:
    """The newest signed configuration for the table (204 when it has none newer than
    `?after=N`, the version it runs)."""
    pit: PitState = request.app.state.pit
    table_id, refused = await _authorise(request, pit)
    if refused:
        return refused
    after_text = request.query_params.get("after", "0")
    if not after_text.isdigit() or len(after_text) > 12:
        return error(400, "after: the version the table runs, a whole number")
    try:
        await run_in_threadpool(pit.store.head, table_id)
    except UnknownTable:
        return error(404, f"no table {table_id} is enrolled here")
    doc = await run_in_threadpool(pit.configs.latest, table_id)
    if doc is None or doc.version <= int(after_text):
        return Response(status_code=204)
    return JSONResponse(doc.to_json())


async def health(request: Request) -> Response:
    """200 while the pit can use its database; 503 with the reason when it cannot (a load
    balancer or IT's monitoring then sends the tables elsewhere, or calls someone)."""
    pit: PitState = request.app.state.pit
    try:
        await run_in_threadpool(pit.store.db.query, "SELECT 1")
    except PitDatabaseError as exc:
        return JSONResponse({"ok": False, "error": str(exc)}, status_code=503)
    return JSONResponse({"ok": True})


async def openapi(request: Request) -> Response:
    return JSONResponse(document())


ROUTES = [
    Route("/api/v1/health", health, methods=["GET"]),
    Route("/api/v1/openapi.json", openapi, methods=["GET"]),
    Route("/api/v1/tables/{table_id}/head", head, methods=["GET"]),
    Route("/api/v1/tables/{table_id}/rows", rows, methods=["POST"]),
    Route("/api/v1/tables/{table_id}/anchor", anchor, methods=["POST"]),
    Route("/api/v1/tables/{table_id}/anchors", anchors, methods=["GET"]),
    Route("/api/v1/tables/{table_id}/hash/{seq}", row_hash, methods=["GET"]),
    Route("/api/v1/tables/{table_id}/config", config, methods=["GET"]),
]
