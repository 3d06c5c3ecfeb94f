"""Which output is the dealer's touchscreen and which the players' sign (kiosk/screens.py):
the dealer's touchscreen and the signage each get their own screen, and docs/technician.md
says how each is chosen. A Pi's screens are outputs of one KMS device, driven by the SD
image's one display server; `tableside screens` lays them out from `xrandr --query`, as
recorded here from the outputs a Pi 4 offers (modesetting driver names)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.config import example
from kiosk.screens import Output, Placed, Roles, arrange, moved, parse_at, parse_xrandr

TWO_HDMI = """\
Screen 0: minimum 320 x 200, current 3840 x 1080, maximum 7680 x 7680
HDMI-1 connected primary 1920x1080+0+0 (normal left inverted right x axis y axis) 527mm x 296mm
   1920x1080     60.00*+  50.00    59.94    30.00    25.00    24.00    29.97    23.98
   1920x1080i    60.00    50.00    59.94
   1280x720      60.00    50.00    59.94
   1024x768      75.03    70.07    60.00
   800x600       75.00    72.19    60.32    56.25
   640x480       75.00    72.81    66.67    60.00    59.94
HDMI-2 connected 1920x1080+1920+0 (normal left inverted right x axis y axis) 598mm x 336mm
   1920x1080     60.00*+  50.00    59.94
   1680x1050     59.88
   1280x720      60.00    50.00    59.94
"""

PANEL_AND_HDMI = """\
Screen 0: minimum 320 x 200, current 2720 x 1080, maximum 7680 x 7680
HDMI-1 connected 1920x1080+800+0 (normal left inverted right x axis y axis) 527mm x 296mm
   1920x1080     60.00*+  50.00
   1280x720      60.00
HDMI-2 disconnected (normal left inverted right x axis y axis)
DSI-1 connected primary 800x480+0+0 (normal left inverted right x axis y axis) 0mm x 0mm
   800x480       60.05*+
"""

ONE_PANEL = """\
Screen 0: minimum 320 x 200, current 1024 x 600, maximum 7680 x 7680
HDMI-1 connected primary 1024x600+0+0 (normal left inverted right x axis y axis) 154mm x 86mm
   1024x600      60.00*+
