"""Each box's decisions (rule 4.2 item 4): stand, double (4d), split (4e) with the players
behind, surrender (4a; never in Touch 21, 7.2 item 8), and blackjacks paid at once (item 5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kiosk.rules.blackjack import settle as st
from kiosk.rules.blackjack.house import BlackjackRules, SplitMatch, Variant
from kiosk.rules.blackjack.operations import (
    BlackjackPaid,
    Doubled,
    Follow,
    Split,
    Stood,
    Surrendered,
)
from kiosk.rules.blackjack.settle import BetKind, Outcome
from kiosk.rules.blackjack.state import BlackjackState, Phase, PlayerHand
from kiosk.rules.blackjack.turns import needs_pay
from kiosk.rules.errors import NotAllowed

Refusal = NotAllowed | None


# What a `can_` query gets instead of a sentence: nobody reads it, so none is built.
_QUIET = NotAllowed("not allowed now")


def decision_refusal(state: BlackjackState, explain: bool = True) -> Refusal:
    """Why the hand in turn cannot decide now (None: it can). The `_refusal` helpers build
    the dealer's sentence without raising, so `can_` queries cost no exception."""
    if state.pending is not None:
        if not explain:
            return _QUIET
        return NotAllowed(f"First resolve the {state.pending.reason} card")
    h = state.current
    if state.phase is not Phase.PLAYING or h is None:
        if not explain:
            return _QUIET
        return NotAllowed.of("No box is playing now", clause="4.2 item 4")
    if len(h.points) < 2:
        if not explain:
            return _QUIET
        return NotAllowed(f"{h.label.capitalize()} takes its second card first",
                          clause="4.2 item 4e")
    if needs_pay(state, h):
        if not explain:
            return _QUIET
        return NotAllowed(f"Pay the blackjack on {h.label} first", clause="4.2 item 5")
    if h.finished:
        if not explain:
            return _QUIET
        return NotAllowed(f"{h.label.capitalize()} is already finished")
    if h.doubled:
        if not explain:
            return _QUIET
        return NotAllowed(f"{h.label.capitalize()} has doubled: deal its one card",
                          clause=_clause(state.rules, "d"))
    return None


def _players_refusal(h: PlayerHand, players: Iterable[str]) -> Refusal:
    for p in players:
        if not any(b.player == p and b.active for b in h.bets):
            return NotAllowed(f"Player {p} has no bet in play on {h.label}")
    return None


def _raise(refusal: Refusal) -> None:
    if refusal is not None:
        raise refusal


def _turn(state: BlackjackState) -> PlayerHand:
    h = state.current
    assert h is not None
    return h


def verify_stand(state: BlackjackState) -> None:
    _raise(decision_refusal(state))


def can_stand(state: BlackjackState) -> bool:
    return decision_refusal(state, explain=False) is None


def stand(state: BlackjackState) -> Stood:
    """Rule 4.2 item 4b: stand, no card."""
    verify_stand(state)
    h = _turn(state)
    return Stood(state.round, h.box, h.number)


def _double_refusal(state: BlackjackState, players: Iterable[str] = (),
                    explain: bool = True) -> Refusal:
    refusal = decision_refusal(state, explain)
    if refusal is not None:
        return refusal
    h = _turn(state)
    rules = state.rules
    if len(h.points) != 2:
        if not explain:
            return _QUIET
        return NotAllowed.of("Doubling is only on the first two cards", clause=_clause(rules, "d"))
    if h.split and (not rules.double_after_split or h.split_aces):
        if not explain:
            return _QUIET
        return NotAllowed.of("This house does not allow a double after a split",
                          clause=_clause(rules, "d"))
    return _players_refusal(h, players)


def _clause(rules: BlackjackRules, item: str) -> str:
    """Rule 4.2 item 4d/4e, or its Touch 21 twin 7.2 item 7c/7d."""
    if rules.variant is Variant.TOUCH_21:
        return f"7.2 item 7{'c' if item == 'd' else 'd'}"
    return f"4.2 item 4{item}"


def verify_double(state: BlackjackState, players: Iterable[str] = ()) -> None:
    _raise(_double_refusal(state, players))


def can_double(state: BlackjackState, players: Iterable[str] = ()) -> bool:
    return _double_refusal(state, players, explain=False) is None


def double(state: BlackjackState, behind: Iterable[str] = ()) -> Doubled:
    """Rule 4.2 item 4d: the caller doubles; `behind` names the players behind who double
    too (the others do not have to). One card only follows."""
    behind = tuple(behind)
    verify_double(state, behind)
    h = _turn(state)
    caller = h.caller
    assert caller is not None
    players = (caller.player, *(p for p in behind if p != caller.player))
    return Doubled(state.round, h.box, h.number, players)


def is_pair(rules: BlackjackRules, h: PlayerHand) -> bool:
    if len(h.points) != 2:
        return False
    if rules.split_match is SplitMatch.RANK:
        return h.cards[0].rank is h.cards[1].rank
    return h.points[0] == h.points[1]


