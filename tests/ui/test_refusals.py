"""Every refusal in words (issue 14): a greyed-out control, tapped, says why in the rule's
words, as a refused action does. Drawn for real, tapped with synthetic touches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.money import ChipRule
from kiosk.rules.roulette import engine as rl
from kiosk.store.journal import Journal
from kiosk.table.session import TableSession
from kiosk.ui.dealer.base import refusal
from tests.ui.conftest import UI, start_app


def _tap_disabled(ui: UI, widget: Any) -> None:
    """A finger on a greyed-out control (the conftest's tap refuses disabled widgets)."""
    from kivy.tests.common import UnitTestTouch

    assert widget.disabled, f"{widget.text!r} is not greyed out"
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    ui.pump(frames=1)
    touch.touch_up()
    ui.pump(0.1)


def test_a_chip_over_the_maximum_says_so(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    rules = pb.PuntoBancoRules(chips=ChipRule(500), limits=(
        pb.Limit(pb.BetKind.BANKER, 500, 2_500), pb.Limit(pb.BetKind.PLAYER, 500, 2_500),
        pb.Limit(pb.BetKind.TIE, 500, 2_500)))
    session = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "t.db", "PB-01"), rules,
                           "PB-01")
    session.perform(pb.shuffle)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto banco 1"))
    dealer = app.screen
    rows = session.journal.count()
    # Commission with none owed (rule 5.7): the engine's sentence.
    _tap_disabled(ui, dealer.ids.collect)
    assert dealer.alert_shown
    assert dealer.alert_text == refusal(pb.verify_collect_commission, session.state, "1")
    dealer.dismiss_alert()
    # R50 on a R25 maximum (rule 2.2): the chip is grey, and says why when tapped.
    chip = next(c for c in dealer.ids.chips.children if int(c.value) == 5_000)
    _tap_disabled(ui, chip)
    want = refusal(pb.verify_place_bet, session.state, "1", pb.BetKind.BANKER, 5_000)
    assert want and "R25" in want and "2.2" in want
    assert dealer.alert_text == want
    ui.screenshot("refusal-chip-over-maximum-800x480")
    assert session.journal.count() == rows  # a refusal writes nothing
    session.journal.close()


def test_a_blackjack_decision_not_allowed_now_says_why(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    session = TableSession(bj.Blackjack(), Journal.open(tmp_path / "t.db", "BJ-01"),
                           BlackjackRules(chips=ChipRule(500)), "BJ-01")
    app = start_app(ui, BlackjackDealerApp(session, table_name="Blackjack 1"))
    dealer = app.screen
    # Before the shuffle and cut (rules 4.1-4.5, shuffle and cut) the round cannot close.
    _tap_disabled(ui, dealer.ids.primary)
    want = refusal(bj.verify_close_betting, session.state)
    assert want and dealer.alert_text == want
    dealer.dismiss_alert()
    _tap_disabled(ui, dealer.ids.void)
    assert dealer.alert_text == refusal(bj.verify_void, session.state, "a reason",
                                        "an inspector")
    session.journal.close()


def test_roulette_controls_not_allowed_now_say_why(ui: UI, tmp_path: Path) -> None:
    from kiosk.config import parse
    from kiosk.ui.games.roulette import dealer_app

    session = TableSession(rl.Roulette(), Journal.open(tmp_path / "t.db", "RL-01"),
                           rl.RouletteRules(chips=ChipRule(500)), "RL-01")
    cfg = parse('[table]\nid = "RL-01"\nname = "Roulette 1"\ngame = "roulette"\n'
                'journal = "x.db"\n[chips]\nsmallest = 5\n')
    app = start_app(ui, dealer_app(session, cfg, None, lambda: None))
    dealer = app.screen
    for button, verify in ((dealer.confirm_button, rl.verify_confirm_payouts),
                           (dealer.no_spin_button, rl.verify_no_spin)):
        _tap_disabled(ui, button)
        want = refusal(verify, session.state)
        assert want and dealer.alert_text.startswith(want), (want, dealer.alert_text)
        dealer.dismiss_alert()
    _tap_disabled(ui, dealer.cash_button)  # no colour chosen yet
    assert "colour" in dealer.alert_text
    session.journal.close()
