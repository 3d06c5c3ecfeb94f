"""The dealer's Kivy app: one window, a game's dealer screen, fed by the table session. A
game's app names its screen (`screen_class`); the screen takes the same arguments in every
game (the session, the table's name, the chip values, a new shoe, the panel's pixels a mm)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App

from kiosk.i18n import _
from kiosk.table.session import TableSession
from kiosk.ui import theme


class DealerApp(App):  # type: ignore[misc]
    """Shows the table session on the dealer's touchscreen."""

    screen_class: Any = None
    """The game's dealer screen (a `kiosk.ui.dealer.base.DealerScreen`)."""

    def __init__(self, session: TableSession[Any], *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.table_name = table_name
        self.chip_values = chip_values
        self.on_new_shoe = on_new_shoe
        self.px_per_mm = px_per_mm
        self.screen: Any = None
        self.title = _("Tableside dealer: %(table)s") % {"table": table_name
                                                           or session.table_id}

    def build(self) -> Any:
        self.screen = self.screen_class(self.session, table_name=self.table_name,
                                        chip_values=self.chip_values,
                                        on_new_shoe=self.on_new_shoe, px_per_mm=self.px_per_mm)
        return self.screen
