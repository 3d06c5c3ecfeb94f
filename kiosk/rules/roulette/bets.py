"""Every bet the layout takes, what it pays (rule 3.5), and the call bets of rule 3.4.

A bet is a `Placement`: its kind, the pockets it covers and the chips on it. A layout bet is
one placement; a call bet is several, each shown to the dealer with where its chips go
("split 4/7"). Rule 3.5 names eight payouts and nothing else, so there is no five-number bet:
the three-number bets on the zero (0-1-2, 0-2-3) are streets at 11:1 and the first four
(0-1-2-3) a corner at 8:1, the places their chips take on the layout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from kiosk.rules.errors import NotAllowed
from kiosk.rules.roulette.wheel import RED, Wheel, neighbours, section

NUMBERS = tuple(str(n) for n in range(1, 37))


class BetKind(StrEnum):
    """The bets of rule 3.5, by the name on the payout sign."""

    STRAIGHT = "straight"
    SPLIT = "split"
    STREET = "street"
    CORNER = "corner"
    SIX_LINE = "six line"
    COLUMN = "column"
    DOZEN = "dozen"
    RED = "red"
    BLACK = "black"
    ODD = "odd"
    EVEN = "even"
    LOW = "1-18"
    HIGH = "19-36"

    @property
    def pays(self) -> int:
        """Rule 3.5: the win per chip staked, the stake staying the player's."""
        return PAYS[self]

    @property
    def inside(self) -> bool:
        return self in INSIDE

    @property
    def even_chance(self) -> bool:
        return self in EVEN_CHANCES


PAYS: dict[BetKind, int] = {  # rule 3.5
    BetKind.STRAIGHT: 35, BetKind.SPLIT: 17, BetKind.STREET: 11, BetKind.CORNER: 8,
    BetKind.SIX_LINE: 5, BetKind.COLUMN: 2, BetKind.DOZEN: 2,
    BetKind.RED: 1, BetKind.BLACK: 1, BetKind.ODD: 1, BetKind.EVEN: 1, BetKind.LOW: 1,
    BetKind.HIGH: 1,
}
INSIDE = frozenset({BetKind.STRAIGHT, BetKind.SPLIT, BetKind.STREET, BetKind.CORNER,
                    BetKind.SIX_LINE})
EVEN_CHANCES = frozenset({BetKind.RED, BetKind.BLACK, BetKind.ODD, BetKind.EVEN, BetKind.LOW,
                          BetKind.HIGH})
SIZE = {BetKind.STRAIGHT: 1, BetKind.SPLIT: 2, BetKind.STREET: 3, BetKind.CORNER: 4,
        BetKind.SIX_LINE: 6}


@dataclass(frozen=True, slots=True)
class Placement:
    """Chips on one place of the layout: `numbers` are the pockets it covers, in layout order."""

    kind: BetKind
    numbers: tuple[str, ...]
    chips: int

    @property
    def place(self) -> str:
        """Where the chips go, in the dealer's words: "split 4/7", "red", "dozen 13-24"."""
        return place_name(self.kind, self.numbers)

    def wins(self, pocket: str) -> bool:
        return pocket in self.numbers

    def result(self, pocket: str) -> int:
        """The chips this placement wins (+) or loses (-) when `pocket` comes up."""
        return self.chips * self.kind.pays if pocket in self.numbers else -self.chips


def place_name(kind: BetKind, numbers: tuple[str, ...]) -> str:
    if kind in EVEN_CHANCES:
        return kind.value
    if kind is BetKind.COLUMN:
        return f"column {int(numbers[0])}"  # the column of 1, 2 or 3
    if kind is BetKind.DOZEN:
        return f"dozen {numbers[0]}-{numbers[-1]}"
    if kind is BetKind.SIX_LINE:
        return f"six line {numbers[0]}-{numbers[-1]}"
    return f"{kind.value} {'/'.join(numbers)}"


def _row(n: int) -> int:
    return (n - 1) // 3


