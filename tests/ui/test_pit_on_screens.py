"""What the pit means on the table's screens: the sign tells players the table's
configuration changed, and a corner of the sign and the dealer's header tell a technician how
the sync stands. Drawn for real; checked by text and pixels."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.config import parse
from kiosk.rules.baccarat import engine as pb
from kiosk.store.canonical import format_wall_time
from kiosk.store.journal import Journal
from kiosk.sync import state as sync_state
from kiosk.sync.offers import PitConfigs, effective_file
from kiosk.sync.pit_config import SignedConfig, public_key_hex, write_offer
from kiosk.ui import theme
from tests.pit.test_pit_config import LIMITS_V1, _session, _table_toml
from tests.ui.conftest import ROOT, UI, start_app
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
    # The sync runs but has not reached the pit: its state beside the journal says so.
    sync_state.save(sync_state.state_path(cfg.journal),
                    sync_state.SyncState(pit="http://pit.invalid", last_error="refused",
                                         last_attempt_at=format_wall_time(datetime.now(UTC))))
    app = start_app(ui, SignageApp(cfg.journal, "Punto banco 1"))
    ui.resize(1280, 800)
    ui.pump(0.2)
    frame = app.frame
    assert frame.notice.text == "New table configuration: limits R100 to R20,000"
    rows = session.journal.count()
    assert frame.sync.text.startswith(
        f"Pit offline · nothing acknowledged yet · {rows} waiting, oldest ")
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


def test_a_sign_of_a_table_with_a_pit_says_when_its_sync_never_ran(ui: UI,
                                                                    tmp_path: Path) -> None:
    from kiosk.ui.signage.app import SignageApp

    cfg = parse(_table_toml(tmp_path, "http://pit.invalid", "00" * 32))
    session = _session(cfg)
    assert not sync_state.state_path(cfg.journal).exists()
    app = start_app(ui, SignageApp(cfg.journal, "Punto banco 1", syncs=cfg.sync.enabled))
    ui.pump(0.3)
    assert app.frame.sync.text.startswith("Sync not running · nothing acknowledged yet")
    assert tuple(app.frame.sync.color) == tuple(theme.WARNING)
    session.journal.close()


GAMES_ON_SCREEN = ("punto-banco", "blackjack", "touch-21", "roulette", "paigow",
                   "mini-baccarat")
ACKED = re.compile(r" · row 1 acknowledged (\d{4}-\d\d-\d\d )?10:02:03 UTC · ")
"""Today's time (with the date after midnight UTC)."""


def _sync_label(screen: Any) -> Any:
    """The dealer screen's line with the sync's status (along its bottom)."""
    line = screen._sync_line
    assert line is not None and line.parent is screen
    return line


def _synced(cfg: Any, *, connected: bool, acked: int, touched: datetime) -> None:
    """A sync state as the sync leaves it: `acked` rows at the pit, last written at
    `touched`."""
    journal = Journal.open(cfg.journal, cfg.table_id, read_only=True)
    row = journal.entry(acked) if acked else None
    journal.close()
    sync_state.save(sync_state.state_path(cfg.journal), sync_state.SyncState(
        pit="http://pit.invalid", connected=connected, acked_seq=acked,
        acked_hash=row.hash if row else sync_state.GENESIS,
        acked_at=f"{datetime.now(UTC):%Y-%m-%d}T10:02:03.000Z" if acked else "",
        last_attempt_at=format_wall_time(touched)))


@pytest.mark.parametrize("game", GAMES_ON_SCREEN)
def test_the_dealer_screen_and_the_sign_show_the_whole_sync_status(
        ui: UI, tmp_path: Path, game: str) -> None:
    from kiosk.sync.status import status
    from kiosk.ui.signage.app import SignageApp
    from kiosk.ui.sync_words import corner

    key = Ed25519PrivateKey.generate()
    cfg = parse(_game_toml(tmp_path, game, public_key_hex(key)), tmp_path / "table.toml")
    session = _session(cfg)
    session.call_inspector("screen")  # a second row: the one waiting
    rows = session.journal.count()
    assert rows == 2
    app = start_app(ui, _dealer_app(session, cfg))
    screen = app.screen
    assert screen._sync_line is None  # nothing to show yet: the screen's rows as they were
    rows_before = [(w, tuple(w.size)) for w in screen.children]
    start = datetime.now(UTC)
    for connected, at, touched, words, late in (
            # in touch, one row a moment behind
            (True, start, start, "Pit connected", False),
            # offline for 3 minutes, the row unsent since (the sync still writes its state)
            (False, start + timedelta(minutes=3), start + timedelta(minutes=3), "Pit offline",
             True),
            # the state file untouched for 30 minutes: the sync is not running
            (True, start + timedelta(minutes=30), start, "Sync not running", True)):
        _synced(cfg, connected=connected, acked=1, touched=touched)
        now = status(cfg.journal, now=at)
        assert now.connected == (words == "Pit connected")
        assert now.late(at) == late
        screen.sync_status, screen.sync_late = corner(now, at), now.late(at)
        ui.pump(0.1)
        label = _sync_label(screen)
        text = label.text
        assert words in text
        assert ACKED.search(text)
        assert f"{rows - 1} waiting, oldest " in text
        assert tuple(label.color) == tuple(theme.WARNING_TEXT if late else theme.MUTED)
        # Whole, at its own size (not shrunk to fit), along the bottom below everything.
        assert _fits(label) and label.font_size == pytest.approx(12 * screen.unit)
        assert label.y <= screen.y + 7 * screen.unit
        assert all(w.y >= label.top for w, _size in rows_before)
    ui.screenshot(f"dealer-sync-line-{game}-800x480")
    screen.sync_status = ""  # a table no longer syncing: the line goes
    ui.pump(0.1)
    assert screen._sync_line.parent is None
    assert [(w, tuple(w.size)) for w in screen.children] == rows_before
    _stop(ui)
    # The sign, with the table off for half an hour (its sync's file untouched since).
    _synced(cfg, connected=True, acked=1, touched=start - timedelta(minutes=30))
    sign = start_app(ui, SignageApp(cfg.journal, cfg.name))
    ui.resize(1280, 800)
    ui.pump(0.3)
    frame = sign.frame
    text = frame.sync.text
    assert text.startswith("Sync not running · ") and ACKED.search(text)
    assert f"{rows - 1} waiting, oldest " in text
    assert tuple(frame.sync.color) == tuple(theme.WARNING)
    assert _fits(frame.sync) and frame.sync.font_size == pytest.approx(frame.strip.height * 0.62)
    ui.screenshot(f"signage-sync-corner-{game}-1280x800")
    session.journal.close()


