"""The payouts (rules 4.7, 7.7, 2.6) and voids (2.7): every bet settled from the cards, the
house chip rule for odd amounts, the bets a void hands back.
"""

from __future__ import annotations

from fractions import Fraction

from kiosk.rules.blackjack import settle as st
from kiosk.rules.blackjack.house import DealerBlackjackTakes
from kiosk.rules.blackjack.operations import RoundSettled, RoundVoided
from kiosk.rules.blackjack.settle import BetKind, Outcome, Settlement
from kiosk.rules.blackjack.state import BlackjackState, Phase
from kiosk.rules.errors import NotAllowed, allowed, resolve_first


def settlement(state: BlackjackState) -> tuple[Settlement, ...]:
    """Every bet still open at the end of the round (rules 4.2, 4.7)."""
    rules = state.rules
    chips = rules.chips
    d_bj = state.dealer_blackjack
    dt = state.dealer_total
    d_best, d_bust = dt.best, dt.bust
    out: list[Settlement] = []
    original_only = rules.dealer_blackjack_takes is DealerBlackjackTakes.ORIGINAL
    for h in state.hands:
        bj = h.blackjack
        t = h.total
        p_best, p_bust = t.best, t.bust
        for b in h.bets:
            if not b.active:
                continue
            if bj:
                if d_bj:
                    out.append(st.push(h.box, h.number, b.player, b.stake))  # rule 4.2 item 5
                else:
                    out.append(st.win(h.box, h.number, b.player, BetKind.HAND, b.stake,
                                      rules.blackjack_odds, chips, Outcome.BLACKJACK))
                continue
            if d_bj and not p_bust:
                # The house setting: a dealer blackjack takes everything, or only the
                # original bet (a split's added bet and a double go back).
                if original_only:
                    lost = b.amount if b.original else 0
                    back = b.stake - lost
                    if lost == 0:
                        out.append(st.push(h.box, h.number, b.player, b.stake,
                                           Outcome.RETURNED))
                    else:
                        out.append(Settlement(h.box, h.number, b.player, BetKind.HAND, b.stake,
                                              Outcome.LOSE, Fraction(0), 0, back))
                    continue
                out.append(st.lose(h.box, h.number, b.player, BetKind.HAND, b.stake))
                continue
            outcome = st.compare(p_best, p_bust, d_best, d_bust)
            if outcome is Outcome.WIN:
                out.append(st.win(h.box, h.number, b.player, BetKind.HAND, b.stake,
                                  Fraction(1), chips))
            elif outcome is Outcome.PUSH:
                out.append(st.push(h.box, h.number, b.player, b.stake))
            else:
                out.append(st.lose(h.box, h.number, b.player, BetKind.HAND, b.stake))
    for ins in state.insurance:
        if d_bj:
            out.append(st.win(ins.box, 0, ins.player, BetKind.INSURANCE, ins.amount,
                              rules.insurance_odds, chips))
        else:
            out.append(st.lose(ins.box, 0, ins.player, BetKind.INSURANCE, ins.amount))
    return tuple(out)


def verify_confirm_payouts(state: BlackjackState) -> None:
    if state.phase is not Phase.PAYING:
        raise NotAllowed.of("The round is not complete yet", clause="4.2")
    if state.pending is not None:
        raise resolve_first(state.pending.reason)


def can_confirm_payouts(state: BlackjackState) -> bool:
    return allowed(verify_confirm_payouts, state)


def confirm_payouts(state: BlackjackState) -> RoundSettled:
    verify_confirm_payouts(state)
    return RoundSettled(
        round=state.round, dealer_cards=state.dealer,
        hands=tuple((h.box, h.number, h.cards) for h in state.hands),
        settlements=settlement(state), paid_earlier=state.paid)


def verify_void_round(state: BlackjackState, reason: str, inspector: str = "") -> None:
    if state.phase is Phase.BETTING and not state.stakes:
        raise NotAllowed.of("There is no round in play to void")
    if not reason.strip():
        raise NotAllowed.of("Say why the round is void")
    if void_needs_inspector(state) and not inspector.strip():
        raise NotAllowed.of("The dealer's hand has begun and winning bets are paid: only an "
                            "inspector can void this round", clause="2.7")


def void_needs_inspector(state: BlackjackState) -> bool:
    """Rule 2.7: once the dealer's hand has started the result is known, so a void (which
    hands back bets that won) is an inspector's decision."""
    return state.phase in (Phase.DEALER, Phase.PAYING)


def can_void_round(state: BlackjackState, reason: str = "reason to be given",
                   inspector: str = "inspector to be named") -> bool:
    """Whether a round is in play that could be voided (the reason, and an inspector when
    `void_needs_inspector`, may be given after)."""
    return allowed(verify_void_round, state, reason, inspector)


def void_round(state: BlackjackState, reason: str, by: str = "", inspector: str = ""
               ) -> RoundVoided:
    verify_void_round(state, reason, inspector)
    return RoundVoided(round=state.round, reason=reason.strip(), by=by,
                       inspector=inspector.strip(), returned=void_returns(state))


def void_returns(state: BlackjackState) -> tuple[Settlement, ...]:
    """What a void hands back: every bet not settled yet, untouched (doubles and splits
    included), and every insurance. Blackjacks, even money and surrenders already settled
    stand as paid (`state.paid`)."""
    back: list[Settlement] = []
    if state.hands:
        for h in state.hands:
            for b in h.bets:
                if b.active:
                    back.append(_returned(h.box, h.number, b.player, BetKind.HAND, b.stake))
    else:  # no more bets was not called: the stakes are still only on the layout
        for s in state.stakes:
            back.append(_returned(s.box, 1, s.player, BetKind.HAND, s.amount))
    for i in state.insurance:
        back.append(_returned(i.box, 0, i.player, BetKind.INSURANCE, i.amount))
    return tuple(back)


def _returned(box: int, hand: int, player: str, kind: BetKind, stake: int) -> Settlement:
    return Settlement(box, hand, player, kind, stake, Outcome.RETURNED, Fraction(0), 0, stake)