def _col(n: int) -> int:
    return (n - 1) % 3


_ZERO_SPLITS: dict[Wheel, set[tuple[str, ...]]] = {
    Wheel.SINGLE_ZERO: {("0", "1"), ("0", "2"), ("0", "3")},
    Wheel.DOUBLE_ZERO: {("0", "1"), ("0", "2"), ("00", "2"), ("00", "3"), ("0", "00")},
}
# The trios: three-number streets on the zeros (rule 3.5: 11:1).
_ZERO_STREETS: dict[Wheel, set[tuple[str, ...]]] = {
    Wheel.SINGLE_ZERO: {("0", "1", "2"), ("0", "2", "3")},
    Wheel.DOUBLE_ZERO: {("0", "1", "2"), ("0", "00", "2"), ("00", "2", "3")},
}
_ZERO_CORNERS: dict[Wheel, set[tuple[str, ...]]] = {
    Wheel.SINGLE_ZERO: {("0", "1", "2", "3")}, Wheel.DOUBLE_ZERO: set()}


def _key(label: str) -> int:
    return -1 if label == "00" else int(label)


def layout_order(numbers: tuple[str, ...] | list[str] | set[str]) -> tuple[str, ...]:
    """Pockets in the order the layout reads them (0, 00, then 1 to 36)."""
    return tuple(sorted(set(numbers), key=lambda p: (p != "0", p != "00", _key(p))))


def outside_numbers(kind: BetKind, which: int = 1) -> tuple[str, ...]:
    """The pockets an outside bet covers; `which` is the column (1-3) or the dozen (1-3)."""
    if kind is BetKind.COLUMN:
        if which not in (1, 2, 3):
            raise NotAllowed.of("There are three columns: 1, 2 and 3", "3.5")
        return tuple(str(n) for n in range(which, 37, 3))
    if kind is BetKind.DOZEN:
        if which not in (1, 2, 3):
            raise NotAllowed.of("There are three dozens: 1, 2 and 3", "3.5")
        return tuple(str(n) for n in range(12 * which - 11, 12 * which + 1))
    picks: dict[BetKind, Callable[[int], bool]] = {
        BetKind.RED: lambda n: str(n) in RED, BetKind.BLACK: lambda n: str(n) not in RED,
        BetKind.ODD: lambda n: n % 2 == 1, BetKind.EVEN: lambda n: n % 2 == 0,
        BetKind.LOW: lambda n: n <= 18, BetKind.HIGH: lambda n: n >= 19,
    }
    pick = picks.get(kind)
    if pick is None:
        raise NotAllowed(f"A {kind.value} is an inside bet: name its numbers")
    return tuple(str(n) for n in range(1, 37) if pick(n))


def inside_bet(kind: BetKind, numbers: tuple[str, ...] | list[str], wheel: Wheel
               ) -> tuple[str, ...]:
    """The pockets of an inside bet in layout order, or `NotAllowed` saying why these numbers
    are not that bet on this layout (rule 3.5 has no five-number bet)."""
    nums = layout_order(tuple(numbers))
    if len(nums) != len(numbers):
        raise NotAllowed.of("A number was named twice")
    for p in nums:
        if p not in wheel.order:
            raise NotAllowed(f"{p} is not a number on this wheel")
    if kind not in INSIDE:
        raise NotAllowed(f"A {kind.value} bet is an outside bet")
    if len(nums) != SIZE[kind]:
        raise NotAllowed(f"A {kind.value} covers {SIZE[kind]} number(s), not {len(nums)}",
                         "3.5")
    if kind is BetKind.STRAIGHT:
        return nums
    zeros = [p for p in nums if p in ("0", "00")]
    if zeros:
        table: dict[BetKind, dict[Wheel, set[tuple[str, ...]]]] = {
            BetKind.SPLIT: _ZERO_SPLITS, BetKind.STREET: _ZERO_STREETS,
            BetKind.CORNER: _ZERO_CORNERS}
        if nums in table.get(kind, {}).get(wheel, set()):
            return nums
        raise NotAllowed(f"{'/'.join(nums)} is not a {kind.value} on the layout", "3.5")
    ns = [int(p) for p in nums]
    ok = False
    if kind is BetKind.SPLIT:
        a, b = ns
        ok = (b - a == 1 and _row(a) == _row(b)) or b - a == 3
    elif kind is BetKind.STREET:
        ok = _col(ns[0]) == 0 and ns == [ns[0], ns[0] + 1, ns[0] + 2]
    elif kind is BetKind.CORNER:
        a = ns[0]
        ok = _col(a) < 2 and ns == [a, a + 1, a + 3, a + 4]
    elif kind is BetKind.SIX_LINE:
        a = ns[0]
        ok = _col(a) == 0 and ns == list(range(a, a + 6))
    if not ok:
        raise NotAllowed(f"{'/'.join(nums)} is not a {kind.value} on the layout", "3.5")
    return nums


