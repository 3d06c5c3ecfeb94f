"""A sign left on 18 hours a day, drawn for real: the picture moves against
burn-in, an idle screen after the house's minutes with no round, dimming at night, the
banker's payout as the house words it, the ask road, and "no hole card" on the blackjack
sign."""

from __future__ import annotations

import os
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.config import ConfigError, example, parse
from kiosk.floor_care import Night, SignCare
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.outcomes import Winner
from kiosk.rules.baccarat.roads import Roads
from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui import theme
from tests.ui.conftest import UI, start_app
from tests.ui.test_signage_feed import random_coups

RULES = pb.PuntoBancoRules(chips=ChipRule(500))


def _session(path: Path, when: datetime | None = None) -> Any:
    clock = (lambda: when) if when is not None else None
    journal = Journal.open(path, "PB-01", clock=clock)
    session = TableSession(pb.PuntoBanco(), journal, RULES, "PB-01")
    session.perform(pb.shuffle)
    return session


def _sign(ui: UI, path: Path, care: SignCare) -> Any:
    from kiosk.ui.signage.app import SignageApp

    app = start_app(ui, SignageApp(path, "Punto banco 1", care=care))
    ui.pump(0.2)
    return app


def test_the_banker_pays_as_the_house_words_it() -> None:
    from kiosk.ui.signage.punto_banco_words import pays_words

    i18n.set_odds_style("0.95 to 1")
    assert pays_words(RULES, pb.BetKind.BANKER) == ("0.95 to 1", "")
    assert pays_words(RULES, pb.BetKind.TIE) == ("8 to 1", "")
    commission = pb.PuntoBancoRules(commission_mode=pb.CommissionMode.COMMISSION)
    assert pays_words(commission, pb.BetKind.BANKER) == ("1 to 1", "less 5% commission")
    i18n.use("af")  # the house's number style, the language's words
    assert pays_words(RULES, pb.BetKind.BANKER)[0] == "0.95 teen 1"
    i18n.set_money_style(i18n.MoneyStyle.SPACES)
    assert pays_words(RULES, pb.BetKind.BANKER)[0] == "0,95 teen 1"
    i18n.set_money_style(i18n.MoneyStyle.COMMAS)
    i18n.set_odds_style("19:20")
    assert pays_words(RULES, pb.BetKind.BANKER) == ("19:20", "")
    cfg = parse(example("punto-banco").replace('odds_style = "19:20"',
                                               'odds_style = "0.95 to 1"'))
    assert cfg.display.sign_languages().odds_style is i18n.OddsStyle.TO_ONE


def test_the_blackjack_sign_says_no_hole_card_and_what_a_dealer_blackjack_takes(
        ui: UI) -> None:
    from kiosk.ui.signage.blackjack_view import BlackjackSignage

    view = BlackjackSignage(table_name="Blackjack 1")
    ui.window.add_widget(view)
    for takes, words in ((DealerBlackjackTakes.ALL, "takes every bet, doubles and splits "
                                                    "too"),
                         (DealerBlackjackTakes.ORIGINAL, "takes the original bets only")):
        view.show(BlackjackRules(chips=ChipRule(500), dealer_blackjack_takes=takes), None)
        ui.pump(0.1)
        assert view.ids.hole_card.text.startswith("No hole card: a dealer blackjack")
        assert words in view.ids.hole_card.text
    ui.resize(1920, 1080)
    ui.pump(0.1)
    ui.screenshot("signage-blackjack-hole-card-1920x1080")


def test_the_ask_road_shows_what_banker_or_player_would_add(ui: UI, tmp_path: Path) -> None:
    session = _session(tmp_path / "t.db")
    random_coups(session, 18)
    app = _sign(ui, tmp_path / "t.db", SignCare(burn_in_shift=False, idle_minutes=0))
    roads = Roads.from_results(session.state.results)
    for side, winner in (("ask_banker", Winner.BANKER), ("ask_player", Winner.PLAYER)):
        p = roads.predict(winner)
        assert app.screen.ids[side].marks == [p.big_eye_boy, p.small_road, p.cockroach_pig]
    assert app.screen.ids.ask_banker.ids.label.text == "Banker ask"
    ui.resize(1920, 1080)
    ui.pump(0.2)
    ui.screenshot("signage-ask-road-1920x1080")
    session.journal.close()


