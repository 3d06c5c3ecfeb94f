"""Invariants over random blackjack rounds (hypothesis): chips are conserved, every bet is
settled exactly once, payouts follow the odds, and the journal replays to the same state."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes
from kiosk.rules.blackjack.settle import BetKind, Outcome
from kiosk.rules.cards import Card, deck
from kiosk.rules.money import ChipRule
from tests.rules.blackjack.table import Table

RULESETS = [
    BlackjackRules(),
    BlackjackRules(decks=8, surrender=True, dealer_blackjack_takes=DealerBlackjackTakes.ORIGINAL,
                   chips=ChipRule(500)),
    BlackjackRules.touch_21(),
    BlackjackRules.touch_21(decks=1, double_after_split=False, max_hands=2),
]


def play_round(t: Table, rng: random.Random, shoe: list[Card]) -> bj.RoundSettled:
    rules = t.rules
    chip = rules.chips.smallest_chip
    for _ in range(rng.randint(1, 9)):
        box = rng.randint(1, rules.boxes)
        player = rng.choice("AAABC")
        amount = rng.randint(rules.minimum // chip, rules.minimum // chip * 4) * chip
        if bj.can_place_bet(t.state, box, amount, player):
            t.bet(box, amount, player)
    t.close()
    guard = 0
    while t.state.phase is not bj.Phase.PAYING:
        guard += 1
        assert guard < 500, bj.next_step(t.state)
        s = t.state
        if s.phase is bj.Phase.CHECK:
            t.do(bj.check_blackjacks)
        elif s.phase is bj.Phase.INSURANCE:
            for stake in s.stakes:
                if rng.random() < 0.3 and bj.can_take_even_money(s, stake.box, stake.player):
                    t.do(lambda x, b=stake.box, p=stake.player: bj.take_even_money(x, b, p))
                elif rng.random() < 0.3 and bj.can_insure(t.state, stake.box, stake.player):
                    top = bj.max_insurance(t.state, stake.box, stake.player)
                    t.do(lambda x, b=stake.box, p=stake.player, a=top: bj.insure(x, b, p, a))
                s = t.state
            t.do(bj.close_insurance)
        elif s.phase is bj.Phase.PLAYING and bj.can_pay_blackjack(s):
            t.do(bj.pay_blackjack)
        elif s.phase is bj.Phase.PLAYING and bj.decisions(s) and rng.random() < 0.6:
            choice = rng.choice(bj.decisions(s))
            h = s.current
            assert h is not None
            behind = [b.player for b in h.bets[1:] if b.active and rng.random() < 0.5]
            if choice == "stand":
                t.do(bj.stand)
            elif choice == "double":
                t.do(lambda x, who=behind: bj.double(x, who))
            elif choice == "surrender":
                t.do(lambda x, who=behind: bj.surrender(x, who))
            elif choice == "split":
                follow = {b.player: rng.choice(list(bj.Follow)) for b in h.bets[1:] if b.active}
                t.do(lambda x, f=follow: bj.split(x, f))
            else:
                t.card(shoe.pop().code)
        else:
            op = t.card(shoe.pop().code)
            assert isinstance(op, bj.CardDealt), (op, bj.next_step(s))
    settled = t.do(bj.confirm_payouts)
    assert isinstance(settled, bj.RoundSettled)
    return settled


def check_round(before: bj.BlackjackState, settled: bj.RoundSettled) -> None:
    rows = (*settled.settlements, *settled.paid_earlier)
    # Every bet on every hand, and every insurance, settled exactly once.
    keys = [(r.box, r.hand, r.player, r.kind) for r in rows]
    assert len(keys) == len(set(keys))
    on_table = sum(b.stake for h in before.hands for b in h.bets)
    on_table += sum(i.amount for i in before.insurance)
    assert sum(r.stake for r in rows) == on_table  # chips conserved: staked = settled
    # The original bets are the stakes placed before the deal; no bet appeared from nowhere.
    originals = sum(b.amount for h in before.hands for b in h.bets if b.original)
    assert originals == sum(s.amount for s in before.stakes)
    for r in rows:
        assert isinstance(r.returned, int) and r.returned >= 0
        if r.outcome in (Outcome.WIN, Outcome.BLACKJACK, Outcome.EVEN_MONEY):
            assert r.paid + r.rounding == r.stake * r.odds
            assert r.returned == r.stake + r.paid
            assert abs(r.rounding) < before.rules.chips.smallest_chip
        elif r.outcome is Outcome.LOSE:
            assert r.returned <= r.stake
        elif r.outcome in (Outcome.PUSH, Outcome.RETURNED):
            assert r.returned == r.stake
        elif r.outcome is Outcome.SURRENDER:
            assert r.returned + r.rounding == Fraction(r.stake, 2)
        if r.kind is BetKind.INSURANCE:
            assert r.hand == 0
    assert all(r.returned % before.rules.chips.smallest_chip == 0 for r in rows
               if r.stake % before.rules.chips.smallest_chip == 0)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_index=st.integers(0, len(RULESETS) - 1), rng=st.randoms(use_true_random=False))
def test_random_rounds_conserve_chips_and_replay(rules_index: int, rng: random.Random) -> None:
    rules = RULESETS[rules_index]
    t = Table(rules).ready(burn="2C")
    shoe = [c for c in deck() for _ in range(rules.decks)]
    shoe.remove(Card.parse("2C"))
    rng.shuffle(shoe)
    for _ in range(3):
        if len(shoe) < 60:
            break
        settled = play_round(t, rng, shoe)
        assert t.replayed() == t.state  # state is a fold over the journal
        before = bj.initial_state(rules, "BJ-T")  # the state the payouts were computed from
        for op in t.ops[:-1]:
            before = bj.apply(before, op)
        check_round(before, settled)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_index=st.integers(0, len(RULESETS) - 1), rng=st.randoms(use_true_random=False))
def test_decision_flags_agree_with_the_can_queries(rules_index: int, rng: random.Random) -> None:
    """The one-pass flags the simulator asks must say exactly what the `can_` queries say."""
    rules = RULESETS[rules_index]
    t = Table(rules).ready(burn="2C")
    shoe = [c for c in deck() for _ in range(rules.decks)]
    shoe.remove(Card.parse("2C"))
    rng.shuffle(shoe)
    original = t.do
    checked = 0

    def checking(action):  # type: ignore[no-untyped-def]
        nonlocal checked
        s = t.state
        flags = bj.decision_flags(s)
        want = (bj.can_double(s), bj.can_split(s), bj.can_surrender(s))
        assert (flags is None) == (not bj.can_stand(s))
        if flags is not None:
            assert flags == want
            checked += 1
        return original(action)

    t.do = checking  # type: ignore[method-assign]
    play_round(t, rng, shoe)
    if len(shoe) > 60:
        play_round(t, rng, shoe)
