"""Payouts (rule 5.7): each bet settled by the house's chip rule, the dealer's confirmation,
voiding a coup (rule 2.7) and collecting commission.
"""

from __future__ import annotations

from fractions import Fraction

from kiosk.rules.baccarat.drawing import result_of
from kiosk.rules.baccarat.house import (
    Bet,
    BetKind,
    BetSettlement,
    CommissionMode,
    Outcome,
    Phase,
    PuntoBancoRules,
)
from kiosk.rules.baccarat.operations import CommissionCollected, CoupSettled, CoupVoided
from kiosk.rules.baccarat.outcomes import Winner
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.errors import NotAllowed, allowed

ZERO = Fraction(0)  # Fractions are immutable: one zero serves every settlement
_EVEN = Fraction(1)


def _owed_commission(bet: Bet, rules: PuntoBancoRules) -> Fraction:
    if rules.commission_mode is CommissionMode.COMMISSION:
        return bet.amount * rules.commission_rate
    return ZERO


def settle_bet(rules: PuntoBancoRules, bet: Bet, winner: Winner) -> BetSettlement:
    """Rule 5.7 for one bet. Odd amounts follow the house's chip rule; the difference between
    the exact win and what is paid is recorded in `rounding`, never dropped silently."""
    if bet.kind is BetKind.TIE:
        won, odds = winner is Winner.TIE, rules.tie_odds
    elif winner is Winner.TIE:  # rule 5.7: banker and player bets stand off on a tie
        return BetSettlement(bet.area, bet.kind, bet.amount, Outcome.STAND_OFF, ZERO, ZERO,
                             0, ZERO, ZERO)
    elif bet.kind is BetKind.BANKER:
        won = winner is Winner.BANKER
        odds = rules.banker_odds if rules.commission_mode is CommissionMode.NET else _EVEN
    else:
        won, odds = winner is Winner.PLAYER, rules.player_odds
    if not won:
        return BetSettlement(bet.area, bet.kind, bet.amount, Outcome.LOSE, odds, ZERO, 0,
                             ZERO, ZERO)
    win = bet.amount * odds.numerator
    if odds.denominator == 1 and win % rules.chips.smallest_chip == 0:
        # Whole odds (1:1, 8:1) on whole chips: the exact win is paid as it is, nothing rounds.
        exact, paid, rounding = Fraction(win), win, ZERO
    else:
        # Built from ints: Fraction arithmetic (`amount * odds`, `exact - paid`) costs twice this.
        exact = Fraction(win, odds.denominator)
        paid = rules.chips.round_payout(exact)
        rounding = Fraction(win - paid * odds.denominator, odds.denominator)  # exact - paid
    commission = _owed_commission(bet, rules) if bet.kind is BetKind.BANKER else ZERO
    return BetSettlement(bet.area, bet.kind, bet.amount, Outcome.WIN, odds, exact, paid,
                         rounding, commission)


def settlement(state: PuntoBancoState) -> tuple[BetSettlement, ...]:
    """The payout of every bet on the table for the finished coup (rule 5.7)."""
    verify_confirm_payouts(state)
    return _settle_all(state, result_of(state).winner)


def _settle_all(state: PuntoBancoState, winner: Winner) -> tuple[BetSettlement, ...]:
    rules = state.rules
    return tuple([settle_bet(rules, b, winner) for b in state.bets])


def verify_confirm_payouts(state: PuntoBancoState) -> None:
    if state.phase is not Phase.PAYING:
        raise NotAllowed.of("The coup is not complete yet", clause="5.2")


def can_confirm_payouts(state: PuntoBancoState) -> bool:
    return allowed(verify_confirm_payouts, state)


def confirm_payouts(state: PuntoBancoState) -> CoupSettled:
    """The dealer has paid and collected every bet as shown (rule 5.7)."""
    verify_confirm_payouts(state)
    result = result_of(state)  # computed once, for the record and for the settlements
    return CoupSettled(coup=state.coup, result=result,
                       player_cards=state.player_cards, banker_cards=state.banker_cards,
                       settlements=_settle_all(state, result.winner))


def verify_void_round(state: PuntoBancoState, reason: str) -> None:
    if state.phase is Phase.BETTING and not state.bets:
        raise NotAllowed.of("There is no coup in play to void")
    if not reason.strip():
        raise NotAllowed.of("Say why the coup is void")


def can_void_round(state: PuntoBancoState, reason: str = "reason to be given") -> bool:
    """Whether a coup is in play that could be voided (the dealer then gives the reason)."""
    return allowed(verify_void_round, state, reason)


def void_round(state: PuntoBancoState, reason: str, by: str = "") -> CoupVoided:
    """Void the coup (rule 2.7): every bet goes back. The same verb as every game's."""
    verify_void_round(state, reason)
    return CoupVoided(coup=state.coup, reason=reason.strip(), by=by)


def verify_collect_commission(state: PuntoBancoState, area: str) -> None:
    if state.phase is Phase.DEALING:
        raise NotAllowed.of("Collect commission between coups, not while dealing")
    if state.owed_by(area) <= 0:
        raise NotAllowed.of("Area %(area)s owes no commission", area=area)


def can_collect_commission(state: PuntoBancoState, area: str) -> bool:
    return allowed(verify_collect_commission, state, area)


def collect_commission(state: PuntoBancoState, area: str) -> CommissionCollected:
    """Rule 5.7, commission mode: collect what the area owes, rounded by the chip rule."""
    verify_collect_commission(state, area)
    owed = state.owed_by(area)
    collected = state.rules.chips.round_owed(owed)
    return CommissionCollected(area=area, owed=owed, collected=collected,
                               rounding=owed - collected)
