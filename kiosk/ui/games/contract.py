"""mypy holds each built-in game's screens module to `ScreensModule` here (a missing name is
a type error naming it). Nothing imports this module: it is read by mypy only, so the screens
modules, which import the launcher, are never imported back by the package that finds them."""

from __future__ import annotations

from kiosk.ui.games import (
    ScreensModule,
    arizona,
    baccarat,
    blackjack,
    mini_baccarat,
    paigow,
    roulette,
)

_arizona: ScreensModule = arizona
_punto_banco: ScreensModule = baccarat
_blackjack: ScreensModule = blackjack
_roulette: ScreensModule = roulette
_paigow: ScreensModule = paigow
_mini_baccarat: ScreensModule = mini_baccarat
