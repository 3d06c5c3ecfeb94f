"""Journal export as JSON Lines, and reading an export back to verify it elsewhere.

One canonical JSON object a line, keys exactly seq, table_id, wall_time, kind, payload,
prev_hash, hash, with the payload as an object; in seq order. An auditor can recompute the chain
from the export alone (`verify_entries(read_jsonl(f))`) without the database.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from kiosk.rules.errors import UnreadableInput
from kiosk.store.canonical import canonical_json, is_hash, loads_strict
from kiosk.store.journal import Entry, Journal, iter_entries

FIELDS = frozenset({"seq", "table_id", "wall_time", "kind", "payload", "prev_hash", "hash"})


class BadExportLine(UnreadableInput):
    """A line of a journal export that is not a well-formed row; `line` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        super().__init__(f"journal export line {line}: {problem}")


def export_jsonl(source: Journal | str | Path, out: TextIO) -> int:
    """Write every row of `source` to `out` (opened as UTF-8 text); return the number of rows."""
    entries = source.entries() if isinstance(source, Journal) else iter_entries(source)
    written = 0
    for entry in entries:
        out.write(canonical_json(_as_object(entry)) + "\n")
        written += 1
    return written


def export_jsonl_file(source: Journal | str | Path, path: str | Path) -> int:
    """Write every row of `source` to the file at `path`, made mode 0600 as the journal is
    (an existing file is overwritten and made 0600 too); return the number of rows."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with open(fd, "w", encoding="utf-8") as out:
        if stat.S_IMODE(os.fstat(fd).st_mode) & 0o077:
            with contextlib.suppress(OSError):  # not ours to change: the rows still go
                os.fchmod(fd, 0o600)
        return export_jsonl(source, out)


def _as_object(entry: Entry) -> dict[str, object]:
    return {
        "seq": entry.seq,
        "table_id": entry.table_id,
        "wall_time": entry.wall_time,
        "kind": entry.kind,
        "payload": entry.payload,
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
    }


def read_jsonl(lines: Iterable[str]) -> Iterator[Entry]:
    """Parse an export line by line; BadExportLine (an UnreadableInput) names a bad line.

    Only the shape is checked here (keys, types); `verify_entries` checks the chain. Blank lines
    are skipped.
    """
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = loads_strict(line)
        except ValueError as exc:
            raise BadExportLine(number, f"not valid JSON ({exc})") from exc
        yield _entry_from_object(number, value)


def _entry_from_object(number: int, value: object) -> Entry:
    if not isinstance(value, dict):
        raise BadExportLine(number, "not a JSON object")
    keys = set(value)
    if keys != FIELDS:
        missing = ", ".join(sorted(FIELDS - keys))
        extra = ", ".join(sorted(keys - FIELDS))
        parts = [f"missing {missing}"] if missing else []
        parts += [f"unexpected {extra}"] if extra else []
        raise BadExportLine(number, "keys: " + "; ".join(parts))
    seq = value["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise BadExportLine(number, f"seq {seq!r} is not a positive integer")
    for key in ("table_id", "wall_time", "kind"):
        if not isinstance(value[key], str) or not value[key]:
            raise BadExportLine(number, f"{key} {value[key]!r} is not a non-empty string")
    for key in ("prev_hash", "hash"):
        if not is_hash(value[key]):
            raise BadExportLine(number, f"{key} {value[key]!r} is not 64 lowercase hex digits")
    if not isinstance(value["payload"], dict):
        raise BadExportLine(number, "payload is not a JSON object")
    return Entry(
        seq=seq,
        table_id=value["table_id"],
        wall_time=value["wall_time"],
        kind=value["kind"],
        payload=value["payload"],
        prev_hash=value["prev_hash"],
        hash=value["hash"],
    )
