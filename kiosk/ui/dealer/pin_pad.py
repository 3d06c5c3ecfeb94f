"""The PIN pad: a dealer signs in, and an inspector or a technician approves an override,
by touch (kiosk/table/roles.py, docs/roles.md). One dialog in up to three steps: the reason
from a short list (an override's; sent in English, the journal's language) or "Other…",
which opens a letter pad on the dialog for a reason in the inspector's own words; then the
id, then the PIN, shown as bullets. A refusal (a wrong PIN, the wrong role, a lockout) is
said on the pad's own line and the PIN is keyed again; nothing is on record until it is
accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
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
MAX_REASON = 80
"""The longest reason in the inspector's own words (the letter pad stops there)."""
LETTER_ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL-", "ZXCVBNM,.'")
"""The letter pad's keys, row by row; a last row holds space, delete and OK."""
OTHER = "other"
"""The reason button that opens the letter pad."""


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
        if self.reasons:
            # TRANSLATORS: a reason button: type the override's reason in your own words.
            b = self.other = TableButton(text=_("Other…"), font_size=17 * self.unit)
            b.reason = OTHER
            b.bind(on_release=lambda _w: self.go("text"))
            self.reason_buttons.append(b)
        self.text = ""
        self.letter_rows = self._letter_pad()
        self.go("reason" if self.reasons else "id")

    def _letter_pad(self) -> list[BoxLayout]:
        """The letter pad's rows: letters, digits and marks, then space, delete and OK."""
        rows, self.letters = [], []
        for keys in LETTER_ROWS:
            row = BoxLayout(spacing=4 * self.unit)
            for key in keys:
                b = TableButton(text=key, font_size=17 * self.unit)
                b.key = key
                b.bind(on_release=lambda w: self.type(w.key))
                row.add_widget(b)
                self.letters.append(b)
            rows.append(row)
        row = BoxLayout(spacing=4 * self.unit)
        # TRANSLATORS: the letter pad's keys: a space, delete the last letter, and done.
        for key, text, width in ((" ", _("Space"), 0.5), ("⌫", _("Del"), 0.25),
                                 ("OK", _("OK"), 0.25)):
            b = TableButton(text=text, font_size=17 * self.unit, size_hint_x=width)
            b.key = key
            b.bind(on_release=lambda w: self.type(w.key))
            row.add_widget(b)
            self.letters.append(b)
            if key == "OK":
                self.text_ok = b
        rows.append(row)
        return rows

    def go(self, stage: str) -> None:
        """Show one step: the reasons, or the pad for the id or the PIN."""
        self.stage = stage
        self.digits = ""
        body = self.ids.body
        body.clear_widgets()
        body.cols = 1 if stage in ("reason", "text") else 3
        shown = {"reason": self.reason_buttons, "text": self.letter_rows}.get(stage, self.keys)
        for b in shown:
            body.add_widget(b)
        self.show_field()

    def show_field(self) -> None:
        if self.stage == "reason":
            self.field = _("Choose the reason")
        elif self.stage == "text":
            typed = self.text if len(self.text) <= 28 else "…" + self.text[-27:]
            self.field = _("Reason: %(text)s") % {"text": typed or "—"}
            self.text_ok.disabled = not self.text.strip()
            return
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
        if widget is getattr(self, "text_ok", None):
            return _("Type the reason first")
        if widget is getattr(self, "ok", None):
            return (_("Key in your id first") if self.stage == "id"
                    else _("Key in your PIN first"))
        return ""

    def choose(self, reason: str) -> None:
        self.reason = reason
        self.go("id")

    def type(self, key: str) -> None:
        """A key of the letter pad: a letter (lower case after the first), a space, delete,
        or OK, which takes the reason typed and goes on to the id."""
        if key == "OK":
            reason = " ".join(self.text.split())
            if reason:
                self.choose(reason[0].upper() + reason[1:])
            return
        if key == "⌫":
            self.text = self.text[:-1]
        elif len(self.text) < MAX_REASON and not (key == " " and self.text[-1:] in ("", " ")):
            self.text += key if not self.text.strip() else key.lower()
        self.refusal_text = ""
        self.show_field()

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
