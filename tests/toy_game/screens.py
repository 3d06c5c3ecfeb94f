"""High card's screens: a dealer app of three buttons, a sign, and the headless demo."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.config import TableConfig
from kiosk.ui import headless
from tests.toy_game import rules as hc

PLAYS = "one round"
HEADLESS_PACE = 0.1
DONE = "round settled"


def dealer_app(session: Any, cfg: TableConfig, shoe: Any, new_shoe: Callable[[], None]) -> Any:
    from kivy.app import App
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    class Screen(BoxLayout):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(orientation="vertical")
            self.step = Label(text=session.next_step(), font_size=32)
            self.bet = Button(text="Bet 50 on the player")
            self.close = Button(text="No more bets")
            self.confirm = Button(text="Confirm payouts")
            for w in (self.step, self.bet, self.close, self.confirm):
                self.add_widget(w)
            self.bet.bind(on_release=lambda *_: session.attempt(
                lambda s: hc.place_bet(s, hc.Side.PLAYER, 5_000)))
            self.close.bind(on_release=lambda *_: self.no_more_bets())
            self.confirm.bind(on_release=lambda *_: session.attempt(hc.settlement))
            session.listeners.append(lambda *_: setattr(self.step, "text", session.next_step()))

        def no_more_bets(self) -> None:
            session.attempt(hc.close_betting)

    class Dealer(App):  # type: ignore[misc]
        screen: Screen | None = None

        def build(self) -> Screen:
            self.screen = Screen()
            return self.screen

    return Dealer()


def sign() -> Any:
    from kivy.uix.label import Label

    class Sign(Label):  # type: ignore[misc]
        table_name = ""

    return Sign(font_size=48)


def show_sign(view: Any, state: Any, link: Any) -> None:
    if state is None:
        view.text = "HIGH CARD"
        return
    last = state.results[-1].upper() if state.results else "-"
    view.text = f"HIGH CARD  round {state.round}  last: {last}"


async def headless_play(app: Any, session: Any, cfg: TableConfig, opts: Any,
                        panel: Any) -> None:
    from kiosk.ui.capture import render, save_png

    out = opts.out or Path("artifacts/demo")
    out.mkdir(parents=True, exist_ok=True)
    try:
        while app.screen is None or app.screen.width < 10:
            await asyncio.sleep(0.05)
        screen = app.screen
        if not session.state.shuffled:
            session.perform(hc.shuffle)
        await headless.tap(screen.bet)
        await headless.tap(screen.close)
        for _ in range(200):  # the simulated shoe deals the two cards by itself
            if session.state.phase is hc.Phase.PAYING:
                break
            await asyncio.sleep(0.05)
        await headless.tap(screen.confirm)
        opts.report.append(f"{DONE}: round {session.state.round - 1}, "
                           f"{session.state.results[-1]}")
        save_png(render(screen), out / "dealer-800x480.png")
    except Exception as exc:
        opts.report.append(f"error: {exc}")
    finally:
        app.stop()
