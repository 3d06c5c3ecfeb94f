"""`tableside odds paigow`: the player's house edge when player and bank both set the house
way, counted over every one of the 736,281,000 deals from the engine's own hands."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

from click.testing import CliRunner

from kiosk.cli import main
from kiosk.rules.paigow.odds import DEALS, PaiGowOdds, four_tile_kinds

PUBLISHED = Fraction(23_896, 1_000_000)  # 2.3896%: published with a house way we do not know
# (docs/paigow.md, "The published 2.3896%": the ways we counted, none of which gives it)


def test_the_kinds_of_hand_weigh_up_to_every_hand() -> None:
    kinds = four_tile_kinds()
    assert len(kinds) == 8_130
    assert sum(k.weight for k in kinds) == comb(32, 4) == 35_960
    assert DEALS == 35_960 * 20_475


def test_the_edge_from_the_engine() -> None:
    run = CliRunner().invoke(main, ["odds", "paigow", "--json"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.stdout)
    # the default house way (pairs kept, the strongest low hand) against itself
    assert (out["deals"], out["wins"], out["losses"], out["standoffs"]) == (
        736_281_000, 245_392_680, 250_560_200, 240_328_120)
    edge = PaiGowOdds(out["deals"], out["wins"], out["losses"], out["standoffs"]).house_edge
    assert edge == Fraction(250_560_200 - Fraction(95, 100) * 245_392_680, 736_281_000)
    assert out["house_edge"]["percent"] == "2.3683"
    # within a quarter of a point of the published 2.3896% (set by a casino's own house way)
    assert abs(edge - PUBLISHED) < Fraction(25, 10_000)
    assert "counted 8,130 of 8,130 kinds of four-tile hand" in run.stderr
