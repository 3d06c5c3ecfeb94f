"""The players' signage as its own process: `python -m kiosk.ui.signage --journal PATH`.

docs/architecture.md: Kivy has one window per process, so the second screen facing the players runs
its own process fed from the table's journal; it survives a dealer-UI restart and vice
versa. `signage` is a click command (`kiosk.cli` can `main.add_command(signage)`); `main()`
runs it standalone. Importing this module does not import Kivy: the window's size and place
must be configured before Kivy creates it, and the `tableside` CLI stays quick.
`SignageApp` (the Kivy App) is imported from here on first use.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kiosk import program
from kiosk.program import refuse
from kiosk.screens import at_option
from kiosk.stopping import SignalStop
from kiosk.ui.signage.window import WindowOptions

if TYPE_CHECKING:
    from kiosk.floor_care import SignCare
    from kiosk.i18n import SignLanguages
    from kiosk.ui.signage.kivy_app import SignageApp

STOP_CHECK = 0.1
"""Seconds between the Kivy loop's looks at whether SIGINT or SIGTERM asked it to stop."""


def prepare_environment(*, headless: bool = False) -> None:
    """Environment Kivy reads when first imported: never parse our argv; with no display
    (the headless demo's screenshot) render through SDL's offscreen driver."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if headless and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")


def run(journal: Path, name: str = "", options: WindowOptions | None = None, *,
        screenshot: Path | None = None, after: float = 2.0, trace: bool = False,
        languages: Any = None, care: Any = None, syncs: bool = False,
        simulated: bool = False, hours: Any = None, simulated_device: str = "shoe") -> int:
    """Run the signage until its window closes (or the screenshot is saved), or until
    SIGINT or SIGTERM; exit status (130 after Ctrl-C, else 0; 1 if no screenshot)."""

    def make() -> Any:
        from kiosk.ui.signage.kivy_app import SignageApp

        return SignageApp(journal, name, trace=sys.stdout if trace else None,
                          screenshot=screenshot, screenshot_after=after, languages=languages,
                          care=care, syncs=syncs, simulated=simulated, hours=hours,
                          simulated_device=simulated_device)

    app, status = _until_stopped(make, options or WindowOptions(),
                                 headless=screenshot is not None)
    if status is not None:
        return status
    if screenshot is not None and app.screenshot_saved is None:
        return 1
    return 0


def _until_stopped(make: Callable[[], Any], options: WindowOptions, headless: bool = False
                   ) -> tuple[Any, int | None]:
    """Make the app (once Kivy is set up for the window) and run it until its window closes
    or SIGINT or SIGTERM comes: the app, and the signal's exit status (None: no signal)."""
    # Our own handlers, before Kivy starts SDL: SDL then leaves SIGINT and SIGTERM to us
    # (it only takes signals nobody handles), and the stop no longer depends on SDL's
    # handler turning SIGTERM into a window close, nor on Ctrl-C unwinding Kivy's loop.
    stop = SignalStop()
    app = check = None
    try:
        prepare_environment(headless=headless)
        options.configure()
        from kiosk.ui.every import every

        app = made = make()
        check = every(STOP_CHECK, lambda: stop.stopping and made.stop())
        if not stop.stopping:
            app.run()
    finally:
        if check is not None:  # Kivy's clock would keep the stopped app alive
            check.cancel()
        stop.close()
    return app, stop.status


