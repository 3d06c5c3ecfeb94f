"""The house edge by playing the engine (kiosk/rules/blackjack/simulation.py) and
`tableside odds blackjack`."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from kiosk.cli import main
from kiosk.rules.blackjack.analysis import house_edge
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.blackjack.simulation import Simulator, Tally, strategy_for


def test_the_simulated_edge_agrees_with_the_combinatorial_one() -> None:
    rules = BlackjackRules()
    sim = Simulator(rules, strategy_for(rules), random.Random(7))
    tally = sim.run(4_000)
    assert tally.rounds == 4_000 and tally.hands == 28_000
    assert tally.wagered == 28_000 * rules.minimum
    # Same strategy, two methods: within four standard errors (a fixed seed: deterministic).
    assert abs(tally.edge - house_edge(rules)) < 4 * tally.half_width / 1.96
    assert 0.004 < tally.half_width < 0.03
    # Shuffles came from the cutting card (rule 4.1.3 shuffle and cut) every ~3/4 shoe.
    assert sim.shuffles >= 4_000 * 7 * 2.7 / (312 * 0.75) * 0.5


def test_tallies_merge_across_processes() -> None:
    a = Tally(10, 70, 70_000, -500, 40.0, 1000)
    b = Tally(5, 35, 35_000, 200, 10.0, 1000)
    c = a + b
    assert (c.rounds, c.hands, c.wagered, c.net) == (15, 105, 105_000, -300)
    assert abs(c.edge - 300 / 105_000) < 1e-12


def test_odds_blackjack_command_reports_both_figures() -> None:
    # Bounded by rounds, not seconds: the figures must not depend on the machine's speed.
    result = CliRunner().invoke(main, ["odds", "blackjack", "--touch-21", "--json",
                                       "--target", "50", "--rounds", "20000",
                                       "--max-seconds", "3600", "--workers", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "Touch 21" and data["rounds"] >= 20_000
    assert data["target_met"] is True
    assert abs(data["combinatorial_percent"] - 0.504) < 0.05  # docs/blackjack-odds.md


def test_the_control_variates_have_mean_zero_and_narrow_the_interval() -> None:
    """Each control is a sum of martingale differences (a card's worth less its expectation
    over the cards left): its mean is zero, so the adjusted estimate is unbiased; it follows
    the players' results, so the interval narrows."""
    from kiosk.rules.blackjack.simulation import CONTROLS

    rules = BlackjackRules()
    tally = Simulator(rules, strategy_for(rules), random.Random(11)).run(6_000)
    n, k = tally.rounds, CONTROLS
    for i in range(k):
        mean = tally.c_sum[i] / n
        var = tally.cc_sum[i * k + i] / n - mean * mean
        assert var > 0, f"control {i} never varied"
        assert abs(mean) < 4 * (var / n) ** 0.5, f"control {i}: mean {mean}"
    assert tally.variance_reduction > 2.0
    assert tally.half_width < tally.raw_half_width / 1.4
    assert abs(tally.edge - house_edge(rules)) < 4 * tally.half_width / 1.96
    # Merged across processes, the sums give the same fit as one run of both.
    a = Simulator(rules, strategy_for(rules), random.Random(12)).run(1_000)
    b = Simulator(rules, strategy_for(rules), random.Random(13)).run(1_000)
    both = a + b
    assert both.rounds == 2_000 and len(both.cc_sum) == k * k
    assert abs(both.c_sum[0] - (a.c_sum[0] + b.c_sum[0])) < 1e-9
