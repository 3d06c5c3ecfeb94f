"""The pit's rounds list shows each round's outcome as its game's audit words it: the pit
itself names no game. Every registered game's golden journal, at the pit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape  # as the pages' templates escape (Jinja2's autoescape)

from kiosk.replay import load_entries, replay
from kiosk.rules.registry import games
from kiosk.sync.client import to_wire
from pit.db import Database
from pit.ingest import WireRow
from pit.rounds import Rounds
from pit.store import PitStore

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden_journals"
JOURNALS = {"pb": "punto-banco", "bj": "blackjack", "t21": "touch-21", "roulette": "roulette",
            "az": "arizona", "pg": "paigow", "mb_transfer": "mini-baccarat",
            "mb_replace": "mini-baccarat", "mb_terminate": "mini-baccarat",
            "mb_shoe": "mini-baccarat", "mixed": "blackjack"}
FIRST = {"pb": "player 7-0", "mb_shoe": "player 9-7", "roulette": "number 15",
         "az": "box 4 ace high -R100",
         "pg": "house area 1 7 (foo) / 5 (chop bot): area 2 win +R45; area 3 lose -R100; "
               "area 4 stand-off +R0"}


def test_every_game_has_a_golden_journal_here() -> None:
    """Every built-in game (tests/toy_game registers itself too, when its tests have run)."""
    built_in = {g.name for g in games() if g.engine.__module__.startswith("kiosk.rules.")}
    assert built_in == set(JOURNALS.values())


@pytest.mark.parametrize("name", sorted(JOURNALS))
def test_the_rounds_list_shows_each_games_outcome(name: str, tmp_path: Path) -> None:
    from pit.dashboard import _rounds_html

    entries = load_entries(GOLDEN / f"{name}.jsonl")
    table_id = entries[0].table_id
    store = PitStore(Database(str(tmp_path / "pit.db")))
    store.enroll(table_id)
    store.ingest(table_id, [WireRow(**to_wire(e)) for e in entries])
    whole = replay(entries)
    view = Rounds(store).between(table_id, "", "")
    assert len(view.rounds) == len(whole.rounds) > 0
    for coup in view.rounds:
        assert coup.outcome, coup.as_json()
    if name in FIRST:
        assert view.rounds[0].outcome == FIRST[name]
    voided = [c for c in view.rounds if c.status == "voided"]
    assert all(c.reason in c.outcome for c in voided)

    class Pit:
        rounds = Rounds(store)

    html = _rounds_html(Pit(), table_id, "2000-01-01T00:00:00.000Z", "")  # type: ignore[arg-type]
    for coup in view.rounds:
        assert f"<td>{escape(coup.outcome)}</td>" in html
    store.db.close()


def test_the_pit_names_no_game() -> None:
    words = {w for g in games() for w in (g.name, *g.aliases, g.title.lower())}
    words |= {"coup", "coups", "winner", "banker", "player_total", "hands", "spin"}
    for path in (ROOT / "pit").glob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        found = sorted(w for w in words if re.search(rf"\b{re.escape(w)}\b", text))
        assert not found, f"{path.name} names {found}"
