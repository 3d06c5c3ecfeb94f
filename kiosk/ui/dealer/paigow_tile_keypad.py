"""Keying in an area's four pai gow tiles and how they are set (high and low).

The dealer taps the four tiles (the 21 kinds of the Chinese set, each drawn with its pips),
then one of the ways to set them: each way has its stronger hand high, so a setting chosen
here never has the low outrank the high (`hands.splits`). A kind the set has no more of (a
civil tile twice, a military tile once, counting every tile keyed this round) is grey, and,
tapped, says why on the pad's own line; so do "Set" before a setting is chosen and "Take
back" with nothing keyed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from kiosk.i18n import _
from kiosk.rules.paigow.hands import Setting, splits
from kiosk.rules.paigow.tiles import Tile
from kiosk.ui import (
    theme,
    widgets as _widgets,  # noqa: F401  (registers the shared kv rules)
)
from kiosk.ui.dealer.paigow_words import setting_words, tile_words
from kiosk.ui.tile_face import TileFace  # noqa: F401  (registers the class the .kv uses)
from kiosk.ui.widgets import ExplainsRefusal, SaysWhyHere, TableButton

Builder.load_file(str(Path(__file__).with_name("paigow_tile_keypad.kv")))

HAND = 4
"""Tiles to an area (a player's hand, set into two hands of two)."""


class TileKey(ExplainsRefusal, ButtonBehavior, BoxLayout):  # type: ignore[misc]
    """One kind of tile on the pad: the tile drawn, its name under it."""

    code = StringProperty("")
    name = StringProperty("")
    unit = NumericProperty(1.0)


class TileKeypad(SaysWhyHere, ModalView):  # type: ignore[misc]
    """Four tiles, then how they are set; "Set" sends the setting."""

    title = StringProperty("")
    keyed = ListProperty([])  # the tile codes keyed so far, in order
    chosen = NumericProperty(-1)  # the index of the setting chosen among `settings`
    can_set = BooleanProperty(False)
    unit = NumericProperty(1.0)
    touch = NumericProperty(48.0)

    def __init__(self, title: str, *, left: Callable[[Tile], int],
                 on_set: Callable[[Setting], object],
                 refused: Callable[[Setting], str] = lambda _s: "",
                 tiles: tuple[Tile, ...] = (), **kwargs: Any) -> None:
        """`left(tile)`: how many of the kind the set still holds for this area (the tiles
        keyed for the other areas and the banker taken out); `on_set`: the setting chosen;
        `refused(setting)`: the rules' sentence when the game would not take it now ("" when
        it would); `tiles`: the area's tiles keyed before, to change their setting."""
        self.left = left
        self.on_set = on_set
        self.refused = refused
        self.settings: tuple[Setting, ...] = ()
        super().__init__(**kwargs)
        from kivy.core.window import Window

        self.unit = theme.ui_unit(Window.width, Window.height)
        self.touch = max(theme.Metrics(theme.PI_TOUCHSCREEN_PX_PER_MM).touch, 46 * self.unit)
        self.title = title
        for tile in Tile:
            key = TileKey(code=tile.code, name=tile_words(tile), unit=self.unit)
            key.tile = tile
            key.bind(on_release=lambda k: self.key(k.tile))
            self.ids.tile_keys.add_widget(key)
        self.keyed = [t.code for t in tiles]
        self.refresh()

    # --- entries -------------------------------------------------------------------------

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(Tile(code) for code in self.keyed)

    def key(self, tile: Tile) -> None:
        if self._key_refused(tile):
            return
        self.keyed = [*self.keyed, tile.code]
        self.chosen = -1
        self.refresh()

    def take_back(self) -> None:
        if self.keyed:
            self.keyed = self.keyed[:-1]
            self.chosen = -1
            self.refresh()

    def choose(self, index: int) -> None:
        self.chosen = index
        self.refresh()

    def set_hand(self) -> None:
        if not self.can_set:
            return
        setting = self.settings[self.chosen]
        self.dismiss()
        self.on_set(setting)

    # --- showing -------------------------------------------------------------------------

    def refresh(self) -> None:
        self.refusal_text = ""
        keyed = self.tiles()
        for slot, face in enumerate(self.ids.slots.children[::-1]):
            face.code = keyed[slot].code if slot < len(keyed) else ""
            face.highlight = slot == len(keyed)
        for key in self.ids.tile_keys.children:
            key.disabled = bool(self._key_refused(key.tile))
        self.settings = splits(keyed) if len(keyed) == HAND else ()
        row = self.ids.settings
        row.clear_widgets()
        for i, setting in enumerate(self.settings):
            b = TableButton(text=setting_words(setting), font_size=15 * self.unit,
                            tone=theme.PLAYER, selected=i == self.chosen)
            b.index = i
            b.disabled = bool(self.refused(setting))
            b.bind(on_release=lambda w: self.choose(int(w.index)))
            row.add_widget(b)
        if not self.settings:
            row.add_widget(_hint(_("Key in four tiles: then choose how they are set")
                                 if len(keyed) < HAND else "", self.unit))
        self.ids.take_back.disabled = not keyed
        self.can_set = 0 <= self.chosen < len(self.settings) and not self.refused(
            self.settings[self.chosen])

    def _key_refused(self, tile: Tile) -> str:
        if len(self.keyed) >= HAND:
            # TRANSLATORS: a grey tile on the tile keypad: the area has its four tiles.
            return _("The area has its four tiles: take one back to key another")
        if self.keyed.count(tile.code) >= self.left(tile):
            # TRANSLATORS: a grey tile on the tile keypad: the set holds one of a military
            # tile and two of a civil one, and they are out this round.
            return _("No %(tile)s is left in the set this round: each is keyed already") % {
                "tile": tile_words(tile)}
        return ""

    def why_not(self, widget: Any) -> str:
        tile = getattr(widget, "tile", None)
        if tile is not None:
            return self._key_refused(tile)
        if hasattr(widget, "index"):
            return self.refused(self.settings[int(widget.index)])
        if widget is self.ids.take_back.__self__:
            # TRANSLATORS: the grey "Take back" of the tile keypad.
            return _("No tile keyed yet: Take back removes the last tile keyed")
        if len(self.keyed) < HAND:
            return _("Key in four tiles: then choose how they are set")
        if 0 <= self.chosen < len(self.settings):
            return self.refused(self.settings[self.chosen])
        # TRANSLATORS: the grey "Set" of the tile keypad: no setting chosen yet.
        return _("Choose how the tiles are set: the high hand and the low hand")


def _hint(text: str, unit: float) -> Any:
    from kiosk.ui.text_label import TextLabel

    label = TextLabel(text=text, font_size=15 * unit, color=theme.IVORY, halign="center",
                      valign="middle")
    label.bind(size=lambda lb, sz: setattr(lb, "text_size", sz))
    return label

