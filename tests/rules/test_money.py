"""Money and the house's chip rule (kiosk/rules/money.py).

docs/architecture.md: money is int cents, ratios are Fractions, odd payouts (19:20, 5%) are
rounded by the house's chip rule and the difference is recorded. Rule 5.7: 19:20, 5%, 8:1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from kiosk.rules.errors import NotAllowed
from kiosk.rules.money import ChipRule, RoundingFavour, format_money, format_ratio, parse_ratio

HOUSE, PLAYER, NEAREST = RoundingFavour.HOUSE, RoundingFavour.PLAYER, RoundingFavour.NEAREST
F = Fraction

# (exact amount, smallest chip) -> payout and owed amount under each favour. Worked by hand.
CASES = [
    # exact, chip, payout(house, player, nearest), owed(house, player, nearest)
    (F(4845), 100, (4800, 4900, 4800), (4900, 4800, 4800)),  # 19:20 of R51
    (F(6935), 100, (6900, 7000, 6900), (7000, 6900, 6900)),  # 19:20 of R73
    (F(6555), 100, (6500, 6600, 6600), (6600, 6500, 6600)),  # .55 rounds up when nearest
    (F(4750), 100, (4700, 4800, 4800), (4800, 4700, 4700)),  # exact half: player's way
    (F(9500), 100, (9500, 9500, 9500), (9500, 9500, 9500)),  # whole chips: untouched
    (F(11875), 500, (11500, 12000, 12000), (12000, 11500, 12000)),  # 23.75 chips of R5
    (F(10250), 500, (10000, 10500, 10500), (10500, 10000, 10000)),  # 20.5 chips: half
    (F(505), 100, (500, 600, 500), (600, 500, 500)),  # 5% commission owed
    (F(550), 100, (500, 600, 600), (600, 500, 500)),  # half a chip of commission
    (F(969, 2), 100, (400, 500, 500), (500, 400, 500)),  # 484.5 cents: 4.845 chips
    (F(1, 3), 100, (0, 100, 0), (100, 0, 0)),
    (F(0), 100, (0, 0, 0), (0, 0, 0)),
]


@pytest.mark.parametrize(("exact", "chip", "payouts", "owed"), CASES)
def test_chip_rule_rounding(exact, chip, payouts, owed):
    # rule 5.7: odd payouts and commission rounded by the house's chip rule
    for favour, pay, owe in zip((HOUSE, PLAYER, NEAREST), payouts, owed, strict=True):
        rule = ChipRule(chip, favour)
        assert rule.round_payout(exact) == pay, (favour, "payout")
        assert rule.round_owed(exact) == owe, (favour, "owed")
        assert isinstance(rule.round_payout(exact), int)


def test_chip_rule_defaults():
    # docs/architecture.md: the house's chip rule in config; R1 chips, house favour by default
    assert ChipRule() == ChipRule(100, RoundingFavour.HOUSE)
    for bad in (0, -100):
        with pytest.raises(ValueError, match="smallest chip must be a positive"):
            ChipRule(bad)


@given(st.fractions(min_value=0, max_value=10_000_000), st.sampled_from([1, 5, 100, 250, 500]),
       st.sampled_from(list(RoundingFavour)))
def test_chip_rule_is_within_one_chip(exact, chip, favour):
    # rule 5.7 rounding: whole chips, less than one chip from the exact amount, never silent
    rule = ChipRule(chip, favour)
    for got, player_receives in ((rule.round_payout(exact), True),
                                 (rule.round_owed(exact), False)):
        assert got % chip == 0
        assert abs(got - exact) < chip
        if favour is RoundingFavour.NEAREST:
            assert abs(got - exact) <= F(chip, 2)
        elif (favour is RoundingFavour.HOUSE) == player_receives:
            assert got <= exact  # the house pays down / the player owes down
        else:
            assert got >= exact


def test_verify_stake():
    # rule 5.6: bets are made by placing chips
    ChipRule(100).verify_stake(5_100)
    ChipRule(500).verify_stake(5_500)
    with pytest.raises(NotAllowed) as exc:
        ChipRule(500).verify_stake(5_100)
    assert str(exc.value) == "R51 cannot be made of chips: bets are in steps of R5"
    with pytest.raises(NotAllowed) as exc:
        ChipRule(100).verify_stake(5_150)
    assert str(exc.value) == "R51.50 cannot be made of chips: bets are in steps of R1"


@pytest.mark.parametrize(("cents", "text"), [
    (123_450, "R1,234.50"),
    (5_000, "R50"),
    (0, "R0"),
    (5, "R0.05"),
    (99, "R0.99"),
    (100_000_000, "R1,000,000"),
    (-1_250, "-R12.50"),
    (-5_000, "-R50"),
    (F(9500), "R95"),
    (F(-95), "-R0.95"),
    (F(1450, 3), "~R4.83"),
])
def test_format_money(cents, text):
    # rule 2.2 signage and dealer messages
    assert format_money(cents) == text


def test_format_money_currency():
    assert format_money(123_450, "$") == "$1,234.50"
    assert format_money(-5, "€") == "-€0.05"


@pytest.mark.parametrize(("text", "ratio"), [
    ("19:20", F(19, 20)), ("8:1", F(8)), ("1:1", F(1)), ("3:2", F(3, 2)), ("6:5", F(6, 5)),
    (" 8 : 1 ", F(8)),
])
def test_parse_ratio(text, ratio):
    # rule 2.6 / 5.7: odds as printed on the layout
    assert parse_ratio(text) == ratio
    assert isinstance(parse_ratio(text), Fraction)


@pytest.mark.parametrize("bad", ["8", "", "a:b", "1:0", "1:2:3", "8/1", "1.5:1"])
def test_parse_ratio_refuses_bad_odds(bad):
    with pytest.raises(ValueError) as exc:
        parse_ratio(bad)
    assert str(exc.value) == f"{bad!r} is not odds like 8:1 or 19:20"


def test_format_ratio():
    # rule 2.6: payment odds displayed
    assert format_ratio(F(19, 20)) == "19:20"
    assert format_ratio(F(8)) == "8:1"
    assert format_ratio(parse_ratio("3:2")) == "3:2"