# --- a change from the pit, and what each game's screens show after it ---------

FILE_NAME = "Table from the file"


def _game_toml(tmp: Path, game: str, key: str) -> str:
    return (f'[table]\nid = "T1"\nname = "{FILE_NAME}"\ngame = "{game}"\n'
            f'journal = "{tmp / "T1.db"}"\n[chips]\nsmallest = 5\n'
            f'[devices.shoe]\nport = "simulated"\n[devices.wheel]\nport = "simulated"\n'
            f'[sync]\npit = "http://pit.invalid"\ncredential_file = "T1.credential"\n'
            f'pit_key = "{key}"\n')


CHANGES = {  # game, the pit's body, whether the running screens can take it over live
    "punto banco limits": ("punto-banco", LIMITS_V1, False),
    "punto banco commission": ("punto-banco", '[punto_banco]\ncommission_mode = '
                                              '"commission"\n', True),
    "blackjack limits": ("blackjack", "[blackjack]\nminimum = 25\nmaximum = 5000\n", False),
    "blackjack surrender": ("blackjack", "[blackjack]\nsurrender = true\n", True),
    "blackjack to touch 21": ("blackjack", '[table]\ngame = "touch-21"\n', True),
    # One family, an engine each: the new game's own opening, with its own rules.
    "punto banco to mini baccarat": ("punto-banco", '[table]\ngame = "mini-baccarat"\n', True),
    "touch 21 limits": ("touch-21", "[blackjack]\nminimum = 25\nmaximum = 5000\n", False),
    "touch 21 decks": ("touch-21", "[blackjack]\ndecks = 1\n", True),
    "roulette limits": ("roulette", "[roulette.limits]\nminimum_chip = 10\n"
                                    "straight_up_maximum = 1000\noutside_maximum = 10000\n"
                                    "table_maximum = 40000\n", False),
    "roulette double zero": ("roulette", '[roulette]\nwheel = "double-zero"\n', True),
    "a new name": ("roulette", '[table]\nname = "High limit 1"\n', True),
}


def _dealer_app(session: Any, cfg: Any) -> Any:
    from kiosk.ui.games import screens

    return screens(session.spec).dealer_app(session, cfg, None, lambda: None)


def _stop(ui: UI) -> None:
    """End the app on the window, as a restart of the kiosk does."""
    ui.stop_app()
    ui.pump(0.05)


def _dealer_words(screen: Any) -> str:
    """Everything the dealer screen writes (its header and corners included)."""
    from kiosk.ui.signage.kivy_app import shown_texts

    return "\n".join([screen.header, *shown_texts(screen)])


