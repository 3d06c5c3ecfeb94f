"""`tableside demo --fresh` deletes only a demo's own journal and pit: a copy of a real
table's journal, or a file that is no journal, is refused with the reason and left byte for
byte; a place it cannot delete from (a read-only mount) is one line, never a traceback."""

from __future__ import annotations

import errno
import hashlib
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.config import example
from kiosk.store.journal import Journal
from tests.test_cli_errors import one_format, tableside

DEMO = ["demo", "--console", "--rounds", "1", "--pace", "0", "--no-pit", "--fresh"]


def _journal(path: Path, table_id: str) -> str:
    journal = Journal.open(path, table_id)
    journal.append("note", {"text": "a row the table wrote"})
    journal.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_fresh_refuses_a_real_tables_journal_and_leaves_it_whole(tmp_path: Path) -> None:
    digest = _journal(tmp_path / "x.db", "PB-07")
    out = tableside(tmp_path, *DEMO, "--journal", "x.db")
    assert out.returncode == 2, out.stdout + out.stderr
    one_format(out.stderr)
    assert out.stderr == (
        f"tableside: --fresh deletes only the demo's own journal and pit: {tmp_path}/x.db "
        "holds table PB-07's rows, not the demo's (DEMO-1); it is left as it is (name "
        "another --journal)\n".replace(f"{tmp_path}/x.db", "x.db"))
    assert hashlib.sha256((tmp_path / "x.db").read_bytes()).hexdigest() == digest
    assert Journal.open(tmp_path / "x.db", "PB-07").last().payload == {  # type: ignore
        "text": "a row the table wrote"}


def test_fresh_refuses_a_file_that_is_no_journal_and_a_pit_of_other_tables(
        tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_text("the shift's notes, not a journal\n")
    out = tableside(tmp_path, *DEMO, "--journal", "notes.db")
    assert out.returncode == 2 and "notes.db cannot be read as a Tableside journal" in \
        out.stderr, out.stderr
    one_format(out.stderr)
    assert (tmp_path / "notes.db").read_text() == "the shift's notes, not a journal\n"
    from pit.app import open_pit

    _journal(tmp_path / "demo.db", "DEMO-1")
    pit = open_pit(str(tmp_path / "demo-pit.db"), tmp_path / "demo-pit.key")
    pit.store.enroll("PB-07")
    out = tableside(tmp_path, *DEMO, "--journal", "demo.db")
    assert out.returncode == 2 and "demo-pit.db holds table PB-07's rows, not the demo's" in \
        out.stderr, out.stderr
    assert (tmp_path / "demo.db").exists() and (tmp_path / "demo-pit.db").exists()


def test_fresh_deletes_the_demos_own_journal_and_starts_again(tmp_path: Path) -> None:
    _journal(tmp_path / "demo.db", "DEMO-1")
    out = tableside(tmp_path, *DEMO, "--journal", "demo.db")
    assert out.returncode == 0, out.stderr
    journal = Journal.open(tmp_path / "demo.db", "DEMO-1", read_only=True)
    kinds = [e.kind for e in journal.entries()]
    journal.close()
    assert "note" not in kinds and kinds  # the old row is gone; the new demo's are there


def test_fresh_on_a_read_only_place_is_one_line(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's own journal on a mount that refuses to delete (EROFS): one line, exit 2,
    the journal still there."""
    _journal(tmp_path / "demo.db", "DEMO-1")
    real = Path.unlink

    def read_only(self: Path, missing_ok: bool = False) -> None:
        if self.parent == tmp_path:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        real(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", read_only)
    out = CliRunner().invoke(main, [*DEMO, "--journal", str(tmp_path / "demo.db")])
    assert out.exit_code == 2, out.output
    assert out.stderr == (f"tableside: --fresh: cannot delete {tmp_path / 'demo.db'}: "
                          "Read-only file system\n")
    assert (tmp_path / "demo.db").exists()


def test_fresh_on_a_real_read_only_mount(tmp_path: Path) -> None:
    """The same on a real read-only tmpfs, where this machine lets the tests mount one."""
    ro = tmp_path / "ro"
    ro.mkdir()
    staging = tmp_path / "staging"
    staging.mkdir()
    _journal(staging / "demo.db", "DEMO-1")
    if os.geteuid() != 0 or subprocess.run(["mount", "--bind", str(staging), str(ro)],
                                           capture_output=True).returncode != 0:
        pytest.skip("no permission to mount here")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(ro)],
                          capture_output=True).returncode != 0:
            pytest.skip("no permission to remount read-only here")
        for extra, words in (([], f"--journal: {ro}/demo.db cannot be written: {ro} is on a "
                                  "read-only mount"),
                             (["--fresh"], f"--fresh: cannot delete {ro}/demo.db: Read-only "
                                           "file system")):
            args = [a for a in DEMO if a != "--fresh"] + extra
            out = tableside(tmp_path, *args, "--journal", str(ro / "demo.db"))
            assert out.returncode == 2, out.stdout + out.stderr
            one_format(out.stderr)
            assert out.stderr == f"tableside: {words}\n"
        assert (ro / "demo.db").exists()
        table = tmp_path / "table.toml"  # config check and run: the line and the reason
        table.write_text(example("punto-banco").replace('"data/PB-01.db"',
                                                        f'"{ro}/PB-01.db"'))
        for args in (["config", "check", str(table)], ["run", "--config", str(table),
                                                       "--console"]):
            out = tableside(tmp_path, *args)
            assert out.returncode == 2
            assert out.stderr == (f"tableside: {table}, line 7: table.journal: {ro}/PB-01.db "
                                  f"cannot be written: {ro} is on a read-only mount\n")
    finally:
        subprocess.run(["umount", str(ro)], capture_output=True)
