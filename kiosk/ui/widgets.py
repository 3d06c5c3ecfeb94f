"""Buttons, chips and tiles shared by the dealer screens: large, coloured, and greyed out when
the engine says the action is not allowed now."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from kiosk.i18n import _, said
from kiosk.ui import theme
from kiosk.ui.text_label import TextLabel, TintedText

Builder.load_file(str(Path(__file__).with_name("widgets.kv")))
log = logging.getLogger(__name__)


class ExplainsRefusal:
    """A control not allowed now still answers a tap: the screen it is on says
    why, in the rule's words, as it says why an action was refused, instead of a grey button
    that does nothing."""

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled and self.collide_point(*touch.pos):  # type: ignore[attr-defined]
            explain_refusal(self)
            return True
        return bool(super().on_touch_down(touch))  # type: ignore[misc]


def explain_refusal(widget: Any) -> bool:
    """Ask the nearest screen that can (`explain_refusal`) to say why `widget` is not
    allowed now; False when none can."""
    w = widget.parent
    while w is not None and w is not getattr(w, "parent", None):
        explain = getattr(w, "explain_refusal", None)
        if callable(explain):
            explain(widget)
            return True
        w = getattr(w, "parent", None)
    return False


def refusal_words(why: str) -> str:
    """A refusal as the dealer reads it: the rules' sentence in the dealer's language when
    they worded it with a template (a `Refused`), else the text as it is (the screens' own
    words are translated where they are made)."""
    sentence = getattr(why, "sentence", None)
    return said(sentence) if sentence is not None else str(why)


class SaysWhyHere:
    """Mixin for a dialog over the screen: a greyed-out control inside it, tapped,
    says why on the dialog's own line (`refusal_text`), where the dealer is looking; the
    screen's alert is behind the dialog's dimmed backdrop, where no one reads it. The reason
    is the rules' sentence where they refuse the act (`why_not`), else the dialog's words.
    The line is cleared by the dialog when its entries change."""

    refusal_text = StringProperty("")

    def explain_refusal(self, widget: Any) -> None:
        why = self.why_not(widget)
        if not why:
            name = (getattr(widget, "text", "") or "").splitlines()
            why = (_("%(button)s is not possible now") % {"button": name[0]} if name
                   else _("This is not possible now"))
        log.info("%s: %s", type(self).__name__, why)  # the rules' English, when theirs
        self.refusal_text = refusal_words(why)

    def why_not(self, widget: Any) -> str:  # each dialog says why
        """Why `widget` is greyed out now: the rules' `Refused` sentence, or the dialog's
        own words in the dealer's language; "" for the general answer."""
        return ""


class RefusalLine(TextLabel):
    """A dialog's line for a refusal: the screen's warning look (dark words on amber), drawn
    only while it has words; the dialog gives it a height then."""


class TableButton(ExplainsRefusal, TintedText, Button):  # type: ignore[misc]
    """A rounded, coloured touch target. `selected` draws a gold ring (a chosen option).
    Greyed out, its text is tinted `disabled_color` by the canvas, not rendered again."""

    tone = ColorProperty(theme.FELT_LIGHT)
    selected = BooleanProperty(False)


class ChipButton(ExplainsRefusal, ButtonBehavior, TextLabel):  # type: ignore[misc]
    """A casino chip: a round button showing its value."""

    tone = ColorProperty(theme.PLAYER)
    value = NumericProperty(0)  # cents


class Panel(BoxLayout):
    """A darker rounded panel on the felt."""

    tone = ColorProperty(theme.FELT_DARK)


class AreaTile(ButtonBehavior, BoxLayout):
    """One numbered betting area (rule 5.2): its number and what is bet or paid there."""

    area = StringProperty("")
    title = StringProperty("")
    detail = StringProperty("")
    selected = BooleanProperty(False)
    attention = BooleanProperty(False)  # owes commission or has a payout to make
    unit = NumericProperty(1.0)
