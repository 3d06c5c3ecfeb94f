"""Buttons, chips and tiles shared by the dealer screens: large, coloured, and greyed out when
the engine says the action is not allowed now."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from kiosk.ui import theme
from kiosk.ui.text_label import TextLabel, TintedText

Builder.load_file(str(Path(__file__).with_name("widgets.kv")))


class TableButton(TintedText, Button):  # type: ignore[misc]
    """A rounded, coloured touch target. `selected` draws a gold ring (a chosen option).
    Greyed out, its text is tinted `disabled_color` by the canvas, not rendered again."""

    tone = ColorProperty(theme.FELT_LIGHT)
    selected = BooleanProperty(False)


class ChipButton(ButtonBehavior, TextLabel):  # type: ignore[misc]
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
