"""The tamper-evident journal: Operations appended durably to SQLite, hash-chained."""

from kiosk.store.canonical import GENESIS_HASH, canonical_json, chain_hash
from kiosk.store.export import BadExportLine, export_jsonl, read_jsonl
from kiosk.store.journal import (
    Entry,
    Journal,
    JournalError,
    JournalWriteError,
    VerifyReport,
    WriteFailure,
    iter_entries,
    verify,
    verify_entries,
)

__all__ = [
    "GENESIS_HASH",
    "BadExportLine",
    "Entry",
    "Journal",
    "JournalError",
    "JournalWriteError",
    "VerifyReport",
    "WriteFailure",
    "canonical_json",
    "chain_hash",
    "export_jsonl",
    "iter_entries",
    "read_jsonl",
    "verify",
    "verify_entries",
]
