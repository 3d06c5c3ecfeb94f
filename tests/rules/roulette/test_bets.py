"""The layout's bets and their payouts (rule 3.5), and the call bets of rule 3.4."""

from __future__ import annotations

import pytest

from kiosk.rules.errors import NotAllowed
from kiosk.rules.roulette.bets import (
    BetKind,
    CallBet,
    Placement,
    call_bet,
    call_covers,
    placement,
)
from kiosk.rules.roulette.wheel import SINGLE_ZERO_ORDER, Wheel, colour_of, neighbours

W = Wheel.SINGLE_ZERO
ALL = SINGLE_ZERO_ORDER


def test_payouts_are_rule_3_5s_and_nothing_else():
    # rule 3.5: columns 2, even chances 1, dozens 2, six lines 5, streets 11, corners 8,
    # splits 17, straight ups 35
    assert {k.value: k.pays for k in BetKind} == {
        "straight": 35, "split": 17, "street": 11, "corner": 8, "six line": 5, "column": 2,
        "dozen": 2, "red": 1, "black": 1, "odd": 1, "even": 1, "1-18": 1, "19-36": 1}


def test_the_wheel_orders_and_colours():
    assert len(ALL) == 37 and sorted(ALL, key=int) == [str(n) for n in range(37)]
    assert len(Wheel.DOUBLE_ZERO.order) == 38 and "00" in Wheel.DOUBLE_ZERO.order
    assert [colour_of(p).value for p in ("0", "1", "2", "10", "11", "19", "00")] == [
        "green", "red", "black", "black", "black", "red", "green"]
    # rule 3.4: "0 and the neighbours ... namely 3, 15, 26 and 32"
    assert neighbours("0") == ("3", "26", "0", "32", "15")


@pytest.mark.parametrize(("kind", "numbers"), [
    (BetKind.SPLIT, ("17", "20")), (BetKind.SPLIT, ("1", "2")), (BetKind.SPLIT, ("0", "3")),
    (BetKind.STREET, ("34", "35", "36")), (BetKind.STREET, ("0", "2", "3")),
    (BetKind.CORNER, ("1", "2", "4", "5")), (BetKind.CORNER, ("0", "1", "2", "3")),
    (BetKind.SIX_LINE, ("31", "32", "33", "34", "35", "36")),
])
def test_inside_bets_the_layout_has(kind, numbers):
    p = placement(kind, 2, numbers)
    assert p.numbers == numbers and p.chips == 2


@pytest.mark.parametrize(("kind", "numbers", "why"), [
    (BetKind.SPLIT, ("3", "4"), "not a split"),  # across the end of a row
    (BetKind.SPLIT, ("17", "21"), "not a split"),
    (BetKind.STREET, ("2", "3", "4"), "not a street"),
    (BetKind.CORNER, ("3", "4", "6", "7"), "not a corner"),
    (BetKind.CORNER, ("0", "00", "1", "2"), "is not a number on this wheel"),
    (BetKind.SIX_LINE, ("2", "3", "4", "5", "6", "7"), "not a six line"),
    (BetKind.STRAIGHT, ("37",), "not a number"),
    (BetKind.SPLIT, ("5",), "covers 2"),
])
def test_inside_bets_the_layout_has_not(kind, numbers, why):
    with pytest.raises(NotAllowed, match=why):
        placement(kind, 1, numbers)


def test_there_is_no_five_number_bet():
    # rule 3.5 lists no five-number bet, so 0-00-1-2-3 is nothing on either wheel
    for kind in BetKind:
        if kind.inside:
            with pytest.raises(NotAllowed):
                placement(kind, 1, ("0", "00", "1", "2", "3"), wheel=Wheel.DOUBLE_ZERO)


def test_double_zero_splits_and_trios():
    dz = Wheel.DOUBLE_ZERO
    assert placement(BetKind.SPLIT, 1, ("00", "0"), wheel=dz).numbers == ("0", "00")
    assert placement(BetKind.STREET, 1, ("00", "2", "3"), wheel=dz).numbers == ("00", "2", "3")
    with pytest.raises(NotAllowed):
        placement(BetKind.SPLIT, 1, ("0", "3"), wheel=dz)


def test_outside_bets_cover_their_numbers():
    assert placement(BetKind.COLUMN, 1, which=1).numbers == tuple(
        str(n) for n in range(1, 37, 3))
    assert placement(BetKind.DOZEN, 1, which=2).numbers == tuple(str(n) for n in range(13, 25))
    red = placement(BetKind.RED, 1).numbers
    assert len(red) == 18 and "1" in red and "2" not in red and "0" not in red
    with pytest.raises(NotAllowed, match="three columns"):
        placement(BetKind.COLUMN, 1, which=4)


# --- Call bets (rule 3.4) ------------------------------------------------------------------

PLACES = {  # each call bet's chips, where the dealer puts them
    CallBet.NEIGHBOURS_OF_ZERO: [("street 0/2/3", 2), ("split 4/7", 1), ("split 12/15", 1),
                                 ("split 18/21", 1), ("split 19/22", 1),
                                 ("corner 25/26/28/29", 2), ("split 32/35", 1)],
    CallBet.SERIES_5_8: [("split 5/8", 1), ("split 10/11", 1), ("split 13/16", 1),
                         ("split 23/24", 1), ("split 27/30", 1), ("split 33/36", 1)],
    CallBet.ORPHANS: [("straight 1", 1), ("split 6/9", 1), ("split 14/17", 1),
                      ("split 17/20", 1), ("split 31/34", 1)],
}


