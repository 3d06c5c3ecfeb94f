"""The PIN pad: a dealer signs in, and an inspector or a technician approves an override,
by touch (kiosk/table/roles.py, docs/roles.md). One dialog in up to three steps: the reason
from a short list (an override's; sent in English, the journal's language), then the id,
then the PIN, shown as bullets. A refusal (a wrong PIN, the wrong role, a lockout) is said on
the pad's own line and the PIN is keyed again; nothing is on record until it is accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from kiosk.i18n import N_, _
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.widgets import SaysWhyHere, TableButton

Builder.load_file(str(Path(__file__).with_name("pin_pad.kv")))

OVERRIDE_REASONS = (N_("The shoe misread the card"), N_("Card exposed or dropped"),
                    N_("Device fault"), N_("Inspector's decision"))
"""The reasons an override is given with, when its act has no list of its own."""
ATTENDED_REASON = N_("Answered the dealer's call")
"""The reason on record when the inspector answers a call with their PIN (no choice)."""

Done = Callable[[str, str, str], Any]
"""(id, PIN, reason): raise `RoleRefused` to keep the pad open with the reason said."""

MAX_DIGITS = 8


class PinPad(SaysWhyHere, ModalView):  # type: ignore[misc]
    """See the module's text. `on_done(id, pin, reason)` is called with the PIN keyed; a
    `ValueError` it raises is said on the pad and the PIN keyed again, else the pad closes."""

    title = StringProperty("")
    needs = StringProperty("")  # who may do it: "Needs the inspector's PIN"
    stage = StringProperty("id")  # "reason", "id" or "pin"
    digits = StringProperty("")
    person = StringProperty("")
    reason = StringProperty("")
    field = StringProperty("")  # the line of what is keyed, in the dealer's words
    unit = NumericProperty(1.0)

    def __init__(self, title: str, needs: str, on_done: Done, reasons: Sequence[str] = (),
                 **kwargs: Any) -> None:
        self.on_done = on_done
        self.reasons = tuple(reasons)
        super().__init__(**kwargs)
        from kivy.core.window import Window

        self.unit = theme.ui_unit(Window.width, Window.height)
        self.title, self.needs = title, needs
        self.keys: list[TableButton] = []
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"):
            # TRANSLATORS: the PIN pad's keys: delete the last digit, and done.
            text = {"⌫": _("Del"), "OK": _("OK")}.get(key, key)
            b = TableButton(text=text, font_size=22 * self.unit)
            b.key = key
            b.bind(on_release=lambda w: self.press(w.key))
            self.keys.append(b)
            if key == "OK":
                self.ok = b
        self.reason_buttons = []
        for reason in self.reasons:
            b = TableButton(text=_(reason), font_size=17 * self.unit)
            b.reason = reason
            b.bind(on_release=lambda w: self.choose(w.reason))
            self.reason_buttons.append(b)
        self.go("reason" if self.reasons else "id")

    def go(self, stage: str) -> None:
        """Show one step: the reasons, or the pad for the id or the PIN."""
        self.stage = stage
        self.digits = ""
        body = self.ids.body
        body.clear_widgets()
        body.cols = 1 if stage == "reason" else 3
        for b in self.reason_buttons if stage == "reason" else self.keys:
            body.add_widget(b)
        self.show_field()

    def show_field(self) -> None:
        if self.stage == "reason":
            self.field = _("Choose the reason")
        elif self.stage == "id":
            self.field = _("Id: %(id)s") % {"id": self.digits or "—"}
        else:
            self.field = _("%(id)s, PIN: %(dots)s") % {
                "id": self.person, "dots": "•" * len(self.digits) or "—"}
        self.ok.disabled = not self.digits
        self.refusal_text = "" if self.digits else self.refusal_text

    def on_digits(self, _inst: Any, _digits: str) -> None:
        if hasattr(self, "ok"):
            self.show_field()

    def why_not(self, widget: Any) -> str:
        if widget is getattr(self, "ok", None):
            return (_("Key in your id first") if self.stage == "id"
                    else _("Key in your PIN first"))
        return ""

    def choose(self, reason: str) -> None:
        self.reason = reason
        self.go("id")

    def press(self, key: str) -> None:
        if key == "OK":
            if not self.digits:
                return
            if self.stage == "id":
                self.person = self.digits
                self.go("pin")
            else:
                self.submit(self.digits)
        elif key == "⌫":
            self.digits = self.digits[:-1]
        elif len(self.digits) < MAX_DIGITS:
            self.digits += key

    def submit(self, pin: str) -> None:
        try:
            self.on_done(self.person, pin, self.reason)
        except ValueError as exc:
            self.refuse(str(exc))
            return
        self.dismiss()

    def refuse(self, why: str) -> None:
        """A refusal on the pad's line; the PIN is keyed again (a lockout: the id)."""
        self.go("pin")
        self.refusal_text = why

    def cancel(self) -> None:
        self.dismiss()
