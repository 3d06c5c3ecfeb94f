"""The OpenAPI 3.0 document of the tables' API (/api/v1/openapi.json), written out by hand so
it says exactly what pit/api.py and pit/ingest.py accept; schemathesis checks the two agree."""

from __future__ import annotations

from typing import Any

from pit.ingest import MAX_ROWS

_HEX64 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_ERROR = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}
_HEAD = {"type": "object", "required": ["seq", "hash"],
         "properties": {"seq": {"type": "integer", "minimum": 0}, "hash": _HEX64}}
_ANCHORED = {"type": "object", "required": ["anchor"], "properties": {
    "anchor": _HEAD, "error": {"type": "string"}, "stale": {"type": "boolean"}}}
_ANCHOR = {
    "type": "object",
    "required": ["seq", "hash", "extends", "signature"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "hash": _HEX64,
        "extends": {"type": "object", "required": ["seq", "hash"], "properties": {
            "seq": {"type": "integer", "minimum": 0},
            "hash": {"type": "string", "description": "the table's hash of that row, or "
                     "empty when its journal no longer has it"}}},
        "first_differs": {"type": "integer", "minimum": 1, "nullable": True},
        "signature": {"type": "string", "description": "Ed25519 with the table's anchor key "
                      "over the canonical JSON of the other fields, base64"},
    },
}
_ROW = {
    "type": "object",
    "additionalProperties": False,
    "required": ["seq", "table_id", "wall_time", "kind", "payload", "prev_hash", "hash"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "table_id": {"type": "string", "minLength": 1},
        "wall_time": {"type": "string", "example": "2026-11-25T18:04:05.123Z"},
        "kind": {"type": "string", "minLength": 1},
        "payload": {"type": "string", "description": "the row's payload as the canonical JSON "
                    "text the table hashed"},
        "prev_hash": _HEX64,
        "hash": _HEX64,
    },
}
_RESULT = {
    "type": "object",
    "required": ["head", "stored", "duplicates"],
    "properties": {
        "head": _HEAD,
        "stored": {"type": "integer"},
        "duplicates": {"type": "integer"},
        "quarantined": {"type": "integer"},
        "reason": {"type": "string"},
        "expected_seq": {"type": "integer"},
        "error": {"type": "string"},
    },
}
_CONFIG = {
    "type": "object",
    "required": ["table_id", "version", "body", "created_at", "created_by", "signature"],
    "properties": {
        "table_id": {"type": "string"},
        "version": {"type": "integer", "minimum": 1},
        "body": {"type": "string", "description": "TOML: [table] game, name, currency; "
                 "[chips]; the game's section"},
        "created_at": {"type": "string"},
        "created_by": {"type": "string"},
        "signature": {"type": "string", "description": "Ed25519 over the domain line and the "
                      "canonical JSON of the other fields, hex"},
    },
}
_TABLE = {"name": "table_id", "in": "path", "required": True,
          "schema": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {400: "not a batch of rows, or a bad query", 401: "no credential, or not this table's",
             403: "another table's credential or rows", 404: "no such table enrolled",
             409: "the batch does not extend the chain the pit holds", 413: "body too large",
             429: "too many requests from this table, or from this client address without "
                  "a valid credential (see Retry-After)"}
    return {str(c): {"description": words[c],
                     "content": {"application/json": {"schema": _RESULT if c == 409
                                                      else _ERROR}}} for c in codes}


def document() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Tableside pit: table sync", "version": "1"},
        "components": {"securitySchemes": {"table": {"type": "http", "scheme": "bearer"}}},
        "security": [{"table": []}],
        "paths": {
            "/api/v1/health": {"get": {
                "summary": "The pit answers and can use its database", "security": [],
                "responses": {
                    "200": {"description": "up", "content": {"application/json": {
                        "schema": {"type": "object",
                                   "properties": {"ok": {"type": "boolean"}}}}}},
                    "503": {"description": "the database cannot be used; `error` says why",
                            "content": {"application/json": {"schema": {
                                "type": "object",
                                "properties": {"ok": {"type": "boolean"},
                                               "error": {"type": "string"}}}}}}},
            }},
            "/api/v1/tables/{table_id}/head": {"get": {
                "summary": "The last row of the table the pit holds (resume after it)",
                "parameters": [_TABLE],
                "responses": {"200": {"description": "the head", "content": {
                    "application/json": {"schema": _HEAD}}}, **_errors(401, 403, 404, 429)},
            }},
            "/api/v1/tables/{table_id}/config": {"get": {
                "summary": "The newest configuration the pit signed for the table, if newer "
                           "than the version it runs",
                "parameters": [_TABLE, {"name": "after", "in": "query", "required": False,
                                        "schema": {"type": "integer", "minimum": 0,
                                                   "maximum": 999999999999}}],
                "responses": {"200": {"description": "a signed configuration", "content": {
                    "application/json": {"schema": _CONFIG}}},
                    "204": {"description": "nothing newer"},
                    **_errors(400, 401, 403, 404, 429)},
            }},
            "/api/v1/tables/{table_id}/anchor": {"post": {
                "summary": "Anchor the table's journal head, signed with its anchor key",
                "parameters": [_TABLE],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": _ANCHOR}}},
                "responses": {"200": {"description": "kept", "content": {
                    "application/json": {"schema": _ANCHORED}}},
                    "409": {"description": "the journal no longer extends what the pit holds "
                            "(a STOP alert), or the anchor named is not the newest",
                            "content": {"application/json": {"schema": _ANCHORED}}},
                    **_errors(400, 401, 403, 404, 413, 429)},
            }},
            "/api/v1/tables/{table_id}/anchors": {"get": {
                "summary": "The heads the table anchored, and the last row the pit holds",
                "parameters": [_TABLE,
                               {"name": "after", "in": "query", "required": False,
                                "schema": {"type": "integer", "minimum": 0,
                                           "maximum": 999999999999}},
                               {"name": "limit", "in": "query", "required": False,
                                "schema": {"type": "integer", "minimum": 1,
                                           "maximum": 10000}}],
                "responses": {"200": {"description": "anchored heads", "content": {
                    "application/json": {"schema": {
                        "type": "object", "required": ["anchors", "head"],
                        "properties": {"anchors": {"type": "array", "items": _HEAD},
                                       "head": _HEAD}}}}},
                    **_errors(400, 401, 403, 404, 429)},
            }},
            "/api/v1/tables/{table_id}/hash/{seq}": {"get": {
                "summary": "The hash the pit holds for one row of the table (null: none)",
                "parameters": [_TABLE, {"name": "seq", "in": "path", "required": True,
                                        "schema": {"type": "integer", "minimum": 1,
                                                   "maximum": 999999999999}}],
                "responses": {"200": {"description": "the row's hash", "content": {
                    "application/json": {"schema": {
                        "type": "object", "required": ["seq", "hash"],
                        "properties": {"seq": {"type": "integer"},
                                       "hash": {"type": "string", "nullable": True}}}}}},
                    **_errors(400, 401, 403, 404, 429)},
            }},
            "/api/v1/tables/{table_id}/rows": {"post": {
                "summary": "Send journal rows in seq order; idempotent by (table, seq)",
                "parameters": [_TABLE],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["rows"],
                    "properties": {"rows": {"type": "array", "maxItems": MAX_ROWS,
                                            "items": _ROW},
                                   "waiting": {"type": "integer", "minimum": 0}}}}}},
                "responses": {"200": {"description": "stored", "content": {
                    "application/json": {"schema": _RESULT}}},
                    **_errors(400, 401, 403, 404, 409, 413, 429)},
            }},
        },
    }
