"""What the pit means on the table's screens (issue 13): the sign tells players the table's
configuration changed, and a corner of the sign and the dealer's header tell a technician how
the sync stands. Drawn for real; checked by text and pixels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.config import parse
from kiosk.rules.baccarat import engine as pb
from kiosk.sync import state as sync_state
from kiosk.sync.offers import PitConfigs
from kiosk.sync.pit_config import SignedConfig, public_key_hex, write_offer
from kiosk.ui import theme
from tests.pit.test_pit_config import LIMITS_V1, _session, _table_toml
from tests.ui.conftest import UI, start_app
from tests.ui.test_signage_screen import share


def _table_with_pit_limits(tmp_path: Path) -> Any:
    key = Ed25519PrivateKey.generate()
    cfg = parse(_table_toml(tmp_path, "http://pit.invalid", public_key_hex(key)))
    session = _session(cfg)
    session.perform(pb.shuffle)
    doc = SignedConfig("T1", 1, LIMITS_V1, "2026-11-25T10:00:00.000Z", "Thandi").signed(key)
    write_offer(cfg.journal, doc)
    PitConfigs(session, cfg).poll()
    assert session.state.rules.limit(pb.BetKind.BANKER).maximum == 2_000_000
    return cfg, session


def _fits(label: Any) -> bool:
    return bool(label.texture_size[0] <= label.width + 1)


def test_the_sign_says_the_limits_changed_and_how_the_sync_stands(ui: UI,
                                                                   tmp_path: Path) -> None:
    from kiosk.ui.signage.app import SignageApp

    cfg, session = _table_with_pit_limits(tmp_path)
    # The sync has not reached the pit: its state beside the journal says so.
    sync_state.save(sync_state.state_path(cfg.journal),
                    sync_state.SyncState(pit="http://pit.invalid", last_error="refused"))
    app = start_app(ui, SignageApp(cfg.journal, "Punto banco 1"))
    ui.resize(1280, 800)
    ui.pump(0.2)
    frame = app.frame
    assert frame.notice.text == "New table configuration: limits R100 to R20,000"
    rows = session.journal.count()
    assert frame.sync.text == f"Pit offline: {rows} rows waiting"
    assert frame.strip.height >= 0.045 * 800 - 1 and frame.strip.opacity == 1
    assert _fits(frame.notice) and _fits(frame.sync)
    # The limits on the sign are the new ones (rule 2.2).
    plaques = {p.name: p for p in app.screen.ids.plaques.children}
    assert plaques["Banker"].ids.max_row.ids.amount.text == "R20,000"
    pixels = ui.frame()
    assert share(pixels, frame.notice, theme.GOLD, step=1) > 0.02  # drawn, in gold
    assert app.screen.y >= frame.strip.top - 1  # the strip takes room, it covers nothing
    ui.screenshot("signage-pit-notice-1280x800")
    session.journal.close()


def test_a_sign_with_no_pit_keeps_its_whole_screen(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.signage.app import SignageApp

    cfg = parse(_table_toml(tmp_path))
    session = _session(cfg)
    app = start_app(ui, SignageApp(cfg.journal, "Punto banco 1"))
    ui.resize(800, 480)
    ui.pump(0.1)
    assert app.frame.strip.height == 0 and app.frame.notice.text == ""
    assert tuple(app.screen.size) == (800, 480)
    session.journal.close()


def test_the_dealers_header_shows_the_sync(ui: UI, tmp_path: Path) -> None:
    from kiosk.ui.dealer.punto_banco_app import PuntoBancoDealerApp

    cfg, session = _table_with_pit_limits(tmp_path)
    app = start_app(ui, PuntoBancoDealerApp(session, table_name="Punto banco 1"))
    screen = app.screen
    screen.sync_status, screen.sync_late = "Pit offline: 12 rows waiting (3 min)", True
    ui.pump(0.1)
    status = screen.ids.shoe_status
    assert status.text.endswith("Pit offline: 12 rows waiting (3 min)")
    assert tuple(status.color) == tuple(theme.WARNING_TEXT)  # amber words on the felt, 5.1:1
    assert _fits(status)
    ui.screenshot("dealer-pit-sync-800x480")
    session.journal.close()
