"""The signage app at a blackjack table, drawn for real: it shows `BlackjackSignage` for a
journal whose table was opened for blackjack, with the link's mark as on the punto banco
signage, swaps views when the table is reconfigured for the other game, and says so plainly
when the journal holds another game's operations it cannot show. Checked by text and pixels."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.ui import theme
from kiosk.ui.signage.feed import Link
from tests.table.helpers import open_session
from tests.ui.conftest import UI, start_app
from tests.ui.test_signage_blackjack_feed import (
    BJ_RULES,
    BURNED,
    get_ready,
    open_bj,
    play_round,
)
from tests.ui.test_signage_feed import BANKER_7_TO_5, coup

Colour = tuple[float, float, float, float]


def close_to(pixel: tuple[int, int, int], colour: Colour, tol: int = 8) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(pixel, colour[:3], strict=False))


def share(frame: Any, widget: Any, colour: Colour) -> float:
    x, y = widget.to_window(widget.x, widget.y)
    counts = frame.region_colours(x, y, widget.width, widget.height, step=3)
    return sum(n for c, n in counts.items() if close_to(c, colour)) / max(
        1, sum(counts.values()))


def dot_colour(ui: UI, view: Any) -> tuple[int, int, int]:
    dot = view.ids.link_dot
    return ui.frame().pixel(*dot.to_window(*dot.center))  # type: ignore[no-any-return]


def _app(ui: UI, path: Path, size: tuple[int, int] = (800, 480)) -> Any:
    from kiosk.ui.signage.app import SignageApp

    app = start_app(ui, SignageApp(path, "Salon Privé 3"))
    ui.resize(*size)
    ui.pump(0.1)
    return app


def _until(ui: UI, done: Callable[[], bool], within: float = 3.0) -> float:
    """Draw frames until `done()`; the seconds it took."""
    t0 = time.monotonic()
    while not done() and time.monotonic() - t0 < within:
        ui.pump(frames=1)
    assert done(), "not shown in time"
    return time.monotonic() - t0


def test_a_blackjack_table_gets_the_blackjack_view_with_its_link_mark(
        ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage
    from kiosk.ui.signage.kivy_app import shown_texts
    from kiosk.ui.signage.punto_banco_view import PuntoBancoSignage

    path = tmp_path / "table.db"
    app = _app(ui, path)  # no journal yet: the welcome screen, waiting
    assert isinstance(app.screen, PuntoBancoSignage) and app.feed.link is Link.WAITING
    session = open_bj(path)  # the dealer app opens a blackjack table
    took = _until(ui, lambda: isinstance(app.screen, BlackjackSignage))
    print(f"view shown {took * 1000:.0f} ms after the table opened")
    view = app.screen
    ui.pump(0.05)
    ids = view.ids
    assert view.parent is app.holder and len(app.holder.children) == 1
    assert tuple(view.size) == (800, 480)
    assert ids.game_name.text == "BLACKJACK" and ids.table_name.text == "Salon Privé 3"
    assert (ids.min_line.ids.amount.text, ids.max_line.ids.amount.text) == (
        "R50", "R10,000")  # rule 2.2
    assert ids.dealer_rule.text == "Dealer draws to 16, stands on all 17s"  # rule 4.2
    assert ids.headline.text == "SHUFFLING" and ids.link_label.text == ""
    assert close_to(dot_colour(ui, view), theme.TIE), "live: the green mark"
    frame = ui.frame()
    assert share(frame, ids.limits, theme.IVORY) > 0.4  # the blackjack view's plaque
    get_ready(session)
    play_round(session)
    _until(ui, lambda: ids.dealer_total.text == "20")
    assert [c.code for c in reversed(ids.dealer_cards.children)] == ["6D", "TC", "4S"]
    assert ids.dealer_words.text == "Dealer 20" and ids.headline.text == "PLACE YOUR BETS"
    assert not [t for t in shown_texts(view) if BURNED in t], "the burned card is never shown"
    ui.screenshot("bj-signage-app-800x480")
    # The dealer app stops and the file is gone: the last state stays, the mark says so.
    session.journal.close()
    away = tmp_path / "away"
    away.mkdir()
    for f in tmp_path.glob("table.db*"):
        shutil.move(f, away / f.name)
    _until(ui, lambda: app.feed.link is Link.RECONNECTING)
    ui.pump(0.05)
    assert app.screen is view and ids.link_label.text == "Reconnecting…"
    # Never a stale call: the banner says so in words; the cards and limits stay.
    assert ids.headline.text == "RECONNECTING" and "Please wait" in ids.detail.text
    assert ids.dealer_total.text == "20"
    assert close_to(dot_colour(ui, view), theme.WARNING)
    ui.screenshot("bj-signage-app-reconnecting-800x480")
    frame = ui.frame()
    banner = ids.banner
    x, y = banner.to_window(banner.x, banner.y)
    counts = frame.region_colours(x, y, banner.width, banner.height, step=1)
    amber = sum(n for (r, g, b), n in counts.items() if r > 150 and b < 80 and r - g > 40)
    assert amber > 100, "the banner is framed in the warning colour"
    for f in away.iterdir():
        shutil.copy(f, tmp_path / f.name)
    _until(ui, lambda: app.feed.link is Link.LIVE)
    ui.pump(0.05)
    assert ids.link_label.text == "" and close_to(dot_colour(ui, view), theme.TIE)
    assert ids.headline.text == "PLACE YOUR BETS"


def test_a_table_reconfigured_for_the_other_game_switches_the_view(
        ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage
    from kiosk.ui.signage.punto_banco_view import PuntoBancoSignage

    path = tmp_path / "table.db"
    session = open_session(path)  # punto banco
    session.perform(pb.shuffle)
    coup(session, BANKER_7_TO_5)
    app = _app(ui, path, (1920, 1080))
    pb_view = app.screen
    assert isinstance(pb_view, PuntoBancoSignage) and pb_view.ids.game_name.text == "PUNTO BANCO"
    journal = session.journal
    journal.append("blackjack.table_opened", bj.open_table(BJ_RULES, "PB-01").to_payload())
    took = _until(ui, lambda: isinstance(app.screen, BlackjackSignage))
    print(f"view switched {took * 1000:.0f} ms after the table was opened for blackjack")
    view = app.screen
    ui.pump(0.05)
    assert tuple(view.size) == (1920, 1080) and pb_view.parent is None
    assert view.ids.game_name.text == "BLACKJACK" and view.ids.headline.text == "SHUFFLING"
    assert view.ids.table_name.text == "Salon Privé 3"
    frame = ui.frame()
    assert share(frame, view.ids.limits, theme.IVORY) > 0.4
    assert close_to(dot_colour(ui, view), theme.TIE)
    ui.screenshot("bj-signage-switched-1920x1080")
    # And back: a punto banco table again, with its plaques (rules 2.2, 2.6).
    opening = pb.open_table(pb.PuntoBancoRules(), "PB-01")
    journal.append(opening.kind, opening.to_payload())
    _until(ui, lambda: app.screen is pb_view)
    ui.pump(0.05)
    assert pb_view.ids.game_name.text == "PUNTO BANCO" and pb_view.ids.headline.text == \
        "SHUFFLING"
    assert len(pb_view.ids.plaques.children) == 3
    journal.close()


def test_another_games_operations_with_no_opening_give_a_clear_message(
        ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.signage.punto_banco_view import PuntoBancoSignage

    path = tmp_path / "table.db"
    session = open_session(path)
    session.perform(pb.shuffle)
    coup(session, BANKER_7_TO_5)
    app = _app(ui, path)
    view = app.screen
    assert isinstance(view, PuntoBancoSignage) and len(view.ids.plaques.children) == 3
    # A blackjack session on this journal that never opened its table: nothing to show it
    # with, so no punto banco limits either, which would no longer be the table's.
    session.journal.append("blackjack.shuffled", {"method": "hand", "new_cards": False})
    _until(ui, lambda: view.ids.headline.text == "GAME CHANGING")
    ui.pump(0.05)
    assert app.screen is view and app.feed.other_game is not None
    assert view.ids.detail.text == "Limits and odds follow when the table opens"
    assert list(view.ids.plaques.children) == [] and view.ids.game_name.text == ""
    assert view.ids.table_name.text == "Salon Privé 3"
    assert view.ids.player.total == "" and view.ids.banker.total == ""
    assert view.ids.hands.opacity == 0 and view.ids.history.opacity == 0
    frame = ui.frame()
    banner = view.ids.banner
    assert share(frame, banner, theme.GOLD) > 0.01  # the gold frame round the message
    assert share(frame, view.ids.headline, theme.IVORY) > 0.02  # ivory words
    # Nothing but felt where the hands and the roads were (no empty punto banco layout).
    assert share(frame, view.ids.history, theme.IVORY) < 0.01
    ui.screenshot("signage-game-changing-800x480")
    # The table is opened for blackjack after all: its view, and no message left behind.
    session.journal.append("blackjack.table_opened", bj.open_table(BJ_RULES, "PB-01").to_payload())
    _until(ui, lambda: app.screen is not view)
    assert app.feed.other_game is None and app.screen.ids.game_name.text == "BLACKJACK"
    session.journal.close()
