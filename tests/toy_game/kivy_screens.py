"""High card's Kivy classes: the dealer's screen and app, and the players' sign. The screens
module (`tests/toy_game/screens.py`) imports this only when a screen is made, so the CLI and
the console never load Kivy.

Each class is made once, here, not inside the function that makes a screen: Kivy keeps every
class it has seen for good (its cache of properties a class), so a class made anew for each
app would keep that app's session and screen alive, through its methods' closures, for the
process's life (tests/ui/test_apps_let_go.py)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from kiosk import i18n
from tests.toy_game import rules as hc


def _font(height: float) -> float:
    """Type a twelfth of the screen's height: 40 px (4 mm capitals) on the 7" panel."""
    return max(20.0, height / 12)


class HighCardScreen(BoxLayout):  # type: ignore[misc]
    """Four buttons under the next step."""

    def __init__(self, session: Any) -> None:
        super().__init__(orientation="vertical", padding=8, spacing=8)
        self.session = session
        tr = i18n.gettext
        self.step = Label(halign="center", valign="middle")
        self.shuffle = Button(text=tr("New shoe"))
        self.bet = Button(text=tr("Player"))
        self.close = Button(text=tr("No more bets"))
        self.confirm = Button(text=tr("Confirm payouts"))
        for w in (self.step, self.shuffle, self.bet, self.close, self.confirm):
            self.add_widget(w)
        self.shuffle.bind(on_release=lambda *_: session.attempt(hc.shuffle))
        self.bet.bind(on_release=lambda *_: session.attempt(
            lambda s: hc.place_bet(s, hc.Side.PLAYER, 5_000)))
        self.close.bind(on_release=lambda *_: self.no_more_bets())
        self.confirm.bind(on_release=lambda *_: session.attempt(hc.confirm_payouts))
        session.listeners.append(lambda *_: self.refresh())
        self.bind(size=lambda *_: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """The next step in the dealer's language; each button enabled by its `can_x`."""
        session = self.session
        state = session.state
        self.step.text = i18n.say(session.next_step())
        self.shuffle.disabled = not hc.can_shuffle(state)
        self.bet.disabled = not hc.can_place_bet(state, hc.Side.PLAYER, 5_000)
        self.close.disabled = not hc.can_close_betting(state)
        self.confirm.disabled = not hc.can_confirm_payouts(state)
        for w in (self.step, self.shuffle, self.bet, self.close, self.confirm):
            w.font_size = _font(self.height)
        self.step.text_size = (self.width - 16, None)

    def no_more_bets(self) -> None:
        self.session.attempt(hc.close_betting)


class HighCardDealerApp(App):  # type: ignore[misc]
    def __init__(self, session: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.screen: HighCardScreen | None = None

    def load_kv(self, filename: str | None = None) -> bool:
        return False  # no .kv: the screen is built in Python

    def build(self) -> HighCardScreen:
        self.screen = HighCardScreen(self.session)
        return self.screen


class HighCardSign(Label):  # type: ignore[misc]
    """The felt, its lower half darker under the limits, and the words over it."""

    table_name = ""

    def __init__(self, **kw: Any) -> None:
        super().__init__(halign="center", valign="middle", **kw)
        with self.canvas.before:
            Color(0.05, 0.30, 0.16)
            self.felt = Rectangle()
            Color(0.02, 0.16, 0.08)
            self.band = Rectangle()

    def on_size(self, *_: Any) -> None:
        self.felt.pos, self.felt.size = self.pos, self.size
        self.band.pos, self.band.size = self.pos, (self.width, self.height / 2)
        self.font_size = min(self.width / 22, self.height / 10)
        self.text_size = self.size

    def on_pos(self, *_: Any) -> None:
        self.on_size()

    def interrupt(self, title: str, detail: str) -> None:
        """The words in place of the round (the table paused, the inspector called)."""
        self.text = f"{title}\n{detail}"
