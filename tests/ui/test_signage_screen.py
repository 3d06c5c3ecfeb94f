"""The players' screen, drawn for real: the words from the state, the limits and odds
(rules 2.2, 2.6), the call (rules 5.5, 5.6), the result (rules 5.2, 5.7) and the roads, checked
by text and by pixels at 1920x1080 and 800x480, with screenshots for review."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.outcomes import CoupResult, Winner
from kiosk.rules.cards import Card
from kiosk.ui import theme
from kiosk.ui.signage.feed import Link
from tests.table.helpers import RULES, open_session
from tests.ui.conftest import UI, start_app
from tests.ui.test_signage_feed import (
    BANKER_7_TO_5,
    PLAYER_NATURAL_8_TO_3,
    TIE_6_TO_6,
    coup,
    deal,
    link,
    random_coups,
)

Colour = tuple[float, float, float, float]


def close_to(pixel: tuple[int, int, int], colour: Colour, tol: int = 8) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(pixel, colour[:3], strict=False))


def share(frame: Any, widget: Any, colour: Colour, step: int = 3) -> float:
    """The share of a widget's pixels that are `colour`."""
    x, y = widget.to_window(widget.x, widget.y)
    counts = frame.region_colours(x, y, widget.width, widget.height, step=step)
    hits = sum(n for c, n in counts.items() if close_to(c, colour))
    return float(hits / max(1, sum(counts.values())))


# --- the words (no drawing) ---------------------------------------------------------------


def _state(*ops: Any) -> pb.PuntoBancoState:
    state = pb.apply(pb.initial_state(RULES, ""), pb.open_table(RULES, "PB-01"))
    for op in ops:
        state = pb.apply(state, op(state))
    return state


def test_headline_follows_the_dealers_calls() -> None:
    from kiosk.ui.signage.punto_banco_view import Tone, headline

    assert headline(None).tone == Tone.WAIT
    state = _state()
    assert headline(state).text == "Shuffling"  # rule 5.5: no shoe loaded yet
    state = _state(pb.shuffle)
    assert (headline(state).text, headline(state).tone) == ("Place your bets", Tone.BETS)
    state = pb.apply(state, pb.place_bet(state, "1", pb.BetKind.BANKER, 10_000))
    state = pb.apply(state, pb.close_betting(state))
    assert headline(state).text == "No more bets"  # rule 5.6
    for code in BANKER_7_TO_5:
        state = pb.apply(state, pb.deal_card(state, Card.parse(code), pb.CardSource.KEYED))
    assert (headline(state).text, headline(state).tone) == ("Banker wins 7 to 5", "banker")
    state = pb.apply(state, pb.cut_card_out(state))
    state = pb.apply(state, pb.confirm_payouts(state))
    assert headline(state).text == "Shuffling"  # the cutting card came out: a new shoe


def test_result_words_and_details() -> None:
    from kiosk.ui.signage.punto_banco_view import result_detail, result_words

    tie = CoupResult(Winner.TIE, 6, 6)
    assert result_words(tie) == "Tie 6 to 6"
    natural = CoupResult(Winner.PLAYER, 8, 3, banker_pair=True, natural=True)
    assert result_words(natural) == "Player wins 8 to 3"
    assert result_detail(natural) == "Natural · Banker pair"


def test_limits_and_odds_come_from_the_tables_configuration() -> None:
    from kiosk.ui.signage.punto_banco_view import limit_rows

    rules = pb.PuntoBancoRules(
        limits=(pb.Limit(pb.BetKind.BANKER, 2_500, 1_000_000),
                pb.Limit(pb.BetKind.PLAYER, 2_500, 1_000_000),
                pb.Limit(pb.BetKind.TIE, 500, 100_000)),
        commission_mode=pb.CommissionMode.COMMISSION, currency="$")
    rows = {r.name: r for r in limit_rows(rules)}
    # rule 2.2: minimum and maximum per kind of bet, in the table's currency
    assert (rows["Banker"].minimum, rows["Banker"].maximum) == ("$25", "$10,000")
    assert (rows["Tie"].minimum, rows["Tie"].maximum) == ("$5", "$1,000")
    # rule 2.6 (odds of rule 5.7 as configured): commission mode pays 1:1 less 5%
    assert (rows["Banker"].pays, rows["Banker"].note) == ("1:1", "less 5% commission")
    assert (rows["Player"].pays, rows["Tie"].pays) == ("1:1", "8:1")
    net = {r.name: r for r in limit_rows(pb.PuntoBancoRules())}
    assert (net["Banker"].pays, net["Banker"].note) == ("19:20", "")


