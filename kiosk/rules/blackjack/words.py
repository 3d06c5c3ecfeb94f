"""What the dealer reads and what the screens ask: the next step in words, the decisions open,
the acts allowed now (`legal_actions`).
"""

from __future__ import annotations

from typing import Any

from kiosk.rules.blackjack import cut
from kiosk.rules.blackjack.betting import verify_close_betting, verify_place_bet
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.dealing import (
    check_target,
    verify_accept_queried_card,
    verify_burn,
    verify_cut_card_out,
    verify_set_aside_card,
    verify_unread_card,
)
from kiosk.rules.blackjack.decisions import (
    can_double,
    can_split,
    can_surrender,
    decision_refusal,
    is_pair,
    verify_pay_blackjack,
    verify_stand,
)
from kiosk.rules.blackjack.hands import Total
from kiosk.rules.blackjack.helpers import round_started
from kiosk.rules.blackjack.house import BlackjackRules, Variant
from kiosk.rules.blackjack.insurance import (
    max_insurance,
    verify_check_blackjacks,
    verify_close_insurance,
    verify_insure,
    verify_take_even_money,
)
from kiosk.rules.blackjack.operations import CardSource
from kiosk.rules.blackjack.payouts import verify_confirm_payouts, verify_void_round
from kiosk.rules.blackjack.preparation import prep_now, verify_shuffle
from kiosk.rules.blackjack.state import DEALER, NOBODY, BlackjackState, Phase, hand_words
from kiosk.rules.blackjack.turns import initial_target, needs_pay
from kiosk.rules.errors import Said, Word, allowed


def next_step(state: BlackjackState) -> Said:
    """The one next thing the dealer must do (a `Said`: English, with its sentence for the
    dealer's language)."""
    rules = state.rules
    if state.pending is not None:
        p = state.pending
        target = (None if p.box == NOBODY else Said.words("the dealer") if p.box == DEALER
                  else hand_words(state.hand(p.box, p.hand)))
        if p.reason == "unread":
            return (Said.words("Key in the unread card") if target is None
                    else Said.words("Key in the unread card for %(target)s", target=target))
        if p.reason == "impossible":
            return (Said.words("Queried card: key the right card, or an inspector accepts it")
                    if target is None else
                    Said.words("Queried card for %(target)s: key the right card, or an "
                            "inspector accepts it", target=target))
        return Said.words("Card not allowed: %(why)s. Set it aside or void the round",
                       why=p.message)
    if state.prep.stage is not Stage.READY and not round_started(state):
        words = cut.step_words(prep_now(state), rules.shuffler)
        if state.prep.stage is Stage.BURN and state.phase is Phase.BETTING:
            return Said.words("Place your bets. %(step)s", step=words)
        return words
    if state.phase is Phase.BETTING:
        return Said.words("Place your bets")
    if state.phase is Phase.DEALING:
        i = initial_target(state)
        if i == -1:
            return Said.words("Dealer's card")
        h = state.hands[i]
        if len(state.dealer) == 0 and i < len(state.hands):
            return Said.words("Box %(box)s: first card", box=h.box)
        return Said.words("Box %(box)s: second card", box=h.box)
    if state.phase is Phase.CHECK:
        return Said.words("Players check their cards; a blackjack is turned face up (rule 7.2 "
                       "items 4-5)")
    if state.phase is Phase.INSURANCE:
        return Said.words("Dealer shows an ace: insurance? (blackjacks: even money?) Then close "
                       "insurance")
    if state.phase is Phase.PLAYING:
        cur = state.current
        assert cur is not None
        if needs_pay(state, cur):
            return Said.words("Pay the blackjack on %(hand)s: %(ratio)s", hand=hand_words(cur),
                           ratio=format_ratio_words(rules))
        if len(cur.cards) < 2:
            return Said.words("%(hand)s: its second card", hand=hand_words(cur, capital=True))
        if cur.doubled:
            return Said.words("%(hand)s doubled: one card only", hand=hand_words(cur, capital=True))
        up = state.dealer_points[0]
        options = [Said.words("draw"), Said.words("stand")]
        if can_double(state):
            options.append(Said.words("double"))
        if can_split(state):
            options.append(Said.words("split"))
        if can_surrender(state):
            options.append(Said.words("surrender"))
        return Said.words("%(hand)s: %(total)s against %(up)s: %(options)s?",
                       hand=hand_words(cur, capital=True), total=total_words(cur.total),
                       up=Said.words("an ace") if up == 1 else up, options=Said.listing(options))
    if state.phase is Phase.DEALER:
        if len(state.dealer) < 2:
            return Said.words("Dealer's second card")
        return Said.words("Dealer draws (%(total)s): %(rule)s",
                       total=total_words(state.dealer_total),
                       rule=Word(rules.dealer_rule.lower(), rules.dealer_rule))
    t = state.dealer_total
    head = (Said.words("Dealer has blackjack") if state.dealer_blackjack
            else Said.words("Dealer %(total)s", total=total_words(t) if t.bust else t.best)
            if state.dealer_points else Said.words("No dealer card needed"))
    return Said.words("Round complete: %(result)s. Pay and confirm", result=head)