def placement(kind: BetKind, chips: int, numbers: tuple[str, ...] | list[str] = (),
              which: int = 1, wheel: Wheel = Wheel.SINGLE_ZERO) -> Placement:
    """A layout bet, checked against the layout: inside bets name their numbers, columns and
    dozens `which` one."""
    if chips <= 0:
        raise NotAllowed.of("A bet is at least one chip")
    if kind in INSIDE:
        return Placement(kind, inside_bet(kind, numbers, wheel), chips)
    return Placement(kind, outside_numbers(kind, which), chips)


def _placement_for(numbers: tuple[str, ...]) -> Placement:
    """The one-chip placement covering exactly `numbers` (a piece of a call bet)."""
    nums = layout_order(numbers)
    kind = {1: BetKind.STRAIGHT, 2: BetKind.SPLIT, 3: BetKind.STREET, 4: BetKind.CORNER}[
        len(nums)]
    return Placement(kind, inside_bet(kind, nums, Wheel.SINGLE_ZERO), 1)


class CallBet(StrEnum):
    """The four call bets rule 3.4 recognises (single-zero wheel only)."""

    NEIGHBOURS_OF_ZERO = "neighbours of zero"
    SERIES_5_8 = "series 5/8"
    ORPHANS = "orphans"
    NEIGHBOURS = "number and neighbours"

    @property
    def pieces(self) -> int:
        """The chips one unit of the call needs (rule 3.4: 9, 6, 5 and 5)."""
        return {CallBet.NEIGHBOURS_OF_ZERO: 9, CallBet.SERIES_5_8: 6, CallBet.ORPHANS: 5,
                CallBet.NEIGHBOURS: 5}[self]


def _pieces(*groups: tuple[tuple[str, ...], int]) -> tuple[Placement, ...]:
    out = []
    for numbers, chips in groups:
        p = _placement_for(numbers)
        out.append(Placement(p.kind, p.numbers, chips))
    return tuple(out)


_NEIGHBOURS_OF_ZERO = _pieces(  # rule 3.4: 22 through 0 to 25, 9 chips
    (("0", "2", "3"), 2), (("4", "7"), 1), (("12", "15"), 1), (("18", "21"), 1),
    (("19", "22"), 1), (("25", "26", "28", "29"), 2), (("32", "35"), 1))
_SERIES_5_8 = _pieces(  # rule 3.4: 27 to 33, 12 numbers, 6 chips
    (("5", "8"), 1), (("10", "11"), 1), (("13", "16"), 1), (("23", "24"), 1),
    (("27", "30"), 1), (("33", "36"), 1))
_ORPHANS = _pieces(  # rule 3.4: the remaining numbers, 5 chips
    (("1",), 1), (("6", "9"), 1), (("14", "17"), 1), (("17", "20"), 1), (("31", "34"), 1))


