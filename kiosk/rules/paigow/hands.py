"""Two-tile hands, their values and comparisons, and a 4-tile hand set into a high and a low.

- A **pair** (the two tiles of one group, `tiles.GROUPS`) beats every other hand; pairs rank
  Gee Joon, teen, day, yun, gor, mooy, chong, bon, foo, ping, tit, look, then the military
  pairs chop gow (the nines), chop bot (eights), chop chit (sevens), chop ng (fives).
- **Wong**: teen or day with a nine (11 points); **gong**: teen or day with an eight
  (10 points, yun among the eights); both beat every hand of points but lose to a pair.
- Otherwise the hand's **points** are its pips' last digit (0 to 9). Teen or day with a seven
  makes nine, the **high nine**, the strongest nine by its teen or day.
- A Gee Joon tile alone counts as 3 or 6, whichever makes the better hand.
- Equal points: the hand with the higher-ranking highest tile wins (`Tile.rank`); equal
  highest tiles are a **copy** and go to the banker, and so does every zero against zero.

`Hand.key` orders hands: a hand beats another exactly when its key is greater; equal keys are
copies, which the banker wins (`beats`).

>>> from kiosk.rules.paigow.tiles import Tile, parse_tiles
>>> hand(Tile.TEEN, Tile.NINE_45).words, hand(Tile.DAY, Tile.YUN).words
('wong', 'gong')
>>> hand(Tile.GEE_JOON_3, Tile.LOOK).points     # 3 or 6 with look's 6: 12 -> 2, 9 -> 9
9
>>> s = set_hand(parse_tiles("66 45"), parse_tiles("12 24"))   # the low outranks the high
Traceback (most recent call last):
...
kiosk.rules.errors.NotAllowed: The low hand gee joon pair may not outrank the high hand wong
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from kiosk.rules.errors import NotAllowed, Said, UnreadableInput
from kiosk.rules.paigow.tiles import GROUP, GROUP_NAME, PAIR_RANK, Tile, too_many

WONG = 11
GONG = 10
_PAIR_BASE = 1000
_POINTS_STEP = 20  # above every tile rank (1..16)


class Kind(StrEnum):
    PAIR = "pair"
    WONG = "wong"
    GONG = "gong"
    HIGH_NINE = "high nine"
    POINTS = "points"


class Result(StrEnum):
    """A player's two hands against the banker's: both win, both lose, or a stand-off."""

    WIN = "win"
    LOSE = "lose"
    STANDOFF = "stand-off"


def _is_pair(a: Tile, b: Tile) -> bool:
    return GROUP[a] == GROUP[b] and (a == b or not a.civil)


def _points(a: Tile, b: Tile) -> int:
    options = [a.pips] if not a.gee_joon else [3, 6]
    others = [b.pips] if not b.gee_joon else [3, 6]
    return max((x + y) % 10 for x in options for y in others)


@dataclass(frozen=True, slots=True)
class Hand:
    """Two tiles, the stronger first."""

    tiles: tuple[Tile, Tile]

    @property
    def kind(self) -> Kind:
        a, b = self.tiles
        if _is_pair(a, b):
            return Kind.PAIR
        big = a if a in (Tile.TEEN, Tile.DAY) else b if b in (Tile.TEEN, Tile.DAY) else None
        if big is not None:
            other = b if big is a else a
            if other.pips == 9:
                return Kind.WONG
            if other.pips == 8:
                return Kind.GONG
            if other.pips == 7:
                return Kind.HIGH_NINE
        return Kind.POINTS

    @property
    def points(self) -> int:
        """0 to 9; wong counts 11 and gong 10 (a pair has the points of its pips, unused)."""
        kind = self.kind
        if kind is Kind.WONG:
            return WONG
        if kind is Kind.GONG:
            return GONG
        return _points(*self.tiles)

    @property
    def high_tile(self) -> Tile:
        return self.tiles[0]

    @property
    def key(self) -> int:
        """Greater beats smaller; equal is a copy (the banker's)."""
        a, b = self.tiles
        if self.kind is Kind.PAIR:
            return _PAIR_BASE + PAIR_RANK[GROUP[a]]
        points = self.points
        if points == 0:
            return 0  # every zero is the same: the banker wins zero against zero
        return points * _POINTS_STEP + a.rank

    @property
    def words(self) -> str:
        """"teen pair", "wong", "gong", "high nine", "7 (teen)": the hand as the dealer says it."""
        kind = self.kind
        if kind is Kind.PAIR:
            return f"{GROUP_NAME[GROUP[self.tiles[0]]]} pair"
        if kind is not Kind.POINTS:
            return kind.value
        if self.points == 0:
            return "0"
        return f"{self.points} ({self.high_tile.name_words})"

    @property
    def said(self) -> Said:
        """`words` for a step or a refusal: a pair and the high nine said in the dealer's
        language (the tiles' Chinese names, wong and gong are the same in every language)."""
        kind = self.kind
        if kind is Kind.PAIR:
            return Said.words("%(name)s pair", name=GROUP_NAME[GROUP[self.tiles[0]]])
        if kind is Kind.HIGH_NINE:
            return Said.words("high nine")
        return Said(self.words)

    @property
    def codes(self) -> str:
        return " ".join(t.code for t in self.tiles)


def hand(a: Tile, b: Tile) -> Hand:
    """The hand of two tiles, the higher-ranking tile first."""
    return Hand((a, b) if (a.rank, a.value) >= (b.rank, b.value) else (b, a))


def beats(one: Hand, other: Hand) -> bool:
    """`one` beats `other` outright; a copy (equal keys) does not."""
    return one.key > other.key


@dataclass(frozen=True, slots=True)
class Setting:
    """A 4-tile hand set into two: `high` (the back hand) never weaker than `low`."""

    high: Hand
    low: Hand

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return (*self.high.tiles, *self.low.tiles)

    @property
    def words(self) -> str:
        return f"{self.high.words} / {self.low.words}"

    @property
    def codes(self) -> str:
        return f"{self.high.codes} | {self.low.codes}"


def verify_set_hand(high: Sequence[Tile], low: Sequence[Tile]) -> None:
    """Two tiles in each hand, no more of a kind than the set has, the low not the stronger."""
    if len(high) != 2 or len(low) != 2:
        raise NotAllowed.of("Set four tiles: two in the high hand and two in the low")
    extra = too_many((*high, *low))
    if extra is not None:
        raise NotAllowed.of("The set has only %(copies)s of %(tile)s", copies=extra.copies,
                            tile=extra.code)
    h, lo = hand(*high), hand(*low)
    if lo.key > h.key:
        raise NotAllowed.of("The low hand %(low)s may not outrank the high hand %(high)s",
                            low=lo.said, high=h.said)


def set_hand(high: Sequence[Tile], low: Sequence[Tile]) -> Setting:
    verify_set_hand(high, low)
    return Setting(hand(*high), hand(*low))


def splits(tiles: Sequence[Tile]) -> tuple[Setting, ...]:
    """The ways to set four tiles (three, fewer when tiles repeat), each with its stronger hand
    high, in a fixed order."""
    if len(tiles) != 4:
        raise UnreadableInput(f"a hand is four tiles, not {len(tiles)}")
    first, *rest = tiles
    out: list[Setting] = []
    seen: set[tuple[Hand, Hand]] = set()
    for i in range(3):
        partner = rest[i]
        others = [t for j, t in enumerate(rest) if j != i]
        one, two = hand(first, partner), hand(*others)
        high, low = (one, two) if one.key >= two.key else (two, one)
        if (high, low) not in seen:
            seen.add((high, low))
            out.append(Setting(high, low))
    return tuple(out)


def match(player: Setting, banker: Setting) -> Result:
    """Rules 13.1.6, 13.2.5, 13.3.5: each hand against the banker's hand of its kind (high
    against high, low against low); copies go to the banker."""
    high, low = beats(player.high, banker.high), beats(player.low, banker.low)
    if high and low:
        return Result.WIN
    if not high and not low:
        return Result.LOSE
    return Result.STANDOFF


def all_hands() -> tuple[Hand, ...]:
    """Every two-tile hand by its kinds of tile (221 of them), strongest first."""
    from kiosk.rules.paigow.tiles import SET

    return tuple(sorted({hand(a, b) for a, b in combinations(SET, 2)},
                        key=lambda h: (-h.key, h.tiles)))
