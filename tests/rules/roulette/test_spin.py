"""A spin from "place your bets" to the payouts (rules 3.2-3.5), golden spins worked by hand."""

from __future__ import annotations

import pytest

from kiosk.rules.errors import NotAllowed
from kiosk.rules.roulette import engine as rl
from kiosk.rules.roulette.bets import BetKind, CallBet
from kiosk.rules.roulette.engine import Direction, Limits, Phase, RouletteRules, Source
from kiosk.rules.roulette.wheel import Wheel

CW, ACW = Direction.CLOCKWISE, Direction.ANTICLOCKWISE


def play(state, *actions):
    for action in actions:
        state = rl.apply(state, action(state))
    return state


def table(**kw) -> rl.RouletteState:
    rules = RouletteRules(**kw)
    s = rl.initial_state(rules, "RL-01")
    return play(s, lambda s: rl.chip_change(s, "pink", 100, 500),
                lambda s: rl.chip_change(s, "yellow", 200, 100_0),
                lambda s: rl.chip_change(s, "blue", 50, 2_500))


def test_a_golden_spin_with_overlapping_bets_from_three_colours():
    s = table()
    s = play(
        s,
        lambda s: rl.place_bet(s, "pink", BetKind.STRAIGHT, 2, ("17",)),
        lambda s: rl.place_bet(s, "pink", BetKind.SPLIT, 1, ("17", "20")),
        lambda s: rl.place_bet(s, "pink", BetKind.RED, 5),
        lambda s: rl.place_bet(s, "yellow", BetKind.CORNER, 3, ("17", "18", "20", "21")),
        lambda s: rl.place_bet(s, "yellow", BetKind.STRAIGHT, 1, ("17",)),  # same number
        lambda s: rl.place_bet(s, "yellow", BetKind.DOZEN, 4, which=2),
        lambda s: rl.place_call_bet(s, "blue", CallBet.ORPHANS),  # 17 on two of its splits
        lambda s: rl.place_bet(s, "blue", BetKind.COLUMN, 2, which=3),
        lambda s: rl.spin_ball(s, CW),
        rl.final_bets,
        rl.close_betting,
        lambda s: rl.call_number(s, "17", Source.WHEEL),
    )
    assert s.phase is Phase.RESULT and s.number == "17"
    settled = rl.settlement(s)
    pays = {p.colour: p for p in settled.payouts}
    # pink: straight 2x35 = 70, split 17, red loses (17 is black): 5 lost
    assert pays["pink"] == rl.ColourPayout("pink", 8, 87, 3, 5, 87, 0)
    # yellow: corner 3x8 = 24, straight 35, dozen 13-24 4x2 = 8
    assert pays["yellow"] == rl.ColourPayout("yellow", 8, 67, 8, 0, 67, 0)
    # blue: orphans: splits 14/17 and 17/20 win 17 each, straight 1 and two splits lose 3;
    # column 3 (3, 6, ... 36) loses 2
    assert pays["blue"] == rl.ColourPayout("blue", 7, 34, 2, 5, 34, 0)
    assert [rl.payout_words(p, s.rules) for p in settled.payouts] == [
        "Pink: 87 chips + R0 in cash value", "Yellow: 67 chips + R0 in cash value",
        "Blue: 34 chips + R0 in cash value"]
    after = rl.apply(s, settled)
    assert after.spin == 2 and after.phase is Phase.BETTING and after.layout == ()
    # stacks: pink 100 - 8 + 3 back + 87 won
    assert {x.colour: x.chips for x in after.stacks} == {
        "pink": 182, "yellow": 267, "blue": 79}
    assert after.results == ("17",) and after.last_direction is CW


def test_a_big_win_is_paid_partly_in_value_chips():
    s = table(pay_in_colour_up_to=100)
    s = play(s, lambda s: rl.place_bet(s, "blue", BetKind.STRAIGHT, 4, ("0",)),
             lambda s: rl.spin_ball(s, ACW), rl.close_betting,
             lambda s: rl.call_number(s, "0"))
    (pay,) = rl.settlement(s).payouts
    # 4 x 35 = 140 chips: 100 blue chips and 40 x R25 in value chips
    assert (pay.won, pay.colour_chips, pay.cash) == (140, 100, 40 * 2_500)
    assert rl.payout_words(pay, s.rules) == "Blue: 100 chips + R1,000 in cash value"