def call_bet(call: CallBet, units: int = 1, number: str | None = None,
             wheel: Wheel = Wheel.SINGLE_ZERO) -> tuple[Placement, ...]:
    """A call bet as the chips it puts on the layout: `units` times each piece (a "5-piece"
    at 2 is 10 chips). A number and its neighbours names its number."""
    if wheel is not Wheel.SINGLE_ZERO:
        raise NotAllowed.of("Call bets are played on the single-zero wheel only", "3.4")
    if units <= 0:
        raise NotAllowed.of("A call bet is at least one chip a piece", "3.4")
    if call is CallBet.NEIGHBOURS:
        if number is None or number not in wheel.order:
            raise NotAllowed.of("Say which number, with its neighbours", "3.4")
        return tuple(Placement(BetKind.STRAIGHT, (p,), units) for p in neighbours(number))
    if number is not None:
        raise NotAllowed(f"{call.value.capitalize()} names no number", "3.4")
    pieces = {CallBet.NEIGHBOURS_OF_ZERO: _NEIGHBOURS_OF_ZERO,
              CallBet.SERIES_5_8: _SERIES_5_8, CallBet.ORPHANS: _ORPHANS}[call]
    return tuple(Placement(p.kind, p.numbers, p.chips * units) for p in pieces)


def call_covers(call: CallBet, number: str | None = None) -> tuple[str, ...]:
    """The pockets a call bet covers, in wheel order (rule 3.4's description of it)."""
    if call is CallBet.NEIGHBOURS_OF_ZERO:
        return section("22", "25")
    if call is CallBet.SERIES_5_8:
        return section("27", "33")
    if call is CallBet.NEIGHBOURS:
        return neighbours(number or "0")
    covered = {p for piece in _ORPHANS for p in piece.numbers}
    return tuple(p for p in Wheel.SINGLE_ZERO.order if p in covered)


def bet_from_taps(kind: BetKind, taps: tuple[str, ...], wheel: Wheel = Wheel.SINGLE_ZERO
                  ) -> tuple[str, ...] | None:
    """The inside bet the dealer's taps on the layout's numbers name, once they name one;
    None while more taps are needed. A street is one tap on any of its numbers (two for a
    trio: the zero and 1 or 3, or 00 and 3); a split two neighbours; a corner two opposite
    corners of its square (0 and 3 for the first four); a six line a number in each of its
    two streets. `NotAllowed` when the taps name no such bet."""
    if kind is BetKind.STRAIGHT:
        return inside_bet(kind, taps[:1], wheel) if taps else None
    zeros = [t for t in taps if t in ("0", "00")]
    if kind is BetKind.STREET:
        if not taps:
            return None
        if not zeros:
            first = (int(taps[0]) - 1) // 3 * 3 + 1
            return inside_bet(kind, (str(first), str(first + 1), str(first + 2)), wheel)
        if len(taps) < 2:
            return None
        z, other = taps[0], taps[1]
        trio: tuple[str, ...]
        if wheel is Wheel.SINGLE_ZERO or z == "00":
            trio = (z, "2", other) if other in ("1", "3") else (z, other)
        else:
            trio = ("0", "1", "2") if other == "1" else ("0", "00", "2")
        return inside_bet(kind, trio, wheel)
    if len(taps) < 2:
        return None
    a, b = taps[0], taps[1]
    if kind is BetKind.SPLIT:
        return inside_bet(kind, (a, b), wheel)
    if kind is BetKind.CORNER:
        if zeros:
            return inside_bet(kind, ("0", "1", "2", "3"), wheel)
        lo, hi = sorted((int(a), int(b)))
        if hi == lo + 4:
            return inside_bet(kind, tuple(str(n) for n in (lo, lo + 1, lo + 3, lo + 4)), wheel)
    elif kind is BetKind.SIX_LINE and not zeros:
        rows = sorted((_row(int(a)), _row(int(b))))
        if rows[1] == rows[0] + 1:
            lo = rows[0] * 3 + 1
            return inside_bet(kind, tuple(str(n) for n in range(lo, lo + 6)), wheel)
    raise NotAllowed(f"Those numbers are not a {kind.value}", "3.5")
