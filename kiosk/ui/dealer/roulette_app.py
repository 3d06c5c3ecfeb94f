"""The dealer's Kivy app for an American roulette table: the shared app with the roulette
screen, and the wheel's link (is it online, start a spin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.ui.dealer.app import DealerApp
from kiosk.ui.dealer.roulette import RouletteScreen


class RouletteDealerApp(DealerApp):
    """Shows the roulette table session on the dealer's touchscreen.

    One class for every app made: Kivy keeps each class it has seen for good (its cache of
    properties a class), so a class made anew for each app kept every earlier app's
    session and screen alive with it."""

    def __init__(self, session: Any, *, table_name: str = "",
                 wheel_online: Callable[[], bool] | None = None,
                 start_wheel: Callable[[], bool] | None = None, **kwargs: Any) -> None:
        super().__init__(session, table_name=table_name, **kwargs)
        self.wheel_online = wheel_online
        self.start_wheel = start_wheel

    def build(self) -> RouletteScreen:
        self.screen = RouletteScreen(self.session, table_name=self.table_name,
                                     wheel_online=self.wheel_online,
                                     start_wheel=self.start_wheel)
        return self.screen
