"""The one fold (kiosk/table/fold.py): the session's start, replay and the signage feed
rebuild the table from its journal the same way, across a change of game or rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.replay import load_entries
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.game import ForeignRecord
from kiosk.rules.money import ChipRule
from kiosk.rules.registry import game
from kiosk.store.journal import Journal
from kiosk.table.fold import EMPTY, FoldError, OtherGame, fold, step
from kiosk.table.records import HELD, DeviceReport, InspectorCalled
from kiosk.table.session import TableSession
from tests.table.helpers import RULES, cards, open_session

GOLDEN = Path(__file__).parents[1] / "golden_journals"
BJ_RULES = BlackjackRules(chips=ChipRule(500))


def test_a_record_before_any_opening_cannot_follow() -> None:
    with pytest.raises(FoldError, match="row 1: punto_banco.bet_placed before the table opened"):
        step(EMPTY, pb.BetPlaced(1, "1", pb.BetKind.BANKER, 5000), 1)


def test_another_games_record_is_an_error_not_a_silent_skip() -> None:
    opened = step(EMPTY, pb.open_table(RULES, "T"), 1)
    with pytest.raises(OtherGame) as err:
        step(opened, bj.CardsShuffled("hand"), 2)
    assert err.value.family == "blackjack" and "on a table running Punto banco" in str(err.value)
    # The engines refuse it too: never folded silently (kiosk/rules/game.py).
    with pytest.raises(ForeignRecord, match="'blackjack.shuffled' is not a punto banco record"):
        pb.apply(opened.state, bj.CardsShuffled("hand"))
    # The table's own records leave a game's state as it is.
    assert pb.apply(opened.state, InspectorCalled("screen")) is opened.state


def test_an_opening_of_another_game_starts_its_state_and_keeps_the_tables_facts() -> None:
    f = step(EMPTY, pb.open_table(RULES, "T"), 1)
    f = step(f, InspectorCalled("button"), 2)
    f = step(f, pb.shuffle(f.state, "hand"), 3)
    assert f.game is game("punto-banco") and f.facts.inspector_called
    f = step(f, bj.open_table(BlackjackRules.touch_21(chips=ChipRule(500)), "T"), 4)
    assert f.game is game("touch-21") and isinstance(f.state, bj.BlackjackState)
    assert f.state.rules.variant.value == "touch-21" and f.facts.inspector_called
    assert f.seq == 4 and f.table_id == "T"
    # Blackjack after Touch 21 is the same family: its opening changes the rules in play.
    again = step(f, bj.open_table(BJ_RULES, "T"), 5)
    assert again.game is game("blackjack") and again.state.round == f.state.round


def test_held_cards_are_facts_of_the_table_and_go_with_a_void() -> None:
    f = step(EMPTY, pb.open_table(RULES, "T"), 1)
    f = step(f, DeviceReport("SHOE", HELD, "9D"), 2)
    assert f.facts.held == tuple(cards("9D"))
    f = step(f, pb.CoupVoided(1, "misdeal"), 3)
    assert f.facts.held == ()


def test_session_start_is_the_fold_of_the_journal(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    s.perform(pb.shuffle)
    s.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.BANKER, 5_000))
    s.call_inspector("screen")
    s.journal.close()
    again = open_session(tmp_path / "j.db")
    folded = fold(again.journal.entries())
    assert again.state == folded.state and again.inspector_called
    assert again.replayed == again.journal.count() == 4


def test_a_table_reopened_as_another_game_resumes_that_game(tmp_path: Path) -> None:
    """The golden journal of a table that changed game: the session starts in blackjack,
    at the same step the fold says, with nothing appended."""
    path = tmp_path / "mixed.db"
    with Journal.open(path, "T-01") as j:
        j.append_many([(e.kind, e.payload) for e in load_entries(GOLDEN / "mixed.jsonl")])
        rows = j.count()
    s = TableSession(game("blackjack"), Journal.open(path, "T-01"), BJ_RULES, "T-01")
    assert isinstance(s.state, bj.BlackjackState) and s.state.round == 3
    assert s.journal.count() == rows and s.next_step() == "Place your bets"
    # Reconfigured back to punto banco: its opening goes on record and its state starts.
    s.journal.close()
    s = TableSession(game("punto-banco"), Journal.open(path, "T-01"), RULES, "T-01")
    assert isinstance(s.state, pb.PuntoBancoState) and s.journal.count() == rows + 1
    assert [a.message for a in s.alerts] == ["The table now runs punto banco"]
    s.journal.close()
