"""What the pit does with a table's batch of journal rows: pure checks, no database.

The pit holds each table's chain up to a head (seq, hash). A batch is read in order:
- a row at or below the head that is the very row the pit holds is a resend: counted, not stored
  again (ingest is idempotent by table and seq);
- the row after the head must link to the head's hash and hash to its own content; it extends
  the chain;
- a row that differs from the one the pit holds, that does not link, or whose content does not
  match its hash breaks the chain: it and the rest of the batch are quarantined (kept, flagged,
  alerted), never merged;
- a row beyond the head + 1 leaves a gap: the batch stops there and the table is told the head
  to resume from;
- a row at a seq the table anchored (its signed head, sent ahead of the rows) must be that very
  row: when it is not, the journal was rewritten after the anchor. The rows from the last point
  that still matched (the pit's head, or an earlier anchor) are quarantined with it, and the
  pit raises a STOP alert: rows forged before an anchor never reach the pit's record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.store.canonical import canonical_json, chain_hash, is_hash, is_wall_time, loads_strict
from kiosk.store.journal import Entry
from pit.limits import check_depth

MAX_ROWS = 2000
"""Rows in one batch at most (the table sends 500)."""

_FIELDS = ("seq", "table_id", "wall_time", "kind", "payload", "prev_hash", "hash")


class BadBatch(ValueError):
    """The body is not a batch of journal rows (HTTP 400); the message says what is wrong."""


class ForeignRow(ValueError):
    """A row of another table than the credential's (HTTP 403)."""


@dataclass(frozen=True, slots=True)
class WireRow:
    """One journal row as the table sends it: the payload as the exact text it hashed."""

    seq: int
    table_id: str
    wall_time: str
    kind: str
    payload: str
    prev_hash: str
    hash: str

    def as_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _FIELDS}

    def entry(self) -> Entry:
        """The row as the journal reads it (payload parsed), for the fold and replay."""
        value = loads_strict(self.payload)
        return Entry(self.seq, self.table_id, self.wall_time, self.kind,
                     value if isinstance(value, dict) else {}, self.prev_hash, self.hash)

    def values(self) -> tuple[int, str, str, str, str, str, str]:
        return (self.seq, self.table_id, self.wall_time, self.kind, self.payload,
                self.prev_hash, self.hash)


def parse_batch(body: object, table_id: str) -> tuple[list[WireRow], int]:
    """The rows of a request body `{"rows": [...], "waiting": n}` from table `table_id`, and the
    rows it says still wait on the table. Raises BadBatch or ForeignRow."""
    if not isinstance(body, Mapping) or not isinstance(body.get("rows"), list):
        raise BadBatch('the body must be a JSON object with a list "rows"')
    raw_rows: list[Any] = body["rows"]
    if len(raw_rows) > MAX_ROWS:
        raise BadBatch(f"{len(raw_rows)} rows in one batch; at most {MAX_ROWS}")
    waiting = body.get("waiting", 0)
    if not isinstance(waiting, int) or isinstance(waiting, bool) or waiting < 0:
        raise BadBatch('"waiting" must be a whole number of rows, 0 or more')
    rows = [_row(raw, i) for i, raw in enumerate(raw_rows)]
    for i, row in enumerate(rows):
        if row.table_id != table_id:
            raise ForeignRow(f"row {row.seq} belongs to table {row.table_id!r}; this credential "
                             f"writes only table {table_id!r}")
        if i and row.seq != rows[i - 1].seq + 1:
            raise BadBatch(f"rows must be consecutive: row {row.seq} follows row "
                           f"{rows[i - 1].seq}")
    return rows, waiting


