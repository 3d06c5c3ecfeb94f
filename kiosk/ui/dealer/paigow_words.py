"""The pai gow tiles dealer screen's words: pure functions from tiles, hands and the state to
what the screen and its dialogs say (no Kivy; tested without drawing).

The tiles' and pairs' names are the Chinese names dealers use (teen, day, gor, chop gow, gee
joon), said as they are in every language; the words around them are in the dealer's
language (kiosk/i18n.py). The journal keeps the rules' English."""

from __future__ import annotations

from kiosk.i18n import _
from kiosk.rules.paigow.hands import Hand, Kind, Setting
from kiosk.rules.paigow.tiles import GROUP, GROUP_NAME, Tile


def tile_words(tile: Tile) -> str:
    """A tile's name on its key: its Chinese name ("teen"); the military tiles, two to a
    name, with their pips ("chop gow 4-5")."""
    if tile.civil:
        return tile.name_words
    return f"{tile.name_words} {tile.code[0]}-{tile.code[1]}"


def hand_words(h: Hand) -> str:
    """A two-tile hand as the dealer says it: "teen pair", "wong", "gong", "high nine",
    "7 (teen)", "0"."""
    kind = h.kind
    if kind is Kind.PAIR:
        # TRANSLATORS: a pai gow pair: the pair's Chinese name ("teen"), then "pair".
        return _("%(name)s pair") % {"name": GROUP_NAME[GROUP[h.tiles[0]]]}
    if kind is Kind.HIGH_NINE:
        # TRANSLATORS: pai gow: teen or day with a seven, the strongest nine.
        return _("high nine")
    if kind is not Kind.POINTS:
        return kind.value  # wong, gong: Chinese names, the same in every language
    if h.points == 0:
        return "0"
    return f"{h.points} ({h.high_tile.name_words})"


def setting_words(setting: Setting) -> str:
    """A way to set four tiles, on two lines: the high hand, then the low."""
    # TRANSLATORS: a pai gow player's high hand (the back hand) and low hand, on a button.
    return "\n".join((_("High: %(hand)s") % {"hand": hand_words(setting.high)},
                      _("Low: %(hand)s") % {"hand": hand_words(setting.low)}))


def area_title(area: int) -> str:
    return _("Area %(area)s") % {"area": area}
