"""The 32 tiles, every pair and its rank, every single tile's rank, the Gee Joon tiles as 3 or
6, wong, gong and high nine, copies to the banker, a hand set high and low."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from kiosk.rules.errors import NotAllowed, UnreadableInput
from kiosk.rules.paigow.hands import (
    Kind,
    Result,
    Setting,
    all_hands,
    beats,
    hand,
    match,
    set_hand,
    splits,
)
from kiosk.rules.paigow.tiles import SET, Tile, parse_tile, parse_tiles, read_tile

T = Tile
# The 16 pairs, strongest first, with the tiles that make each.
PAIRS = [
    ("gee joon", (T.GEE_JOON_3, T.GEE_JOON_6)), ("teen", (T.TEEN, T.TEEN)),
    ("day", (T.DAY, T.DAY)), ("yun", (T.YUN, T.YUN)), ("gor", (T.GOR, T.GOR)),
    ("mooy", (T.MOOY, T.MOOY)), ("chong", (T.CHONG, T.CHONG)), ("bon", (T.BON, T.BON)),
    ("foo", (T.FOO, T.FOO)), ("ping", (T.PING, T.PING)), ("tit", (T.TIT, T.TIT)),
    ("look", (T.LOOK, T.LOOK)), ("chop gow", (T.NINE_45, T.NINE_36)),
    ("chop bot", (T.EIGHT_35, T.EIGHT_26)), ("chop chit", (T.SEVEN_34, T.SEVEN_25)),
    ("chop ng", (T.FIVE_14, T.FIVE_23)),
]
# Each tile alone, strongest first; tiles of one military group are equal.
SINGLE = [["66"], ["11"], ["44"], ["13"], ["55"], ["33"], ["22"], ["56"], ["46"], ["16"],
          ["15"], ["45", "36"], ["35", "26"], ["34", "25"], ["14", "23"], ["12", "24"]]


def test_the_set_is_32_tiles_of_21_kinds() -> None:
    assert len(SET) == 32 and len(set(SET)) == 21
    counts = Counter(SET)
    assert sorted(t.code for t in Tile if counts[t] == 2) == sorted(
        ["66", "11", "44", "13", "55", "33", "22", "56", "46", "16", "15"])
    assert sum(t.pips for t in SET) == 227


def test_every_pair_and_its_rank() -> None:
    keys = []
    for name, (a, b) in PAIRS:
        h = hand(a, b)
        assert h.kind is Kind.PAIR and h.words == f"{name} pair"
        keys.append(h.key)
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 16
    # every pair beats every hand that is not a pair
    weakest_pair = min(keys)
    assert all(h.key < weakest_pair for h in all_hands() if h.kind is not Kind.PAIR)
    # and no other two tiles are a pair: mixed nines of different groups are not
    assert sum(1 for h in all_hands() if h.kind is Kind.PAIR) == 16
    assert hand(T.YUN, T.EIGHT_35).kind is Kind.POINTS  # eight pips each, not one group
    assert hand(T.NINE_45, T.EIGHT_35).kind is Kind.POINTS


def test_every_single_tile_rank() -> None:
    ranks = [{parse_tile(c).rank for c in group} for group in SINGLE]
    assert all(len(r) == 1 for r in ranks)
    flat = [r.pop() for r in ranks]
    assert flat == sorted(flat, reverse=True) and len(set(flat)) == 16
    assert sum(len(g) for g in SINGLE) == 21


@pytest.mark.parametrize(("a", "b", "kind", "points"), [
    ("66", "45", Kind.WONG, 11), ("11", "36", Kind.WONG, 11),
    ("66", "35", Kind.GONG, 10), ("11", "26", Kind.GONG, 10), ("11", "44", Kind.GONG, 10),
    ("66", "16", Kind.HIGH_NINE, 9), ("11", "34", Kind.HIGH_NINE, 9),
    ("11", "25", Kind.HIGH_NINE, 9),
    ("45", "55", Kind.POINTS, 9), ("56", "46", Kind.POINTS, 1), ("15", "14", Kind.POINTS, 1),
    # a Gee Joon tile alone counts 3 or 6, whichever is better
    ("12", "15", Kind.POINTS, 9), ("24", "23", Kind.POINTS, 8), ("12", "66", Kind.POINTS, 8),
    ("24", "13", Kind.POINTS, 0 + 7), ("12", "55", Kind.POINTS, 6),
])
def test_hand_values(a: str, b: str, kind: Kind, points: int) -> None:
    h = hand(parse_tile(a), parse_tile(b))
    assert (h.kind, h.points) == (kind, points)


def test_wong_beats_gong_beats_nine_and_the_teen_outranks_the_day() -> None:
    wong_teen, wong_day = hand(T.TEEN, T.NINE_45), hand(T.DAY, T.NINE_36)
    gong, nine = hand(T.TEEN, T.EIGHT_26), hand(T.NINE_45, T.MOOY)
    high_nine = hand(T.DAY, T.TIT)
    assert beats(wong_teen, wong_day) and beats(wong_day, gong) and beats(gong, high_nine)
    assert beats(high_nine, nine) and not beats(nine, high_nine)
    assert beats(hand(T.CHONG, T.CHONG), wong_teen)


def test_copies_and_zeros_go_to_the_banker() -> None:
    # equal points, equal highest tile: a copy, which neither beats
    a, b = hand(T.NINE_45, T.FIVE_14), hand(T.NINE_36, T.FIVE_23)
    assert a.points == b.points == 4 and a.key == b.key
    assert not beats(a, b) and not beats(b, a)
    # every zero is the same, whatever its tiles
    zero_high, zero_low = hand(T.FOO, T.NINE_36), hand(T.PING, T.MOOY)
    assert zero_high.points == zero_low.points == 0
    assert zero_high.key == zero_low.key == 0
    assert not beats(zero_high, zero_low)
    # equal points decided by the highest tile
    assert beats(hand(T.TEEN, T.LOOK), hand(T.NINE_45, T.BON))  # 8 with teen over 8
    # and both hands must win outright
    player = Setting(hand(T.TEEN, T.LOOK), hand(T.NINE_45, T.FIVE_14))
    bank = Setting(hand(T.NINE_36, T.BON), hand(T.NINE_36, T.FIVE_23))
    assert match(player, bank) is Result.STANDOFF  # the low is a copy: the banker's


def test_match() -> None:
    strong = Setting(hand(T.TEEN, T.TEEN), hand(T.DAY, T.NINE_45))
    weak = Setting(hand(T.FOO, T.PING), hand(T.LOOK, T.FIVE_14))
    assert match(strong, weak) is Result.WIN and match(weak, strong) is Result.LOSE
    mixed = Setting(hand(T.TEEN, T.TEEN), hand(T.TIT, T.FIVE_23))
    assert match(mixed, weak) is Result.WIN and match(weak, mixed) is Result.LOSE
    assert match(Setting(mixed.high, weak.low), Setting(weak.high, hand(T.DAY, T.NINE_36))) \
        is Result.STANDOFF
    assert match(weak, weak) is Result.LOSE  # copies both: the banker's


def test_a_four_tile_hand_sets_three_ways_the_low_never_the_stronger() -> None:
    for four in combinations(range(32), 4):
        if four[0] > 2:  # all ways from the first tiles: enough, and quick
            break
        tiles = tuple(SET[i] for i in four)
        for s in splits(tiles):
            assert s.low.key <= s.high.key
            assert sorted(s.tiles) == sorted(tiles)
    assert len(splits(parse_tiles("66 11 44 13"))) == 3
    assert len(splits(parse_tiles("66 66 11 11"))) == 2


def test_setting_the_low_above_the_high_is_refused() -> None:
    with pytest.raises(NotAllowed, match="The low hand teen pair may not outrank the high "
                                         "hand wong"):
        set_hand(parse_tiles("11 45"), parse_tiles("66 66"))
    with pytest.raises(NotAllowed, match="only 1 of 45"):
        set_hand(parse_tiles("45 45"), parse_tiles("66 66"))
    assert set_hand(parse_tiles("66 66"), parse_tiles("11 45")).words == "teen pair / wong"


def test_tile_codes_for_the_keypad_and_the_reader() -> None:
    for tile in Tile:
        assert parse_tile(tile.code) is tile
        assert parse_tile(tile.code[::-1]) is tile
        assert read_tile(tile.code.encode() + b"\r\n") is tile
    assert parse_tile("gee-joon-3") is T.GEE_JOON_3 and parse_tile(" TEEN ") is T.TEEN
    for bad in ("17", "99", "6", "666", "", "x1"):
        with pytest.raises(UnreadableInput, match="is not a tile"):
            parse_tile(bad)
    for frame in (b"\xff\xfe", b"6\r\n", b"AB\r\n", b"123\r\n"):
        with pytest.raises(UnreadableInput, match="not a tile code"):
            read_tile(frame)


@pytest.mark.parametrize("module", ["tiles", "hands", "houseway"])
def test_the_modules_examples_work(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"kiosk.rules.paigow.{module}"),
                             report=True)
    assert result.attempted >= 3 and result.failed == 0
