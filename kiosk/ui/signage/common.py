"""What every sign draws the same way (common.kv): the limit lines of rule 2.2, and the unit
every size on a sign is measured in."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.ui import theme
from kiosk.ui.text_label import TextLabel  # noqa: F401  (registers the class the .kv uses)

KV = Path(__file__).with_name("common.kv")


def sign_unit(width: float, height: float) -> float:
    """1% of the height on a 16:9 sign; narrower landscape signs by their width; a portrait
    sign, laid out in one column, by its width."""
    if height > width:
        return max(2.0, width / 100.0)
    return max(2.0, min(height / 100.0, width / 178.0))


class LimitLine(BoxLayout):  # type: ignore[misc]
    """One limit: its caption ("MIN", "STRAIGHT UP") and the amount."""

    caption = StringProperty("")
    amount = StringProperty("")
    unit = NumericProperty(10.0)
    caption_units = NumericProperty(7.0)  # the caption's width, in units
    ink = ColorProperty(theme.IVORY)
    caption_ink = ColorProperty(theme.MUTED)


if str(KV) not in Builder.files:
    Builder.load_file(str(KV))
