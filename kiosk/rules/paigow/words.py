"""The next step in the words of section 13, and the acts allowed now."""

from __future__ import annotations

from kiosk.rules.errors import Amount, Said, allowed
from kiosk.rules.paigow.betting import (
    verify_close_betting,
    verify_place_bet,
    verify_remove_bet,
    verify_shuffle,
    verify_take_bank,
)
from kiosk.rules.paigow.operations import Bank
from kiosk.rules.paigow.payouts import verify_confirm_payouts, verify_void_round
from kiosk.rules.paigow.state import PaiGowState, Phase


def _bank_words(state: PaiGowState) -> Said:
    wager = Amount(state.banker_wager, state.rules.currency)
    if state.bank is Bank.HOUSE:
        return Said.words("The House banks: the chung is on area one", clause="13.1.1")
    if state.bank is Bank.PLAYER:
        return Said.words("The player/banker at area %(area)s banks with %(wager)s",
                          clause="13.2.1", area=state.chung, wager=wager)
    return Said.words("The player/banker at area %(area)s and the House co-bank with "
                      "%(wager)s each", clause="13.3.2", area=state.chung, wager=wager)


def next_step(state: PaiGowState) -> Said:
    phase = state.phase
    if phase is Phase.BETTING:
        if not state.washed:
            return Said.words("Wash the tiles and stack the woodpile")
        return Said.words("%(bank)s. Place your bets", bank=_bank_words(state))
    if phase is Phase.SETTING:
        area = state.to_set
        if area is not None:
            return Said.words("Area %(area)s: key in the tiles as the player set them, high "
                              "then low", area=area)
        if state.bank is Bank.HOUSE:
            return Said.words("Key in the House tiles: they are set the house way",
                              clause="13.1.2")
        if state.bank is Bank.PLAYER:
            return Said.words("The player/banker at area %(area)s sets the banker's hands",
                              clause="13.2.3", area=state.chung)
        return Said.words("Key in the player/banker's tiles: the co-banking hands are set the "
                          "house way", clause="13.3.4")
    if phase is Phase.CONFIRM:
        return Said.words("The game supervisor confirms the House hand is set the house way",
                          clause="13.1.5")
    if state.bank is Bank.HOUSE:
        return Said.words("Expose the House hands, match each area from area one, and "
                          "confirm payouts", clause="13.1.6")
    return Said.words("Expose the banker's hands, match each area from the chung, and "
                      "confirm payouts", clause="13.2.5" if state.bank is Bank.PLAYER
                      else "13.3.5")


def legal_actions(state: PaiGowState) -> frozenset[str]:
    out = {name for name, ok in (
        ("shuffle", allowed(verify_shuffle, state)),
        ("close_betting", allowed(verify_close_betting, state)),
        ("confirm_payouts", allowed(verify_confirm_payouts, state)),
        ("void_round", allowed(verify_void_round, state, "reason")),
    ) if ok}
    rules = state.rules
    if state.phase is Phase.BETTING:
        if allowed(verify_take_bank, state, Bank.HOUSE, 1, 0) or any(
                allowed(verify_take_bank, state, Bank.PLAYER, area, rules.minimum)
                for area in range(1, rules.areas + 1)):
            out.add("take_bank")
        if any(allowed(verify_place_bet, state, area, rules.minimum)
               for area in range(1, rules.areas + 1)):
            out.add("place_bet")
        if any(allowed(verify_remove_bet, state, area) for area in state.areas):
            out.add("remove_bet")
    if state.phase is Phase.SETTING:
        out.add("set_hand" if state.to_set is not None else "set_bank")
        if state.hands:
            out.add("unset_hand")  # a hand keyed wrong, taken off before the bank's
    if state.phase is Phase.CONFIRM:
        out.add("confirm_house_way")
    return frozenset(out)
