"""Snapshots: the folded table written into the journal now and then, so that start-up reads
the last snapshot and folds only the rows after it instead of the whole journal.

A snapshot is a journal row like any other (kind `table_snapshot`), inside the hash chain:
editing one breaks the chain, and replay, which always folds from the first row, compares
every snapshot with its own fold and reports one that differs. A snapshot this build cannot
read (another layout, a game it does not know) is ignored: the table folds from the start.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import types
import typing
from enum import Enum
from fractions import Fraction
from typing import Any, Union

from kiosk.rules.cards import Card
from kiosk.rules.errors import UnreadableInput
from kiosk.rules.operations import operation_from_record
from kiosk.rules.registry import GAMES, Registry
from kiosk.store.journal import Journal
from kiosk.table.fold import EMPTY, Folded, TableFacts, fold
from kiosk.table.records import LAYOUT, Snapshot

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 5_000
"""Rows between snapshots: start-up folds at most this many rows however long the journal."""



def take(folded: Folded) -> Snapshot:
    assert folded.game is not None, "nothing to snapshot before a table is opened"
    return Snapshot(folded.seq, folded.game.name, _dumps(folded.state), _dumps(folded.facts))


def restore(snap: Snapshot, games: Registry = GAMES) -> Folded:
    """The table the snapshot holds; `UnreadableInput` if this build cannot read it."""
    if snap.layout != LAYOUT:
        raise UnreadableInput(f"snapshot layout {snap.layout}, this build reads {LAYOUT}")
    spec = games.get(snap.game)
    state_type = type(spec.engine.initial_state(spec.rules(), ""))
    try:
        state = _load(state_type, json.loads(snap.state))
        facts = _load(TableFacts, json.loads(snap.facts))
    except (KeyError, TypeError, ValueError) as exc:
        raise UnreadableInput(f"snapshot of row {snap.covers} is unreadable: {exc}") from exc
    return Folded(spec, state, facts, snap.covers)


def fold_journal(journal: Journal, games: Registry = GAMES) -> Folded:
    """The table folded from `journal`: from its last snapshot that this build can read,
    then the rows after it; from the first row when there is none (`FoldError` as `fold`)."""
    start, after = EMPTY, 0
    row = journal.last_of_kind(Snapshot.kind)
    if row is not None:
        try:
            snap = operation_from_record(row.kind, row.payload)
            assert isinstance(snap, Snapshot)
            start, after = restore(snap, games), row.seq
        except UnreadableInput as exc:
            log.warning("journal %s: %s; folding from the first row", journal.path, exc)
    return fold(journal.entries(after), start, games=games)


def _dumps(value: Any) -> str:
    return json.dumps(_dump(value), sort_keys=True, separators=(",", ":"))


def _dump(value: Any) -> Any:
    """JSON-able data for a state: as the journal encodes records, plus mappings (as sorted
    [key, value] pairs); a float is refused (money is never a float)."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, tuple | list):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return sorted(([_dump(k), _dump(v)] for k, v in value.items()), key=json.dumps)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _dump(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.init}
    raise TypeError(f"cannot snapshot a {type(value).__name__}: {value!r}")


_HINTS: dict[type, dict[str, Any]] = {}


def _load(tp: Any, data: Any) -> Any:
    """The inverse of `_dump`, guided by the type annotation `tp`."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _load(arg, data)
            except (KeyError, TypeError, ValueError):
                continue
        raise ValueError(f"{data!r} fits none of {tp}")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_load(args[0], d) for d in data)
        return tuple(_load(a, d) for a, d in zip(args, data, strict=True))
    if origin in (dict, typing.get_origin(typing.Mapping[str, int])):
        return {_load(args[0], k): _load(args[1], v) for k, v in data}
    if tp is Any or tp is object:
        return data
    if isinstance(tp, type):
        if issubclass(tp, Enum):
            return tp(data)
        if tp is bool or tp is str:
            if not isinstance(data, tp):
                raise TypeError(f"expected {tp.__name__}, got {data!r}")
            return data
        if tp is int:
            if isinstance(data, bool) or not isinstance(data, int):
                raise TypeError(f"expected a whole number, got {data!r}")
            return data
        if tp is Card:
            return Card.parse(data)
        if tp is Fraction:
            return Fraction(data)
        if dataclasses.is_dataclass(tp):
            hints = _HINTS.get(tp)
            if hints is None:
                hints = _HINTS[tp] = typing.get_type_hints(tp)
            return tp(**{f.name: _load(hints[f.name], data[f.name])
                         for f in dataclasses.fields(tp) if f.init and f.name in data})
    raise TypeError(f"cannot read a {tp!r} from a snapshot")
