"""Cash and chips (the Mpumalanga table game rules, rule 2.1): a buy-in, a chip change and a
colour-up on record in cents, and none of them before the cash or chips are laid out."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import NotAllowed
from kiosk.table import acts
from kiosk.table.cash import CashBuyIn, ChipExchange, Exchange
from kiosk.table.snapshot import fold_journal
from tests.table.helpers import open_session


def test_a_buy_in_is_recorded_with_the_cash_and_the_chips_given(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    rows = s.journal.count()
    with pytest.raises(NotAllowed) as err:
        acts.record_buy_in(s, "3", 50_000, laid_out=False)
    assert err.value.clause == "2.1" and "Lay the cash out" in str(err.value)
    with pytest.raises(NotAllowed, match="more than the cash"):
        acts.record_buy_in(s, "3", 50_000, bet=60_000, laid_out=True)
    with pytest.raises(NotAllowed, match="amount of money"):
        acts.record_buy_in(s, "3", -5, laid_out=True)
    assert s.journal.count() == rows
    op = acts.record_buy_in(s, "3", 50_000, bet=10_000, laid_out=True)
    assert op == CashBuyIn("3", 50_000, 40_000, 10_000)
    row = s.journal.entry(s.journal.count())
    assert row is not None and (row.kind, row.payload) == ("cash_buy_in", {
        "place": "3", "cash": 50_000, "chips": 40_000, "bet": 10_000, "colour": "",
        "wheel_chips": 0, "chip_value": 0, "laid_out": True})
    # The table's records leave the game where it was: the fold goes on.
    assert fold_journal(s.journal).state == s.state


def test_wheel_chips_at_roulette_make_the_cash_value(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    with pytest.raises(NotAllowed, match="do not make the cash"):
        acts.record_buy_in(s, "", 20_000, colour="blue", wheel_chips=30, chip_value=500,
                           laid_out=True)
    op = acts.record_buy_in(s, "", 20_000, colour="blue", wheel_chips=40, chip_value=500,
                            laid_out=True)
    assert (op.chips, op.colour, op.wheel_chips, op.chip_value) == (20_000, "blue", 40, 500)


def test_a_chip_change_and_a_colour_up_give_what_they_take(tmp_path: Path) -> None:
    s = open_session(tmp_path / "j.db")
    s.perform(pb.shuffle)
    with pytest.raises(NotAllowed, match="Lay the chips out"):
        acts.record_exchange(s, Exchange.CHANGE, "1", 10_000, 10_000, laid_out=False)
    with pytest.raises(NotAllowed, match="worth the chips taken"):
        acts.record_exchange(s, Exchange.COLOUR_UP, "1", 10_000, 5_000, laid_out=True)
    change = acts.record_exchange(s, Exchange.CHANGE, "1", 10_000, 10_000, laid_out=True)
    up = acts.record_exchange(s, Exchange.COLOUR_UP, "", 12_500, 12_500, colour="red",
                              wheel_chips=25, laid_out=True)
    assert change == ChipExchange(Exchange.CHANGE, "1", 10_000, 10_000)
    assert up.what is Exchange.COLOUR_UP and up.colour == "red"
    row = s.journal.entry(s.journal.count())
    assert row is not None and row.kind == "chip_exchange" and row.payload["what"] == "colour_up"


def test_an_exchange_broken_down_by_chip_is_on_record_and_in_the_replay(
        tmp_path: Path) -> None:
    from kiosk.replay import replay_source

    s = open_session(tmp_path / "j.db")
    s.perform(pb.shuffle)
    rows = s.journal.count()
    with pytest.raises(NotAllowed) as err:  # R200 taken, R150 given: refused, nothing kept
        acts.record_chip_exchange(s, Exchange.CHANGE, "1", {10_000: 2}, {5_000: 3},
                                  laid_out=True)
    assert str(err.value) == ("The chips given (R150) must be worth the chips taken (R200) "
                              "(rule 2.1)")
    with pytest.raises(NotAllowed, match="Lay the chips out"):
        acts.record_chip_exchange(s, Exchange.CHANGE, "1", {10_000: 2}, {5_000: 4},
                                  laid_out=False)
    with pytest.raises(NotAllowed, match="chips of a value, counted"):
        acts.record_chip_exchange(s, Exchange.CHANGE, "1", {10_000: 0}, {5_000: 4},
                                  laid_out=True)
    assert s.journal.count() == rows
    op = acts.record_chip_exchange(s, Exchange.CHANGE, "1", {10_000: 2},
                                   {2_500: 4, 5_000: 2}, laid_out=True)
    assert (op.taken, op.given) == (20_000, 20_000)
    row = s.journal.entry(s.journal.count())
    assert row is not None and row.payload == {
        "what": "change", "place": "1", "taken": 20_000, "given": 20_000, "colour": "",
        "wheel_chips": 0, "laid_out": True, "taken_chips": {"10000": 2},
        "given_chips": {"5000": 2, "2500": 4}}
    # A row written before the breakdown (two amounts alone) still reads and shows.
    old = {"what": "colour_up", "place": "", "taken": 12_500, "given": 12_500,
           "colour": "red", "wheel_chips": 25, "laid_out": True}
    s.journal.append("chip_exchange", old)
    assert fold_journal(s.journal).state == s.state
    s.journal.close()
    report = replay_source(tmp_path / "j.db")
    assert report.ok
    assert [x.split(": ", 1)[1] for x in report.exchanges] == [
        "chip change at 1: took 2 x R100 = R200, gave 2 x R50 + 4 x R25 = R200",
        "colour-up: took R125, gave R125"]
    assert report.as_json()["exchanges"] == report.exchanges


def test_a_roulette_colour_up_names_its_wheel_chips_in_words() -> None:
    from kiosk.table.cash import Exchange, exchange_chips

    op = exchange_chips(Exchange.COLOUR_UP, "", {1_000_000: 5}, {5_000_000: 1}, colour="pink",
                        wheel_chips=5, laid_out=True)
    assert op.words() == ("took 5 pink wheel chips: 5 x R10,000 = R50,000, "
                          "gave 1 x R50,000 = R50,000")
