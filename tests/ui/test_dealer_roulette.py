"""The roulette dealer's screen, rendered for real and driven by touches: a whole spin by hand
(no wheel attached) from the chip change to the payouts, with screenshots at 800x480."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.money import ChipRule
from kiosk.rules.roulette import engine as rl
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui.dealer.roulette import POCKET_TONES
from tests.ui.conftest import UI, start_app

RULES = rl.RouletteRules(chips=ChipRule(500))


@pytest.fixture
def session(tmp_path: Path) -> Iterator[TableSession[rl.RouletteState]]:
    journal = Journal.open(tmp_path / "t.db", "RL-01")
    s: TableSession[rl.RouletteState] = TableSession(rl.Roulette(), journal, RULES, "RL-01")
    yield s
    journal.close()


@pytest.fixture
def dealer(ui: UI, session: Any) -> Any:
    from kiosk.config import parse
    from kiosk.ui.games.roulette import dealer_app

    cfg = parse('[table]\nid = "RL-01"\nname = "Roulette 1"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    return app.screen


def kinds(session: Any) -> list[str]:
    return [e.kind.removeprefix("roulette.") for e in session.journal.entries()]


def near(c: tuple[int, int, int], rgba: tuple[float, ...], tol: int = 10) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(c, rgba[:3], strict=False))


def test_a_whole_spin_by_touch(ui: UI, dealer: Any, session: Any) -> None:
    # two players buy wheel chips (rule 3.5 chip change) through the pad
    for colour, value in (("pink", 500), ("yellow", 1_000)):
        ui.tap(dealer.colour_buttons[colour])
        ui.tap(dealer.change_button)
        ui.tap(dealer.pad.value_buttons[value])
        ui.tap(dealer.pad.count_buttons[50])
        ui.tap(dealer.pad.ok)
    assert [(s.colour, s.chips, s.value_each) for s in session.state.stacks] == [
        ("pink", 50, 500), ("yellow", 50, 1_000)]
    # pink: a straight on 17, then a split 17/20 by tapping both numbers
    ui.tap(dealer.colour_buttons["pink"])
    ui.tap(dealer.cells["17"])
    ui.tap(dealer.mode_buttons["split"])
    ui.tap(dealer.cells["17"])
    assert dealer.taps == ["17"] and len(session.state.layout) == 1  # waits for the second
    ui.tap(dealer.cells["20"])
    # yellow: orphans (5 chips, 17 on two of its splits) at x2, and red
    ui.tap(dealer.colour_buttons["yellow"])
    ui.tap(dealer.units_button)
    ui.tap(dealer.call_buttons["orphans"])
    ui.tap(dealer.units_button)
    ui.tap(dealer.units_button)
    ui.tap(dealer.units_button)  # back to x1
    ui.tap(dealer.outside_buttons["red"])
    assert rl.totals(session.state) == [("pink", 2, 1_000), ("yellow", 11, 11_000)]
    assert dealer.colour_buttons["pink"].text == "Pink 2"  # chips on the layout
    ui.tap(dealer.colour_buttons["pink"])
    assert dealer.text_label.text.startswith("Pink: 2 on the layout, 48 in hand")
    ui.screenshot("roulette-dealer-betting-800x480")
    # the spin by hand, the other way from the last (none yet: clockwise)
    ui.tap(dealer.spin_button)
    assert session.state.ball_spinning and session.state.last_direction is rl.Direction.CLOCKWISE
    ui.tap(dealer.close_button)
    assert dealer.mode == "number"  # no wheel: the next tap on the layout is the number
    ui.tap(dealer.cells["17"])
    assert session.state.number == "17"
    # pink: 35 + 17 = 52; yellow: 2 x 17 x 2 = 68, red loses (17 is black)
    assert dealer.payout_text.splitlines() == [
        "17 black: the dolly is on it", "Pink: 52 chips + R0 in cash value",
        "Yellow: 68 chips + R0 in cash value", "7 losing chip(s) off the layout"]
    # The payouts open in large type over the layout; Done shows the dolly.
    sheet = next(w for w in ui.window.children if type(w).__name__ == "PayoutSheet")
    ui.tap(sheet.ids.done)
    ui.pump(0.2)
    frame = ui.frame()
    ui.screenshot("roulette-dealer-paying-800x480")
    cell = dealer.cells["17"]
    # the dolly: an ivory ring inside the black cell of 17
    ring = frame.region_colours(cell.x + cell.width * 0.1, cell.y + cell.height * 0.1,
                                cell.width * 0.8, cell.height * 0.8)
    assert any(near(c, (0.98, 0.97, 0.93)) for c in ring)
    assert any(near(c, POCKET_TONES[rl.colour_of("17")]) for c in ring)
    # A colour tapped now opens the payouts again; they are confirmed from there.
    ui.tap(dealer.colour_buttons["pink"])
    sheet = next(w for w in ui.window.children if type(w).__name__ == "PayoutSheet")
    assert [p.title for p in sheet.panels] == ["Pink", "Yellow"]
    assert sheet.panels[0].lines() == [("52 chips won, 2 stay on the layout", "PAY 52 CHIPS")]
    assert sheet.panels[1].lines() == [("68 chips won, 4 stay on the layout", "PAY 68 CHIPS"),
                                       ("7 chips on losing bets", "TAKE 7 CHIPS")]
    ui.screenshot("roulette-dealer-payouts-800x480")
    ui.tap(sheet.ids.confirm)
    assert session.state.results == ("17",) and session.state.spin == 2
    assert {s.colour: s.chips for s in session.state.stacks} == {
        "pink": 48 + 2 + 52, "yellow": 39 + 4 + 68}
    assert kinds(session) == [
        "table_opened", "chip_change", "chip_change", "bet_placed", "bet_placed",
        "bet_placed", "bet_placed", "ball_spun", "betting_closed", "number_called",
        "spin_settled"]
    # the next spin goes the other way (rule 3.2)
    assert dealer.spin_button.text == "Spin anticlockwise"


def test_a_late_bet_is_a_no_bet_and_taps_that_name_no_bet_are_refused(
        ui: UI, dealer: Any, session: Any) -> None:
    session.perform(lambda s: rl.chip_change(s, "blue", 20, 500))
    ui.tap(dealer.colour_buttons["blue"])
    ui.tap(dealer.mode_buttons["corner"])
    ui.tap(dealer.cells["17"])
    ui.tap(dealer.cells["22"])  # not a corner with 17
    assert session.state.layout == () and "not a corner" in dealer.alert_label.text
    ui.tap(dealer.mode_buttons["straight"])
    ui.tap(dealer.cells["5"])
    ui.tap(dealer.spin_button)
    ui.tap(dealer.close_button)
    ui.tap(dealer.mode_buttons["straight"])  # the dealer marks a late chip
    ui.tap(dealer.cells["9"])
    assert kinds(session)[-1] == "no_bet" and session.state.staked("blue") == 1
    assert session.state.notes == ("no bet: blue straight 9",)


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 800), (1920, 1080)])
def test_the_layout_fits_every_screen(ui: UI, dealer: Any, size: tuple[int, int]) -> None:
    ui.resize(*size)
    cells = list(dealer.cells.values())
    w, h = size
    for c in cells:  # on screen, one finger each (9 mm on the 7" display is ~48 px)
        assert c.x >= 0 and c.right <= w + 1 and c.y >= 0 and c.top <= h + 1
        assert min(c.width, c.height) >= 44 * min(w / 800, h / 480)
    boxes = [(c.x, c.y, c.right, c.top) for c in cells]
    for i, a in enumerate(boxes):  # no two numbers overlap
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    ui.screenshot(f"roulette-dealer-{w}x{h}")
