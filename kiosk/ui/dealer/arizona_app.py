"""The dealer's Kivy app for an Arizona Hold'em table: its screen, in the shared app."""

from __future__ import annotations

from kiosk.ui.dealer.app import DealerApp
from kiosk.ui.dealer.arizona import ArizonaDealer


class ArizonaDealerApp(DealerApp):
    """Shows the Arizona Hold'em table session on the dealer's touchscreen."""

    screen_class = ArizonaDealer
