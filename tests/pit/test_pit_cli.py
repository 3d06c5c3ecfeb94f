"""The pit and sync from the command line, as a technician runs them: enrol a table, serve
the pit, sync the table, read the sync's status, verify the journal against the pit's head."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from kiosk.config import example
from kiosk.store.journal import Journal, head_of
from tests.pit.conftest import free_port
from tests.pit.day import Day
from tests.pit.helpers import rehash_from, rewrite_journal, wire_rows

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TABLESIDE_PIT_KEY", None)  # the key beside the pit's SQLite file, as by default
    return env


def tableside(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.cli", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=60, env=_env())


def test_enrol_serve_sync_status_and_verify(tmp_path: Path) -> None:
    port = free_port()
    enrolled = tableside("pit", "enroll", "PB-01", "--db", "pit.db", "--pit-url",
                         f"http://127.0.0.1:{port}", "--credential-out",
                         "data/PB-01.credential", cwd=tmp_path)
    assert enrolled.returncode == 2
    assert enrolled.stderr == ("tableside: cannot write the credential to data/PB-01.credential: "
                               "No such file or directory\n")
    (tmp_path / "data").mkdir()
    enrolled = tableside("pit", "enroll", "PB-01", "--db", "pit.db", "--pit-url",
                         f"http://127.0.0.1:{port}", "--credential-out",
                         "data/PB-01.credential", cwd=tmp_path)
    assert enrolled.returncode == 0, enrolled.stderr
    key = tableside("pit", "key", "--db", "pit.db", cwd=tmp_path).stdout.strip()
    assert len(key) == 64 and (tmp_path / "pit.key").stat().st_mode & 0o777 == 0o600
    assert enrolled.stdout == (f'[sync]\npit = "http://127.0.0.1:{port}"\n'
                               'credential_file = "data/PB-01.credential"\n'
                               f'pit_key = "{key}"\n')
    credential = tmp_path / "data" / "PB-01.credential"
    assert credential.stat().st_mode & 0o777 == 0o600
    assert tableside("pit", "enroll", "bad id!", "--db", "pit.db",
                     cwd=tmp_path).stderr.startswith("tableside: 'bad id!' is not a table id")
    added = tableside("pit", "inspector", "Sipho", "--db", "pit.db", "--password-stdin",
                      cwd=tmp_path, stdin="short\n")
    assert added.returncode == 2 and "at least 10 characters" in added.stderr

    config = example("punto-banco").replace('id = "PB-01"', 'id = "PB-01"')
    (tmp_path / "table.toml").write_text(config + "\n" + enrolled.stdout, encoding="utf-8")
    journal = Journal.open(tmp_path / "data" / "PB-01.db", "PB-01")
    Day(journal).play(20)

    status = tableside("sync", "status", "--config", "table.toml", cwd=tmp_path)
    assert status.returncode == 1
    # No sync has run yet (no state beside the journal): not running, not "not connected".
    assert status.stdout.startswith("Sync not running (no word from it ever): nothing "
                                    f"acknowledged yet; {journal.count()} rows waiting, the "
                                    f"oldest for ")

    pit = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "pit", "serve", "--db",
                            "pit.db", "--port", str(port)], cwd=tmp_path, env=_env(),
                           stderr=subprocess.PIPE, text=True)
    sync = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "sync", "run", "--config",
                             "table.toml"], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status = tableside("sync", "status", "--config", "table.toml", cwd=tmp_path)
            if status.returncode == 0 and "; 0 rows waiting" in status.stdout:
                break
            time.sleep(0.2)
        assert status.stdout.startswith(f"Sync connected: last acknowledged row "
                                        f"{journal.count()} at ")
        answer = httpx.get(f"http://127.0.0.1:{port}/api/v1/tables/PB-01/head",
                           headers={"Authorization": "Bearer "
                                    + credential.read_text().splitlines()[0]})
        held = answer.json()
        assert (held["seq"], held["hash"]) == head_of(journal.path)
        # The sync anchored the head with the key enrolment wrote into the credential file,
        # and the journal is checked against the pit's anchors through the table's config.
        assert held["anchor"] == {"seq": held["seq"], "hash": held["hash"]}
        checked = tableside("journal", "verify", "data/PB-01.db", "--config", "table.toml",
                            cwd=tmp_path)
        assert checked.returncode == 0, checked.stderr
        assert f"anchored at http://127.0.0.1:{port} (newest row {held['seq']})" \
            in checked.stdout
    finally:
        sync.terminate()
        pit.terminate()
        assert sync.wait(10) == 0
        # uvicorn shuts down cleanly on SIGTERM, then ends by the signal, as a daemon should.
        assert pit.wait(10) in (0, -signal.SIGTERM)
    rows_synced = journal.count()
    journal.close()
    logged = pit.stderr.read()  # the pit's log, one line each (journald keeps stderr)
    assert "pit.api: PB-01: " in logged and " row(s) stored, " in logged
    assert f"pit.api: PB-01: head anchored at row {held['seq']}" in logged
    assert '"POST /api/v1/tables/PB-01/rows HTTP/1.1" 200' in logged  # the access log
    assert "Finished server process" in logged  # and its stop
    said = sync.stderr.read()  # it said where it stopped, and that it is stopped
    assert f"last acknowledged row {rows_synced} at " in said
    assert "the sync was stopped" in said

    verified = tableside("journal", "verify", "data/PB-01.db", cwd=tmp_path)
    assert verified.returncode == 0
    assert verified.stdout.rstrip().endswith(f"row {head_of(journal.path)[0]} is the row the "
                                             "pit acknowledged")
    rows = wire_rows(journal.path)
    rewrite_journal(journal.path, rehash_from(rows, 3, {"area": "1", "kind": "banker",
                                                        "amount": 50}))
    verified = tableside("journal", "verify", "data/PB-01.db", cwd=tmp_path)
    assert verified.returncode == 1
    assert f"BROKEN at row {len(rows)}: row {len(rows)} is not the row the pit server " \
           "acknowledged (hash differs)" in verified.stdout


def test_publish_a_tables_configuration_from_the_command_line(tmp_path: Path) -> None:
    assert tableside("pit", "enroll", "PB-01", "--db", "pit.db", cwd=tmp_path).returncode == 0
    (tmp_path / "limits.toml").write_text("[punto_banco.limits]\n"
                                          "banker = { minimum = 100, maximum = 20000 }\n")
    (tmp_path / "bad.toml").write_text("[punto_banco]\nareas = 20\n")
    bad = tableside("pit", "config", "PB-01", "--db", "pit.db", "--file", "bad.toml",
                    cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.startswith("tableside: not published: the configuration, line 2: "
                                 "punto_banco.areas")
    done = tableside("pit", "config", "PB-01", "--db", "pit.db", "--file", "limits.toml",
                     "--by", "Thandi", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Table PB-01: version 1 published and signed")
    shown = tableside("pit", "config", "PB-01", "--db", "pit.db", cwd=tmp_path)
    assert shown.stdout.startswith("# version 1, ") and "by Thandi" in shown.stdout
    assert "banker = { minimum = 100, maximum = 20000 }" in shown.stdout
    nobody = tableside("pit", "config", "XX-9", "--db", "pit.db", "--file", "limits.toml",
                       cwd=tmp_path)
    assert nobody.returncode == 2 and "no table XX-9 is enrolled" in nobody.stderr
