"""The pit's signed limits stay in force whatever starts the table: the typed console
(`tableside run --console`, a real process syncing to a real pit) takes up a version the pit
published, between rounds and on record, and its next start opens with that version, not
with table.toml's limits (a start once journaled the file's limits again, quietly undoing
the pit's)."""

from __future__ import annotations

import json
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.config import parse
from kiosk.replay import load_entries, replay
from kiosk.rules.baccarat import engine as pb
from kiosk.sync.status import status
from pit.app import open_pit
from tests.pit.conftest import PitServer
from tests.processes import Proc, app_running, tableside

LIMITS_V1 = """\
[punto_banco.limits]
banker = { minimum = 100, maximum = 20000 }
player = { minimum = 100, maximum = 20000 }
tie = { minimum = 20, maximum = 2000 }
"""


@pytest.fixture
def procs() -> Iterator[list[Proc]]:
    started: list[Proc] = []
    yield started
    for proc in started:
        proc.kill()


def _kinds(journal: Path) -> list[tuple[str, dict[str, object]]]:
    """The journal's rows (kind, payload); none while the table has not made it yet."""
    try:
        con = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    try:
        return [(str(kind), json.loads(payload)) for kind, payload in
                con.execute("SELECT kind, payload FROM journal ORDER BY seq")]
    except sqlite3.Error:  # made but not yet its table
        return []
    finally:
        con.close()


def _type(proc: Proc, line: str) -> None:
    assert proc.p.stdin is not None
    proc.p.stdin.write(line + "\n")
    proc.p.stdin.flush()


def test_run_console_takes_up_the_pits_version_and_opens_with_it_next_time(
        tmp_path: Path, procs: list[Proc]) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    token = state.store.enroll("T1")
    server = PitServer(state).start()
    try:
        (tmp_path / "T1.credential").write_text(token)
        journal = tmp_path / "T1.db"
        toml = tmp_path / "table.toml"
        toml.write_text(
            f'[table]\nid = "T1"\nname = "Punto banco 1"\ngame = "punto-banco"\n'
            f'journal = "{journal}"\n[chips]\nsmallest = 5\n'
            f'[devices.shoe]\nport = "simulated"\n'
            f'[sync]\npit = "{server.url}"\ncredential_file = "T1.credential"\n'
            f'pit_key = "{state.configs.public_key}"\n')
        file_minimum = parse(toml.read_text()).rules.limit(pb.BetKind.BANKER).minimum
        assert file_minimum <= 5_000  # R50 is a good bet under the file's own limits
        state.configs.publish("T1", LIMITS_V1, "Thandi")

        first = tableside(tmp_path, procs, "run", "--config", str(toml), "--console")
        first.wait_for_line("Commission owed")
        # The sync brings version 1; the table takes it up at once (no round is in play).
        first.wait_for_line("Table configuration version 1 from the pit")
        _type(first, "shuffle")
        _type(first, "bet 1 banker 50")
        _type(first, "close")  # no more bets: each bet at or above its minimum (rule 2.2)
        first.wait_for_line("refused")
        assert any("R100 minimum" in line for line in first.seen if "refused" in line), \
            first.seen
        _type(first, "remove 1 banker 50")
        _type(first, "quit")
        assert first.p.wait(30) == 0, "\n".join(first.seen)

        rows = _kinds(journal)
        kinds = [kind for kind, _ in rows]
        # Quitting sent the last rows (the bet's removal, typed just before): none left
        # waiting at the table, and its sync says it was stopped, not running.
        assert state.store.head("T1")[0] == len(rows)
        stopped = status(journal)
        assert (stopped.running, stopped.waiting) == (False, 0)
        assert stopped.last_error == "the sync was stopped"
        applied = kinds.index("pit_config_applied")
        assert kinds[applied + 1] == "punto_banco.table_opened"
        assert rows[applied][1]["version"] == 1
        assert [k for k in kinds if k.endswith("table_opened")] == \
            ["punto_banco.table_opened"] * 2  # the file's first, then version 1's

        # The next start (no sync from it: only what the journal holds) opens with version
        # 1: no table_opened with the file's limits, and R50 is refused again.
        second = tableside(tmp_path, procs, "run", "--config", str(toml), "--console",
                           "--no-sync")
        second.wait_for_line("Commission owed")
        _type(second, "bet 2 banker 50")
        _type(second, "close")
        second.wait_for_line("refused")
        assert any("R100 minimum" in line for line in second.seen if "refused" in line), \
            second.seen
        _type(second, "quit")
        assert second.p.wait(30) == 0, "\n".join(second.seen)
        after = [kind for kind, _ in _kinds(journal)]
        assert [k for k in after if k.endswith("table_opened")] == \
            [k for k in kinds if k.endswith("table_opened")]
        assert not any("configuration changed" in line for line in second.seen)
        assert replay(load_entries(journal)).ok
    finally:
        for proc in procs:
            if proc.p.poll() is None:
                proc.stop(signal.SIGTERM)
        server.stop()
        state.close()


