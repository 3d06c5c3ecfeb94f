"""The roulette sign: its words from the folded state, and the view drawn for real."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kiosk.rules.roulette import engine as rl, history
from kiosk.rules.roulette.wheel import Wheel
from kiosk.ui.signage.link import Link
from kiosk.ui.signage.roulette_words import sign_words
from tests.ui.conftest import UI

RESULTS = ("0", "17", "32", "17", "5", "36", "17", "2", "13", "25", "32", "11")


def state_with(results: tuple[str, ...], phase: rl.Phase = rl.Phase.BETTING) -> Any:
    return rl.RouletteState(rl.RouletteRules(), "RL-01", results=results, phase=phase)


def test_the_last_twenty_newest_first_with_colours() -> None:
    results = tuple(str(n % 37) for n in range(30))
    w = sign_words(state_with(results))
    assert len(w.last) == 20 and w.last[0] == ("29", "black") and w.last[1] == ("28", "black")
    assert w.last[-1] == ("10", "black") and ("27", "red") in w.last


def test_hot_and_cold_numbers() -> None:
    hot, cold = history.hot_and_cold(RESULTS, Wheel.SINGLE_ZERO, n=3)
    assert hot == (("17", 3), ("32", 2), ("11", 1))  # ties: the most recent first
    assert all(c == 0 for _n, c in cold) and len(cold) == 3
    assert history.hot_and_cold((), Wheel.SINGLE_ZERO)[0] == ()  # nothing seen: none hot


def test_shares_over_the_last_hundred_spins() -> None:
    pct = history.percentages(RESULTS)
    # red: 32, 5, 36, 25, 32 -> 5 of 12; black: 17 x3, 2, 13, 11 -> 6; zero 1
    assert (pct.spins, pct.red, pct.black, pct.zero) == (
        12, Fraction(5, 12), Fraction(6, 12), Fraction(1, 12))
    assert pct.dozens == (Fraction(3, 12), Fraction(4, 12), Fraction(4, 12))  # 5 2 11 | 17x3 13
    long = ("1",) * 150 + ("2",) * 100
    assert history.percentages(long).red == 0 and history.percentages(long).spins == 100
    w = sign_words(state_with(RESULTS))
    assert dict(w.shares)["Red"] == "42%" and dict(w.shares)["Zero"] == "8%"


def test_limits_payouts_and_the_headline() -> None:
    w = sign_words(state_with(RESULTS, rl.Phase.NO_MORE_BETS))
    assert w.headline == "NO MORE BETS" and w.number == "11"
    assert dict(w.limits) == {"Minimum chip": "R5", "Straight-up maximum": "R500",
                              "Outside maximum": "R5,000", "Table maximum": "R20,000"}
    assert dict(w.payouts)["Straight up"] == "35 to 1"
    assert dict(w.payouts)["Six line"] == "5 to 1"
    result = rl.RouletteState(rl.RouletteRules(), "RL-01", phase=rl.Phase.RESULT, number="0")
    assert sign_words(result).headline == "0 GREEN"


def test_the_sign_drawn(ui: UI) -> None:
    from kiosk.ui.signage.roulette_view import POCKET, RouletteSignage

    view = RouletteSignage(size=(960, 540), size_hint=(None, None))
    ui.window.add_widget(view)
    view.table_name = "Roulette 3"
    view.show(state_with(RESULTS), Link.LIVE)
    ui.pump(0.1)
    frame = ui.frame()
    # the last number's panel: 11 is black
    panel = view.ids.number_panel
    assert view.ids.number.text == "11"
    x, y = panel.to_window(panel.x + panel.width * 0.12, panel.center_y)
    assert frame.pixel(x, y) == tuple(round(c * 255) for c in POCKET["black"][:3])
    # the strip: newest first; 32 (red) is the second
    cells = list(reversed(view.ids.last.children))
    assert [c.text for c in cells[:3]] == ["11", "32", "25"]
    second = cells[1]
    sx, sy = second.to_window(second.x + 3, second.y + 3)
    assert frame.pixel(sx, sy) == tuple(round(c * 255) for c in POCKET["red"][:3])
    assert view.headline == "PLACE YOUR BETS" and "Red 42%" in view.shares.text
    ui.screenshot("roulette-signage-960x540")
