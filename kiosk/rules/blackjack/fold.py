"""The fold (docs/architecture.md): `apply(state, op)`, the one transition function used live and in
replay; the state is always the fold of the journal's records.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from kiosk.rules.blackjack import cut
from kiosk.rules.blackjack.cut import ShoePrep, ShuffleReason, Stage
from kiosk.rules.blackjack.hands import POINTS
from kiosk.rules.blackjack.helpers import round_started
from kiosk.rules.blackjack.house import Variant
from kiosk.rules.blackjack.operations import (
    BetPlaced,
    BetRemoved,
    BettingClosed,
    BlackjackPaid,
    BlackjacksChecked,
    CallerSet,
    CardBurned,
    CardDealt,
    CardQueried,
    CardsCut,
    CardSetAside,
    CardSource,
    CardsShuffled,
    CardUnread,
    CutCardOut,
    CutRefused,
    Doubled,
    EvenMoneyTaken,
    Follow,
    InsuranceClosed,
    InsuranceTaken,
    RoundSettled,
    RoundVoided,
    Split,
    Stood,
    Surrendered,
    TableOpened,
)
from kiosk.rules.blackjack.preparation import prep_now
from kiosk.rules.blackjack.state import (
    DEALER,
    BlackjackState,
    HandBet,
    Insurance,
    PendingCard,
    Phase,
    PlayerHand,
    Stake,
)
from kiosk.rules.blackjack.turns import (
    dealer_needs,
    initial_state,
    initial_target,
    needs_pay,
    next_turn,
)
from kiosk.rules.cards import Card, ShoeContents
from kiosk.rules.game import foreign
from kiosk.rules.operations import Operation, TableRecord


def _replace(state: BlackjackState, **changes: Any) -> BlackjackState:
    """`dataclasses.replace` without its cost (the fold's hot path): a copy of the instance
    dict with the changes, no `__init__` (the state's values were checked when they were
    made). A test holds it to `dataclasses.replace`."""
    new = object.__new__(BlackjackState)
    fields = state.__dict__.copy()
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)
    return new


def _hand(box: int, number: int, bets: tuple[HandBet, ...], cards: tuple[Card, ...],
          points: tuple[int, ...], split: bool, split_aces: bool, doubled: bool, stood: bool
          ) -> PlayerHand:
    """`PlayerHand(...)` with every field."""
    return PlayerHand(box, number, bets, cards, points, split, split_aces, doubled, stood)


def _hand_replace(h: PlayerHand, **changes: Any) -> PlayerHand:
    g = changes.get  # the constructor: `dataclasses.replace` is slow
    return _hand(g("box", h.box), g("number", h.number), g("bets", h.bets),
                      g("cards", h.cards), g("points", h.points), g("split", h.split),
                      g("split_aces", h.split_aces), g("doubled", h.doubled),
                      g("stood", h.stood))


def _after_initial_deal(state: BlackjackState) -> BlackjackState:
    """Rule 7.2 items 4-5 (Touch 21 check), rule 4.7 (insurance on an ace), then play."""
    if state.rules.variant is Variant.TOUCH_21:
        return _replace(state, phase=Phase.CHECK)
    return _after_check(state)


def _after_check(state: BlackjackState) -> BlackjackState:
    if state.dealer_points[0] == 1:
        return _replace(state, phase=Phase.INSURANCE)
    return _enter_play(state)


def _enter_play(state: BlackjackState) -> BlackjackState:
    turn = next_turn(state, state.hands, 0)
    if turn >= 0:
        return _replace(state, phase=Phase.PLAYING, turn=turn)
    return _enter_dealer(state)


def _enter_dealer(state: BlackjackState) -> BlackjackState:
    state = _replace(state, phase=Phase.DEALER, turn=-1)
    if dealer_needs(state) == 0:
        return _replace(state, phase=Phase.PAYING)
    return state


def _after_hand_change(state: BlackjackState, hands: tuple[PlayerHand, ...], i: int,
                       **changes: Any) -> BlackjackState:
    """A hand changed: the turn stays or moves on (rule 4.2 item 4)."""
    h = hands[i]
    if state.phase is Phase.PLAYING and h.finished and not needs_pay(state, h):
        turn = next_turn(state, hands, i + 1)  # the up card, all it reads, is unchanged
        state = _replace(state, hands=hands, turn=turn, **changes)
        return _enter_dealer(state) if turn < 0 else state
    return _replace(state, hands=hands, **changes)


def _next_round(state: BlackjackState, **changes: Any) -> BlackjackState:
    seated = state.boxes_in_play or state.prep.seated
    prep = state.prep
    shoe = state.shoe
    if state.shuffle_after_round:
        # Rules 4.2 item 6 and 7.2 item 10: the shuffle comes at the end of the round in which
        # the cutting card appeared, and the player it was dealt to cuts.
        if state.cut_card_waiting:
            # No card came after the cutting card: it was exposed as the next round's first
            # card would be, so the player farthest right cuts (rule 4.2.4).
            prep = cut.needs_shuffle(ShuffleReason.CUT_CARD_FIRST, seated)
        else:
            prep = cut.needs_shuffle(ShuffleReason.CUT_CARD_ROUND, seated,
                                     state.cut_card_place)  # rule 4.1.3
        shoe = None
    elif prep.stage is Stage.READY:
        prep = ShoePrep(stage=Stage.READY, reason=prep.reason, seated=seated,
                        cutting_card_from_back=prep.cutting_card_from_back,
                        cut_at=prep.cut_at, method=prep.method)
    return _replace(
        state, round=state.round + 1, phase=Phase.BETTING, stakes=(), hands=(), dealer=(),
        dealer_points=(), turn=-1, insurance=(), paid=(), pending=None, prep=prep, shoe=shoe,
        shuffle_after_round=False, cut_card_place=None, cut_card_waiting=False,
        last_target=None, rounds_in_shoe=state.rounds_in_shoe + 1, round_cards=0, **changes)


def _deal(state: BlackjackState, op: CardDealt) -> BlackjackState:
    assert state.shoe is not None
    shoe = (state.shoe.draw_unchecked(op.card) if op.source is CardSource.OVERRIDE
            else state.shoe.draw(op.card))
    value = POINTS[op.card.rank]
    extra: dict[str, Any] = {"shoe": shoe, "pending": None, "last_target": op.box,
                             "round_cards": state.round_cards + 1}
    if state.cut_card_waiting:  # rules 4.2.2-4.2.3: the cutting card appeared here
        extra["cut_card_place"] = op.box
        extra["cut_card_waiting"] = False
    if op.box == DEALER:
        state = _replace(state, dealer=(*state.dealer, op.card),
                         dealer_points=(*state.dealer_points, value), **extra)
        if state.phase is Phase.DEALING:
            return state
        if dealer_needs(state) == 0:
            return _replace(state, phase=Phase.PAYING)
        return state
    i = state.index_of(op.box, op.hand)
    h = state.hands[i]
    # The constructor with every field in order: `dataclasses.replace` costs twice as much,
    # and this is the fold's busiest line.
    h = _hand(h.box, h.number, h.bets, (*h.cards, op.card), (*h.points, value), h.split,
              h.split_aces, h.doubled, h.stood)
    hands = (*state.hands[:i], h, *state.hands[i + 1:])
    if state.phase is Phase.DEALING:
        state = _replace(state, hands=hands, **extra)
        if initial_target(state) == -2:
            return _after_initial_deal(state)
        return state
    return _after_hand_change(state, hands, i, **extra)


def _set_bets(h: PlayerHand, players: tuple[str, ...], *, double: bool = False,
              surrender: bool = False, settle: bool = False) -> PlayerHand:
    """The hand with these players' live bets doubled (the added bet equals the bet, rule
    4.2 item 4d), surrendered (4a) or settled (paid at once)."""
    bets = tuple(
        HandBet(b.player, b.amount, b.original, b.amount if double else b.doubled,
                b.surrendered or surrender, b.settled or settle)
        if b.active and b.player in players else b
        for b in h.bets)
    return _hand_replace(h, bets=bets)


def _split(state: BlackjackState, op: Split) -> BlackjackState:
    i = state.index_of(op.box, op.hand)
    h = state.hands[i]
    choice = dict(op.follow)
    first: list[HandBet] = []
    second: list[HandBet] = []
    for b in h.bets:
        c = choice.get(b.player) if b.active else None
        if c is None:
            first.append(b)  # settled or surrendered bets stay where they were
        elif c is Follow.BOTH:
            first.append(b)
            second.append(HandBet(b.player, b.amount, original=False))
        elif c is Follow.FIRST:
            first.append(b)
        else:
            second.append(b)
    aces = h.points[0] == 1
    a = PlayerHand(h.box, h.number, tuple(first), (h.cards[0],), (h.points[0],), split=True,
                   split_aces=aces)
    b2 = PlayerHand(h.box, h.number + 1, tuple(second), (h.cards[1],), (h.points[1],),
                    split=True, split_aces=aces)
    later = tuple(_hand_replace(x, number=x.number + 1) if x.box == h.box and x.number > h.number
                  else x for x in state.hands[i + 1:])
    hands = (*state.hands[:i], a, b2, *later)
    return _replace(state, hands=hands, turn=i)


def apply(state: BlackjackState, op: Operation) -> BlackjackState:
    """The one transition function: live play and replay both fold Operations through it."""
    rep = _replace
    if isinstance(op, CardDealt):
        return _deal(state, op)
    if isinstance(op, Stood):
        i = state.index_of(op.box, op.hand)
        h = state.hands[i]
        h = _hand(h.box, h.number, h.bets, h.cards, h.points, h.split, h.split_aces,
                  h.doubled, True)  # stood (rule 4.2 item 4b)
        return _after_hand_change(state, (*state.hands[:i], h, *state.hands[i + 1:]), i)
    if isinstance(op, BetPlaced):
        return rep(state, stakes=_adjust(state.stakes, op.box, op.player, op.amount))
    if isinstance(op, BetRemoved):
        return rep(state, stakes=_adjust(state.stakes, op.box, op.player, -op.amount))
    if isinstance(op, BettingClosed):
        hands = tuple(
            PlayerHand(box, 1, tuple(HandBet(s.player, s.amount) for s in state.stakes
                                     if s.box == box))
            for box in state.boxes_in_play)
        return rep(state, phase=Phase.DEALING, hands=hands, turn=-1)
    if isinstance(op, Doubled):
        i = state.index_of(op.box, op.hand)
        h = _set_bets(state.hands[i], op.players, double=True)
        h = _hand_replace(h, doubled=True)
        return _after_hand_change(state, (*state.hands[:i], h, *state.hands[i + 1:]), i)
    if isinstance(op, Split):
        return _split(state, op)
    if isinstance(op, Surrendered):
        i = state.index_of(op.box, op.hand)
        h = _set_bets(state.hands[i], op.players, surrender=True)
        return _after_hand_change(state, (*state.hands[:i], h, *state.hands[i + 1:]), i,
                                  paid=(*state.paid, *op.settlements))
    if isinstance(op, BlackjackPaid):
        i = state.index_of(op.box, op.hand)
        h = state.hands[i]
        h = _set_bets(h, tuple(b.player for b in h.bets), settle=True)
        state = rep(state, paid=(*state.paid, *op.settlements))
        hands = (*state.hands[:i], h, *state.hands[i + 1:])
        return _after_hand_change(state, hands, i)
    if isinstance(op, RoundSettled):
        return _next_round(state, last_settled=op)
    if isinstance(op, CardBurned):
        shoe = state.shoe
        prep = state.prep
        if prep.stage is Stage.BURN:  # rule 4.7: the first card after the shuffle
            shoe = ShoeContents(state.rules.decks)
            prep = ShoePrep(stage=Stage.READY, reason=prep.reason, seated=prep.seated,
                            cut_at=prep.cut_at, method=prep.method,
                            cutting_card_from_back=prep.cutting_card_from_back)
        if shoe is not None and op.card is not None:
            shoe = shoe.draw(op.card) if shoe.can_draw(op.card) else shoe.draw_unchecked(op.card)
        elif shoe is not None:
            shoe = ShoeContents(shoe.decks, shoe.seen, shoe.dealt + 1)
        return rep(state, shoe=shoe, prep=prep)
    if isinstance(op, CardUnread):
        return rep(state, pending=PendingCard(op.box, op.hand, "unread",
                                              message="The shoe could not read this card"))
    if isinstance(op, CardQueried):
        return rep(state, pending=PendingCard(op.box, op.hand, op.reason, op.card, op.message))
    if isinstance(op, CardSetAside):
        assert state.shoe is not None
        return rep(state, pending=None, shoe=state.shoe.draw_unchecked(op.card))
    if isinstance(op, InsuranceTaken):
        return rep(state, insurance=(*state.insurance, Insurance(op.box, op.player, op.amount)))
    if isinstance(op, EvenMoneyTaken):
        i = state.index_of(op.box, 1)
        h = _set_bets(state.hands[i], (op.player,), settle=True)
        return rep(state, hands=(*state.hands[:i], h, *state.hands[i + 1:]),
                   paid=(*state.paid, op.settlement))
    if isinstance(op, InsuranceClosed):
        return _enter_play(state)
    if isinstance(op, BlackjacksChecked):
        return _after_check(state)
    if isinstance(op, CallerSet):
        mine = tuple(s for s in state.stakes if s.box == op.box and s.player == op.player)
        rest = tuple(s for s in state.stakes if not (s.box == op.box and s.player == op.player))
        return rep(state, stakes=mine + rest)
    if isinstance(op, CardsShuffled):
        seated = state.boxes_in_play or state.prep.seated
        prep = cut.after_shuffle(state.prep, op.method, state.rules.shuffler, op.new_cards,
                                 seated)
        return rep(state, prep=prep, shoe=None, rounds_in_shoe=0, shuffle_after_round=False,
                   cut_card_waiting=False, cut_card_place=None)
    if isinstance(op, CutRefused):
        prep = prep_now(state)
        return rep(state, prep=dataclasses.replace(prep, refused=(*prep.refused, op.box)))
    if isinstance(op, CardsCut):
        return rep(state, prep=cut.after_cut(state.prep, op.cut_at, op.cutting_card_from_back))
    if isinstance(op, CutCardOut):
        if state.prep.stage is not Stage.READY:
            return state  # the cards are being shuffled and cut: nothing to act on
        if not round_started(state):
            # Rule 4.1.2 (shuffle and cut): the cutting card came out as the first card of
            # a new round: shuffle now. The bets stay, and stay closed if they were (rules
            # 4.2 item 3, 4.6); the round is dealt from the new shoe after the cut and burn.
            seated = state.boxes_in_play or state.prep.seated
            return rep(state, prep=cut.needs_shuffle(ShuffleReason.CUT_CARD_FIRST, seated),
                       shoe=None)
        return rep(state, shuffle_after_round=True, cut_card_waiting=True)  # rule 4.1.3
    if isinstance(op, RoundVoided):
        return _next_round(state)
    if isinstance(op, TableOpened):
        if not state.table_id:
            return initial_state(op.rules, op.table_id)
        same_shoe = op.rules.decks == state.rules.decks
        changes: dict[str, Any] = {"rules": op.rules, "table_id": op.table_id}
        if not same_shoe:
            changes.update(shoe=None, prep=cut.needs_shuffle(ShuffleReason.NEW_CARDS,
                                                             state.prep.seated))
        return rep(state, **changes)
    if isinstance(op, TableRecord):  # the table's own records leave the game as it is
        return state
    raise foreign("blackjack", op)  # another game's record is never folded silently


def _adjust(stakes: tuple[Stake, ...], box: int, player: str, delta: int) -> tuple[Stake, ...]:
    out: list[Stake] = []
    found = False
    for s in stakes:
        if s.box == box and s.player == player:
            found = True
            if s.amount + delta > 0:
                out.append(Stake(box, player, s.amount + delta))
        else:
            out.append(s)
    if not found and delta > 0:
        out.append(Stake(box, player, delta))
    return tuple(out)
