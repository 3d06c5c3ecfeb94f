"""The words the signs show for the house's blackjack settings (issue 14: the blackjack sign
says "no hole card" and what a dealer blackjack takes)."""

from __future__ import annotations

from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes


def test_what_a_dealer_blackjack_takes_with_no_hole_card() -> None:
    assert BlackjackRules().hole_card_words == (
        "No hole card: a dealer blackjack takes every bet, doubles and splits too")
    original = BlackjackRules(dealer_blackjack_takes=DealerBlackjackTakes.ORIGINAL)
    assert original.hole_card_words == ("No hole card: a dealer blackjack takes the original "
                                        "bets only; doubles and splits go back")