HDMI-2 disconnected (normal left inverted right x axis y axis)
"""


def test_xrandr_is_read_output_by_output_without_interlaced_modes() -> None:
    outputs = parse_xrandr(TWO_HDMI)
    assert [(o.name, o.connected) for o in outputs] == [("HDMI-1", True), ("HDMI-2", True)]
    assert outputs[0].modes == ((1920, 1080), (1280, 720), (1024, 768), (800, 600), (640, 480))
    assert outputs[0].preferred == (1920, 1080)
    panel = parse_xrandr(PANEL_AND_HDMI)
    assert [(o.name, o.connected, o.modes) for o in panel][1:] == [
        ("HDMI-2", False, ()), ("DSI-1", True, ((800, 480),))]


def test_two_hdmi_screens_dealer_on_the_first_sign_beside_it() -> None:
    layout = arrange(parse_xrandr(TWO_HDMI), (1920, 1080), (1920, 1080))
    assert layout.dealer == Placed("HDMI-1", (1920, 1080), (0, 0))
    assert layout.sign == Placed("HDMI-2", (1920, 1080), (1920, 0))
    assert layout.problems == [] and layout.off == []
    assert layout.xrandr_args() == [
        "--output", "HDMI-1", "--mode", "1920x1080", "--pos", "0x0", "--rotate", "normal",
        "--output", "HDMI-2", "--mode", "1920x1080", "--pos", "1920x0", "--rotate", "normal"]
    assert layout.env() == ("TABLESIDE_DEALER_SCREEN=HDMI-1\nTABLESIDE_DEALER_AT=0,0\n"
                            "TABLESIDE_SIGN_SCREEN=HDMI-2\nTABLESIDE_SIGN_AT=1920,0\n")


def test_the_official_touch_panel_is_the_dealers_wherever_xrandr_lists_it() -> None:
    layout = arrange(parse_xrandr(PANEL_AND_HDMI), (800, 480), (1920, 1080))
    assert layout.dealer == Placed("DSI-1", (800, 480), (0, 0))
    assert layout.sign == Placed("HDMI-1", (1920, 1080), (800, 0))
    assert layout.off == ["HDMI-2"] and layout.problems == []


def test_the_configuration_names_the_dealers_screen() -> None:
    layout = arrange(parse_xrandr(TWO_HDMI), (1280, 720), (1920, 1080), "HDMI-2")
    assert layout.dealer == Placed("HDMI-2", (1280, 720), (0, 0))
    assert layout.sign == Placed("HDMI-1", (1920, 1080), (1280, 0))
    wrong = arrange(parse_xrandr(TWO_HDMI), (1920, 1080), (1920, 1080), "HDMI-3")
    assert wrong.dealer is not None and wrong.dealer.output == "HDMI-1"
    assert wrong.problems == ["[display] dealer_screen HDMI-3 is not connected (connected: "
                              "HDMI-1, HDMI-2); the dealer's screen is the first one"]


def test_a_portrait_sign_turns_its_screen() -> None:
    layout = arrange(parse_xrandr(PANEL_AND_HDMI), (800, 480), (1080, 1920))
    assert layout.sign == Placed("HDMI-1", (1920, 1080), (800, 0), "left")
    assert layout.sign.size == (1080, 1920)
    assert layout.xrandr_args()[8:] == [
        "--output", "HDMI-1", "--mode", "1920x1080", "--pos", "800x0", "--rotate", "left",
        "--output", "HDMI-2", "--off"]


def test_a_size_the_screen_does_not_offer_is_said_and_its_own_mode_used() -> None:
    layout = arrange(parse_xrandr(TWO_HDMI), (800, 480), (1920, 1080))
    assert layout.dealer == Placed("HDMI-1", (1920, 1080), (0, 0))
    assert layout.problems == [
        "the dealer screen HDMI-1 has no 800x480 mode (it offers 1920x1080, 1280x720, "
        "1024x768, 800x600, 640x480): set [display] width/height to one of them; meanwhile "
        "the screen runs at 1920x1080 and the window keeps 800x480"]


def test_one_screen_no_sign_and_no_screen_at_all() -> None:
    one = arrange(parse_xrandr(ONE_PANEL), (1024, 600), (1920, 1080))
    assert one.dealer == Placed("HDMI-1", (1024, 600), (0, 0)) and one.sign is None
    assert one.problems == ["no second screen is connected: the players' sign is not shown"]
    assert one.env() == "TABLESIDE_DEALER_SCREEN=HDMI-1\nTABLESIDE_DEALER_AT=0,0\n"
    assert arrange(parse_xrandr(ONE_PANEL), (1024, 600), None).problems == []
    none = arrange([Output("HDMI-1", False)], (800, 480), (1920, 1080))
    assert (none.dealer, none.sign, none.env()) == (None, None, "")
    assert none.problems == ["no screen is connected: plug in the dealer's touchscreen"]


def test_a_corner_is_two_whole_numbers() -> None:
    assert parse_at("800,0") == (800, 0)
    for bad in ("800", "a,b", "-1,0", "1,2,3"):
        with pytest.raises(ValueError):
            parse_at(bad)


@pytest.fixture
def fake_xrandr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An `xrandr` on PATH that answers --query with PANEL_AND_HDMI and records the rest."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (tmp_path / "query.txt").write_text(PANEL_AND_HDMI)
    script = bin_dir / "xrandr"
    script.write_text(f"""#!/bin/sh