def total_words(t: Total) -> str:
    """`Total`'s words ("soft 17 / 7", "bust (24)", "21") for the dealer's language."""
    if t.bust:
        return Said.words("bust (%(total)s)", total=t.hard)
    if t.soft and t.best != 21:
        return Said.words("soft %(best)s / %(hard)s", best=t.best, hard=t.hard)
    return str(t.best)


def format_ratio_words(rules: BlackjackRules) -> str:
    r = rules.blackjack_odds
    return f"{r.numerator}:{r.denominator}"


def decision_flags(state: BlackjackState) -> tuple[bool, bool, bool] | None:
    """(can double, can split, can surrender) for the hand in turn, or None when it cannot
    decide now: `decisions` in one pass, for a strategy asking many times a second."""
    if decision_refusal(state, explain=False) is not None:
        return None
    h = state.current
    assert h is not None
    rules = state.rules
    two = len(h.points) == 2
    double = two and not (h.split and (not rules.double_after_split or h.split_aces))
    split = (two and is_pair(rules, h) and not h.split_aces
             and sum(1 for x in state.hands if x.box == h.box) < rules.max_hands)
    surrender = (two and rules.surrender and rules.variant is Variant.STANDARD
                 and not h.split and state.dealer_points[0] != 1)
    return double, split, surrender


def decisions(state: BlackjackState) -> tuple[str, ...]:
    """The decisions the rules allow the hand in turn now (the dealer screen's buttons)."""
    if decision_refusal(state, explain=False) is not None:
        return ()
    out = ["draw", "stand"]
    if can_double(state):
        out.append("double")
    if can_split(state):
        out.append("split")
    if can_surrender(state):
        out.append("surrender")
    return tuple(out)


def cut_card_words(state: BlackjackState) -> str:
    """What the cutting card means now (rules 4.1.2, 4.1.3 shuffle and cut)."""
    if state.prep.stage is Stage.SHUFFLE:
        return ("Cutting card out before the round: shuffle now (rule 4.1.2 shuffle and "
                "cut); the bets stay")
    return ("Cutting card out: the cards are shuffled at the end of this round (rule 4.1.3 "
            "shuffle and cut)")


def legal_actions(state: BlackjackState) -> frozenset[str]:
    """The dealer's acts allowed now, by name, without probing each card, box or amount:
    the dealer screen enables its buttons from this set. An act that needs a box or a player
    is in the set when it is allowed for one of them; `deal_card` means a card may be keyed
    in for the hand whose turn it is."""
    out: set[str] = set()
    checks: dict[str, tuple[Any, tuple[Any, ...]]] = {
        "shuffle": (verify_shuffle, ()),
        "close_betting": (verify_close_betting, ()),
        "confirm_payouts": (verify_confirm_payouts, ()),
        "void_round": (verify_void_round, ("reason to be given", "inspector to be named")),
        "unread_card": (verify_unread_card, ()),
        "accept_queried_card": (verify_accept_queried_card, ("inspector",)),
        "set_aside_card": (verify_set_aside_card, ()),
        "check_blackjacks": (verify_check_blackjacks, ()),
        "close_insurance": (verify_close_insurance, ()),
        "stand": (verify_stand, ()),
        "pay_blackjack": (verify_pay_blackjack, ()),
        "burn": (verify_burn, (None,)),
        "cut_card_out": (verify_cut_card_out, ()),
    }
    for name, (verify, args) in checks.items():
        if allowed(verify, state, *args):
            out.add(name)
    flags = decision_flags(state)
    if flags is not None:
        for name, flag in zip(("double", "split", "surrender"), flags, strict=True):
            if flag:
                out.add(name)
    if state.phase is Phase.BETTING and any(
            allowed(verify_place_bet, state, box, state.rules.minimum)
            for box in range(1, state.rules.boxes + 1)):
        out.add("place_bet")
    if state.phase is Phase.BETTING and state.stakes:
        out.add("remove_bet")
    if (allowed(check_target, state, None, 1, CardSource.KEYED)
            and state.shoe is not None and state.shoe.remaining > 0):
        out.add("deal_card")
    seated = {(s.box, s.player) for s in state.stakes} | {
        (h.box, b.player) for h in state.hands for b in h.bets}
    if any(allowed(verify_insure, state, box, player, max_insurance(state, box, player))
           for box, player in seated):
        out.add("insure")
    if any(allowed(verify_take_even_money, state, box, player) for box, player in seated):
        out.add("take_even_money")
    return frozenset(out)

