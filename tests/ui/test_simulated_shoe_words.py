"""A table on the shoe simulator says so where people look: SIMULATED SHOE on the dealer's
screen beside the shoe's count, and on the players' sign, in every language shown. Before, a
table whose file named no shoe dealt from the simulator and nothing on either screen said so.
Drawn for real; checked by text and pixels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk import i18n
from kiosk.config import parse
from kiosk.rules.baccarat import engine as pb
from kiosk.ui import theme
from tests.pit.test_pit_config import _session, _table_toml
from tests.ui.conftest import UI, start_app
from tests.ui.test_signage_screen import share


def _dealer(ui: UI, tmp_path: Path, simulated: bool) -> Any:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    session = _session(parse(_table_toml(tmp_path)))
    if simulated:
        session.simulated.add("shoe")
    session.perform(pb.shuffle)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto Banco 1"))
    ui.pump(0.2)
    return app.screen, session


def test_the_dealer_screen_says_simulated_shoe(ui: UI, tmp_path: Path) -> None:
    dealer, session = _dealer(ui, tmp_path, simulated=True)
    assert dealer.shoe_status == "SIMULATED SHOE · 416 cards in the shoe"
    assert dealer.ids.shoe_status.text == dealer.shoe_status
    label = dealer.ids.shoe_status
    assert label.texture_size[0] <= label.width + 1  # whole, not cut off
    ui.screenshot("dealer-simulated-shoe")
    try:
        i18n.use("af")
        dealer.refresh()
        assert dealer.shoe_status.startswith("GESIMULEERDE SKOEN · ")
    finally:
        i18n.use("en")
        session.journal.close()


def test_a_real_shoe_is_not_called_simulated(ui: UI, tmp_path: Path) -> None:
    dealer, session = _dealer(ui, tmp_path, simulated=False)
    assert dealer.shoe_status == "416 cards in the shoe"
    session.journal.close()


def test_the_sign_says_simulated_shoe(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.signage.app import SignageApp

    cfg = parse(_table_toml(tmp_path))
    session = _session(cfg)
    app = start_app(ui, SignageApp(cfg.journal, "Punto banco 1", simulated=True))
    ui.resize(1280, 800)
    ui.pump(0.2)
    frame = app.frame
    assert frame.notice.text == "SIMULATED SHOE"
    assert frame.strip.height > 0 and frame.strip.opacity == 1
    assert share(ui.frame(), frame.notice, theme.GOLD, step=1) > 0.02  # drawn, in gold
    ui.screenshot("signage-simulated-shoe-1280x800")
    session.journal.close()


def test_the_sign_reads_it_from_the_tables_file(tmp_path: Path) -> None:
    """The SD image's sign runs with --config: its [devices.shoe] port says it."""
    from click.testing import CliRunner

    from kiosk.ui.signage import app as signage

    seen: dict[str, Any] = {}

    def run(*args: Any, **kwargs: Any) -> int:
        seen.update(kwargs)
        return 0

    toml = tmp_path / "table.toml"
    for port, simulated in (("simulated", True), ("/dev/ttyUSB0", False)):
        toml.write_text(_table_toml(tmp_path).replace(
            '[devices.shoe]\nport = "simulated"', f'[devices.shoe]\nport = "{port}"'))
        original = signage.run
        signage.run = run  # type: ignore[assignment]
        try:
            out = CliRunner().invoke(signage.signage, ["--config", str(toml)])
        finally:
            signage.run = original  # type: ignore[assignment]
        assert out.exit_code == 0, out.output
        assert seen["simulated"] is simulated


def test_a_simulated_dealing_shuffler_is_called_a_shuffler(ui: UI, tmp_path: Path) -> None:
    """Mini baccarat dealt from a simulated shuffler says SIMULATED SHUFFLER on the dealer's
    screen (in every language), and SIMULATED SHOE once the coup goes on from a dealing
    shoe (rule 12.5)."""
    from kiosk.rules.mini_baccarat import engine as mb
    from kiosk.store.journal import Journal
    from kiosk.table.session import TableSession
    from kiosk.ui.dealer.mini_baccarat_app import MiniBaccaratDealerApp
    from tests.ui.test_signage_mini_baccarat import _journal

    session: Any = _journal(tmp_path / "t.db", "continued")
    assert session.state.device is mb.Device.SHOE  # the coup went on from a dealing shoe
    session.journal.close()
    journal = Journal.open(tmp_path / "mb.db", "MB-01")
    s: Any = TableSession(mb.MiniBaccarat(), journal, mb.MiniBaccaratRules(), "MB-01")
    s.simulated.add("shoe")
    s.perform(lambda st: mb.shuffle(st, "shuffler"))
    app = start_app(ui, MiniBaccaratDealerApp(s, table_name="Mini Baccarat 1"))
    ui.pump(0.2)
    dealer = app.screen
    assert dealer.shoe_status.startswith("SIMULATED SHUFFLER · ")
    assert dealer.ids.shoe_status.text == dealer.shoe_status
    try:
        for code, words in (("af", "GESIMULEERDE SKOMMELTOESTEL · "),
                            ("pt", "BARALHADOR SIMULADO · "),
                            ("zu", "UMSHINI WOKUSHOVA WOKULINGISA · ")):
            i18n.use(code)
            dealer.refresh()
            assert dealer.shoe_status.startswith(words)
    finally:
        i18n.use("en")
        journal.close()


@pytest.mark.parametrize(("stage", "words"), [("fault", "SIMULATED SHUFFLER"),
                                             ("continued", "SIMULATED SHOE")])
def test_the_sign_of_a_simulated_shuffler_says_simulated_shuffler(
        ui: UI, tmp_path: Path, stage: str, words: str) -> None:
    """The shuffler deals (and broke down): SIMULATED SHUFFLER; the coup went on from a
    dealing shoe (rule 12.5): SIMULATED SHOE."""
    from kiosk.ui.signage.app import SignageApp
    from tests.ui.test_signage_mini_baccarat import _journal

    session = _journal(tmp_path / "t.db", stage)
    app = start_app(ui, SignageApp(tmp_path / "t.db", "Mini Baccarat 1", simulated=True))
    ui.resize(1280, 800)
    ui.pump(0.2)
    assert app.frame.notice.text == words
    session.journal.close()
