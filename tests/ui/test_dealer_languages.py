"""The dealer screens in the house's language (`[display] dealer_language`),
drawn for real: the punto banco screen in Afrikaans from the bets to the confirmed payouts,
its words from the catalogue and the rules' sentences in the approved rules' English; what
goes on record stays English whatever the screen shows; amounts in the house's money style;
and `run_kiosk` setting the language and the money style before the dealer app is built."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.i18n import MoneyStyle
from kiosk.rules.baccarat import engine as pb
from kiosk.store.journal import Journal
from kiosk.table.session import Severity, TableSession
from kiosk.ui import theme
from tests.ui.conftest import ROOT, UI, start_app
from tests.ui.test_dealer_punto_banco import RULES, chip, close, shoe, tile

Session = TableSession[pb.PuntoBancoState]
NB = i18n.NBSP


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    journal = Journal.open(tmp_path / "t.db", "PB-01")
    s: Session = TableSession(pb.PuntoBanco(), journal, RULES, "PB-01")
    s.perform(lambda st: pb.shuffle(st))
    yield s
    journal.close()


def _dealer(ui: UI, session: Session, code: str) -> Any:
    """The punto banco dealer app, built after the language is chosen (as `run_kiosk` does)."""
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    i18n.use(code)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto Banco 1"))
    return app


def touch_greyed(ui: UI, widget: Any) -> None:
    """A finger on a greyed-out control (`ui.tap` refuses a disabled one): the screen says
    why it is not allowed now."""
    from kivy.tests.common import UnitTestTouch  # type: ignore[import-untyped]

    assert widget.disabled
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    touch.touch_up()
    ui.pump(0.1)


def _panel(dealer: Any) -> list[tuple[str, str]]:
    return [(r.ids.caption.text, r.ids.amount.text)
            for r in reversed(dealer.ids.panel.ids.rows.children)]


def test_the_punto_banco_dealer_screen_in_afrikaans(ui: UI, session: Session) -> None:
    app = _dealer(ui, session, "af")
    dealer = app.screen
    assert app.title == "Tableside-kroepier: Punto Banco 1"
    # The buttons, the bets as the sign names them, the header and the shoe.
    ids = dealer.ids
    assert [ids.kind_banker.text, ids.kind_player.text, ids.kind_tie.text] == [
        "Bankier", "Speler", "Gelykop"]
    assert [ids.new_shoe.text, ids.key_card.text, ids.accept.text, ids.collect.text,
            ids.void.text, ids.undo.text] == ["Nuwe skoen", "Tik kaart in", "Aanvaar kaart",
                                              "Vorder komm.", "Spel ongeldig", "Ontdoen"]
    assert ids.primary.text == "Geen weddenskappe meer nie"  # the sign's "No more bets"
    assert dealer.inspector_text == "Roep inspekteur"
    assert dealer.header == "Punto Banco 1   ·   Spel 1"
    assert dealer.shoe_status == "416 kaarte in die skoen"
    assert tile(dealer, "1").title == "Area 1"
    assert _panel(dealer) == [] and ids.panel.empty_text == (
        "Nog geen weddenskap nie: kies die weddenskap en die skyfies")
    # The step banner: the rules' sentence in the dealer's language (the record's English
    # stays the session's).
    assert dealer.step == "Plaas u weddenskappe" and session.next_step() == "Place your bets"
    # A greyed control tapped: the screen's own reason, in Afrikaans.
    touch_greyed(ui, ids.accept)
    assert dealer.alert_text == "Geen betwyfelde kaart wag vir die inspekteur nie"
    ui.tap(ids.alert_ok)
    # Bets: area 3 banker R55, area 5 player R50; the tiles say them with the bead plate's
    # letters (B for Bankier, S for Speler).
    ui.tap(tile(dealer, "3"))
    ui.tap(ids.kind_banker)
    for value in (2500, 2500, 500):
        ui.tap(chip(dealer, value))
    ui.tap(tile(dealer, "5"))
    ui.tap(ids.kind_player)
    ui.tap(chip(dealer, 2500))
    ui.tap(chip(dealer, 2500))
    assert tile(dealer, "3").detail == "B R55" and tile(dealer, "5").detail == "S R50"
    assert _panel(dealer) == [("Speler-weddenskap", "R50")]
    ui.screenshot("dealer-betting-af-800x480")

    ui.tap(ids.primary)  # no more bets (rule 5.6)
    assert session.state.phase is pb.Phase.DEALING
    assert ids.primary.text == "Deel uit…"
    assert (ids.player.hand, ids.banker.hand) == ("SPELER", "BANKIER")
    for code in ("2S", "4H", "3D", "3C", "4S"):  # player 9 beats banker 7 (rule 5.2)
        shoe(session, code)
    ui.pump(frames=2)
    assert session.state.phase is pb.Phase.PAYING
    assert dealer.step == "Spel klaar: Speler wen 9 teen 7. Betaal en bevestig"
    assert session.next_step() == "Coup complete: Player wins 9 to 7. Pay and confirm"
    assert tile(dealer, "3").detail == "B neem" and tile(dealer, "5").detail == "S betaal"
    assert _panel(dealer) == [("Bankier R55 verloor", "NEEM R55")]
    ui.tap(tile(dealer, "5"))
    assert _panel(dealer) == [("Speler R50 wen 1:1", "BETAAL R50")]
    assert ids.primary.text == "Bevestig uitbetalings"
    frame = ui.frame()
    # The big button turns gold to confirm the payouts, whatever its words.
    primary = ids.primary
    x, y = primary.to_window(primary.x + 6, primary.y + 6)
    assert close(frame.pixel(x, y), theme.GOLD)
    ui.screenshot("dealer-paying-af-800x480")
    ui.tap(ids.primary)
    assert session.state.last_settled is not None
    assert ids.primary.text == "Geen weddenskappe meer nie"


def test_a_void_reason_is_shown_in_afrikaans_and_journaled_in_english(
        ui: UI, session: Session) -> None:
    from kiosk.ui.dealer.choices import ReasonPicker

    dealer = _dealer(ui, session, "af").screen
    session.perform(lambda s: pb.place_bet(s, "1", pb.BetKind.BANKER, 5000))
    session.perform(pb.close_betting)
    ui.pump(frames=2)
    ui.tap(dealer.ids.void)
    picker = next(w for w in ui.window.children if isinstance(w, ReasonPicker))
    assert picker.title == "Verklaar hierdie spel ongeldig: elke weddenskap gaan terug"
    reasons = {b.text: b for b in picker.ids.reasons.children}
    assert set(reasons) == {"Wangedeel: kaarte uit volgorde", "Kaart blootgestel of laat val",
                            "Fout in skoen of kaartleser", "Inspekteur se besluit"}
    assert picker.ids.cancel.text == "Kanselleer"
    ui.tap(reasons["Kaart blootgestel of laat val"])
    last = list(session.journal.entries())[-1]
    assert last.payload["reason"] == "Card exposed or dropped"  # the record's language


def test_the_screens_alerts_are_shown_in_the_dealers_language_and_logged_in_english(
        ui: UI, session: Session, caplog: pytest.LogCaptureFixture) -> None:
    dealer = _dealer(ui, session, "zu").screen
    # As the screens raise their own alerts: English, their words marked N_() where raised.
    session.alert(Severity.WARNING, "Choose the player's colour first", "Call a technician")
    ui.pump(frames=2)
    assert dealer.alert_text == "Qala ukhethe umbala womdlali. Biza uchwepheshe"
    assert "Choose the player's colour first -> Call a technician" in caplog.text


def test_the_dealer_screens_amounts_in_the_houses_money_style(ui: UI,
                                                              session: Session) -> None:
    from kiosk.ui.dealer.payout_words import tile_money

    i18n.set_money_style(MoneyStyle.SPACES)  # "R 1 000 000", as the house's signs write it
    dealer = _dealer(ui, session, "af").screen
    for amount in (1_000_000, 250_000):
        session.perform(lambda s, a=amount: pb.place_bet(s, "2", pb.BetKind.BANKER, a))
    session.perform(lambda s: pb.place_bet(s, "2", pb.BetKind.TIE, 2_500))
    ui.tap(tile(dealer, "2"))
    assert _panel(dealer) == [("Bankier-weddenskap", f"R{NB}12{NB}500"),
                              ("Gelykop-weddenskap", f"R{NB}25")]
    assert tile(dealer, "2").detail == f"B R{NB}12{NB}500\nG R{NB}25"
    assert [c.text for c in dealer.ids.chips.children[::-1]] == ["5", "10", "25", "50", "100"]
    # A tile shortens large amounts as chips are marked, the decimal mark as the house's.
    assert (tile_money(150_000_000, "R"), tile_money(25_050_000, "R")) == ("R1,5m", "R250,5k")
    i18n.set_money_style(MoneyStyle.COMMAS)
    assert (tile_money(150_000_000, "R"), tile_money(25_050_000, "R")) == ("R1.5m", "R250.5k")


def test_the_roulette_summary_counts_no_paid_colour_when_nothing_wins(ui: UI,
                                                                      tmp_path: Path) -> None:
    """Found translating it: "No winning bets" was counted as a paid colour."""
    from kiosk.config import parse
    from kiosk.rules.roulette import engine as rl
    from kiosk.rules.roulette.bets import BetKind
    from kiosk.ui.games.roulette import dealer_app

    s = TableSession(rl.Roulette(), Journal.open(tmp_path / "r.db", "RL-01"),
                     rl.RouletteRules(), "RL-01")
    s.perform(lambda st: rl.chip_change(st, "pink", 20, 500))
    s.perform(lambda st: rl.place_bet(st, "pink", BetKind.STRAIGHT, 1, ("5",)))
    s.perform(lambda st: rl.spin_ball(st, rl.Direction.CLOCKWISE))
    s.perform(rl.close_betting)
    s.perform(lambda st: rl.call_number(st, "32"))
    cfg = parse('[table]\nid = "RL-01"\nname = "Roulette 1"\ngame = "roulette"\n'
                'journal = "x.db"\n[devices.wheel]\nport = "simulated"\n')
    i18n.use("af")
    app = start_app(ui, dealer_app(s, cfg, None, lambda: None))
    ui.pump(0.3)
    screen = app.screen
    assert screen.payout_text.splitlines()[1] == "Geen wenweddenskappe nie"
    assert screen.text_label.text.splitlines()[:2] == [
        "32 rooi: die merker staan daarop", "0 betaal · 1 skyfies af · tik 'n kleur"]
    s.journal.close()


def test_the_self_test_screen_in_isizulu_records_english(ui: UI, tmp_path: Path) -> None:
    from kiosk.config import example, parse
    from kiosk.table.records import SelfTestResult
    from kiosk.ui.selftest_screen import SelfTestScreen

    cfg = parse(example("punto-banco").replace('journal = "data/PB-01.db"', 'journal = "j.db"'),
                tmp_path / "table.toml")
    finished: list[list[SelfTestResult]] = []
    i18n.use("zu")
    screen = SelfTestScreen(cfg, check=lambda: [SelfTestResult("free disk", True, "3,000 MB")],
                            on_done=finished.append)
    ui.window.add_widget(screen)
    ui.resize(800, 480)
    ui.pump(0.3)
    assert screen.lines.text.startswith("Ukuhlola okungu-1 kuphumelele, okungu-0 kwehlulekile")
    assert "ok    free disk: 3,000 MB" in screen.lines.text  # the check's words: English
    assert [t.text for t in screen.targets][:2] == ["Thepha: phansi kwesokunxele",
                                                    "Thepha: phezulu kwesokunxele"]
    assert (screen.yes.text, screen.no.text, screen.finish.text) == ("Yebo", "Cha", "Qeda")
    ui.tap(screen.targets[0])
    assert screen.targets[0].text == "phansi kwesokunxele: kuzwakele"
    ui.tap(screen.yes)
    ui.tap(screen.finish)
    results = {r.check: r.detail for r in finished[0]}
    assert results["touch"] == "not felt: top left, middle, top right, bottom right"
    ui.window.remove_widget(screen)


@pytest.mark.slow
def test_run_kiosk_sets_the_dealers_language_and_money_style_before_the_app(
        tmp_path: Path) -> None:
    """`tableside run` and the demo start the dealer app through `run_kiosk`: with
    `dealer_language = "af"` the dealer app is built in Afrikaans, amounts as the house
    writes them, and the headless coup is played by touch as in English."""
    from kiosk.config import example

    config = tmp_path / "table.toml"
    text = example("punto-banco").replace('journal = "data/PB-01.db"', 'journal = "j.db"')
    text = text.replace('dealer_language = "en"', 'dealer_language = "af"', 1)
    config.write_text(text.replace('money_style = "R1,000,000"', 'money_style = "R 1 000 000"',
                                   1))
    driver = f"""
import asyncio
from pathlib import Path
from kiosk import i18n
from kiosk.config import load
from kiosk.ui.dealer import punto_banco_app as m
from kiosk.ui.launcher import KioskOptions, run_kiosk

seen = []
build = m.PuntoBancoDealerApp.build
def watched(self):
    screen = build(self)
    seen.append((self.title, screen.ids.undo.text, screen.primary_text))
    return screen
m.PuntoBancoDealerApp.build = watched
opts = KioskOptions(headless=True, out=Path({str(tmp_path / "shots")!r}), signage=False,
                    pace=0.05)
status = asyncio.run(run_kiosk(load({str(config)!r}), opts))
print("STATUS", status)
print("SEEN", seen)
print("NOW", i18n.current(), i18n.money_style().value)
print("REPORT", opts.report)
"""
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", GPIOZERO_PIN_FACTORY="mock")
    proc = subprocess.run([sys.executable, "-c", driver], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "STATUS 0" in out, out + proc.stderr[-3000:]
    assert ("SEEN [('Tableside-kroepier: Punto Banco 1', 'Ontdoen', "
            "'Geen weddenskappe meer nie')]") in out, out
    assert "NOW af R 1 000 000" in out
    assert "coup settled" in out
