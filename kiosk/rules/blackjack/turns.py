"""Whose turn it is and what the shoe's next card is for: the deal order of rule 4.2 item 3
(no hole card), each box's decisions in turn (item 4), blackjacks paid at once or waiting
(item 5), the dealer's drawing rule (4.2; Touch 21 7.2).
"""

from __future__ import annotations

from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.hands import total_of_points
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.blackjack.operations import TableOpened
from kiosk.rules.blackjack.state import DEALER, BlackjackState, Phase, PlayerHand
from kiosk.rules.errors import NotAllowed


def initial_state(rules: BlackjackRules, table_id: str) -> BlackjackState:
    return BlackjackState(rules=rules, table_id=table_id)


def open_table(rules: BlackjackRules, table_id: str) -> TableOpened:
    return TableOpened(game=rules.variant.value, table_id=table_id, rules=rules)


def dealer_must_draw(rules: BlackjackRules, points: tuple[int, ...]) -> bool:
    """Rule 4.2: the dealer draws on 16 and stands on 17; rule 7.2 (Touch 21, or a house
    that says so): draws on soft 17 and stands on hard 17."""
    t = total_of_points(points)
    best = t.best
    return best < 17 or (best == 17 and t.soft and rules.dealer_hits_soft_17)


def initial_target(state: BlackjackState) -> int:
    """Rule 4.2 item 3: a card to each box with bets, one to the dealer, a second to each
    box. The index in `hands` of the hand due a card, -1 for the dealer, -2 when the first
    two cards are all out."""
    n = len(state.hands)
    dealt = state.round_cards
    if dealt < n:
        return dealt
    if dealt == n:
        return -1
    if dealt <= 2 * n:
        return dealt - n - 1
    return -2


def dealer_needs(state: BlackjackState) -> int:
    """How many more cards the dealer's hand needs now: 0, 1, or 2 meaning 'draws on'.

    A live hand other than a blackjack needs the dealer's whole hand; blackjacks waiting
    against an ace or a ten, and insurance, only need the second card (rule 4.2 item 5)."""
    full = False
    second = bool(state.insurance)
    for h in state.hands:
        if h.active and not h.bust:
            if h.blackjack:
                second = True
            else:
                full = True
                break
    if full:
        if len(state.dealer_points) < 2 or dealer_must_draw(state.rules, state.dealer_points):
            return 2
        return 0
    if second and len(state.dealer) < 2:
        return 1
    return 0


def _blackjack_waits(state: BlackjackState) -> bool:
    """Rule 4.2 item 5: against an ace or a ten the blackjack waits for the dealer's hand."""
    up = state.dealer_points[0] if state.dealer_points else 0
    return up in (1, 10)


def needs_pay(state: BlackjackState, h: PlayerHand) -> bool:
    return h.blackjack and h.active and not _blackjack_waits(state)


def next_turn(state: BlackjackState, hands: tuple[PlayerHand, ...], start: int) -> int:
    waits = _blackjack_waits(state)
    for i in range(max(start, 0), len(hands)):
        h = hands[i]
        if h.blackjack and h.active and not waits:
            return i  # pay it straight away
        if not h.finished:
            return i
    return -1


def card_target(state: BlackjackState) -> tuple[int, int] | None:
    """Where the next card from the shoe goes: (box, hand) or (DEALER, 1); None if no hand
    may take one now (the reason is `no_target_reason`)."""
    if state.prep.stage is not Stage.READY:
        return None  # the shuffle and cut come first (rule 4.1.2)
    if state.phase is Phase.DEALING:
        i = initial_target(state)
        if i == -1:
            return DEALER, 1
        if i >= 0:
            h = state.hands[i]
            return h.box, h.number
        return None
    if state.phase is Phase.PLAYING:
        cur = state.current
        if cur is None or cur.finished:
            return None
        return cur.box, cur.number
    if state.phase is Phase.DEALER and dealer_needs(state):
        return DEALER, 1
    return None


def card_due_without_decision(state: BlackjackState) -> bool:
    """Whether the next card is due whatever anyone decides: the burn (rule 4.7 shuffle and
    cut), the first two cards (item 3), a split hand's second card (item 4e), a double's one
    card (item 4d), the dealer's cards. A hand that could stand waits for the player."""
    if state.pending is not None:
        return False
    if burn_due(state):
        return True
    if state.phase is Phase.PLAYING:
        h = state.current
        return (h is not None and not h.finished and not needs_pay(state, h)
                and (len(h.points) < 2 or h.doubled))
    return state.phase in (Phase.DEALING, Phase.DEALER) and card_target(state) is not None


def no_target_reason(state: BlackjackState, box: int | None = None, hand: int = 1
                      ) -> tuple[str, str | None]:
    """Why a card cannot be dealt (to `box`/`hand`, or to whoever is due): words, clause."""
    rules = state.rules
    clause = rules.rule_clause
    if state.phase is Phase.BETTING:
        return "No card is dealt before no more bets", f"{clause} item 3"
    if state.phase in (Phase.CHECK, Phase.INSURANCE):
        what = ("the players to check their cards" if state.phase is Phase.CHECK
                else "insurance to close")
        return f"Wait for {what} before the next card", (
            "7.2 item 4" if state.phase is Phase.CHECK else "4.7")
    if box is not None and box != DEALER:
        try:
            h = state.hand(box, hand)
        except NotAllowed as exc:
            return str(exc), None
        if h.split_aces and len(h.cards) >= 2:
            return (f"A split ace takes one card only: {h.label} has its card",
                    f"{clause} item 4e")
        if h.doubled and len(h.cards) >= 3:
            return f"A doubled hand takes one card only: {h.label} has it", f"{clause} item 4d"
        if h.bust:
            return f"{h.label.capitalize()} is bust", clause
        if h.total.best == 21:
            return f"{h.label.capitalize()} has 21", clause
        if h.stood:
            return f"{h.label.capitalize()} stands", f"{clause} item 4b"
        if not h.active:
            return f"{h.label.capitalize()} is settled", clause
        cur = state.current
        if cur is not None:
            return f"It is {cur.label}'s turn, not {h.label}'s", f"{clause} item 4"
    if state.phase is Phase.PLAYING:
        cur = state.current
        if cur is not None and needs_pay(state, cur):
            return f"Pay the blackjack on {cur.label} first", f"{clause} item 5"
        if box == DEALER:
            return ("The dealer takes no second card until every box has played",
                    f"{clause} item 3")
    if state.phase in (Phase.DEALER, Phase.PAYING) or box == DEALER:
        t = state.dealer_total
        if len(state.dealer) >= 2 and not dealer_must_draw(rules, state.dealer_points):
            kind = "soft" if t.soft else "hard"
            if t.bust:
                return "The dealer is bust", clause
            stands = ("stands on hard 17 and more" if rules.dealer_hits_soft_17
                      else "stands on all 17s")
            return f"The dealer has {kind} {t.best} and {stands}", clause
        if dealer_needs(state) == 0:
            return "No hand is left that needs the dealer's cards", clause
    return "No card is due now", None




def burn_due(state: BlackjackState) -> bool:
    return state.prep.stage is Stage.BURN