def _split_refusal(state: BlackjackState, follow: Iterable[str] = (),
                   explain: bool = True) -> Refusal:
    refusal = decision_refusal(state, explain)
    if refusal is not None:
        return refusal
    h = _turn(state)
    rules = state.rules
    if not is_pair(rules, h):
        what = "the same rank" if rules.split_match is SplitMatch.RANK else "equal face value"
        if not explain:
            return _QUIET
        return NotAllowed(f"Only a pair of cards of {what} may be split",
                          clause=_clause(rules, "e"))
    if h.split_aces and not rules.resplit_aces:
        if not explain:
            return _QUIET
        return NotAllowed.of("Aces may only be split once", clause=_clause(rules, "e"))
    if sum(1 for x in state.hands if x.box == h.box) >= rules.max_hands:
        if not explain:
            return _QUIET
        return NotAllowed.of("Box %(box)s already has %(hands)s hands, the house's most",
                             box=h.box, hands=rules.max_hands)
    return _players_refusal(h, follow)


def verify_split(state: BlackjackState, follow: Mapping[str, Follow] | None = None) -> None:
    _raise(_split_refusal(state, follow or ()))


def can_split(state: BlackjackState, follow: Mapping[str, Follow] | None = None) -> bool:
    return _split_refusal(state, follow or (), explain=False) is None


def split(state: BlackjackState, follow: Mapping[str, Follow] | None = None) -> Split:
    """Rule 4.2 item 4e: the caller splits; each player behind splits too (BOTH) or says
    which hand they play (FIRST, SECOND) before the second card; unnamed ones follow FIRST."""
    follow = dict(follow or {})
    verify_split(state, follow)
    h = _turn(state)
    caller = h.caller
    choices: list[tuple[str, Follow]] = []
    for b in h.bets:
        if not b.active:
            continue
        choice = Follow.BOTH if b is caller else follow.get(b.player, Follow.FIRST)
        choices.append((b.player, choice))
    return Split(state.round, h.box, h.number, tuple(choices))


def _surrender_refusal(state: BlackjackState, players: Iterable[str] = (),
                       explain: bool = True) -> Refusal:
    rules = state.rules
    if rules.variant is Variant.TOUCH_21:
        if not explain:
            return _QUIET
        return NotAllowed.of("Surrender is not permitted in Touch 21", clause="7.2 item 8")
    if not rules.surrender:
        if not explain:
            return _QUIET
        return NotAllowed.of("This house does not allow surrender", clause="4.2 item 4a")
    refusal = decision_refusal(state, explain)
    if refusal is not None:
        return refusal
    h = _turn(state)
    if state.dealer_points and state.dealer_points[0] == 1:
        if not explain:
            return _QUIET
        return NotAllowed.of("No surrender against a dealer ace", clause="4.2 item 4a")
    if h.split or len(h.points) != 2 or h.doubled:
        if not explain:
            return _QUIET
        return NotAllowed.of("Surrender is only on the first two cards", clause="4.2 item 4a")
    return _players_refusal(h, players)


def verify_surrender(state: BlackjackState, players: Iterable[str] = ()) -> None:
    _raise(_surrender_refusal(state, players))


def can_surrender(state: BlackjackState, players: Iterable[str] = ()) -> bool:
    return _surrender_refusal(state, players, explain=False) is None


def surrender(state: BlackjackState, behind: Iterable[str] = ()) -> Surrendered:
    """Rule 4.2 item 4a: the caller surrenders half the original bet; players behind may
    surrender with them (the others play on, called by the next bet)."""
    behind = tuple(behind)
    verify_surrender(state, behind)
    h = _turn(state)
    caller = h.caller
    assert caller is not None
    players = (caller.player, *(p for p in behind if p != caller.player))
    chips = state.rules.chips
    settlements = tuple(st.surrender(h.box, h.number, b.player, b.stake, chips)
                        for b in h.bets if b.active and b.player in players)
    return Surrendered(state.round, h.box, h.number, players, settlements)


def _pay_refusal(state: BlackjackState, explain: bool = True) -> Refusal:
    if state.pending is not None:
        if not explain:
            return _QUIET
        return NotAllowed(f"First resolve the {state.pending.reason} card")
    h = state.current
    if state.phase is not Phase.PLAYING or h is None or not needs_pay(state, h):
        if not explain:
            return _QUIET
        return NotAllowed.of("No blackjack is waiting to be paid", clause="4.2 item 5")
    return None


def verify_pay_blackjack(state: BlackjackState) -> None:
    _raise(_pay_refusal(state))


def can_pay_blackjack(state: BlackjackState) -> bool:
    return _pay_refusal(state, explain=False) is None


def pay_blackjack(state: BlackjackState) -> BlackjackPaid:
    """Rule 4.2 item 5: a blackjack is paid 3:2 straight away when the dealer shows 2-9."""
    verify_pay_blackjack(state)
    h = state.current
    assert h is not None
    rules = state.rules
    settlements = tuple(st.win(h.box, h.number, b.player, BetKind.HAND, b.stake,
                               rules.blackjack_odds, rules.chips, Outcome.BLACKJACK)
                        for b in h.bets if b.active)
    return BlackjackPaid(state.round, h.box, h.number, settlements)
