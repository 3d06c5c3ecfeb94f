"""A table whose `[devices.shuffler]` says `deals = true` deals punto banco from the shuffler:
no card shoe is needed, the dealing link speaks the shuffler's protocol, and every record
names the shuffler. End to end over real pseudo-terminals: the console's scripted dealer plays
coups from the simulated shuffler, and a real port is read through `dealing_link`."""

from __future__ import annotations

import asyncio
import os
import tty
from pathlib import Path
from typing import Any

import pytest

from hardware.simulators.shoe import write_all
from hardware.simulators.shuffler import ShufflerSimulator
from kiosk.assembly import dealing_link, open_session, other_links
from kiosk.config import ConfigError, parse
from kiosk.console import run_demo
from kiosk.rules.baccarat import engine as pb
from kiosk.store.journal import iter_entries

HEAD = '[table]\nid = "PB-01"\ngame = "punto-banco"\njournal = "{j}"\n[chips]\nsmallest = 5\n'


def _config(journal: Path, port: str, deals: str = "true") -> Any:
    return parse(HEAD.format(j=journal) + f'[devices.shuffler]\nport = "{port}"\n'
                 f'deals = {deals}\n', Path("table.toml"))


def test_a_dealing_shuffler_takes_the_shoes_place_in_the_file(tmp_path: Path) -> None:
    cfg = _config(tmp_path / "j.db", "/dev/tableside-shuffler")
    assert cfg.device("shoe") is None
    assert (cfg.dealer.role, cfg.dealer.port, cfg.dealer.deals) == (
        "shuffler", "/dev/tableside-shuffler", True)
    # A shuffler that only shuffles does not: the game still needs its shoe.
    with pytest.raises(ConfigError) as err:
        _config(tmp_path / "j.db", "/dev/tableside-shuffler", deals="false")
    assert "[devices.shoe] is missing" in str(err.value)
    with pytest.raises(ConfigError) as err:
        _config(tmp_path / "j.db", "/dev/tableside-shuffler", deals='"yes"')
    assert "devices.shuffler" in str(err.value) and "deals" in str(err.value)


def test_the_console_deals_punto_banco_from_a_simulated_shuffler(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    session = asyncio.run(run_demo(_config(path, "simulated"), rounds=2, seed=5, pace=0.0))
    assert session.simulated == {"shuffler"} and session.dealing_device == "SHUF"
    rows = list(iter_entries(path))
    dealt = [e.payload for e in rows if e.kind == "punto_banco.card_dealt"]
    assert len(dealt) >= 8 and {d["source"] for d in dealt} == {"simulated"}
    reports = [(e.payload["device"], e.payload["event"]) for e in rows
               if e.kind == "device_report"]
    assert reports[:3] == [("SHUF", "hello"), ("SHUF", "state"), ("SHUF", "count")]
    assert {d for d, _ in reports} == {"SHUF"}
    assert not [r for r in reports if r[1] in ("count_wrong", "card_refused")]


def test_a_real_dealing_shuffler_is_read_on_its_port(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    cfg = _config(tmp_path / "j.db", os.ttyname(slave))
    session, journal = open_session(cfg, quiet=True)
    sim = ShufflerSimulator(decks=cfg.rules.decks, seed=9)

    async def play() -> None:
        link, simulated = dealing_link(cfg, session, 0)
        assert simulated is None and link.protocol.name == "shuffler-line"
        assert other_links(cfg, session) == []  # one link to the shuffler, not two
        task = asyncio.create_task(link.run())
        try:
            assert await link.wait_connected(5)
            session.perform(pb.shuffle)
            session.perform(lambda st: pb.place_bet(st, "1", pb.BetKind.PLAYER, 10_000))
            session.perform(pb.close_betting)
            write_all(master, sim.opening())
            for _ in range(6):
                write_all(master, sim.step() or b"")
            write_all(master, sim.heartbeat())
            for _ in range(3000):  # never a timed assertion: until every frame is read
                if link.parser.last_seq("SHUF") == sim.next_seq - 1:
                    break
                await asyncio.sleep(0.01)
        finally:
            link.stop()
            await asyncio.gather(task, return_exceptions=True)

    try:
        asyncio.run(play())
    finally:
        journal_rows = list(journal.entries())
        journal.close()
        os.close(master)
        os.close(slave)
    dealt = [e.payload for e in journal_rows if e.kind == "punto_banco.card_dealt"]
    assert 4 <= len(dealt) <= 6
    assert [d["card"] for d in dealt] == [c.code for c in sim.read_cards[:len(dealt)]]
    assert {d["source"] for d in dealt} == {"shoe"}  # a real device's cards
    # A card out of the shuffler after the coup ended is refused on record, in its name.
    refused = [e.payload for e in journal_rows if e.kind == "device_report"
               and e.payload["event"] == "card_refused"]
    assert [(r["device"], str(r["detail"]).split(":")[0]) for r in refused] == [
        ("SHUF", c.code) for c in sim.read_cards[len(dealt):]]


def test_a_game_that_needs_a_shuffler_and_no_shoe_is_dealt_by_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose devices are a shuffler and no shoe (mini baccarat dealt from one): the
    shuffler deals unless its section says `deals = false`; the example says so."""
    import dataclasses

    from kiosk import config
    from kiosk.rules.registry import GAMES

    spec = dataclasses.replace(GAMES.get("punto-banco"), devices=("shuffler",))
    monkeypatch.setattr(config.GAMES, "get", lambda _name: spec)
    text = HEAD.format(j=tmp_path / "j.db") + '[devices.shuffler]\nport = "simulated"\n'
    cfg = parse(text, Path("table.toml"))
    assert (cfg.dealer.role, cfg.dealer.deals, cfg.device("shoe")) == ("shuffler", True, None)
    only_shuffles = parse(text + "deals = false\n", Path("table.toml"))
    assert only_shuffles.dealer.role == "shoe" and not only_shuffles.device("shuffler").deals
    example = config.example("punto-banco")
    assert "[devices.shuffler]" in example and "\ndeals = true " in example
    assert parse(example.replace('journal = "data/', f'journal = "{tmp_path}/'),
                 Path("table.toml")).dealer.role == "shuffler"