@pytest.mark.parametrize("case", list(CHANGES))
def test_a_change_from_the_pit_reaches_the_dealer_screen_and_the_sign(
        ui: UI, tmp_path: Path, case: str) -> None:
    from kiosk.rules.roulette import engine as rl
    from kiosk.rules.roulette.bets import CallBet
    from kiosk.rules.roulette.wheel import Wheel
    from kiosk.ui.signage.app import SignageApp
    from kiosk.ui.signage.kivy_app import shown_texts

    game, body, restarts = CHANGES[case]
    key = Ed25519PrivateKey.generate()
    cfg = parse(_game_toml(tmp_path, game, public_key_hex(key)), tmp_path / "table.toml")
    session = _session(cfg)
    app = start_app(ui, _dealer_app(session, cfg))
    screen = app.screen
    restarted: list[Any] = []
    configs = PitConfigs(session, cfg, restarted.append)
    doc = SignedConfig("T1", 1, body, "2026-11-25T10:00:00.000Z", "Thandi").signed(key)
    write_offer(cfg.journal, doc)
    configs.poll()  # no round in play: applied at once
    assert configs.version == 1
    assert bool(restarted) == restarts  # the screens cannot show it: the kiosk restarts
    new = configs.config
    openings = [e for e in session.journal.entries() if e.kind.endswith(".table_opened")]
    assert openings[-1].payload["game"] == new.game  # the new game's own opening
    if restarts:
        assert session.alerts[-1].way_forward == "The dealer screen restarts for it"
        # What `tableside run` does when it starts again: the version in force, new screens.
        _stop(ui)
        session.journal.close()
        session = _session(cfg)
        new, problem = effective_file(cfg)
        assert problem == "" and session.spec.name == new.game
        app = start_app(ui, _dealer_app(session, new))
        screen = app.screen
    ui.pump(0.1)
    rules = session.state.rules
    assert rules == new.rules  # the screen's session runs the new version's rules
    words = _dealer_words(screen)
    if session.spec.family == "blackjack":
        assert screen.game_name == rules.game_name and rules.game_name in words
        assert screen.dealer_rule in words
        assert ("soft 17" in screen.dealer_rule) == rules.dealer_hits_soft_17
    if session.spec.family == "roulette":
        double = rules.wheel is Wheel.DOUBLE_ZERO
        assert ("00" in screen.cells) == double
        assert screen.call_buttons and all(b.disabled == double
                                           for b in screen.call_buttons.values())
        if double:  # and the rules refuse a call bet (rule 3.4; docs/architecture.md)
            assert session.attempt(lambda s: rl.place_call_bet(s, "pink", CallBet.ORPHANS)) \
                is None
            assert "Call bets are off on a double-zero wheel" in session.alerts[-1].message
    assert new.name in words  # the table's name, the pit's when it set one
    _stop(ui)
    # The players' sign (its own process, started from the table's file): the pit's name,
    # the game and limits in force.
    sign = start_app(ui, SignageApp(cfg.journal, cfg.name))
    ui.pump(0.2)
    shown = "\n".join(shown_texts(sign.screen))
    assert new.name in shown
    assert (FILE_NAME in shown) == (new.name == FILE_NAME)
    if session.spec.family == "blackjack":
        assert rules.game_name.upper() in shown.upper()
    assert sign.frame.notice.text.startswith("New table configuration: ")
    session.journal.close()


@pytest.mark.slow
def test_tableside_run_restarts_into_a_double_zero_wheel_from_the_pit(tmp_path: Path) -> None:
    """The whole way, as `tableside run` does it: the kiosk takes the pit's double-zero wheel
    up at once (no spin in play), ends with its restart status, and the next start builds
    the dealer screen with the 00 cell and the call bets off."""
    from kiosk.config import example
    from kiosk.ui.launcher import RESTART

    key = Ed25519PrivateKey.generate()
    config = tmp_path / "table.toml"
    text = example("roulette").replace('journal = "data/RL-01.db"',
                                       f'journal = "{tmp_path / "RL-01.db"}"')
    config.write_text(text + '\n[sync]\npit = "http://pit.invalid"\n'
                      'credential_file = "RL-01.credential"\n'
                      f'pit_key = "{public_key_hex(key)}"\n')
    write_offer(tmp_path / "RL-01.db", SignedConfig(
        "RL-01", 1, '[roulette]\nwheel = "double-zero"\n', "2026-11-25T10:00:00.000Z",
        "Thandi").signed(key))
    driver = f"""
import asyncio
from kivy.app import App
from kivy.clock import Clock
from kiosk.config import load
from kiosk.ui.dealer import roulette as m
from kiosk.ui.launcher import KioskOptions, run_kiosk

built = []
init = m.RouletteScreen.__init__
def watched(self, *args, **kwargs):
    init(self, *args, **kwargs)
    calls = [b.disabled for b in self.call_buttons.values()]
    built.append(("00" in self.cells, all(calls)))
    if len(built) == 2:  # the screen after the restart: seen, so stop
        Clock.schedule_once(lambda _dt: App.get_running_app().stop(), 0.5)
    else:  # no restart within 30 s: stop, and fail below
        Clock.schedule_once(lambda _dt: len(built) == 1 and App.get_running_app().stop(), 30)
m.RouletteScreen.__init__ = watched
opts = KioskOptions(signage=False, offscreen=True, pin_factory="mock")
first = asyncio.run(run_kiosk(load({str(config)!r}), opts))
second = asyncio.run(run_kiosk(load({str(config)!r}), opts))
print("STATUS", first, second)
print("BUILT", built)
"""
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", GPIOZERO_PIN_FACTORY="mock")
    proc = subprocess.run([sys.executable, "-c", driver], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr[-3000:]
    assert f"STATUS {RESTART} 0" in out, out + proc.stderr[-3000:]
    assert "BUILT [(False, False), (True, True)]" in out, out
