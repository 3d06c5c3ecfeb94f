"""The house way (rules 13.1.2, 13.1.5, 13.3.4): every 4-tile hand set as the golden file
says, the low never above the high, the house's choices in the config, and the command that
shows a setting and why."""

from __future__ import annotations

import gzip
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from kiosk.cli import main
from kiosk.rules.paigow.hands import Kind, splits
from kiosk.rules.paigow.houseway import HouseWay, Way, house_way
from kiosk.rules.paigow.tiles import SET, parse_tiles
from tests.rules.paigow.house_way_golden import lines

GOLDEN = Path(__file__).parents[2] / "golden" / "paigow_house_way.txt.gz"


def test_every_four_tile_hand_is_set_as_the_golden_file_says() -> None:
    golden = gzip.decompress(GOLDEN.read_bytes()).decode().splitlines()
    assert len(golden) == 35_960
    for i, (got, want) in enumerate(zip(lines(), golden, strict=True)):
        assert got == want, f"line {i + 1}"


def test_the_low_never_outranks_the_high_for_any_hand_any_way() -> None:
    seen: set[tuple[object, ...]] = set()
    for places in combinations(range(32), 4):
        tiles = tuple(sorted(SET[i] for i in places))
        if tiles in seen:
            continue
        seen.add(tiles)
        for rules in (HouseWay(), HouseWay(Way.HIGH_FIRST), HouseWay(split_pairs=True)):
            s = house_way(tiles, rules).setting
            assert s.low.key <= s.high.key, (tiles, rules)
            assert sorted(s.tiles) == list(tiles)
    assert len(seen) == 8_130  # kinds of four-tile hand (the military tiles told apart)


four_tiles = st.lists(st.integers(0, 31), min_size=4, max_size=4, unique=True).map(
    lambda places: tuple(SET[i] for i in places))


@given(four_tiles, st.sampled_from(list(Way)), st.booleans())
def test_the_house_way_picks_one_of_the_ways_to_set(tiles: tuple, way: Way,
                                                    split: bool) -> None:
    d = house_way(tiles, HouseWay(way, split))
    assert d.setting in splits(tiles)
    options = splits(tiles)
    if not split and any(s.high.kind is Kind.PAIR for s in options):
        assert d.setting.high.kind is Kind.PAIR
        assert str(d.why).startswith("a pair is kept together")
    else:
        best = max((s.low.key, s.high.key) if way is Way.LOW_FIRST else (s.high.key, s.low.key)
                   for s in options)
        got = ((d.setting.low.key, d.setting.high.key) if way is Way.LOW_FIRST
               else (d.setting.high.key, d.setting.low.key))
        assert got == best


@pytest.mark.parametrize(("tiles", "rules", "high", "why"), [
    ("66 45 55 16", HouseWay(), "66 16",
     "no pair: the strongest low hand, 9 (mooy), with high nine"),
    ("66 45 55 16", HouseWay(Way.HIGH_FIRST), "66 45",
     "no pair: the strongest high hand, wong, with 7 (mooy)"),
    ("12 24 66 11", HouseWay(), "24 12",
     "a pair is kept together: gee joon pair high, 4 (teen) low"),
    ("12 24 66 11", HouseWay(split_pairs=True), "66 12",
     "pairs weighed like other tiles: the strongest low hand, 8 (day), with 8 (teen)"),
])
def test_the_settings_and_why(tiles: str, rules: HouseWay, high: str, why: str) -> None:
    d = house_way(parse_tiles(tiles), rules)
    assert (d.setting.high.codes, str(d.why)) == (high, why)


def test_tableside_paigow_houseway_shows_the_setting_and_why(tmp_path: Path) -> None:
    run = CliRunner().invoke(main, ["paigow", "houseway", "66", "45", "55", "16"],
                             standalone_mode=False)
    assert run.exit_code == 0, run.output
    assert run.output.splitlines()[:3] == [
        "high 66 16  high nine",
        "low  55 45  9 (mooy)",
        "why: no pair: the strongest low hand, 9 (mooy), with high nine (house way low-first)"]
    assert "  not 66 45 | 55 16: wong / 7 (mooy)" in run.output
    # the house's own way from its table.toml
    from kiosk.config import example

    toml = tmp_path / "table.toml"
    toml.write_text(example("paigow").replace('house_way = "low-first"',
                                              'house_way = "high-first"'))
    run = CliRunner().invoke(main, ["paigow", "houseway", "--config", str(toml), "66 45 55 16"],
                             standalone_mode=False)
    assert run.exit_code == 0, run.output
    assert run.output.splitlines()[0] == "high 66 45  wong"


@pytest.mark.parametrize(("args", "words"), [
    (["66", "45", "55"], "four tiles, not 3"),
    (["45", "45", "55", "16"], "the set has only 1 of 45"),
    (["66", "45", "55", "17"], "'17' is not a tile"),
])
def test_tableside_paigow_houseway_refuses_bad_tiles_in_one_line(args: list[str],
                                                                 words: str) -> None:
    run = CliRunner().invoke(main, ["paigow", "houseway", *args])
    assert run.exit_code == 2
    assert words in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) <= 2 and run.stderr.startswith("tableside: ")
