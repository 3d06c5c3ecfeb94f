"""The dealer's Kivy app for an Arizona Hold'em table: one window, its screen, fed by the
table session."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App

from kiosk.i18n import _
from kiosk.rules.arizona import engine as az
from kiosk.table.session import TableSession
from kiosk.ui import theme
from kiosk.ui.dealer.arizona import ArizonaDealer


class ArizonaDealerApp(App):  # type: ignore[misc]
    """Shows the table session on the dealer's touchscreen."""

    def __init__(self, session: TableSession[az.ArizonaState], *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.table_name = table_name
        self.chip_values = chip_values
        self.on_new_shoe = on_new_shoe
        self.px_per_mm = px_per_mm
        self.screen: ArizonaDealer | None = None
        self.title = _("Tableside dealer: %(table)s") % {"table": table_name
                                                           or session.table_id}

    def build(self) -> ArizonaDealer:
        self.screen = ArizonaDealer(self.session, table_name=self.table_name,
                                    chip_values=self.chip_values,
                                    on_new_shoe=self.on_new_shoe, px_per_mm=self.px_per_mm)
        return self.screen
