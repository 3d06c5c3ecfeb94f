"""Bets (rules 2.2, 4.2 items 1-2; Touch 21 7.2 items 1-2): on the seven boxes, the first bet
nearest the dealer calling the box, players behind; "no more bets" (item 3).
"""

from __future__ import annotations

from kiosk.rules.blackjack import cut
from kiosk.rules.blackjack.cut import Stage, sc
from kiosk.rules.blackjack.helpers import amount_of
from kiosk.rules.blackjack.operations import BetPlaced, BetRemoved, BettingClosed, CallerSet
from kiosk.rules.blackjack.state import BlackjackState, Phase
from kiosk.rules.errors import NotAllowed, allowed


def verify_place_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> None:
    rules = state.rules
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("No more bets: the round is being dealt", clause="4.2 item 3")
    if not 1 <= box <= rules.boxes:
        raise NotAllowed.of("There is no box %(box)s: the layout has boxes 1 to %(boxes)s",
                            clause="4.3", box=box, boxes=rules.boxes)
    if not player.strip():
        raise NotAllowed.of("Say whose bet it is")
    if amount <= 0:
        raise NotAllowed.of("A bet must be more than nothing")
    rules.chips.verify_stake(amount)
    after = state.stake_of(box, player) + amount
    if after > rules.maximum:
        raise NotAllowed.of("Box %(box)s: %(amount)s is over the table maximum of "
                            "%(maximum)s", clause="2.2", box=box, amount=amount_of(state, after),
                            maximum=amount_of(state, rules.maximum))


def can_place_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> bool:
    return allowed(verify_place_bet, state, box, amount, player)


def place_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> BetPlaced:
    """Rules 4.6, 7.6: a bet on a box; a second player's bet on a box plays behind (4.2
    item 2)."""
    verify_place_bet(state, box, amount, player)
    return BetPlaced(round=state.round, box=box, player=player.strip(), amount=amount)


def verify_remove_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("Bets cannot be taken back after no more bets", clause="4.6")
    if amount <= 0 or state.stake_of(box, player) < amount:
        raise NotAllowed.of("Box %(box)s has no %(amount)s bet of player %(player)s to take "
                            "back", box=box, amount=amount_of(state, amount),
                            player=player)


def can_remove_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> bool:
    return allowed(verify_remove_bet, state, box, amount, player)


def remove_bet(state: BlackjackState, box: int, amount: int, player: str = "A") -> BetRemoved:
    verify_remove_bet(state, box, amount, player)
    return BetRemoved(round=state.round, box=box, player=player, amount=amount)


def verify_set_caller(state: BlackjackState, box: int, player: str) -> None:
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("The caller of a box is settled before no more bets",
                            clause="4.2 item 2")
    if state.stake_of(box, player) <= 0:
        raise NotAllowed.of("Player %(player)s has no bet on box %(box)s", player=player,
                            box=box)


def can_set_caller(state: BlackjackState, box: int, player: str) -> bool:
    """Whether `player` could be made the caller of `box` now and is not already."""
    stakes = state.stakes_on(box)
    return (allowed(verify_set_caller, state, box, player) and bool(stakes)
            and stakes[0].player != player)


def set_caller(state: BlackjackState, box: int, player: str) -> CallerSet:
    """Rule 4.2 item 2: the bet nearest the dealer calls the box."""
    verify_set_caller(state, box, player)
    return CallerSet(round=state.round, box=box, player=player)


def verify_close_betting(state: BlackjackState) -> None:
    rules = state.rules
    if state.phase is not Phase.BETTING:
        raise NotAllowed.of("Bets are already closed", clause="4.2 item 3")
    if state.prep.stage not in (Stage.BURN, Stage.READY):
        # Rule 4.1's refusal, then the step that makes the cards ready with its own clause.
        raise NotAllowed.of("The cards are not ready: %(step)s", clause=sc("4.1"),
                            step=cut.step_words(state.prep, rules.shuffler))
    if not state.stakes:
        raise NotAllowed.of("No box has a bet", clause="4.2 item 3")
    for s in state.stakes:
        if s.amount < rules.minimum:
            raise NotAllowed.of("Box %(box)s, player %(player)s: %(amount)s is under the "
                                "table minimum of %(minimum)s", clause="2.2", box=s.box,
                                player=s.player, amount=amount_of(state, s.amount),
                                minimum=amount_of(state, rules.minimum))


def can_close_betting(state: BlackjackState) -> bool:
    return allowed(verify_close_betting, state)


def close_betting(state: BlackjackState) -> BettingClosed:
    verify_close_betting(state)
    return BettingClosed(round=state.round)
