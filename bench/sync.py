"""The sync and the pit: figures, no assertions (the targets in brackets).

    .venv/bin/python bench/sync.py [--quick]

1. A backlog of 100,000 journal rows to PostgreSQL (< 30 s), stopped half-way and resumed.
2. Frame-to-commit over a pty with the sync running beside the table, against without
   (adds < 1 ms to the p99).
3. The dashboard's update latency: a table's commit to the live event a dashboard receives
   (p95 < 2 s); 3b. the same with the table syncing to another pit process on PostgreSQL;
   3c. the same while many other tables (50, or 100; --tables N) play and sync to that pit,
   with the time a dashboard takes to fetch the floor of them all (live pages fetch it at
   most every 250 ms).
4. Ingest with 200 tables syncing at once to one pit: rows/s.

`--busy-floor` runs 3c alone; `--frame-to-commit` runs 2 alone (`--runs N` times, 1 by
default), without PostgreSQL.

PostgreSQL runs from Debian's packages with its default durability (fsync on), started here
in a temporary folder; the pit server runs as its own process for 1 and 4, as in production.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.frame_to_commit import measure  # noqa: E402
from kiosk.store.journal import Journal, head_of  # noqa: E402
from kiosk.sync.client import SyncClient  # noqa: E402
from pit.app import open_pit  # noqa: E402
from tests.pit.conftest import PitServer  # noqa: E402
from tests.pit.day import Day  # noqa: E402
from tests.pit.pg import free_port, running_postgres  # noqa: E402

QUICK = "--quick" in sys.argv


def serve(db_url: str, key: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A pit process on `db_url`, signing with `key` (the one the database was first used
    with: a pit with another key refuses to start)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "pit", "serve", "--db", db_url, "--port",
         str(port), "--key", str(key)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/api/v1/health", timeout=0.5).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError("the pit did not start")


def journal_of(folder: Path, table_id: str, rows: int, seed: int = 1) -> Journal:
    journal = Journal.open(folder / f"{table_id}.db", table_id)
    day = Day(journal, seed)
    while journal.count() < rows:
        day.play(50)
    return journal


def backlog(pg_url: str, folder: Path) -> None:
    rows = 20_000 if QUICK else 100_000
    journal = journal_of(folder, "PB-BACKLOG", rows)
    total = journal.count()
    state = open_pit(pg_url, folder / "pit.key")
    token = state.store.enroll("PB-BACKLOG")
    state.store.db.close()
    process, url = serve(pg_url, folder / "pit.key")
    try:
        client = SyncClient(journal.path, "PB-BACKLOG", url, token)
        start = time.perf_counter()
        while client.state.acked_seq < total // 2:
            client.step()
        first = time.perf_counter() - start
        client.close()  # stopped half-way (a restart of the table, a cut)
        client = SyncClient(journal.path, "PB-BACKLOG", url, token)
        start2 = time.perf_counter()
        client.sync_all()
        second = time.perf_counter() - start2
        client.close()
        done = client.state.head == head_of(journal.path)
    finally:
        process.terminate()
        process.wait()
    elapsed = first + second
    print(f"1. backlog of {total:,} rows to PostgreSQL (fsync on), batches of 500: "
          f"{elapsed:.1f} s ({total / elapsed:,.0f} rows/s) [target < 30 s for 100,000]; "
          f"stopped at row {total // 2:,}+ and resumed: heads equal {done}")
    journal.close()


def frame_to_commit(folder: Path) -> None:
    cards = 300 if QUICK else 1000
    off = asyncio.run(measure(cards, folder / "off.db"))
    pit_db = str(folder / "pit-f2c.db")
    state = open_pit(pit_db, folder / "pit-f2c.key")
    token = state.store.enroll("BENCH")
    state.store.db.close()
    # The pit is another machine in production: not this process.
    process, url = serve(pit_db, folder / "pit-f2c.key")
    db = folder / "on.db"
    Journal.open(db, "BENCH").close()
    client = SyncClient(db, "BENCH", url, token, idle=0.05)
    client.start()
    try:
        on = asyncio.run(measure(cards, db))
    finally:
        client.stop()
        process.terminate()
        process.wait()
    q_off, q_on = statistics.quantiles(off, n=100), statistics.quantiles(on, n=100)
    print(f"2. frame-to-commit over a pty, {cards} CARD frames: without sync p50 "
          f"{q_off[49]:.2f} ms p99 {q_off[98]:.2f} ms max {max(off):.2f} ms; with the sync "
          f"running (pit in its own process) p50 {q_on[49]:.2f} ms p99 {q_on[98]:.2f} ms "
          f"max {max(on):.2f} ms; the sync adds "
          f"{q_on[98] - q_off[98]:+.2f} ms to the p99 [target < 1 ms]; synced up to row "
          f"{client.state.acked_seq}")


def dashboard_latency(folder: Path, pg_url: str | None = None) -> None:
    """3. with the table syncing to the dashboard's own pit (SQLite); 3b. with `pg_url`,
    syncing to another pit process on the same PostgreSQL, its events passed on by NOTIFY."""
    state = open_pit(pg_url or str(folder / "pit-live.db"), folder / "pit.key")
    state.inspectors.add("bench", "bench-password")
    token = state.store.enroll("PB-LIVE")
    server = PitServer(state).start()
    session = state.inspectors.login("bench", "bench-password")
    other = serve(pg_url, folder / "pit.key") if pg_url else None
    journal = Journal.open(folder / f"live-{bool(pg_url)}.db", "PB-LIVE")
    day = Day(journal)
    client = SyncClient(journal.path, "PB-LIVE", other[1] if other else server.url, token)
    client.start()
    heard: dict[int, float] = {}
    ready = threading.Event()

    def listen() -> None:
        with httpx.stream("GET", server.url + "/events", cookies={"pit_session": session or ""},
                          timeout=None) as events:
            for line in events.iter_lines():
                ready.set()
                if line.startswith("data: "):
                    heard[int(json.loads(line[6:])["head"])] = time.perf_counter()

    threading.Thread(target=listen, daemon=True).start()
    ready.wait(5)
    if state.fanout is not None:
        state.fanout.connected.wait(10)  # pit B hears pit A from here on
    samples = []
    for _ in range(30 if QUICK else 100):
        start = time.perf_counter()
        head = day.play(1)
        deadline = start + 10
        while not any(seq >= head for seq in heard) and time.perf_counter() < deadline:
            time.sleep(0.002)
        seen = min((t for seq, t in heard.items() if seq >= head), default=deadline)
        samples.append(seen - start)
        time.sleep(0.05)
    client.stop()
    server.stop()
    state.close()
    if other is not None:
        other[0].terminate()
        other[0].wait()
    q = statistics.quantiles(samples, n=100)
    where = ("3b. ... the table syncing to another pit process on PostgreSQL (NOTIFY between "
             "the pits)" if pg_url else "3. commit to the dashboard's live event")
    print(f"{where}, {len(samples)} coups (sync idle poll "
          f"0.2 s): p50 {q[49] * 1000:.0f} ms, p95 {q[94] * 1000:.0f} ms, max "
          f"{max(samples) * 1000:.0f} ms [target p95 < 2 s]")
    journal.close()


def busy_floor(folder: Path) -> None:
    """3c. The commit-to-live-event latency of one table while `tables` others play a coup
    every few seconds each and sync to the same pit (its own process, SQLite)."""
    import random

    tables = int(sys.argv[sys.argv.index("--tables") + 1]) if "--tables" in sys.argv else (
        50 if QUICK else 100)
    pit_db = str(folder / "pit-busy.db")
    state = open_pit(pit_db, folder / "pit-busy.key")
    state.inspectors.add("bench", "bench-password")
    session = state.inspectors.login("bench", "bench-password") or ""
    ids = ["PB-LIVE", *(f"B-{i:03d}" for i in range(tables))]
    tokens = {t: state.store.enroll(t) for t in ids}
    state.close()
    process, url = serve(pit_db, folder / "pit-busy.key")
    days = {t: Day(Journal.open(folder / f"busy-{t}.db", t), seed=i + 1)
            for i, t in enumerate(ids)}
    clients = [SyncClient(days[t].journal.path, t, url, tokens[t], max_backoff=2)
               for t in ids]
    for c in clients:
        c.start()
    stop = threading.Event()
    played = [0]

    def others() -> None:  # every other table: a coup about every `tables / 25` s
        rng = random.Random(1)
        while not stop.is_set():
            days[rng.choice(ids[1:])].play(1)
            played[0] += 1
            stop.wait(rng.uniform(0.02, 0.06))

    heard: dict[int, float] = {}
    ready = threading.Event()
    events = [0]

    def listen() -> None:
        try:
            with httpx.stream("GET", url + "/events", cookies={"pit_session": session},
                              timeout=None) as stream:
                for line in stream.iter_lines():
                    ready.set()
                    if line.startswith("data: "):
                        events[0] += 1
                        event = json.loads(line[6:])
                        if event.get("table_id") == "PB-LIVE":
                            heard[int(event["head"])] = time.perf_counter()
        except httpx.HTTPError:
            pass  # the pit stopped at the end

    threading.Thread(target=listen, daemon=True).start()
    ready.wait(5)
    writer = threading.Thread(target=others, daemon=True)
    writer.start()
    time.sleep(2)  # the others under way
    samples, floor_ms = [], []
    live = days["PB-LIVE"]
    began = time.perf_counter()
    with httpx.Client(base_url=url, cookies={"pit_session": session}) as web:
        for _ in range(20 if QUICK else 50):
            start = time.perf_counter()
            head = live.play(1)
            deadline = start + 10
            while not any(seq >= head for seq in heard) and time.perf_counter() < deadline:
                time.sleep(0.002)
            samples.append(min((t for seq, t in heard.items() if seq >= head),
                               default=deadline) - start)
            fetched = time.perf_counter()
            web.get("/fragments/floor").raise_for_status()
            floor_ms.append((time.perf_counter() - fetched) * 1000)
            time.sleep(0.1)
    seconds = time.perf_counter() - began
    stop.set()
    writer.join()
    for c in clients:
        c.stop()
    process.terminate()
    process.wait()
    q = statistics.quantiles(samples, n=100)
    print(f"3c. commit to the dashboard's live event with {tables} other tables playing and "
          f"syncing to the same pit (SQLite, its own process; {played[0] / (seconds + 2):.0f} "
          f"coups/s from the others, {events[0] / (seconds + 2):.0f} live events/s), "
          f"{len(samples)} coups: p50 {q[49] * 1000:.0f} ms, p95 {q[94] * 1000:.0f} ms, max "
          f"{max(samples) * 1000:.0f} ms [target p95 < 2 s]; fetching the floor of "
          f"{tables + 1} tables: p50 {statistics.median(floor_ms):.0f} ms, max "
          f"{max(floor_ms):.0f} ms")
    for day in days.values():
        day.journal.close()


def many_tables(pg_url: str, folder: Path) -> None:
    tables = 50 if QUICK else 200
    per_table = 400
    state = open_pit(pg_url, folder / "pit.key")
    journals, tokens = [], []
    for i in range(tables):
        table_id = f"T-{i:03d}"
        journals.append(journal_of(folder, table_id, per_table, seed=i + 1))
        tokens.append(state.store.enroll(table_id))
    state.store.db.close()
    process, url = serve(pg_url, folder / "pit.key")
    clients = [SyncClient(j.path, j.table_id, url, t, batch=100, max_backoff=2)
               for j, t in zip(journals, tokens, strict=True)]
    total = sum(j.count() for j in journals)
    start = time.perf_counter()
    for c in clients:
        c.start()
    deadline = start + 600
    while time.perf_counter() < deadline:
        if all(c.state.acked_seq == j.count() for c, j in zip(clients, journals, strict=True)):
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - start
    for c in clients:
        c.stop()
    process.terminate()
    process.wait()
    print(f"4. {tables} tables syncing at once to one pit on PostgreSQL (clients in one "
          f"process, the pit in another, 2 cores shared): {total:,} rows in {elapsed:.1f} s "
          f"= {total / elapsed:,.0f} rows/s")
    for j in journals:
        j.close()


def main() -> None:
    if "--frame-to-commit" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 1
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as d:
                frame_to_commit(Path(d))
        return
    if "--busy-floor" in sys.argv:
        with tempfile.TemporaryDirectory() as d:
            busy_floor(Path(d))
        return
    with tempfile.TemporaryDirectory() as d, running_postgres(durable=True) as pg:
        folder = Path(d)
        backlog(pg.new_database(), folder)
        frame_to_commit(folder)
        dashboard_latency(folder)
        dashboard_latency(folder, pg.new_database())
        busy_floor(folder)
        many_tables(pg.new_database(), folder)


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):  # what it measures, without measuring
        print(__doc__)
        sys.exit(0)
    main()
