"""The alert banner with the longest alerts a table really raises (a port that cannot be
opened, a link that lost messages, cards held, a card the shoe cannot hold), and
blackjack's queried-card row, at every dealer size and in af/pt/zu at 800x480:
nothing cut off, overlapping or off the screen, no text under 1.75 mm. The alerts come
through the session's own paths where it has one (a device's event), so their words are
the ones a dealer sees."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hardware import events as ev
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import Severity, TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.test_layout_dealers import SIZES_AND_LANGUAGES, _case, laid_out, language
from tests.ui.test_layout_signs import LONGEST_NAME, TEN_MILLION

__all__ = ["language"]  # the fixture, used by name

DENIED = "/dev/tableside-shoe: permission denied (the kiosk user needs the dialout group)"
"""hardware.ports' longest words for a port that will not open, on the shoe's udev name."""


def _alerts(session: Any, screen: Any, ui: UI, name: str, shoe: str = "SHOE"
            ) -> list[str]:
    """Raise each long alert in turn, check the screen with it; the banners' texts."""
    seen = []
    raisers = [
        lambda: session.on_device_event(ev.DeviceOffline(device=shoe, silent_seconds=0.0,
                                                         reason=DENIED)),
        lambda: session.on_device_event(ev.FramesLost(device=shoe, seq=None,
                                                      expected_seq=123456, got_seq=123468,
                                                      missing=12)),
        # As the session words it when a shoe's cards must wait (table/session.py).
        lambda: session.alert(Severity.WARNING, "3 cards held, dealt in order once the "
                              "screen's step is done: QS, QH, QD"),
    ]
    for i, raise_it in enumerate(raisers):
        screen.dismiss_alert()
        raise_it()
        screen.show_alerts()
        ui.pump(0.1)
        assert screen.alert_shown
        seen.append(screen.alert_text)
        ui.screenshot(f"{name}-{i}")
        laid_out(ui, screen, ui.size, frame=ui.shot)
    return seen


def _bj_queried(path: Path) -> Any:
    """Seven boxes at the largest bets; the four queens of diamonds of a four-deck shoe on
    boxes 1 to 4, then the shoe reads a fifth: the card is queried (rule 4.5)."""
    rules = BlackjackRules(chips=ChipRule(500), minimum=100_000, maximum=TEN_MILLION,
                           decks=4)
    session = TableSession(bj.Blackjack(), Journal.open(path, "BJ-01"), rules, "BJ-01")
    session.perform(bj.shuffle)
    session.perform(lambda s: bj.cut_cards(s, 1, 104, 52))
    session.perform(lambda s: bj.shoe_card(s, Card.parse("2C")))  # the burn
    for b in range(1, 8):
        for player in "ABCD":
            session.perform(lambda s, b=b, p=player: bj.place_bet(s, b, TEN_MILLION, p))
    session.perform(bj.close_betting)
    for code in ["QD", "QD", "QD", "QD", "TS", "TH", "TC", "6D"]:
        session.perform(lambda s, c=code: bj.shoe_card(s, Card.parse(c)))
    return session


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_blackjacks_alerts_and_queried_card_fit(ui: UI, tmp_path: Path,
                                                size: tuple[int, int], language: str) -> None:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    session = _bj_queried(tmp_path / "t.db")
    app = start_app(ui, BlackjackDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    screen = app.screen
    session.on_device_event(ev.CardRead(device="SHOE", seq=None, card=Card.parse("QD")))
    screen.show_alerts()
    ui.pump(0.2)
    assert session.state.pending is not None
    assert "4-deck shoe" in screen.query_text  # "all 4 have already come out of ..."
    assert screen.alert_shown
    ui.screenshot(f"layout-alert-blackjack-query-{_case((size, language))}")
    laid_out(ui, screen, size, frame=ui.shot)
    texts = _alerts(session, screen, ui, f"layout-alert-blackjack-{_case((size, language))}")
    assert "no such device" not in texts[0] and "dialout group" in texts[0]
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_punto_bancos_alerts_fit(ui: UI, tmp_path: Path, size: tuple[int, int],
                                 language: str) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp
    from tests.ui.test_layout_dealer_states import _pb

    session = _pb(tmp_path / "t.db")
    app = start_app(ui, PuntoBancoDealerApp(session, table_name=LONGEST_NAME))
    ui.resize_window(*size)
    _alerts(session, app.screen, ui, f"layout-alert-punto-banco-{_case((size, language))}")
    session.journal.close()


@pytest.mark.parametrize(("size", "language"), SIZES_AND_LANGUAGES, indirect=["language"],
                         ids=[_case(c) for c in SIZES_AND_LANGUAGES])
def test_roulettes_alerts_fit(ui: UI, tmp_path: Path, size: tuple[int, int],
                              language: str) -> None:
    from kiosk.config import parse
    from kiosk.ui.games.roulette import dealer_app
    from tests.ui.test_layout_dealers import _rl_betting

    session = _rl_betting(tmp_path / "t.db")
    cfg = parse(f'[table]\nid = "RL-01"\nname = "{LONGEST_NAME}"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n[devices.wheel]\nport = "simulated"\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    ui.resize_window(*size)
    screen = app.screen
    screen.dismiss_alert()
    session.on_device_event(ev.DeviceOffline(device="WHEEL", silent_seconds=0.0,
                                             reason=DENIED.replace("shoe", "wheel")))
    screen.show_alerts()
    ui.pump(0.1)
    assert "Spin by hand" in screen.alert_text or language != "en"
    ui.screenshot(f"layout-alert-roulette-wheel-{_case((size, language))}")
    laid_out(ui, screen, size, frame=ui.shot)
    session.journal.close()