def _row(raw: object, index: int) -> WireRow:
    where = f"rows[{index}]"
    if not isinstance(raw, Mapping):
        raise BadBatch(f"{where} is not an object")
    missing = [name for name in _FIELDS if name not in raw]
    if missing:
        raise BadBatch(f"{where} lacks {', '.join(missing)}")
    extra = sorted(set(raw) - set(_FIELDS))
    if extra:
        raise BadBatch(f"{where} has unknown fields {', '.join(extra)}")
    seq = raw["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise BadBatch(f"{where}.seq must be a whole number from 1")
    for name in _FIELDS[1:]:
        if not isinstance(raw[name], str):
            raise BadBatch(f"{where}.{name} must be text")
    if not raw["table_id"] or not raw["kind"]:
        raise BadBatch(f"{where}: table_id and kind must not be empty")
    return WireRow(seq, raw["table_id"], raw["wall_time"], raw["kind"], raw["payload"],
                   raw["prev_hash"], raw["hash"])


def content_problem(row: WireRow) -> str:
    """Why the row's fields do not make its hash ("" when they do)."""
    if not is_wall_time(row.wall_time):
        return f"row {row.seq} has wall_time {row.wall_time!r}, not UTC ISO 8601 with ms and Z"
    if not is_hash(row.prev_hash) or not is_hash(row.hash):
        return f"row {row.seq} has a malformed hash field"
    try:
        check_depth(row.payload)  # before parsing: the parser recurses
        value = loads_strict(row.payload)
    except ValueError as exc:  # TooDeep is one
        return f"row {row.seq}'s payload is not valid JSON ({exc})"
    if not isinstance(value, dict) or canonical_json(value) != row.payload:
        return f"row {row.seq}'s payload is not a canonical JSON object"
    digest = chain_hash(row.prev_hash, row.table_id, row.seq, row.wall_time, row.kind,
                        row.payload)
    if digest != row.hash:
        return f"row {row.seq} was edited: its content does not match its hash"
    return ""


@dataclass(slots=True)
class Checked:
    """The verdict on one batch against the pit's head."""

    accept: list[WireRow] = field(default_factory=list)
    duplicates: int = 0
    quarantine: list[tuple[WireRow, str]] = field(default_factory=list)
    break_reason: str = ""
    expected_seq: int | None = None  # set when the batch skipped rows: resume from here
    anchor_broken: bool = False  # the break is a row that differs from an anchored head

    @property
    def head(self) -> tuple[int, str] | None:
        return (self.accept[-1].seq, self.accept[-1].hash) if self.accept else None


def check_batch(head: tuple[int, str], rows: Sequence[WireRow],
                held: Mapping[int, str], anchors: Mapping[int, str] | None = None) -> Checked:
    """Check `rows` (consecutive, one table) against the pit's `head`; `held` maps the seqs of
    this batch the pit already holds to their hashes, `anchors` the seqs of this batch the
    table anchored to the hashes it anchored."""
    seq, digest = head
    out = Checked()
    anchors = anchors or {}
    sure = 0  # rows of out.accept known good: up to the head, or to a matching anchor
    for index, row in enumerate(rows):
        if row.seq <= seq:
            problem = content_problem(row)
            if held.get(row.seq) == row.hash and not problem:
                out.duplicates += 1
                continue
            why = problem or (f"row {row.seq} differs from the row {row.seq} the pit already "
                              "holds: the table's journal was changed after it was sent")
            _quarantine(out, rows[index:], why)
            return out
        if row.seq > seq + 1:
            out.expected_seq = seq + 1
            return out
        problem = content_problem(row)
        if not problem and row.prev_hash != digest:
            problem = (f"chain break: row {row.seq} does not follow row {seq} the pit holds "
                       "(its prev_hash differs)")
        if problem:
            _quarantine(out, rows[index:], problem)
            return out
        anchored = anchors.get(row.seq)
        if anchored is not None and anchored != row.hash:
            after = out.accept[sure - 1].seq if sure else head[0]
            span = (f"row {row.seq}" if after + 1 == row.seq
                    else f"one of rows {after + 1}–{row.seq}")
            why = (f"STOP: row {row.seq} is not the row the table anchored at the pit "
                   f"(hash {anchored[:12]}…): its journal was rewritten after the anchor; "
                   f"the first row that differs is {span}")
            suspect, out.accept = out.accept[sure:], out.accept[:sure]
            _quarantine(out, [*suspect, *rows[index:]], why)
            out.anchor_broken = True
            return out
        out.accept.append(row)
        if anchored is not None:
            sure = len(out.accept)
        seq, digest = row.seq, row.hash
    return out


def _quarantine(out: Checked, rows: Sequence[WireRow], why: str) -> None:
    out.break_reason = why
    first = rows[0].seq
    out.quarantine = [(row, why if row.seq == first else f"follows quarantined row {first}")
                      for row in rows]
