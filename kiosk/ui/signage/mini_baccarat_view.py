"""The players' sign of a mini baccarat table: punto banco's (the same coup, roads and
limits) under its own name, with the shuffler malfunction procedure said in words."""

from __future__ import annotations

from typing import Any

from kiosk.ui.signage.link import Link
from kiosk.ui.signage.mini_baccarat_words import GAME_NAME, procedure_call
from kiosk.ui.signage.punto_banco_view import PuntoBancoSignage


class MiniBaccaratSignage(PuntoBancoSignage):
    """The whole players' screen; `show(state, link)` whenever either changes."""

    def show(self, state: Any, link: Link = Link.LIVE) -> None:
        super().show(state, link)
        self.game_name = GAME_NAME
        call = procedure_call(state)
        if call is not None:
            self.interrupt(call.title, call.detail)