if [ "$1" = --query ]; then cat {tmp_path / 'query.txt'}; exit 0; fi
echo "$@" >> {tmp_path / 'set.txt'}
""")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return tmp_path


def test_the_command_sets_the_screens_and_writes_where_each_window_goes(
        fake_xrandr: Path) -> None:
    config = fake_xrandr / "table.toml"
    config.write_text(example("punto-banco").replace('journal = "data/PB-01.db"',
                                                     'journal = "PB-01.db"'))
    env = fake_xrandr / "run" / "screens.env"
    out = CliRunner().invoke(main, ["screens", "--config", str(config), "--env", str(env)])
    assert out.exit_code == 0, out.output
    assert (fake_xrandr / "set.txt").read_text() == (
        "--output DSI-1 --mode 800x480 --pos 0x0 --rotate normal --output HDMI-1 --mode "
        "1920x1080 --pos 800x0 --rotate normal --output HDMI-2 --off\n")
    assert env.read_text() == ("TABLESIDE_DEALER_SCREEN=DSI-1\nTABLESIDE_DEALER_AT=0,0\n"
                               "TABLESIDE_SIGN_SCREEN=HDMI-1\nTABLESIDE_SIGN_AT=800,0\n")


def test_a_table_not_set_up_gets_the_default_sizes_and_a_dry_run_changes_nothing(
        fake_xrandr: Path) -> None:
    out = CliRunner().invoke(main, ["screens", "--config", str(fake_xrandr / "none.toml"),
                                    "--dry-run"])
    assert out.exit_code == 0, out.output
    assert "none.toml does not load" in out.output and "get the default sizes" in out.output
    assert "TABLESIDE_SIGN_AT=800,0" in out.output
    assert not (fake_xrandr / "set.txt").exists()


def test_no_display_server_is_a_clear_refusal(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "xrandr"
    script.write_text("#!/bin/sh\necho \"Can't open display :0\" >&2\nexit 1\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    out = CliRunner().invoke(main, ["screens", "--config", str(tmp_path / "t.toml"),
                                    "--wait", "0.3"])
    assert out.exit_code != 0
    assert "the display server did not answer in 0.3 s: Can't open display :0" in out.output


def test_each_window_goes_where_the_layout_says(tmp_path: Path) -> None:
    """`--position` (from $TABLESIDE_DEALER_AT): a borderless window of the configured size
    with its corner there, not fullscreen (Kivy's settings, before its window exists)."""
    import subprocess
    import sys

    code = ("from kiosk.ui.launcher import KioskOptions, prepare_kivy\n"
            "prepare_kivy(KioskOptions(size=(1280, 720), fullscreen=True, position=(0, 0)))\n"
            "from kivy.config import Config\n"
            "print([Config.get('graphics', k) for k in ('width', 'height', 'fullscreen', "
            "'position', 'left', 'top', 'borderless')])\n")
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_CONSOLELOG": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60, check=True).stdout
    assert out.strip().splitlines()[-1] == "['1280', '720', '0', 'custom', '0', '0', '1']"


def test_a_wrong_corner_in_the_environment_is_refused_in_words(tmp_path: Path) -> None:
    for command in (["run"], ["signage"], ["selftest"]):
        out = CliRunner().invoke(main, [*command, "--config", str(tmp_path / "t.toml")],
                                 env={"TABLESIDE_DEALER_AT": "800x0",
                                      "TABLESIDE_SIGN_AT": "800x0"})
        assert out.exit_code == 2, (command, out.output)
        assert "Invalid value for '--position': '800x0': give X,Y, e.g. 800,0" in out.output


def test_the_dealers_screen_is_named_in_the_configuration(tmp_path: Path) -> None:
    from kiosk.config import ConfigError, load

    base = example("punto-banco").replace('journal = "data/PB-01.db"', 'journal = "PB-01.db"')
    config = tmp_path / "table.toml"
    config.write_text(base)
    assert load(config).display.dealer_screen == ""  # not named: a DSI panel, else the first
    config.write_text(base.replace('# dealer_screen = "HDMI-2"', 'dealer_screen = "HDMI-2"'))
    assert load(config).display.dealer_screen == "HDMI-2"
    config.write_text(base.replace('# dealer_screen = "HDMI-2"', 'dealer_screen = 2'))
    with pytest.raises(ConfigError, match=r"display.dealer_screen: must be text in quotes, "
                                          r"not 2"):
        load(config)


# --- a screen plugged in or out later: `tableside screens --replug`, run by udev --------

SIGN_UNPLUGGED = PANEL_AND_HDMI.replace(
    "HDMI-1 connected 1920x1080+800+0 (normal left inverted right x axis y axis) 527mm x 296mm\n"
    "   1920x1080     60.00*+  50.00\n   1280x720      60.00\n",
    "HDMI-1 disconnected 1920x1080+800+0 (normal left inverted right x axis y axis) 0mm x 0mm\n")
SIGN_IN_THE_OTHER_PORT = SIGN_UNPLUGGED.replace(
    "HDMI-2 disconnected (normal left inverted right x axis y axis)\n",
    "HDMI-2 connected (normal left inverted right x axis y axis) 527mm x 296mm\n"
    "   1920x1080     60.00 +  50.00\n")
DEALER_UNPLUGGED = PANEL_AND_HDMI.replace(
    "DSI-1 connected primary 800x480+0+0 (normal left inverted right x axis y axis) 0mm x 0mm\n"
    "   800x480       60.05*+\n",
    "DSI-1 disconnected 800x480+0+0 (normal left inverted right x axis y axis) 0mm x 0mm\n")
BOTH = Roles("DSI-1", "HDMI-1", (0, 0), (800, 0))
BOTH_ENV = ("TABLESIDE_DEALER_SCREEN=DSI-1\nTABLESIDE_DEALER_AT=0,0\n"
            "TABLESIDE_SIGN_SCREEN=HDMI-1\nTABLESIDE_SIGN_AT=800,0\n")


def test_an_unplugged_sign_keeps_its_place_and_nothing_moves() -> None:
    assert "HDMI-1 disconnected" in SIGN_UNPLUGGED
    layout = arrange(parse_xrandr(SIGN_UNPLUGGED), (800, 480), (1920, 1080), keep=BOTH)
    assert layout.dealer == Placed("DSI-1", (800, 480), (0, 0))
    assert layout.sign == Placed("HDMI-1", (1920, 1080), (800, 0), plugged=False)
    # the unplugged output is left as it is (not turned off: back as it was when replugged)
    assert layout.xrandr_args() == ["--output", "DSI-1", "--mode", "800x480", "--pos", "0x0",
                                    "--rotate", "normal", "--output", "HDMI-2", "--off"]
    assert moved(BOTH_ENV, layout.env()) == []
    assert layout.problems == ["the players' screen HDMI-1 is unplugged: the sign shows again "
                               "when it is plugged back in"]
    # at boot (no roles yet) the same screens give no sign
    assert arrange(parse_xrandr(SIGN_UNPLUGGED), (800, 480), (1920, 1080)).sign is None


def test_a_sign_plugged_into_another_port_becomes_the_sign() -> None:
    layout = arrange(parse_xrandr(SIGN_IN_THE_OTHER_PORT), (800, 480), (1920, 1080), keep=BOTH)
    assert layout.sign == Placed("HDMI-2", (1920, 1080), (800, 0))
    assert moved(BOTH_ENV, layout.env()) == ["sign"]


def test_the_dealers_screen_unplugged_is_never_given_to_the_players() -> None:
    """Without roles kept, the sign's HDMI screen would be the first connected one and the
    dealer's; with them, the dealer keeps the unplugged panel and the sign stays a sign."""
    layout = arrange(parse_xrandr(DEALER_UNPLUGGED), (800, 480), (1920, 1080), keep=BOTH)
    assert layout.dealer == Placed("DSI-1", (800, 480), (0, 0), plugged=False)
    assert layout.sign == Placed("HDMI-1", (1920, 1080), (800, 0))
    assert moved(BOTH_ENV, layout.env()) == []
    assert "the dealer's screen DSI-1 is unplugged" in layout.problems[0]
    # at boot (no roles yet) the one screen left is the dealer's
    assert arrange(parse_xrandr(DEALER_UNPLUGGED), (800, 480), (1920, 1080)
                   ).dealer == Placed("HDMI-1", (1920, 1080), (0, 0))


def test_roles_read_back_what_the_layout_wrote() -> None:
    assert Roles.read(BOTH_ENV) == BOTH
    assert Roles.read("") == Roles()
    assert Roles.read("TABLESIDE_SIGN_SCREEN=HDMI-1\nTABLESIDE_SIGN_AT=oops\n") == Roles(
        sign="HDMI-1")
    assert moved("", BOTH_ENV) == ["dealer", "sign"]
    assert moved(BOTH_ENV, BOTH_ENV.replace("800,0", "1024,0")) == ["sign"]


@pytest.fixture
def fake_systemctl(fake_xrandr: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `systemctl` beside the fake xrandr that records what it is asked."""
    script = fake_xrandr / "bin" / "systemctl"
    script.write_text(f"#!/bin/sh\necho \"$@\" >> {fake_xrandr / 'systemctl.txt'}\n")
    script.chmod(0o755)
    return fake_xrandr / "systemctl.txt"


def test_a_sign_plugged_in_after_boot_is_set_up_and_the_signage_starts_on_it(
        fake_xrandr: Path, fake_systemctl: Path) -> None:
    """The day's story on one table: booted with the sign's cable out, the sign plugged in,
    unplugged by the cleaners, plugged back in. Only the first plug starts the signage; the
    dealer app is never restarted."""
    config = fake_xrandr / "table.toml"
    config.write_text(example("punto-banco").replace('journal = "data/PB-01.db"',
                                                     'journal = "PB-01.db"'))
    env = fake_xrandr / "screens.env"
    query = fake_xrandr / "query.txt"
    sets = fake_xrandr / "set.txt"

    def screens(*extra: str) -> str:
        sets.unlink(missing_ok=True)
        out = CliRunner().invoke(main, ["screens", "--config", str(config), "--env",
                                        str(env), *extra])
        assert out.exit_code == 0, out.output
        return out.output

    query.write_text(SIGN_UNPLUGGED)
    screens()  # at boot: the display service
    assert env.read_text() == "TABLESIDE_DEALER_SCREEN=DSI-1\nTABLESIDE_DEALER_AT=0,0\n"
    assert "HDMI-1 --off" in sets.read_text()

    query.write_text(PANEL_AND_HDMI)  # plugged in
    said = screens("--replug")
    assert env.read_text() == BOTH_ENV
    assert "--output HDMI-1 --mode 1920x1080 --pos 800x0" in sets.read_text()
    assert fake_systemctl.read_text() == "restart --no-block tableside-signage.service\n"
    assert ("the sign's screen is now HDMI-1 at 800,0: starting tableside-signage.service "
            "again") in said

    query.write_text(SIGN_UNPLUGGED)  # the cleaners
    screens("--replug")
    assert env.read_text() == BOTH_ENV
    assert "HDMI-1" not in sets.read_text()  # left as it was

    query.write_text(PANEL_AND_HDMI)  # plugged back in
    screens("--replug")
    assert "--output HDMI-1 --mode 1920x1080 --pos 800x0" in sets.read_text()
    assert env.read_text() == BOTH_ENV
    assert fake_systemctl.read_text().count("restart") == 1  # the first plug's only


def test_replug_needs_the_roles_file(fake_xrandr: Path) -> None:
    out = CliRunner().invoke(main, ["screens", "--config", str(fake_xrandr / "t.toml"),
                                    "--replug"])
    assert out.exit_code == 2 and "--replug needs --env" in out.output
