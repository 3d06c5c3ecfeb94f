"""Canonical JSON and the journal's hash chain.

One value has exactly one encoding here, so a hash over the encoding is a hash over the value:
keys sorted, no spaces, UTF-8 text as is, and only the JSON types that cannot drift. Floats are
refused anywhere (money is an int number of cents, docs/architecture.md); so are NaN, keys
that are not strings (json would silently turn 1 into "1") and anything json would guess at.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime

GENESIS_HASH = "0" * 64
"""The prev_hash of row 1: there is no row before it."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_WALL_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")


def check_json_value(value: object, where: str = "payload") -> None:
    """Raise TypeError naming the place of the first value canonical JSON does not allow."""
    # bool before int: bool is an int subclass, and both are fine; float is the one to stop.
    if value is None or isinstance(value, bool | int | str):
        if isinstance(value, str):
            _check_text(value, where)
        return
    if isinstance(value, float):
        raise TypeError(
            f"{where}: float {value!r} is not allowed in the journal; "
            "money is an int number of the smallest unit"
        )
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where}: key {key!r} is not a string")
            _check_text(key, f"{where} key")
            check_json_value(item, f"{where}[{key!r}]")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            check_json_value(item, f"{where}[{index}]")
        return
    raise TypeError(f"{where}: {type(value).__name__} {value!r} has no canonical JSON form")


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # A lone surrogate has no UTF-8 bytes, so it could not be hashed or stored faithfully.
        raise TypeError(f"{where}: text {text!r} is not valid Unicode") from exc


def canonical_json(value: object) -> str:
    """The one canonical JSON text of `value` (checked by `check_json_value`)."""
    check_json_value(value)
    return _dumps(value)


def _dumps(value: object) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def _refuse_float(text: str) -> object:
    raise ValueError(f"float {text} is not allowed")


def _refuse_constant(text: str) -> object:
    raise ValueError(f"{text} is not allowed")


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            # Two readers could keep different copies of a duplicated key: ambiguous, so refuse.
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def loads_strict(text: str) -> object:
    """Parse JSON that canonical JSON could have produced; ValueError otherwise.

    Refuses floats, NaN/Infinity and duplicate keys, which canonical JSON never writes.
    """
    return json.loads(
        text,
        parse_float=_refuse_float,
        parse_constant=_refuse_constant,
        object_pairs_hook=_no_duplicate_keys,
    )


def chain_hash(
    prev_hash: str, table_id: str, seq: int, wall_time: str, kind: str, payload_text: str
) -> str:
    """sha256 hex over the canonical JSON list of one row's fields.

    A JSON list keeps field boundaries unambiguous (no "ab"+"c" == "a"+"bc"), and the payload is
    hashed as its stored text, so any edit to the bytes, even one that parses the same, shows.
    """
    encoded = _dumps([prev_hash, table_id, seq, wall_time, kind, payload_text])
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def format_wall_time(moment: datetime) -> str:
    """UTC ISO 8601 with milliseconds and Z, e.g. 2025-03-01T18:04:05.123Z."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("the journal clock must return an aware datetime (UTC), not a naive one")
    # isoformat truncates to milliseconds (never rounds up into the next second) and always
    # writes a four-digit year, so the text sorts as the time does.
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def is_hash(text: object) -> bool:
    """True for 64 lowercase hex digits, the only form a chain hash takes."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def is_wall_time(text: object) -> bool:
    """True for the exact form `format_wall_time` writes."""
    return isinstance(text, str) and _WALL_TIME.fullmatch(text) is not None
