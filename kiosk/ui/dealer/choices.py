"""Small touch dialogs: pick a reason from a list, or key a badge number on a pad. Neither
needs a keyboard, which a dealer's touchscreen does not have. Their words are in the dealer's
language; a reason chosen is sent in English, the journal's language."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from kiosk.i18n import _
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.widgets import SaysWhyHere, TableButton

Builder.load_file(str(Path(__file__).with_name("choices.kv")))


def _unit() -> float:
    from kivy.core.window import Window

    return theme.ui_unit(Window.width, Window.height)


class ReasonPicker(ModalView):
    """A list of reasons as big buttons; choosing one sends it, Cancel sends nothing.
    `reasons` are English texts (marked N_ where defined): each button shows its reason in
    the dealer's language and sends the English."""

    title = StringProperty("")
    unit = NumericProperty(1.0)

    def __init__(self, title: str, reasons: Sequence[str], on_done: Callable[[str], Any],
                 **kwargs: Any) -> None:
        self.on_done = on_done
        super().__init__(**kwargs)
        self.unit = _unit()
        self.title = title
        for reason in reasons:
            b = TableButton(text=_(reason), font_size=18 * self.unit)
            b.reason = reason
            b.bind(on_release=lambda w: self.choose(w.reason))
            self.ids.reasons.add_widget(b)

    def choose(self, reason: str) -> None:
        self.dismiss()
        self.on_done(reason)


class BadgePad(SaysWhyHere, ModalView):  # type: ignore[misc]
    """A numeric pad for an inspector's badge number. OK is grey until a digit is keyed,
    and says so when tapped."""

    title = StringProperty("")
    digits = StringProperty("")
    unit = NumericProperty(1.0)

    def __init__(self, title: str, on_done: Callable[[str], Any], **kwargs: Any) -> None:
        self.on_done = on_done
        super().__init__(**kwargs)
        self.unit = _unit()
        self.title = title
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"):
            # TRANSLATORS: the badge pad's keys: delete the last digit, and done.
            text = {"⌫": _("Del"), "OK": _("OK")}.get(key, key)
            b = TableButton(text=text, font_size=22 * self.unit)
            b.key = key
            b.bind(on_release=lambda w: self.press(w.key))
            self.ids.pad.add_widget(b)
            if key == "OK":
                self.ok = b
        self.on_digits(self, self.digits)

    def on_digits(self, _inst: Any, digits: str) -> None:
        if hasattr(self, "ok"):
            self.ok.disabled = not digits
        self.refusal_text = ""

    def why_not(self, widget: Any) -> str:
        if widget is getattr(self, "ok", None):
            return _("Key in the badge number first")
        return ""

    def press(self, key: str) -> None:
        if key == "OK":
            if self.digits:
                self.dismiss()
                self.on_done(self.digits)
        elif key == "⌫":
            self.digits = self.digits[:-1]
        elif len(self.digits) < 8:
            self.digits += key
