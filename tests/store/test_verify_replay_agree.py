"""`journal verify` and `replay` agree on every journal: each reproduction below once passed
replay (exit 0) while verify called the same file BROKEN, or crashed, or was refused."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from kiosk.cli import main
from kiosk.store.journal import Journal, head_of, iter_entries
from kiosk.sync import state as sync_state
from tests.pit.day import Day
from tests.pit.helpers import rehash_from, rewrite_journal, wire_rows


def _day(path: Path, coups: int = 3) -> Path:
    journal = Journal.open(path, "PB-01")
    Day(journal).play(coups)
    journal.close()
    return path


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_a_payload_with_its_whitespace_rewritten_fails_both(tmp_path: Path) -> None:
    path = _day(tmp_path / "PB-01.db")
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER journal_no_update")
    # The same JSON value, other bytes: the hash was over the bytes.
    conn.execute("UPDATE journal SET payload = replace(payload, ',', ', ') WHERE seq = 3")
    conn.commit()
    conn.close()
    verified = _run("journal", "verify", str(path))
    assert verified.exit_code == 1
    assert verified.output.startswith("BROKEN at row 3: row 3: payload is not in canonical "
                                      "form (rewritten)")
    replayed = _run("replay", str(path))
    assert replayed.exit_code == 1
    assert "chain BROKEN: row 3: payload is not in canonical form" in replayed.output
    assert _run("replay", str(path), "--json").exit_code == 1


def test_a_head_other_than_the_acknowledged_one_fails_both(tmp_path: Path) -> None:
    path = _day(tmp_path / "PB-01.db")
    seq, digest = head_of(path)
    sync_state.save(sync_state.state_path(path),
                    sync_state.SyncState(acked_seq=seq, acked_hash=digest))
    rows = wire_rows(path)
    rewrite_journal(path, rehash_from(rows, 4, {"area": "1", "kind": "banker",
                                                "amount": 1}))
    why = f"row {seq} is not the row the pit server acknowledged (hash differs)"
    verified = _run("journal", "verify", str(path))
    assert verified.exit_code == 1 and why in verified.output
    replayed = _run("replay", str(path))
    assert replayed.exit_code == 1 and f"chain BROKEN: {why}" in replayed.output
    # --head names the head as the pit holds it, in both.
    assert _run("replay", str(path), "--head", f"{seq}:{digest}").exit_code == 1
    assert _run("journal", "verify", str(path), "--head", f"{seq}:{digest}").exit_code == 1


def test_an_empty_file_is_no_journal_to_either(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    replayed = _run("replay", str(empty))
    assert replayed.exit_code == 1
    assert "chain BROKEN: the file is empty: it holds no journal rows" in replayed.output
    verified = _run("journal", "verify", str(empty))
    assert verified.exit_code == 1
    assert "the file is empty: it holds no journal rows" in verified.output


def test_random_bytes_are_refused_in_one_line_not_a_traceback(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    data = random.Random(5).randbytes(5 * 1024)
    junk.write_bytes(data)
    for args in (["replay", str(junk)], ["journal", "verify", str(junk)]):
        result = _run(*args)
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tableside: ")
        assert "neither a journal database nor a journal export" in lines[0]
        assert "Traceback" not in result.output


def test_journal_verify_reads_the_export_as_replay_does(tmp_path: Path) -> None:
    path = _day(tmp_path / "PB-01.db")
    out = tmp_path / "out.jsonl"
    assert _run("journal", "export", str(path), "-o", str(out)).exit_code == 0
    rows = len(list(iter_entries(path)))
    verified = _run("journal", "verify", str(out))
    assert verified.exit_code == 0, verified.output
    assert verified.output.startswith(f"OK: {rows} rows, head {head_of(path)[1]}")
    assert _run("replay", str(out)).exit_code == 0
    # An edited line of the export: both say where.
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = lines[4].replace('"seq":5,', '"seq":5,', 1).replace('"coup":1', '"coup":9', 1)
    assert '"coup":9' in lines[4]
    out.write_text("".join(lines), encoding="utf-8")
    verified = _run("journal", "verify", str(out))
    assert verified.exit_code == 1
    assert verified.output.startswith("BROKEN at row 5: row 5 was edited")
    replayed = _run("replay", str(out))
    assert replayed.exit_code == 1 and "chain BROKEN: row 5 was edited" in replayed.output
