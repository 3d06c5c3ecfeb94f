"""The technician's self-test checks that the pit can be reached:
it answers, it knows this table's credential, and how far behind it the journal is."""

from __future__ import annotations

from pathlib import Path

from kiosk.config import example, parse
from kiosk.selftest import check_pit
from kiosk.store.journal import Journal
from pit.app import open_pit
from tests.pit.conftest import PitServer, free_port
from tests.pit.day import Day


def _cfg(tmp_path: Path, url: str, token: str) -> object:
    (tmp_path / "PB-01.credential").write_text(token)
    text = (example("punto-banco").replace('journal = "data/PB-01.db"', 'journal = "PB-01.db"')
            + f'\n[sync]\npit = "{url}"\ncredential_file = "PB-01.credential"\n')
    return parse(text, tmp_path / "table.toml")


def test_the_pit_answers_knows_the_table_and_how_far_behind_it_is(tmp_path: Path) -> None:
    state = open_pit(str(tmp_path / "pit.db"))
    token = state.store.enroll("PB-01")
    server = PitServer(state).start()
    try:
        journal = Journal.open(tmp_path / "PB-01.db", "PB-01")
        Day(journal).play(3)
        rows = journal.count()
        journal.close()
        found = check_pit(_cfg(tmp_path, server.url, token))  # type: ignore[arg-type]
        assert found.ok
        assert found.detail == (f"the pit at {server.url} answers and knows this table; "
                                f"it holds rows up to 0, {rows} waiting here")
        wrong = check_pit(_cfg(tmp_path, server.url, "not-the-credential"))  # type: ignore
        assert not wrong.ok
        assert wrong.detail == ("the pit refuses this table: the credential is not table "
                                "PB-01's: enrol it again (tableside pit enroll), or, for a "
                                "table started again on a new card, give that card the "
                                "credential new-card made")
    finally:
        server.stop()


def test_a_pit_that_does_not_answer_fails_in_words(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    found = check_pit(_cfg(tmp_path, url, "x"), timeout=1.0)  # type: ignore[arg-type]
    assert not found.ok and found.detail.startswith(f"the pit at {url} does not answer")
    assert "check the network" in found.detail


def test_no_pit_configured_is_not_a_failure() -> None:
    found = check_pit(parse(example("punto-banco")))
    assert found.ok and found.detail.startswith("no [sync] pit configured")
