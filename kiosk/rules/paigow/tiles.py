"""The 32 tiles of the Chinese set: 21 kinds, the 11 civil kinds twice, the 10 military once.

A tile is written by its pips, the smaller end first: "66" is teen, "12" the Gee Joon three.
That is also how the dealer keys one in (two digits on the keypad, either end first: "31" is
gor, "13") and how a tile reader reports it (`read_tile`: the two digits in ASCII, then CR LF).

>>> parse_tile("31") is Tile.GOR, Tile.GOR.pips, Tile.GOR.name_words
(True, 4, 'gor')
>>> len(SET), len(Tile)
(32, 21)
>>> [t.code for t in parse_tiles("66 11 45 24")]
['66', '11', '45', '24']
>>> read_tile(b"36\\r\\n").name_words
'chop gow'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import StrEnum

from kiosk.rules.errors import UnreadableInput


class Tile(StrEnum):
    """The 21 kinds of tile; the value is the tile code (its pips, the smaller end first).
    Civil tiles first, strongest first, then the military ones by their pips."""

    TEEN = "66"
    DAY = "11"
    YUN = "44"
    GOR = "13"
    MOOY = "55"
    CHONG = "33"
    BON = "22"
    FOO = "56"
    PING = "46"
    TIT = "16"
    LOOK = "15"
    NINE_45 = "45"
    NINE_36 = "36"
    EIGHT_35 = "35"
    EIGHT_26 = "26"
    SEVEN_34 = "34"
    SEVEN_25 = "25"
    FIVE_14 = "14"
    FIVE_23 = "23"
    GEE_JOON_3 = "12"
    GEE_JOON_6 = "24"

    @property
    def code(self) -> str:
        return self.value

    @property
    def pips(self) -> int:
        return int(self.value[0]) + int(self.value[1])

    @property
    def civil(self) -> bool:
        """A civil tile: the set has two of it (a military tile is there once)."""
        return self in CIVIL

    @property
    def copies(self) -> int:
        return 2 if self.civil else 1

    @property
    def gee_joon(self) -> bool:
        """One of the two Gee Joon tiles (1-2, 2-4): counted as 3 or 6, as suits the hand."""
        return self in (Tile.GEE_JOON_3, Tile.GEE_JOON_6)

    @property
    def rank(self) -> int:
        """The tile's strength on its own, 16 the strongest (teen) down to 1 (the Gee Joon
        tiles, the weakest single tiles); tiles of one military group rank the same."""
        return TILE_RANK[self]

    @property
    def name_words(self) -> str:
        """The tile's Chinese name, as the dealers say it ("teen", "chop gow")."""
        return GROUP_NAME[GROUP[self]]


CIVIL = (Tile.TEEN, Tile.DAY, Tile.YUN, Tile.GOR, Tile.MOOY, Tile.CHONG, Tile.BON, Tile.FOO,
         Tile.PING, Tile.TIT, Tile.LOOK)

GROUPS: tuple[tuple[str, tuple[Tile, ...]], ...] = (
    # (name, tiles): the 16 pairs, strongest first. A civil pair is the two tiles of a kind;
    # a military pair is the two tiles of a group (the nines 4-5 and 3-6, and so on); the
    # Gee Joon pair (1-2 with 2-4) is the strongest, though its tiles alone are the weakest.
    ("gee joon", (Tile.GEE_JOON_3, Tile.GEE_JOON_6)),
    ("teen", (Tile.TEEN,)),
    ("day", (Tile.DAY,)),
    ("yun", (Tile.YUN,)),
    ("gor", (Tile.GOR,)),
    ("mooy", (Tile.MOOY,)),
    ("chong", (Tile.CHONG,)),
    ("bon", (Tile.BON,)),
    ("foo", (Tile.FOO,)),
    ("ping", (Tile.PING,)),
    ("tit", (Tile.TIT,)),
    ("look", (Tile.LOOK,)),
    ("chop gow", (Tile.NINE_45, Tile.NINE_36)),
    ("chop bot", (Tile.EIGHT_35, Tile.EIGHT_26)),
    ("chop chit", (Tile.SEVEN_34, Tile.SEVEN_25)),
    ("chop ng", (Tile.FIVE_14, Tile.FIVE_23)),
)
GROUP: dict[Tile, int] = {t: i for i, (_, tiles) in enumerate(GROUPS) for t in tiles}
GROUP_NAME = tuple(name for name, _ in GROUPS)
PAIR_RANK: dict[int, int] = {g: len(GROUPS) - g for g in range(len(GROUPS))}
"""A pair's strength by its group, 16 (Gee Joon) down to 1 (chop ng)."""
_SINGLE_ORDER = (*range(1, len(GROUPS)), 0)  # alone, the Gee Joon tiles rank last
TILE_RANK: dict[Tile, int] = {t: len(GROUPS) - _SINGLE_ORDER.index(GROUP[t]) for t in Tile}

SET: tuple[Tile, ...] = tuple(t for t in Tile for _ in range(t.copies))
"""The 32 tiles of the set, each civil kind twice."""

_NAMES = {t.name.lower().replace("_", "-"): t for t in Tile}


def parse_tile(text: str) -> Tile:
    """A tile from its code, either end first ("13" or "31"), or its kind's name ("teen",
    "gee-joon-3"); `UnreadableInput` says what a tile code is."""
    word = text.strip().lower()
    if len(word) == 2 and word.isdigit():
        code = "".join(sorted(word))
        for kind in Tile:
            if kind.value == code:
                return kind
    named = _NAMES.get(word)
    if named is not None:
        return named
    raise UnreadableInput.of("%(text)r is not a tile: key its pips, two digits such as 66 "
                             "or 12", text=text.strip())


def parse_tiles(text: str | Iterable[str]) -> tuple[Tile, ...]:
    """Tiles from codes separated by spaces or commas ("66 11 45 24"), or from a list."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_tile(w) for w in words)


def read_tile(frame: bytes) -> Tile:
    """A tile reader's report: the tile's two pip digits in ASCII, ended by CR LF
    (b"36\\r\\n"). Anything else is `UnreadableInput`: the dealer keys the tile in."""
    try:
        text = frame.decode("ascii").strip()
    except UnicodeDecodeError:
        raise UnreadableInput(f"the tile reader sent {frame!r}, not a tile code") from None
    if len(text) != 2 or not text.isdigit():
        raise UnreadableInput(f"the tile reader sent {frame!r}, not a tile code")
    return parse_tile(text)


def too_many(tiles: Iterable[Tile]) -> Tile | None:
    """The first kind of which `tiles` hold more than the set has, or None."""
    for tile, n in Counter(tiles).items():
        if n > tile.copies:
            return tile
    return None
