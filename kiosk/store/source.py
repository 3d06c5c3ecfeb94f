"""A journal as an auditor is handed it: the SQLite database or its JSONL export, told apart
by the first bytes, read and checked the same way by `journal verify` and `replay`.

Both commands check the chain here, from the bytes as stored (a payload whose JSON text was
rewritten is an edit, even when it parses to the same value), against the same outside
anchors (the head the pit acknowledged, the heads it anchored), so they never disagree.
An empty file, or one that is neither a database nor an export, is refused in one line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from kiosk.rules.errors import UnreadableInput
from kiosk.store.canonical import GENESIS_HASH
from kiosk.store.export import read_jsonl
from kiosk.store.journal import Entry, VerifyReport, iter_entries, verify, verify_entries

SQLITE_MAGIC = b"SQLite format 3\x00"


def kind_of(path: str | Path) -> str:
    """"sqlite", "jsonl" or "empty" for the file at `path`; UnreadableInput when it cannot be
    read."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise UnreadableInput(f"{path}: cannot read: {exc.strerror}") from exc
    if not head:
        return "empty"
    return "sqlite" if head.startswith(SQLITE_MAGIC) else "jsonl"


def _lines(path: Path) -> Iterator[str]:
    """The export's lines as text; a byte that is not UTF-8 is refused with its line."""
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UnreadableInput(
                    f"{path}: neither a journal database nor a journal export (line {number} "
                    f"is not UTF-8 text: byte {exc.start + 1})") from exc


def load_entries(source: str | Path) -> list[Entry]:
    """Entries from a journal database or a JSONL export (told apart by their first bytes);
    UnreadableInput, in one line, for anything else."""
    path = Path(source)
    kind = kind_of(path)
    if kind == "empty":
        return []
    if kind == "sqlite":
        return list(iter_entries(path))
    return list(read_jsonl(_lines(path)))


def verify_source(source: str | Path, *, anchors: Mapping[int, str] | None = None
                  ) -> VerifyReport:
    """Recompute the chain of a database or an export from row 1 and check that every
    anchored head in `anchors` (seq -> hash: the pit's) is a row of it, unchanged.
    An empty file, or an export with no rows, is not a journal anyone can vouch for: it is
    reported bad (a database the table just created, with no rows yet, is a journal)."""
    path = Path(source)
    kind = kind_of(path)
    if kind == "empty":
        return VerifyReport(False, 0, 1, "the file is empty: it holds no journal rows",
                            GENESIS_HASH)
    if kind == "sqlite":
        report = verify(path, anchors=anchors)
    else:
        report = verify_entries(read_jsonl(_lines(path)), anchors=anchors)
    if kind == "jsonl" and report.ok and report.rows == 0:
        return VerifyReport(False, 0, 1, "the export holds no journal rows", GENESIS_HASH)
    return report
