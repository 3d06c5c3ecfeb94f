"""The words the blackjack dealer pays from name the odds the engine paid at, not a fixed 3:2
(rule 4.2 item 5: blackjack pays the house's odds; colour is never the only signal)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kiosk.rules.blackjack.settle import BetKind, Outcome, Settlement
from kiosk.ui.dealer.blackjack_words import settlement_row


@pytest.mark.parametrize(("odds", "paid", "caption"), [
    (Fraction(3, 2), 15000, "A bet R100 blackjack 3:2"),
    (Fraction(6, 5), 12000, "A bet R100 blackjack 6:5"),
    (Fraction(1, 1), 10000, "A bet R100 blackjack 1:1"),
])
def test_a_blackjack_is_captioned_with_the_odds_it_was_paid_at(
        odds: Fraction, paid: int, caption: str) -> None:
    x = Settlement(1, 1, "A", BetKind.HAND, 10000, Outcome.BLACKJACK, odds, paid,
                   10000 + paid)
    row = settlement_row(x, "R")
    assert (row.caption, row.amount, row.tone) == (caption, f"PAY R{paid // 100}", "pay")


def test_a_win_and_a_loss_say_what_to_do_in_words() -> None:
    win = Settlement(2, 1, "B", BetKind.HAND, 5000, Outcome.WIN, Fraction(1), 5000, 10000)
    lost = Settlement(2, 1, "C", BetKind.HAND, 5000, Outcome.LOSE, Fraction(1), 0, 0)
    assert [(r.caption, r.amount) for r in map(lambda x: settlement_row(x, "R"),
                                                 (win, lost))] == [
        ("B bet R50 wins 1:1", "PAY R50"), ("C bet R50 loses", "TAKE R50")]
