"""The dealer's Kivy app for a mini baccarat table: its screen, in the shared app."""

from __future__ import annotations

from kiosk.ui.dealer.app import DealerApp
from kiosk.ui.dealer.mini_baccarat import MiniBaccaratDealer


class MiniBaccaratDealerApp(DealerApp):
    """Shows the mini baccarat table session on the dealer's touchscreen."""

    screen_class = MiniBaccaratDealer