def test_even_chances_lose_on_zero():
    s = table()
    s = play(s, *(lambda s, k=k: rl.place_bet(s, "yellow", k, 1) for k in (
        BetKind.RED, BetKind.BLACK, BetKind.ODD, BetKind.EVEN, BetKind.LOW, BetKind.HIGH)),
        lambda s: rl.spin_ball(s, CW), rl.close_betting, lambda s: rl.call_number(s, "0"))
    (pay,) = rl.settlement(s).payouts
    assert (pay.won, pay.lost) == (0, 6)


def test_the_sequence_place_final_no_more_bets():
    s = table()
    with pytest.raises(NotAllowed, match="spin it first"):
        rl.close_betting(s)
    s = play(s, lambda s: rl.place_bet(s, "pink", BetKind.RED, 1), lambda s: rl.spin_ball(s, CW))
    assert s.phase is Phase.BETTING and s.ball_spinning  # bets go on while the ball spins
    s = play(s, lambda s: rl.place_bet(s, "pink", BetKind.BLACK, 1), rl.final_bets)
    assert s.phase is Phase.FINAL_BETS
    s = play(s, lambda s: rl.place_bet(s, "pink", BetKind.ODD, 1), rl.close_betting)
    assert s.phase is Phase.NO_MORE_BETS
    # rule 3.4: a bet after no more bets is refused as a bet and recorded as a no bet
    with pytest.raises(NotAllowed, match="no bet.*3.4"):
        rl.place_bet(s, "pink", BetKind.EVEN, 1)
    late = rl.no_bet(s, "yellow", BetKind.STRAIGHT, 1, ("7",))
    s = rl.apply(s, late)
    assert s.no_bets == 1 and s.staked("yellow") == 0
    assert s.stack("yellow").chips == 200  # removed: the chips go back to the player
    assert s.notes == ("no bet: yellow straight 7",)
    with pytest.raises(NotAllowed, match="3.4"):
        rl.take_back(s, "pink")  # the bets are locked


def test_each_spin_goes_the_other_way_and_a_same_way_spin_is_flagged():
    s = table()
    first = rl.spin_ball(s, CW)
    assert not first.same_direction
    s = play(s, lambda s: first, rl.close_betting, lambda s: rl.call_number(s, "5"),
             rl.confirm_payouts)
    assert rl.expected_direction(s) is ACW and "anticlockwise" in rl.next_step(s)
    again = rl.spin_ball(s, CW)  # rule 3.2: opposite to the previous spin
    assert again.same_direction
    s = rl.apply(s, again)
    assert s.notes == ("spun clockwise, the same way as the spin before (rule 3.2)",)


def test_no_spin_puts_the_ball_back_and_spins_again():
    s = table()
    s = play(s, lambda s: rl.place_bet(s, "pink", BetKind.STRAIGHT, 1, ("9",)),
             lambda s: rl.spin_ball(s, CW), rl.close_betting, lambda s: rl.call_number(s, "9"),
             rl.confirm_payouts)
    s = play(s, lambda s: rl.place_bet(s, "pink", BetKind.STRAIGHT, 1, ("9",)),
             lambda s: rl.spin_ball(s, ACW), rl.close_betting)
    ns = rl.no_spin(s, "the ball left the wheel")
    assert ns.ball_back_in == "9"  # rule 3.2: back into the same number
    s = rl.apply(s, ns)
    assert not s.ball_spinning and s.phase is Phase.NO_MORE_BETS and s.staked("pink") == 1
    assert rl.next_step(s) == "No spin: spin the ball again"
    with pytest.raises(NotAllowed, match="not been spun"):
        rl.call_number(s, "4")
    s = play(s, lambda s: rl.spin_ball(s, CW), lambda s: rl.call_number(s, "4"))
    assert s.no_spins == 1 and s.notes[0] == "no spin (hand): the ball left the wheel"


