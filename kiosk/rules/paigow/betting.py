"""The bank, the wagers, the wash and "no more bets" (rules 2.2, 13.1.1, 13.2.1-13.2.2,
13.3.1-13.3.2)."""

from __future__ import annotations

from kiosk.rules.errors import Amount, NotAllowed, allowed
from kiosk.rules.paigow.operations import (
    Bank,
    BankTaken,
    BetPlaced,
    BetTakenBack,
    BettingClosed,
    Washed,
)
from kiosk.rules.paigow.state import PaiGowState, Phase


def _amount(state: PaiGowState, cents: int) -> Amount:
    return Amount(cents, state.rules.currency)


def _betting(state: PaiGowState) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets: the tiles are in play")


def verify_shuffle(state: PaiGowState) -> None:
    """The tiles are washed between rounds, never while hands are in play."""
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("The tiles are in play: wash them after the round")


def can_shuffle(state: PaiGowState) -> bool:
    return allowed(verify_shuffle, state)


def shuffle(state: PaiGowState) -> Washed:
    verify_shuffle(state)
    return Washed()


def verify_take_bank(state: PaiGowState, bank: Bank, area: int, wager: int) -> None:
    """Who banks: the House on area one (13.1.1), or the player/banker of `area` with a wager
    (13.2.1, 13.2.2), alone or with the House as co-bank (13.3.1)."""
    _betting(state)
    rules = state.rules
    if bank is Bank.HOUSE and (area != 1 or wager):
        raise NotAllowed.of("When the House banks the chung is on area one and the House "
                            "places no wager", clause="13.1.1")
    if state.wager_of(area):
        raise NotAllowed.of("Area %(area)s has a wager: take it back before the chung goes "
                            "there", area=area)
    if bank is Bank.HOUSE:
        return
    if not 1 <= area <= rules.areas:
        raise NotAllowed.of("There is no area %(area)s: the layout has areas 1 to %(areas)s",
                            area=area, areas=rules.areas)
    if wager <= 0:
        raise NotAllowed.of("The player/banker must place a wager", clause="13.2.2")
    rules.chips.verify_stake(wager)


def can_take_bank(state: PaiGowState, bank: Bank, area: int, wager: int) -> bool:
    return allowed(verify_take_bank, state, bank, area, wager)


def take_bank(state: PaiGowState, bank: Bank, area: int, wager: int) -> BankTaken:
    verify_take_bank(state, bank, area, wager)
    return BankTaken(bank, area, wager)


def verify_place_bet(state: PaiGowState, area: int, amount: int) -> None:
    """A wager on a playing area other than the chung's, within the limits (2.2)."""
    _betting(state)
    rules = state.rules
    if not 1 <= area <= rules.areas:
        raise NotAllowed.of("There is no area %(area)s: the layout has areas 1 to %(areas)s",
                            area=area, areas=rules.areas)
    if area == state.chung:
        raise NotAllowed.of("Area %(area)s has the chung: the bank's tiles are dealt there",
                            clause="13.1.1" if state.bank is Bank.HOUSE else "13.2.1",
                            area=area)
    if amount <= 0:
        raise NotAllowed.of("A bet must be more than nothing")
    rules.chips.verify_stake(amount)
    after = state.wager_of(area) + amount
    if after > rules.maximum:
        raise NotAllowed.of("Area %(area)s: %(amount)s is over the table maximum of "
                            "%(maximum)s", clause="2.2", area=area,
                            amount=_amount(state, after), maximum=_amount(state, rules.maximum))


def can_place_bet(state: PaiGowState, area: int, amount: int) -> bool:
    return allowed(verify_place_bet, state, area, amount)


def place_bet(state: PaiGowState, area: int, amount: int) -> BetPlaced:
    verify_place_bet(state, area, amount)
    return BetPlaced(area, amount)


def verify_remove_bet(state: PaiGowState, area: int) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets has been called: bets cannot be taken back now")
    if not state.wager_of(area):
        raise NotAllowed.of("Area %(area)s has no wager to take back", area=area)


def can_remove_bet(state: PaiGowState, area: int) -> bool:
    return allowed(verify_remove_bet, state, area)


def remove_bet(state: PaiGowState, area: int) -> BetTakenBack:
    verify_remove_bet(state, area)
    return BetTakenBack(area)


def bank_for(state: PaiGowState) -> tuple[Bank, str]:
    """Who banks once betting closes: a player/banker who does not cover the declared wagers
    has the game conducted as per 13.3 (13.2.2); a co-bank needs 50% of them (13.3.1)."""
    declared, wager = state.declared, state.banker_wager
    if state.bank is Bank.HOUSE:
        return Bank.HOUSE, ""
    if state.bank is Bank.PLAYER and wager >= declared:
        return Bank.PLAYER, ""
    if 2 * wager < declared:
        raise NotAllowed.of("The player/banker's %(wager)s is under 50%% of the %(declared)s "
                            "wagered: not enough to co-bank", clause="13.3.1",
                            wager=_amount(state, wager), declared=_amount(state, declared))
    if state.bank is Bank.PLAYER:
        return Bank.COBANK, (f"the player/banker's {_amount(state, wager)} does not cover the "
                             f"{_amount(state, declared)} declared (rule 13.2.2): co-bank "
                             f"(rule 13.3)")
    return Bank.COBANK, ""


def verify_close_betting(state: PaiGowState) -> None:
    """No more bets, once every wager is at least the minimum (2.2) and the bank covers the
    wagers (13.2.2, 13.3.1)."""
    _betting(state)
    if not state.washed:
        raise NotAllowed.of("Wash the tiles before the round is dealt")
    if not state.bets:
        raise NotAllowed.of("No wager on the layout yet: place your bets")
    for area, amount in state.bets:
        if amount < state.rules.minimum:
            raise NotAllowed.of("Area %(area)s: the wager of %(amount)s is under the table "
                                "minimum of %(minimum)s", clause="2.2", area=area,
                                amount=_amount(state, amount),
                                minimum=_amount(state, state.rules.minimum))
    bank_for(state)


def can_close_betting(state: PaiGowState) -> bool:
    return allowed(verify_close_betting, state)


def close_betting(state: PaiGowState) -> BettingClosed:
    verify_close_betting(state)
    bank, reason = bank_for(state)
    return BettingClosed(bank, reason)
