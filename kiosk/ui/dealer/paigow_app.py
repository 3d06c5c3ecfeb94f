"""The dealer's Kivy app for a pai gow tiles table: its screen, in the shared app."""

from __future__ import annotations

from typing import Any

from kiosk.ui.dealer.app import DealerApp
from kiosk.ui.dealer.paigow import PaiGowDealer


class PaiGowDealerApp(DealerApp):
    """Shows the pai gow table session on the dealer's touchscreen."""

    screen_class = PaiGowDealer


def dealer_app(session: Any, cfg: Any, shoe: Any, new_shoe: Any) -> PaiGowDealerApp:
    """The dealer app the game's screens module starts (`ScreensModule.dealer_app`): the
    tiles are keyed in, so `shoe` is not used; `new_shoe` is called when the tiles are
    washed."""
    return PaiGowDealerApp(session, table_name=cfg.name, chip_values=cfg.chip_values,
                           on_new_shoe=new_shoe)
