"""The UI side of the game registry: each game's screens module, named by its
`GameSpec.screens` (the rules never import Kivy). `ScreensModule` is what such a module holds:
every name the CLI, the console, the launcher, the signage and the headless demo look up.
Every game is held to it when it registers (the check is added to the registry when this
package is imported), and mypy holds the built-in games' modules to it (below).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from kiosk.rules.registry import GAMES, GameSpec, IncompleteGame, check_contract

if TYPE_CHECKING:
    import click

    from kiosk.assembly import GameConsole
    from kiosk.config import TableConfig
    from kiosk.ui.options import KioskOptions


class SignView(Protocol):
    """What a screens module's `sign()` makes (a Kivy widget). The signage process draws each
    state on it with `show_sign`, then sets `table_name`; while the table is paused, closed,
    reconnecting or the inspector is called, it calls `interrupt` after `show_sign`, and the
    words replace the game's call. (The first game's view also has `notice(text, detail,
    link)`: it says so when the journal holds another game's records.)"""

    table_name: str

    def interrupt(self, title: str, detail: str) -> None: ...


class ScreensModule(Protocol):
    """A game's screens module (`kiosk/ui/games/<game>.py`; the toy's: tests/toy_game/
    screens.py). Kivy is imported only inside its functions, so the CLI and the console that
    import it stay quick. A name a game has no use for is there as None."""

    PLAYS: str
    """What the headless demo plays, for the CLI ("one coup", "a shoe")."""
    HEADLESS_PACE: float
    """Seconds between the simulated shoe's cards in the headless demo."""
    DONE: str
    """Words the headless demo's report holds once it played a round ("coup settled")."""

    def dealer_app(self, session: Any, cfg: TableConfig, shoe: Any,
                   new_shoe: Callable[[], None]) -> Any:
        """The dealer's Kivy App; its `screen` has `no_more_bets()` (the table's button)."""
        ...

    def sign(self) -> SignView:
        """The players' view of the table (a Kivy widget), made once a game."""
        ...

    def show_sign(self, view: Any, state: Any, link: Any) -> None:
        """Draw `state` (None: no table opened yet) on the view `sign()` made."""
        ...

    async def headless_play(self, app: Any, session: Any, cfg: TableConfig,
                            opts: KioskOptions, panel: Any) -> None:
        """The headless demo's touch script: a round played by taps, screenshots saved,
        `opts.report` told what happened (with `DONE` once a round was played)."""
        ...

    @property
    def console(self) -> GameConsole | None:
        """The typed console and the scripted demo dealer (a `kiosk.assembly.GameConsole`,
        run by kiosk/console.py), or None: the game is run from its screen only."""
        ...

    @property
    def odds_command(self) -> click.Command | None:
        """`tableside odds <game>` (a click command), or None."""
        ...

    @property
    def integrity_report(self) -> Callable[[list[Any], Any], dict[str, Any]] | None:
        """`tableside integrity`: figures over the journal's entries under the rules (the
        wheel's chi-squared), or None."""
        ...


def check_screens(spec: GameSpec) -> None:
    """Raise `IncompleteGame` naming what `spec`'s screens module lacks of `ScreensModule`."""
    if not spec.screens:
        return
    try:
        module = importlib.import_module(spec.screens)
    except ModuleNotFoundError as exc:
        raise IncompleteGame(f"game {spec.name!r}: its screens module {spec.screens} cannot "
                             f"be imported ({exc})") from None
    check_contract(spec, f"screens module {spec.screens}", module, ScreensModule)


def screens(spec: GameSpec) -> ScreensModule:
    """The screens module of `spec`'s game."""
    if not spec.screens:
        raise LookupError(f"{spec.title} has no screens")
    return cast(ScreensModule, importlib.import_module(spec.screens))


GAMES.require(check_screens)
