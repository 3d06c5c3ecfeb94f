"""Money, amounts and bet names as the refusals say them."""

from __future__ import annotations

from kiosk.rules.baccarat.house import BetKind
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.errors import Amount, Word
from kiosk.rules.money import format_money


def money_of(state: PuntoBancoState, cents: int) -> str:
    return format_money(cents, state.rules.currency)


def amount_of(state: PuntoBancoState, cents: int) -> Amount:
    """An amount in a refusal (`NotAllowed.of`): written as `money_of` in English."""
    return Amount(cents, state.rules.currency)


def bet_word(kind: BetKind) -> Word:
    """A bet's kind in a refusal: "banker" in English, the screens' "Banker" on a screen."""
    return Word(kind.value, kind.value.capitalize())