def test_after_the_houses_minutes_with_no_round_the_idle_screen(ui: UI,
                                                                tmp_path: Path) -> None:
    long_ago = datetime.now(UTC) - timedelta(minutes=30)
    session = _session(tmp_path / "t.db", when=long_ago)
    from kiosk.ui.signage.link import heartbeat_path

    beat = heartbeat_path(tmp_path / "t.db")
    # The dealer app runs: its beat stays fresh however long a busy machine takes to start
    # the sign (a beat older than 10 s would pause the table and hide the idle screen).
    beat.touch()
    soon = datetime.now(UTC).timestamp() + 3600
    os.utime(beat, (soon, soon))
    app = _sign(ui, tmp_path / "t.db", SignCare(burn_in_shift=False, idle_minutes=10))
    app._care()
    ui.pump(0.1)
    assert app.idle_shown and type(app.screen).__name__ == "IdleView"
    texts = [label.text for label in app.screen.lines]
    assert texts == ["Punto banco 1", "PUNTO BANCO", "Bets from R50 to R50,000",
                     "Join us: place your bets"]
    ui.screenshot("signage-idle-800x480")
    session.journal.close()
    fresh = Journal.open(tmp_path / "t.db", "PB-01")  # now: a bet, the table plays again
    live = TableSession(pb.PuntoBanco(), fresh, RULES, "PB-01")
    live.perform(lambda s: pb.place_bet(s, "1", pb.BetKind.BANKER, 10_000))
    ui.pump(0.3)
    assert not app.idle_shown and type(app.screen).__name__ == "PuntoBancoSignage"
    fresh.close()


def test_the_sign_dims_at_night_and_moves_against_burn_in(ui: UI, tmp_path: Path) -> None:
    session = _session(tmp_path / "t.db")
    night = Night(time(22, 0), time(6, 0), 0.5)
    app = _sign(ui, tmp_path / "t.db", SignCare(burn_in_shift=True, idle_minutes=0,
                                                night=night))
    banner = app.screen.ids.banner
    x, y = banner.to_window(banner.x + 2, banner.center_y)

    def edge() -> tuple[int, int, int]:
        return ui.frame().pixel(x, y)  # the banner's frame line, gold

    app.frame.shift(0, 0)
    app._care(datetime(2026, 11, 25, 12, 0).astimezone())  # noon: full brightness
    app.frame.shift(0, 0)
    ui.pump(0.1)
    day = edge()
    app._care(datetime(2026, 11, 25, 23, 0).astimezone())  # 23:00: half
    app.frame.shift(0, 0)
    ui.pump(0.1)
    dark = edge()
    assert app.frame.brightness == 0.5
    assert all(abs(d * 0.5 - n) <= 6 for d, n in zip(day, dark, strict=True)), (day, dark)
    app._care(datetime(2026, 11, 25, 12, 0).astimezone())
    app.frame.shift(4, 0)  # the picture four pixels to the right
    ui.pump(0.1)
    frame = ui.frame()
    assert frame.pixel(x + 4, y) == day and frame.pixel(x, y) != day
    session.journal.close()


@pytest.mark.parametrize(("line", "words"), [
    ('night = "10pm"', "not night hours like"),
    ("night_brightness = 5", r"night_brightness: 20 to 100 percent: how bright the sign is at "
                             r"night \(5 given\)"),
    ("idle_minutes = -1", r"idle_minutes: 0 to 1440 minutes with no round before the idle "
                          r"screen \(0: never\) \(-1 given\)"),
])
def test_the_houses_floor_care_settings_are_checked(line: str, words: str) -> None:
    key = line.split(" =")[0]
    text = "\n".join(line if row.startswith(key + " ") else row
                     for row in example("punto-banco").splitlines())
    with pytest.raises(ConfigError, match=words):
        parse(text)
    ok = parse(example("punto-banco").replace('night = "none"', 'night = "22:00-06:00"'))
    assert ok.display.care.night == Night(time(22), time(6), 0.6)
    assert theme.GOLD  # (the theme the sign draws with)