@pytest.mark.parametrize("call", list(PLACES))
def test_call_bets_expand_to_their_chips(call):
    pieces = call_bet(call)
    assert [(p.place, p.chips) for p in pieces] == PLACES[call]
    assert sum(p.chips for p in pieces) == call.pieces == {
        CallBet.NEIGHBOURS_OF_ZERO: 9, CallBet.SERIES_5_8: 6, CallBet.ORPHANS: 5}[call]


def test_a_number_and_its_neighbours_is_five_chips():
    pieces = call_bet(CallBet.NEIGHBOURS, number="0")
    assert [(p.place, p.chips) for p in pieces] == [
        ("straight 3", 1), ("straight 26", 1), ("straight 0", 1), ("straight 32", 1),
        ("straight 15", 1)]
    assert [p.place for p in call_bet(CallBet.NEIGHBOURS, number="26")] == [
        "straight 35", "straight 3", "straight 26", "straight 0", "straight 32"]
    assert sum(p.chips for p in call_bet(CallBet.NEIGHBOURS, 3, "17")) == 15
    with pytest.raises(NotAllowed, match="which number"):
        call_bet(CallBet.NEIGHBOURS)


def test_call_bets_cover_what_rule_3_4_says():
    # "from 22, through 0 up to and including 25": 17 numbers, "roughly 50%"
    voisins = call_covers(CallBet.NEIGHBOURS_OF_ZERO)
    assert voisins[0] == "22" and voisins[-1] == "25" and len(voisins) == 17 and "0" in voisins
    assert {n for p in call_bet(CallBet.NEIGHBOURS_OF_ZERO) for n in p.numbers} == set(voisins)
    tiers = call_covers(CallBet.SERIES_5_8)  # "from 27 to 33 covering 12 numbers"
    assert tiers[0] == "27" and tiers[-1] == "33" and len(tiers) == 12
    assert {n for p in call_bet(CallBet.SERIES_5_8) for n in p.numbers} == set(tiers)
    orphans = set(call_covers(CallBet.ORPHANS))  # "the remaining numbers"
    assert orphans == set(ALL) - set(voisins) - set(tiers)


def test_call_bets_are_off_on_a_double_zero_wheel():
    with pytest.raises(NotAllowed, match="single-zero"):
        call_bet(CallBet.ORPHANS, wheel=Wheel.DOUBLE_ZERO)


def _hand_net(call: CallBet, pocket: str, number: str | None = None) -> int:
    """The net of a one-unit call bet on `pocket`, from the figures dealers learn (not from
    the engine): a piece that wins pays its odds, every other chip is lost."""
    if call is CallBet.NEIGHBOURS_OF_ZERO:  # 9 chips
        if pocket in ("0", "2", "3"):
            return 2 * 11 - 7  # the trio's two chips win, seven lose
        if pocket in ("25", "26", "28", "29"):
            return 2 * 8 - 7
        if pocket in ("4", "7", "12", "15", "18", "21", "19", "22", "32", "35"):
            return 17 - 8
        return -9
    if call is CallBet.SERIES_5_8:  # 6 splits
        return 17 - 5 if pocket in call_covers(call) else -6
    if call is CallBet.ORPHANS:  # 1 straight, 4 splits; 17 is on two splits
        if pocket == "1":
            return 35 - 4
        if pocket == "17":
            return 2 * 17 - 3
        return 17 - 4 if pocket in ("6", "9", "14", "20", "31", "34") else -5
    return 35 - 4 if pocket in neighbours(number or "0") else -5


CASES = [(call, pocket) for call in PLACES for pocket in ALL] + [
    (CallBet.NEIGHBOURS, pocket) for pocket in ALL]


@pytest.mark.parametrize(("call", "pocket"), CASES, ids=lambda x: str(x).replace(" ", "_"))
def test_every_call_bets_net_on_every_number(call, pocket):
    number = "17" if call is CallBet.NEIGHBOURS else None
    pieces = call_bet(call, 1, number)
    assert sum(p.result(pocket) for p in pieces) == _hand_net(call, pocket, number)
    # and at 3 units each piece is three chips: every net triples
    assert sum(p.result(pocket) for p in call_bet(call, 3, number)) == 3 * _hand_net(
        call, pocket, number)


def test_placement_result_is_win_or_stake_lost():
    p = Placement(BetKind.CORNER, ("17", "18", "20", "21"), 4)
    assert p.result("20") == 32 and p.result("19") == -4


@pytest.mark.parametrize(("kind", "taps", "numbers"), [
    (BetKind.STRAIGHT, ("17",), ("17",)),
    (BetKind.SPLIT, ("20", "17"), ("17", "20")),
    (BetKind.SPLIT, ("17",), None),  # one more tap
    (BetKind.STREET, ("14",), ("13", "14", "15")),
    (BetKind.STREET, ("0",), None),
    (BetKind.STREET, ("0", "1"), ("0", "1", "2")),
    (BetKind.STREET, ("0", "3"), ("0", "2", "3")),
    (BetKind.CORNER, ("21", "17"), ("17", "18", "20", "21")),
    (BetKind.CORNER, ("0", "3"), ("0", "1", "2", "3")),
    (BetKind.SIX_LINE, ("36", "31"), ("31", "32", "33", "34", "35", "36")),
])
def test_the_dealers_taps_name_a_bet(kind, taps, numbers):
    from kiosk.rules.roulette.bets import bet_from_taps

    assert bet_from_taps(kind, taps) == numbers


@pytest.mark.parametrize(("kind", "taps"), [
    (BetKind.SPLIT, ("17", "21")), (BetKind.CORNER, ("17", "22")),
    (BetKind.SIX_LINE, ("1", "10")), (BetKind.CORNER, ("18", "22"))])
def test_taps_that_name_no_bet_are_refused(kind, taps):
    from kiosk.rules.roulette.bets import bet_from_taps

    with pytest.raises(NotAllowed):
        bet_from_taps(kind, taps)
