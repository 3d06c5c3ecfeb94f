"""The dealer's Kivy app for a blackjack (or Touch 21) table: one window, the blackjack
screen, fed by the table session (as `PuntoBancoDealerApp` is for punto banco)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App

from kiosk.i18n import _
from kiosk.rules.blackjack import engine as bj
from kiosk.table.session import TableSession
from kiosk.ui import theme
from kiosk.ui.dealer.blackjack import BlackjackDealer


class BlackjackDealerApp(App):
    """Shows the blackjack table session on the dealer's touchscreen.

    `on_new_shoe` is accepted for the same constructor shape as `PuntoBancoDealerApp`; the blackjack
    screen's shuffle goes through the shuffle-and-cut panel, which calls it when the dealer
    starts a new shoe."""

    def __init__(self, session: TableSession[bj.BlackjackState], *, table_name: str = "",
                 chip_values: tuple[int, ...] = (),
                 on_new_shoe: Callable[[], None] | None = None,
                 on_draw: Callable[[], None] | None = None,
                 px_per_mm: float = theme.PI_TOUCHSCREEN_PX_PER_MM, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_draw = on_draw
        self.session = session
        self.table_name = table_name
        self.chip_values = chip_values
        self.on_new_shoe = on_new_shoe
        self.px_per_mm = px_per_mm
        self.screen: BlackjackDealer | None = None
        self.title = _("Tableside dealer: %(table)s") % {"table": table_name
                                                           or session.table_id}

    def load_kv(self, filename: str | None = None) -> bool:
        # Kivy would look for "blackjackdealer.kv"; the screen's module loads its own.
        return False

    def build(self) -> BlackjackDealer:
        self.screen = BlackjackDealer(self.session, table_name=self.table_name,
                                      chip_values=self.chip_values, px_per_mm=self.px_per_mm,
                                      on_new_shoe=self.on_new_shoe, on_draw=self.on_draw)
        return self.screen
