"""Properties of any spin sequence: chips are conserved per colour, and every chip a player
gains is a settled spin's record (no payout without a record)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

from kiosk.rules.errors import NotAllowed
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.bets import BetKind, CallBet
from kiosk.rules.roulette.engine import Direction, RouletteRules
from kiosk.rules.roulette.wheel import SINGLE_ZERO_ORDER

COLOURS = rl.COLOURS[:4]
pocket = st.sampled_from(SINGLE_ZERO_ORDER)
colour = st.sampled_from(COLOURS)

bets = st.one_of(
    st.tuples(st.just("straight"), colour, st.integers(1, 5), pocket),
    st.tuples(st.just("outside"), colour, st.integers(1, 8),
              st.sampled_from([BetKind.RED, BetKind.BLACK, BetKind.ODD, BetKind.HIGH])),
    st.tuples(st.just("dozen"), colour, st.integers(1, 4), st.integers(1, 3)),
    st.tuples(st.just("call"), colour, st.integers(1, 2), st.sampled_from(list(CallBet)),
              pocket),
    st.tuples(st.just("take_back"), colour),
)
action = st.one_of(
    st.tuples(st.just("buy"), colour, st.integers(1, 60), st.sampled_from([500, 1_000, 2_500])),
    bets,
    st.tuples(st.just("cash_in"), colour),
    st.tuples(st.just("spin"), st.sampled_from(list(Direction))),
    st.tuples(st.just("close"),),
    st.tuples(st.just("no_spin"),),
    st.tuples(st.just("late"), colour, pocket),
    st.tuples(st.just("number"), pocket),
    st.tuples(st.just("confirm"),),
    st.tuples(st.just("void"),),
)


def build(state: rl.RouletteState, a: tuple) -> rl.Operation:
    match a:
        case ("buy", c, n, v):
            return rl.chip_change(state, c, n, v)
        case ("straight", c, n, p):
            return rl.place_bet(state, c, BetKind.STRAIGHT, n, (p,))
        case ("outside", c, n, kind):
            return rl.place_bet(state, c, kind, n)
        case ("dozen", c, n, which):
            return rl.place_bet(state, c, BetKind.DOZEN, n, which=which)
        case ("call", c, n, call, p):
            return rl.place_call_bet(state, c, call, n,
                                     p if call is CallBet.NEIGHBOURS else None)
        case ("take_back", c):
            return rl.take_back(state, c)
        case ("cash_in", c):
            return rl.cash_in(state, c)
        case ("spin", d):
            return rl.spin_ball(state, d)
        case ("close",):
            return rl.close_betting(state)
        case ("no_spin",):
            return rl.no_spin(state, "the ball left the wheel")
        case ("late", c, p):
            return rl.no_bet(state, c, BetKind.STRAIGHT, 1, (p,))
        case ("number", p):
            return rl.call_number(state, p)
        case ("confirm",):
            return rl.confirm_payouts(state)
        case _:
            return rl.void_round(state, "inspector's decision")


@st.composite
def spin(draw: st.DrawFn) -> list[tuple]:
    """One spin in a sensible order, with mistakes and faults mixed in: chip changes, bets,
    the ball, late bets, no spins, the number, then payouts or a void."""
    out: list[tuple] = [("buy", draw(colour), draw(st.integers(1, 60)),
                         draw(st.sampled_from([500, 1_000, 2_500])))
                        for _ in range(draw(st.integers(0, 2)))]
    out += draw(st.lists(bets, max_size=6))
    out.append(("spin", draw(st.sampled_from(list(Direction)))))
    out += draw(st.lists(st.one_of(bets, st.just(("no_spin",)),
                                   st.tuples(st.just("spin"), st.sampled_from(list(Direction)))),
                         max_size=2))
    out.append(("close",))
    out += draw(st.lists(st.tuples(st.just("late"), colour, pocket), max_size=2))
    out.append(("number", draw(pocket)))
    out.append(draw(st.sampled_from([("confirm",), ("confirm",), ("confirm",), ("void",)])))
    out += draw(st.lists(action, max_size=2))  # anything, allowed or not
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(spin(), max_size=8).map(lambda spins: [a for s in spins for a in s]))
def test_chips_are_conserved_and_every_gain_is_on_record(actions):
    state = rl.initial_state(RouletteRules(colours=4), "RL-01")
    journal: list[rl.Operation] = []
    for a in actions:
        try:
            op = build(state, a)
        except NotAllowed:
            continue
        journal.append(op)
        state = rl.apply(state, op)
        # conservation, from the records alone, for each colour still in play
        bought, paid, lost, cashed = Counter(), Counter(), Counter(), Counter()
        for i, r in enumerate(journal):
            if isinstance(r, rl.ChipChange):
                bought[r.colour] += r.chips
            elif isinstance(r, rl.SpinSettled):
                for p in r.payouts:
                    paid[p.colour] += p.colour_chips
                    lost[p.colour] += p.lost
                    # the value the colour had when the spin was settled: a colour cashed
                    # in later may be bought again at another value
                    value = state_value(journal[:i], p.colour)
                    assert p.cash == (p.won - p.colour_chips) * value
                    assert p.staked == p.stakes_back + p.lost
            elif isinstance(r, rl.CashedIn):
                cashed[r.colour] += r.chips
        for c in COLOURS:
            s = state.stack(c)
            in_play = (s.chips if s else 0) + state.staked(c)
            assert bought[c] + paid[c] == in_play + lost[c] + cashed[c], c
            assert s is None or s.chips >= 0
    # the state is the fold of its records, nothing else
    again = rl.initial_state(RouletteRules(colours=4), "RL-01")
    for r in journal:
        again = rl.apply(again, r)
    assert again == state


def state_value(journal: list[rl.Operation], colour: str) -> int:
    """The colour's value per chip at its latest chip change in `journal`."""
    return next(r.value_each for r in reversed(journal)
                if isinstance(r, rl.ChipChange) and r.colour == colour)