# --- drawn ----------------------------------------------------------------------------------


def _journal_with_history(path: Path, *, last: tuple[str, ...] = BANKER_7_TO_5,
                          settle: bool = True) -> Any:
    session = open_session(path)
    session.perform(pb.shuffle)
    random_coups(session, 14)
    coup(session, PLAYER_NATURAL_8_TO_3)
    coup(session, TIE_6_TO_6)
    coup(session, last, settle=settle)
    return session


def _amount(plaque: Any, which: str) -> str:
    """The amount a plaque shows in its MIN or MAX row."""
    return str(plaque.ids[f"{which}_row"].ids.amount.text)


def _signage(ui: UI, path: Path, size: tuple[int, int]) -> Any:
    from kiosk.ui.signage.app import SignageApp

    app = start_app(ui, SignageApp(path, "Salon Privé 7"))
    ui.resize(*size)  # the screen lays out at `size`; frames are drawn at that size
    ui.pump(0.15)
    assert tuple(app.screen.size) == size
    return app


def test_signage_1920x1080_after_a_banker_win(ui: UI, tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    session = _journal_with_history(path)
    app = _signage(ui, path, (1920, 1080))
    screen = app.screen
    assert app.feed.seq == session.journal.count() and app.feed.link is Link.LIVE
    ids = screen.ids
    assert ids.headline.text == "PLACE YOUR BETS"
    assert ids.table_name.text == "Salon Privé 7" and ids.game_name.text == "PUNTO BANCO"
    assert screen.hands_detail == "Banker wins 7 to 5"
    assert ids.banker.total == "7" and ids.player.total == "5" and ids.banker.winner
    assert [c.code for c in reversed(ids.player.ids.cards.children)] == ["2H", "3C", "TS"]
    # rules 2.2 and 2.6: every bet's minimum, maximum and payout on the plaques
    plaques = {p.name: p for p in ids.plaques.children}
    assert set(plaques) == {"Banker", "Player", "Tie"}
    assert (_amount(plaques["Banker"], "min"), _amount(plaques["Banker"], "max"),
            plaques["Banker"].ids.pays.text) == ("R50", "R50,000", "PAYS 19:20")
    assert (_amount(plaques["Tie"], "min"), _amount(plaques["Tie"], "max"),
            plaques["Tie"].ids.pays.text) == ("R10", "R5,000", "PAYS 8:1")
    frame = ui.frame()
    # Big words: the headline's text is at least 6% of the screen's height.
    assert ids.headline.texture_size[1] >= 0.06 * 1080
    # The bead plate's newest bead is a filled banker-red circle lettered B.
    roads = screen.roads
    n = len(session.state.results)
    x, y = roads.centre_of("bead_plate", (n - 1) // 6, (n - 1) % 6)
    r = roads.grids["bead_plate"].cw * 0.43
    for dx, dy in ((0, 0.7), (-0.7, 0), (0.7, 0), (0, -0.7)):
        assert close_to(frame.pixel(x + dx * r, y + dy * r), theme.BANKER), (dx, dy)
    # The tie before it: a green bead; the big road's last mark is a hollow red ring.
    tx, ty = roads.centre_of("bead_plate", (n - 2) // 6, (n - 2) % 6)
    assert close_to(frame.pixel(tx, ty + 0.7 * r), theme.TIE)
    last = session.state.results and roads.roads.big_road.cells[-1]
    bx, by = roads.centre_of("big_road", last.col, last.row)
    assert close_to(frame.pixel(bx, by), theme.IVORY), "a big road ring is hollow"
    ring = frame.region_colours(bx - r, by - r, 2 * r, 2 * r, step=1)
    assert sum(n for c, n in ring.items() if close_to(c, theme.BANKER)) > 20
    # Limits: the banker plaque's band is banker red; the winner's hand is framed in gold.
    band = plaques["Banker"]
    bx, by = band.to_window(band.center_x, band.top - screen.unit * 1.0)
    assert close_to(frame.pixel(bx, by), theme.BANKER)
    assert share(frame, ids.banker, theme.GOLD, step=2) > 0.01
    assert share(frame, ids.player, theme.GOLD, step=2) < share(frame, ids.banker, theme.GOLD,
                                                                step=2)
    ui.screenshot("signage-1920x1080")


def test_signage_800x480_shows_the_result_then_updates_live(ui: UI, tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    session = _journal_with_history(path, settle=False)
    app = _signage(ui, path, (800, 480))
    ids = app.screen.ids
    assert ids.headline.text == "BANKER WINS 7 TO 5"
    frame = ui.frame()
    bx, by = ids.banner.to_window(ids.banner.x + app.screen.unit * 0.9, ids.banner.center_y)
    assert close_to(frame.pixel(bx, by), theme.BANKER), "the banner takes the winner's colour"
    # Everything is inside the window and nothing overlaps the footer at this size.
    for w in (ids.banner, ids.player, ids.banker, ids.roads, ids.plaques, ids.table_name):
        x, y = w.to_window(w.x, w.y)
        assert x >= 0 and y >= 0 and x + w.width <= 800 + 1 and y + w.height <= 480 + 1, w
    assert ids.roads.y >= ids.plaques.top and ids.banker.y >= ids.plaques.top
    assert ids.headline.texture_size[0] <= ids.headline.width + 1, "the call fits its banner"
    ui.screenshot("signage-800x480")
    # The dealer confirms, opens the next coup and calls "no more bets": seen within ~100 ms.
    session.perform(pb.confirm_payouts)
    session.perform(lambda st: pb.place_bet(st, "3", pb.BetKind.PLAYER, 5_000))
    session.perform(pb.close_betting)
    t0 = time.monotonic()
    while ids.headline.text != "NO MORE BETS" and time.monotonic() - t0 < 3:
        ui.pump(frames=1)
    took = time.monotonic() - t0
    print(f"in-process update: {took * 1000:.0f} ms")
    assert ids.headline.text == "NO MORE BETS"
    frame = ui.frame()
    bx, by = ids.banner.to_window(ids.banner.x + app.screen.unit * 0.9, ids.banner.center_y)
    assert close_to(frame.pixel(bx, by), theme.IVORY)
    deal(session, ["9H"])  # rule 5.2: the first card is the Player's
    t0 = time.monotonic()
    while not ids.player.cards or time.monotonic() - t0 < 0.2:
        ui.pump(frames=1)
    assert list(ids.player.cards) == ["9H"] and ids.player.total == "9"
    assert app.screen.hands_title == f"Coup {session.state.coup}"
    ui.screenshot("signage-800x480-dealing")


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_waiting_for_the_table_then_shuffling(ui: UI, tmp_path: Path,
                                              size: tuple[int, int]) -> None:
    path = tmp_path / "table.db"
    app = _signage(ui, path, size)  # no journal yet
    ids = app.screen.ids
    assert link(app.feed) is Link.WAITING
    assert ids.headline.text == "WELCOME" and ids.link_label.text == "Waiting for the table"
    assert list(ids.plaques.children) == [], "no limits are shown before the table's own"
    frame = ui.frame()
    assert not frame.is_blank()
    dot = ids.link_dot
    assert close_to(frame.pixel(*dot.to_window(*dot.center)), theme.WARNING)
    open_session(path)  # the dealer app starts: the table is open, no shoe yet
    t0 = time.monotonic()
    while link(app.feed) is not Link.LIVE and time.monotonic() - t0 < 3:
        ui.pump(frames=1)
    ui.pump(0.1)
    assert ids.headline.text == "SHUFFLING" and ids.link_label.text == ""
    assert len(ids.plaques.children) == 3
    frame = ui.frame()
    assert close_to(frame.pixel(*dot.to_window(*dot.center)), theme.TIE)
    ui.screenshot(f"signage-shuffling-{size[0]}x{size[1]}")