def _size(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{value!r}: give WIDTHxHEIGHT, e.g. 1920x1080") from None
    from kiosk.config import screen_refusal

    why = screen_refusal(w, h, sign=True)  # the same refusal as [display] signage_width
    if why:
        raise click.BadParameter(why)
    return w, h


def _name(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    from kiosk.config import MAX_NAME

    if len(value) > MAX_NAME:  # the same refusal as [table] name
        raise click.BadParameter(f"at most {MAX_NAME} characters ({len(value)} given): the "
                                 "signs show it in full")
    return value


@click.command("signage", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--journal", "journal", default=None,
              type=click.Path(dir_okay=False, path_type=Path),
              help="The table's journal database (it may not exist yet: the signage waits).")
@click.option("--config", "config_path", default=None,
              type=click.Path(dir_okay=False, path_type=Path),
              help="Instead of --journal, --name and --size: the table's table.toml (its "
                   "journal, name and [display] signage size), as the SD image's service "
                   "runs it.")
@click.option("--name", default="", callback=_name, help="The table's name as players see it "
              "[default: Table <table id>].")
@click.option("--size", "size", default="1920x1080", show_default=True, callback=_size,
              help="Window size WIDTHxHEIGHT.")
@click.option("--fullscreen", is_flag=True, help="Fill the screen.")
@click.option("--position", default=None, callback=at_option, metavar="X,Y",
              envvar="TABLESIDE_SIGN_AT",
              help="Top-left corner of the window on the desktop (borderless) [default: "
                   "$TABLESIDE_SIGN_AT, which the SD image's `tableside screens` sets].")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Save a PNG of the screen after --after seconds, then exit 0 "
              "(renders offscreen when there is no display).")
@click.option("--after", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Seconds before --screenshot [default: 2].")
@click.option("--simulated-shoe", "simulated", is_flag=True,
              help="The cards come from the shoe simulator: the sign says SIMULATED SHOE "
                   "(SIMULATED SHUFFLER for a game dealt from a shuffler) "
                   "(with --config, its [devices.shoe] port = \"simulated\" says so too).")
@click.option("--trace", is_flag=True, help="Print one JSON line per state change: "
              '{"seq", "t" (time.monotonic()), "game", "phase", "shown" (the texts on '
              'screen), ...}.')
def signage(journal: Path | None, config_path: Path | None, name: str, size: tuple[int, int],
            fullscreen: bool, position: tuple[int, int] | None, screenshot: Path | None,
            after: float | None, trace: bool, simulated: bool) -> None:
    """The players' screen of the table, following its journal: limits and odds (rules 2.2,
    2.6), the call, and the last result; in the house's languages in turn with --config."""
    if after is not None and screenshot is None:
        raise click.UsageError("--after needs --screenshot")
    languages: SignLanguages | None = None
    care: SignCare | None = None
    hours = None
    simulated_device = "shoe"  # or "shuffler": a simulated shuffler that deals
    if config_path is not None:
        from kiosk.config import ConfigError, load

        try:
            cfg = load(config_path)
        except ConfigError as exc:
            if screenshot is not None:
                refuse(str(exc))
            sys.exit(_closed(config_path, WindowOptions(size, fullscreen, position)))
        journal, name = cfg.journal, name or cfg.name
        size = (cfg.display.signage_width, cfg.display.signage_height)
        languages = cfg.display.sign_languages()  # [display] languages, money style
        care = cfg.display.care  # the burn-in shift, the idle screen, the night
        hours = cfg.hours  # "Table closed" outside them (rule 2.4)
        syncs = cfg.sync.enabled  # a [sync] pit: the corner shows a sync that never ran
        from kiosk.rules.registry import GAMES

        shoe = cfg.device("shoe")
        simulated = simulated or (shoe is not None and shoe.port == "simulated"
                                  and "shoe" in GAMES.get(cfg.game).devices)
        dealing = cfg.device("shuffler")  # a shuffler that deals, in the shoe's place
        if dealing is not None and dealing.deals and dealing.port == "simulated":
            simulated, simulated_device = True, "shuffler"
    else:
        syncs = False
    if journal is None:
        raise click.UsageError("give --journal or --config")
    status = run(journal, name, WindowOptions(size, fullscreen, position),
                 screenshot=screenshot, after=2.0 if after is None else after, trace=trace,
                 languages=languages, care=care, syncs=syncs, simulated=simulated,
                 hours=hours, simulated_device=simulated_device)
    sys.exit(status)


def _closed(config: Path, options: WindowOptions) -> int:
    """A table that cannot start from `config`: "Table closed" on the players' screen until
    it can (kiosk/ui/signage/closed.py), then this command again, from the start."""
    from kiosk.provision import not_set_up

    reason = not_set_up(config)
    if reason:
        click.echo(f"tableside signage: the table is not set up: {reason.splitlines()[0]}; "
                   f"the sign says the table is closed until {config} loads", err=True)
        def make() -> Any:
            from kiosk.ui.signage.closed import ClosedSignApp

            return ClosedSignApp(config, reason)

        app, status = _until_stopped(make, options)
        if status is not None:
            return status
        if not app.ready:
            return 0
    os.execv(sys.executable, [sys.executable, *sys.argv])  # the table can start: the sign


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m kiosk.ui.signage ...`"""
    from kiosk.rules.registry import EXTRA_GAMES, load_games

    load_games(os.environ.get(EXTRA_GAMES, ""))  # the dealer app's games are ours too
    program.run(lambda: signage.main(args=list(argv) if argv is not None else None,
                                     prog_name="python -m kiosk.ui.signage",
                                     standalone_mode=False))


def __getattr__(name: str) -> Any:
    # `SignageApp` imports Kivy, which creates the window as configured: only on first use.
    if name == "SignageApp":
        from kiosk.ui.signage.kivy_app import SignageApp

        return SignageApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SignageApp", "WindowOptions", "main", "prepare_environment", "run", "signage"]
