"""The rules' refusals on the dealer screens in the dealer's language (`[display]
dealer_language`; docs/dealer-screen.md, "Languages"), drawn for real: a bet over the table
maximum and a greyed-out control tapped, on the punto banco and blackjack screens in
Afrikaans, show the refusal in Afrikaans; the table's alert and the log keep the English,
and nothing is journaled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.money import ChipRule
from kiosk.store.journal import Journal
from kiosk.table.session import Severity, TableSession
from tests.ui.conftest import UI, start_app
from tests.ui.test_dealer_languages import touch_greyed


def _last_alert(session: TableSession[Any]) -> tuple[Severity, str]:
    alert = session.alerts[-1]
    return alert.severity, alert.message


def test_punto_banco_refusals_in_afrikaans_recorded_in_english(
        ui: UI, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    rules = pb.PuntoBancoRules(chips=ChipRule(500), limits=(
        pb.Limit(pb.BetKind.BANKER, 500, 2_500), pb.Limit(pb.BetKind.PLAYER, 500, 2_500),
        pb.Limit(pb.BetKind.TIE, 500, 2_500)))
    session = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "t.db", "PB-01"), rules,
                           "PB-01")
    session.perform(pb.shuffle)
    i18n.use("af")
    dealer = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto Banco 1")).screen
    rows = session.journal.count()

    # A bet over the maximum, refused as the screen sends it (the session's `attempt`).
    assert dealer.act(lambda s: pb.place_bet(s, "1", pb.BetKind.BANKER, 5_000)) is None
    ui.pump(frames=2)
    english = ("Area 1: banker bet of R50 is over the table maximum of R25; at most R25 more "
               "(rule 2.2)")
    assert _last_alert(session) == (Severity.WARNING, english)
    assert caplog.messages[-1] == f"warning: {english}"
    assert dealer.alert_text == ("Area 1: Bankier-weddenskap van R50 is bo die tafelmaksimum "
                                 "van R25; hoogstens R25 meer (reël 2.2)")
    ui.screenshot("refusal-over-maximum-af-800x480")
    ui.tap(dealer.ids.alert_ok)

    # The R50 chip, greyed over the R25 maximum, tapped: the same refusal, in Afrikaans.
    chip = next(c for c in dealer.ids.chips.children if int(c.value) == 5_000)
    touch_greyed(ui, chip)
    assert _last_alert(session) == (Severity.WARNING, english)
    assert dealer.alert_text.startswith("Area 1: Bankier-weddenskap van R50 is bo")
    ui.tap(dealer.ids.alert_ok)

    # Collect, greyed with no commission owed: the rules' sentence in Afrikaans.
    touch_greyed(ui, dealer.ids.collect)
    assert _last_alert(session) == (Severity.WARNING, "Area 1 owes no commission")
    assert caplog.messages[-1] == "warning: Area 1 owes no commission"
    assert dealer.alert_text == "Area 1 skuld geen kommissie nie"
    ui.tap(dealer.ids.alert_ok)

    # After no more bets a greyed chip says bets are closed (rule 5.6).
    session.perform(lambda s: pb.place_bet(s, "1", pb.BetKind.BANKER, 2_500))
    ui.tap(dealer.ids.primary)
    assert session.state.phase is pb.Phase.DEALING
    touch_greyed(ui, next(c for c in dealer.ids.chips.children if int(c.value) == 500))
    assert _last_alert(session)[1] == ("No more bets has been called: bets are closed for "
                                       "this coup (rule 5.6)")
    assert dealer.alert_text == ("Geen weddenskappe meer nie is geroep: weddenskappe is "
                                 "gesluit vir hierdie spel (reël 5.6)")
    # Only the bet and "no more bets" went on record; the journal is English throughout.
    assert session.journal.count() == rows + 2
    assert "weddenskap" not in repr([e.payload for e in session.journal.entries()])
    session.journal.close()


def test_blackjack_refusals_in_afrikaans_recorded_in_english(
        ui: UI, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from kiosk.ui.dealer.blackjack_app import BlackjackDealerApp

    rules = BlackjackRules(chips=ChipRule(500), minimum=500, maximum=2_500)
    session = TableSession(bj.Blackjack(), Journal.open(tmp_path / "t.db", "BJ-01"), rules,
                           "BJ-01")
    i18n.use("af")
    dealer = start_app(ui, BlackjackDealerApp(session, table_name="Blackjack 1")).screen
    rows = session.journal.count()

    # A bet over the maximum on box 2, refused as the screen sends it.
    assert dealer.act(lambda s: bj.place_bet(s, 2, 5_000)) is None
    ui.pump(frames=2)
    english = "Box 2: R50 is over the table maximum of R25 (rule 2.2)"
    assert _last_alert(session) == (Severity.WARNING, english)
    assert caplog.messages[-1] == f"warning: {english}"
    assert dealer.alert_text == "Vak 2: R50 is bo die tafelmaksimum van R25 (reël 2.2)"
    ui.screenshot("refusal-blackjack-over-maximum-af-800x480")
    dealer.dismiss_alert()

    # Void, greyed with no round in play: the rules' sentence in Afrikaans.
    touch_greyed(ui, dealer.ids.void)
    assert _last_alert(session) == (Severity.WARNING, "There is no round in play to void")
    assert dealer.alert_text == "Daar is geen rondte aan die gang om ongeldig te verklaar nie"
    dealer.dismiss_alert()

    # The R50 chip, greyed on box 1 over the R25 maximum, tapped.
    ui.tap(dealer.tile(1))
    chip = next(c for c in dealer.ids.chips.children if int(c.value) == 5_000)
    touch_greyed(ui, chip)
    assert _last_alert(session)[1] == "Box 1: R50 is over the table maximum of R25 (rule 2.2)"
    assert dealer.alert_text == "Vak 1: R50 is bo die tafelmaksimum van R25 (reël 2.2)"
    assert session.journal.count() == rows  # a refusal writes nothing
    session.journal.close()


def test_punto_banco_step_detail_under_the_minimum_in_afrikaans(ui: UI, tmp_path: Path) -> None:
    """The line under the step banner says why "no more bets" is not possible yet."""
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "t.db", "PB-01"),
                           pb.PuntoBancoRules(chips=ChipRule(500)), "PB-01")
    session.perform(pb.shuffle)
    i18n.use("af")
    dealer = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto Banco 1")).screen
    session.perform(lambda s: pb.place_bet(s, "1", pb.BetKind.BANKER, 2_500))
    ui.pump(frames=2)
    assert not dealer.primary_enabled
    assert dealer.step_detail == ("Kan nie weddenskappe sluit nie: area 1 Bankier R25 is onder "
                                  "die minimum van R50 (reël 2.2)")
    touch_greyed(ui, dealer.ids.primary)
    assert _last_alert(session)[1] == ("Cannot close bets: area 1 banker R25 is under the R50 "
                                       "minimum (rule 2.2)")
    assert dealer.alert_text == dealer.step_detail
    ui.screenshot("refusal-under-minimum-af-800x480")
    session.journal.close()


def test_a_refusal_the_rules_word_only_in_english_stays_english(
        ui: UI, tmp_path: Path) -> None:
    """Not every refusal has a template yet: those are drawn in English, as before."""
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "t.db", "PB-01"),
                           pb.PuntoBancoRules(chips=ChipRule(500)), "PB-01")
    session.perform(pb.shuffle)
    i18n.use("af")
    dealer = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto Banco 1")).screen
    dealer.act(lambda s: pb.place_bet(s, "9", pb.BetKind.BANKER, 5_000))  # no area 9
    ui.pump(frames=2)
    assert dealer.alert_text == _last_alert(session)[1]
    assert dealer.alert_text.startswith("There is no betting area '9' on this table")
    session.journal.close()


def test_the_tables_own_alerts_in_afrikaans_recorded_in_english(ui: UI, tmp_path: Path
                                                                 ) -> None:
    """A shoe that cannot be reached, falls silent, comes back, and a card held: the
    alerts the table raises itself (kiosk/table) in the dealer's language, the way forward
    too; the alert, the log and the journal's device reports keep the English."""
    from hardware.events import CardRead, DeviceOffline, DeviceOnline
    from kiosk.rules.cards import Card
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    rules = pb.PuntoBancoRules(chips=ChipRule(500))
    session = TableSession(pb.PuntoBanco(), Journal.open(tmp_path / "t.db", "PB-01"), rules,
                           "PB-01")
    session.perform(pb.shuffle)
    i18n.use("af")
    dealer = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto Banco 1")).screen

    def shown() -> str:
        ui.pump(frames=2)
        assert dealer.alert_shown
        text: str = dealer.alert_text
        dealer.dismiss_alert()
        return text

    session.on_device_event(DeviceOffline(device="SHOE", silent_seconds=0.0,
                                          reason="no such device /dev/ttyUSB0"))
    assert session.alerts[-1].message == ("The card shoe cannot be reached: no such device "
                                          "/dev/ttyUSB0")
    assert session.alerts[-1].way_forward == "Key in cards by hand; call a technician"
    assert shown() == ("Die kaartskoen kan nie bereik word nie: no such device /dev/ttyUSB0. "
                       "Tik kaarte met die hand in; roep 'n tegnikus")
    session.on_device_event(DeviceOnline(device="SHOE"))
    assert shown() == "Die kaartskoen is terug"
    session.on_device_event(DeviceOffline(device="SHUF", silent_seconds=12.0))
    assert shown() == ("Die skommeltoestel antwoord nie. Tik kaarte met die hand in; kyk na "
                       "sy kabel en krag")
    # A card while no card is due (betting is open): refused, with the rule's reason; no
    # coup is in play, so the alert offers no void (only what the game allows).
    session.on_device_event(CardRead(device="SHOE", seq=1, card=Card.parse("AS")))
    alert = session.alerts[-1]
    assert (alert.message, alert.way_forward) == (
        "The shoe dealt the ace of spades but A card cannot be dealt before no more bets "
        "(rule 5.2)", "Put the card aside and call the inspector")
    # (the rules' reason inside it in Afrikaans too; the card's name stays as the record's)
    assert shown() == ("Die skoen het die ace of spades uitgedeel maar 'n Kaart kan nie "
                       "uitgedeel word voor geen weddenskappe meer nie (reël 5.2). Sit die "
                       "kaart eenkant en roep die inspekteur")
    details = [e.payload.get("detail") for e in session.journal.entries()
               if e.kind == "device_report"]
    assert "no such device /dev/ttyUSB0" in details  # the record's words are English
