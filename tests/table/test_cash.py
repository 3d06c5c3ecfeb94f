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
