"""The dealer's Kivy app for a punto banco table: its screen, in the shared app."""

from __future__ import annotations

from kiosk.ui.dealer.app import DealerApp
from kiosk.ui.dealer.punto_banco import PuntoBancoDealer


class PuntoBancoDealerApp(DealerApp):
    """Shows the punto banco table session on the dealer's touchscreen."""

    screen_class = PuntoBancoDealer
