"""A real table never runs on a simulated device by accident: a configuration with no
`[devices.shoe]`, or one without its port, dealt from the simulator and journaled the cards as
the shoe's. Now it is a mistake in the file, with its line; the simulator runs only when the
file says `port = "simulated"` (as `tableside demo`'s does), and its cards go on record as
`"source": "simulated"`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.assembly import demo_config
from kiosk.cli import main
from kiosk.config import ConfigError, parse
from kiosk.console import run_demo
from kiosk.rules.baccarat import engine as pb
from kiosk.store.journal import iter_entries

HEAD = '[table]\nid = "PB-01"\ngame = "punto-banco"\njournal = "j.db"\n[chips]\nsmallest = 5\n'


def test_no_shoe_section_is_a_mistake_in_the_file() -> None:
    with pytest.raises(ConfigError) as err:
        parse(HEAD, Path("table.toml"))
    assert str(err.value) == (
        'table.toml: [devices.shoe] is missing: Punto banco needs its shoe; say where it is '
        '(port = "/dev/tableside-shoe", or port = "simulated" for the simulator)')


def test_a_shoe_section_without_its_port_is_refused_at_its_line() -> None:
    text = HEAD + '[display]\nwidth = 800\n[devices.shoe]\ndialect = "line"\nbaudrate = 9600\n'
    with pytest.raises(ConfigError) as err:
        parse(text, Path("table.toml"))
    assert str(err.value).startswith("table.toml, line 9: devices.shoe: port is missing")


def test_a_roulette_table_needs_its_wheels_port_too() -> None:
    text = HEAD.replace("punto-banco", "roulette")
    with pytest.raises(ConfigError, match=r"\[devices.wheel\] is missing: American roulette needs"):
        parse(text, Path("table.toml"))


def test_the_simulator_only_when_the_file_says_so() -> None:
    cfg = parse(HEAD + '[devices.shoe]\nport = "simulated"\n', Path("table.toml"))
    assert cfg.shoe.port == "simulated"
    cfg = parse(HEAD + '[devices.shoe]\nport = "/dev/ttyUSB0"\n', Path("table.toml"))
    assert cfg.shoe.port == "/dev/ttyUSB0"
    # The demo's own configuration says it, for every device its game needs.
    for game, role in (("punto-banco", "shoe"), ("roulette", "wheel")):
        demo = demo_config(Path("/tmp/demo.db"), game)
        device = demo.device(role)
        assert device is not None and device.port == "simulated"


def test_run_and_config_check_refuse_it_in_one_line(tmp_path: Path) -> None:
    toml = tmp_path / "table.toml"
    toml.write_text(HEAD)
    for args in (["config", "check", str(toml)], ["run", "--config", str(toml), "--console"]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 2, (args, out.output)
        assert f"{toml}: [devices.shoe] is missing" in out.output
        assert "Traceback" not in out.output


def test_the_simulators_cards_are_on_record_as_simulated(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    session = asyncio.run(run_demo(demo_config(path), rounds=2, seed=5, pace=0.0))
    assert session.simulated == {"shoe"}
    dealt = [e.payload for e in iter_entries(path) if e.kind == "punto_banco.card_dealt"]
    assert len(dealt) >= 8
    assert {d["source"] for d in dealt} == {pb.CardSource.SIMULATED.value} == {"simulated"}
