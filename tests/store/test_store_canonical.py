"""Canonical JSON: one encoding per value, no floats (money is ints, docs/architecture.md)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from kiosk.store.canonical import (
    GENESIS_HASH,
    canonical_json,
    chain_hash,
    format_wall_time,
    is_wall_time,
    loads_strict,
)


def test_keys_sorted_compact_and_unicode_kept() -> None:
    assert canonical_json({"b": 1, "a": [True, None, "é"]}) == '{"a":[true,null,"é"],"b":1}'


def test_nested_dicts_sorted_at_every_level() -> None:
    assert canonical_json({"z": {"y": 1, "x": 2}}) == '{"z":{"x":2,"y":1}}'


@pytest.mark.parametrize(
    "payload",
    [
        {"amount": 1.5},
        {"amount": 100.0},
        {"nested": {"deeper": [1, 2, 0.5]}},
        {"nan": float("nan")},
        {"inf": float("inf")},
    ],
)
def test_floats_refused_anywhere(payload: dict[str, object]) -> None:
    with pytest.raises(TypeError, match="float"):
        canonical_json(payload)


@pytest.mark.parametrize(
    "payload",
    [{1: "a"}, {"s": {1, 2}}, {"b": b"bytes"}, {"t": datetime(2025, 1, 1, tzinfo=UTC)}],
)
def test_values_without_a_canonical_form_refused(payload: dict[object, object]) -> None:
    with pytest.raises(TypeError):
        canonical_json(payload)


def test_lone_surrogate_refused() -> None:
    with pytest.raises(TypeError, match="Unicode"):
        canonical_json({"name": "\ud800"})


@pytest.mark.parametrize(
    "text", ['{"a":1.0}', '{"a":NaN}', '{"a":Infinity}', '{"a":1,"a":2}', '{"a":1e3}']
)
def test_strict_loader_refuses_what_canonical_json_never_writes(text: str) -> None:
    with pytest.raises(ValueError):
        loads_strict(text)


def test_chain_hash_is_sha256_of_the_canonical_field_list() -> None:
    fields = [GENESIS_HASH, "T1", 1, "2025-03-01T18:04:05.123Z", "bet_placed", '{"amount":500}']
    expected = hashlib.sha256(
        json.dumps(fields, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    assert chain_hash(*fields) == expected  # type: ignore[arg-type]


def test_chain_hash_field_boundaries_are_unambiguous() -> None:
    # Plain concatenation would make these two rows hash alike.
    a = chain_hash(GENESIS_HASH, "T1", 1, "2025-03-01T18:04:05.123Z", "ab", '{"c":1}')
    b = chain_hash(GENESIS_HASH, "T1", 1, "2025-03-01T18:04:05.123Z", "a", 'b{"c":1}')
    assert a != b


def test_wall_time_is_utc_with_milliseconds_and_z() -> None:
    moment = datetime(2025, 3, 1, 20, 4, 5, 123999, tzinfo=timezone(timedelta(hours=2)))
    text = format_wall_time(moment)
    assert text == "2025-03-01T18:04:05.123Z"  # truncated, not rounded; converted to UTC
    assert is_wall_time(text)


def test_naive_wall_time_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        format_wall_time(datetime(2025, 3, 1, 18, 4, 5))
