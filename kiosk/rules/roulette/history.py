"""What the sign shows of past spins: the last numbers, hot and cold numbers, and the
percentages of the even chances and dozens (the results are the journal's, not a guess)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from kiosk.rules.roulette.wheel import RED, Wheel


@dataclass(frozen=True, slots=True)
class Percentages:
    """Shares of the last spins, as Fractions (zero is in none of them)."""

    spins: int
    red: Fraction
    black: Fraction
    odd: Fraction
    even: Fraction
    zero: Fraction
    dozens: tuple[Fraction, Fraction, Fraction]


def last(results: tuple[str, ...], n: int = 20) -> tuple[str, ...]:
    """The last `n` numbers, newest first."""
    return tuple(reversed(results[-n:]))


def hot_and_cold(results: tuple[str, ...], wheel: Wheel, n: int = 5, window: int = 100
                 ) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """The `n` numbers seen most and least often in the last `window` spins, with their
    counts; ties go to the number seen most recently (hot) or longest ago (cold). A number
    not seen is never hot."""
    recent = results[-window:]
    counts = Counter(recent)
    last_seen = {p: i for i, p in enumerate(recent)}
    pockets = list(wheel.order)
    hot = sorted((p for p in pockets if counts[p]),
                 key=lambda p: (-counts[p], -last_seen.get(p, -1)))[:n]
    cold = sorted(pockets, key=lambda p: (counts[p], last_seen.get(p, -1)))[:n]
    return (tuple((p, counts[p]) for p in hot), tuple((p, counts[p]) for p in cold))


def percentages(results: tuple[str, ...], window: int = 100) -> Percentages:
    recent = results[-window:]
    n = len(recent)

    def share(k: int) -> Fraction:
        return Fraction(k, n) if n else Fraction(0)

    numbers = [int(p) for p in recent if p not in ("0", "00")]
    return Percentages(
        n,
        red=share(sum(1 for p in recent if p in RED)),
        black=share(sum(1 for x in numbers if str(x) not in RED)),
        odd=share(sum(1 for x in numbers if x % 2)),
        even=share(sum(1 for x in numbers if x % 2 == 0)),
        zero=share(n - len(numbers)),
        dozens=(share(sum(1 for x in numbers if x <= 12)),
                share(sum(1 for x in numbers if 13 <= x <= 24)),
                share(sum(1 for x in numbers if x >= 25))),
    )


def whole_percent(f: Fraction) -> int:
    """A share as a whole percentage, half up (integers only)."""
    return int((f * 200 + 1) // 2)