def _table(tmp_path: Path, server: PitServer, key: str, token: str) -> tuple[Path, Path]:
    (tmp_path / "T1.credential").write_text(token)
    journal = tmp_path / "T1.db"
    toml = tmp_path / "table.toml"
    toml.write_text(
        f'[table]\nid = "T1"\nname = "Punto banco 1"\ngame = "punto-banco"\n'
        f'journal = "{journal}"\n[chips]\nsmallest = 5\n[devices.shoe]\nport = "simulated"\n'
        f'[display]\nsignage = false\n'
        f'[sync]\npit = "{server.url}"\ncredential_file = "T1.credential"\n'
        f'pit_key = "{key}"\n')
    return toml, journal


def test_run_headless_takes_up_the_pits_version_and_opens_with_it_next_time(
        tmp_path: Path, procs: list[Proc]) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    server = PitServer(state).start()
    try:
        toml, journal = _table(tmp_path, server, state.configs.public_key,
                               state.store.enroll("T1"))
        state.configs.publish("T1", LIMITS_V1, "Thandi")
        first = tableside(tmp_path, procs, "run", "--config", str(toml), "--headless")
        first.wait_for(lambda: "pit_config_applied" in [k for k, _ in _kinds(journal)],
                       "version 1 applied")
        status, _ = first.stop(signal.SIGTERM)
        assert status == 0, "\n".join(first.seen)
        opened = [k for k, _ in _kinds(journal) if k.endswith("table_opened")]
        assert len(opened) == 2  # the file's, then version 1's
        second = tableside(tmp_path, procs, "run", "--config", str(toml), "--headless",
                           "--no-sync")
        second.wait_for(app_running(journal), "the dealer app running")
        status, _ = second.stop(signal.SIGTERM)
        assert status == 0, "\n".join(second.seen)
        rows = _kinds(journal)
        assert [k for k, _ in rows if k.endswith("table_opened")] == opened
        last = [p for k, p in rows if k == "punto_banco.table_opened"][-1]
        assert "10000" in json.dumps(last)  # R100 in cents: version 1's minimum
    finally:
        server.stop()
        state.close()


def test_run_console_restarts_for_a_change_it_cannot_take_live(
        tmp_path: Path, procs: list[Proc]) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    server = PitServer(state).start()
    try:
        toml, journal = _table(tmp_path, server, state.configs.public_key,
                               state.store.enroll("T1"))
        state.configs.publish("T1", '[table]\nname = "High limit 1"\n', "Thandi")
        proc = tableside(tmp_path, procs, "run", "--config", str(toml), "--console")
        proc.wait_for_line("needs a restart: restarting")
        # The same command, started again: it opens with version 1 (the table's new name).
        proc.wait_for_line("Table T1 (High limit 1)")
        _type(proc, "quit")
        assert proc.p.wait(30) == 0, "\n".join(proc.seen)
        kinds = [k for k, _ in _kinds(journal)]
        assert kinds.count("pit_config_applied") == 1
        assert kinds.count("punto_banco.table_opened") == 2
    finally:
        server.stop()
        state.close()