def test_cashing_in_is_refused_while_the_ball_spins():
    s = table()
    s = rl.apply(s, rl.spin_ball(s, CW))
    with pytest.raises(NotAllowed, match="being spun.*3.5"):
        rl.cash_in(s, "blue")
    s = play(s, rl.close_betting, lambda s: rl.call_number(s, "1"), rl.confirm_payouts)
    out = rl.cash_in(s, "blue")
    assert (out.chips, out.value) == (50, 50 * 2_500)
    assert rl.apply(s, out).stack("blue") is None


def test_limits_at_bet_entry():
    s = table(limits=Limits(minimum_chip=500, straight_up_maximum=5_000,
                            outside_maximum=20_000, table_maximum=40_000))
    # pink chips are R5: a straight up to R50 is 10 chips; a split twice that
    s = rl.apply(s, rl.place_bet(s, "pink", BetKind.STRAIGHT, 10, ("17",)))
    with pytest.raises(NotAllowed, match="R55 is over the straight-up maximum of R50"):
        rl.place_bet(s, "pink", BetKind.STRAIGHT, 1, ("17",))
    s = rl.apply(s, rl.place_bet(s, "pink", BetKind.SPLIT, 20, ("17", "20")))
    with pytest.raises(NotAllowed, match="outside maximum of R200"):
        rl.place_bet(s, "yellow", BetKind.RED, 21)  # R10 chips
    s = rl.apply(s, rl.place_bet(s, "pink", BetKind.RED, 40))
    with pytest.raises(NotAllowed, match="table maximum of R400"):
        rl.place_bet(s, "pink", BetKind.BLACK, 11)  # 70 + 11 chips = R405
    with pytest.raises(NotAllowed, match="at least R5"):
        rl.chip_change(s, "green", 10, 100)
    with pytest.raises(NotAllowed, match="straight-up maximum"):  # a call bet's piece
        rl.place_call_bet(s, "yellow", CallBet.NEIGHBOURS, 6, "17")  # R60 a number


def test_a_colour_cannot_bet_chips_it_does_not_have():
    s = table()
    with pytest.raises(NotAllowed, match="50 chip"):
        rl.place_bet(s, "blue", BetKind.RED, 51)
    with pytest.raises(NotAllowed, match="chip change first"):
        rl.place_bet(s, "green", BetKind.RED, 1)


def test_double_zero_wheel_has_no_call_bets():
    s = table(wheel=Wheel.DOUBLE_ZERO)
    with pytest.raises(NotAllowed, match="double-zero.*3.4"):
        rl.place_call_bet(s, "pink", CallBet.ORPHANS)
    s = play(s, lambda s: rl.place_bet(s, "pink", BetKind.STRAIGHT, 1, ("00",)),
             lambda s: rl.spin_ball(s, CW), rl.close_betting, lambda s: rl.call_number(s, "00"))
    assert rl.settlement(s).payouts[0].won == 35


def test_void_gives_every_bet_back():
    s = table()
    s = play(s, lambda s: rl.place_bet(s, "pink", BetKind.RED, 7),
             lambda s: rl.spin_ball(s, CW), rl.close_betting)
    s = rl.apply(s, rl.void_round(s, "wheel fault"))
    assert s.spin == 2 and s.stack("pink").chips == 100 and s.layout == ()


def test_the_wheel_closes_bets_it_saw_first():
    game = rl.Roulette()
    s = rl.apply(table(), rl.place_bet(table(), "pink", BetKind.RED, 1))
    ops = game.wheel_result(s, "25", "anticlockwise")  # state 3 and 4 were missed
    assert [op.kind for op in ops] == ["roulette.ball_spun", "roulette.betting_closed",
                                       "roulette.number_called"]
    s = play(s, *(lambda _s, op=op: op for op in ops))
    assert s.number == "25" and s.last_direction is ACW
    assert game.wheel_result(s, "25", "anticlockwise") == ()


def test_legal_actions_follow_the_spin():
    s = table()
    assert "spin_ball" in rl.legal_actions(s) and "close_betting" not in rl.legal_actions(s)
    s = play(s, lambda s: rl.spin_ball(s, CW), rl.close_betting)
    acts = rl.legal_actions(s)
    assert "call_number" in acts and "no_spin" in acts and "place_bet" not in acts
