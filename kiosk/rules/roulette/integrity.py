"""Is the wheel fair and is it spun as the rules say? For technicians and the pit.

- A chi-squared test of the results over the pockets (what the controller's own `*w` gives,
  recomputed from the journal, so a wheel that lies about itself is still caught);
- direction alternation: rule 3.2 wants every spin the other way from the last;
- games per hour, from the times the spins were settled.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from kiosk.rules.roulette.wheel import Wheel


@dataclass(frozen=True, slots=True)
class Integrity:
    spins: int
    chi_squared: Fraction
    degrees_of_freedom: int
    p_value: float  # the chance of a chi-squared this large from a fair wheel (statistics,
    # never money)
    same_direction: int  # spins turned the same way as the one before (rule 3.2)
    alternation: Fraction  # the share of spins that turned the other way
    games_per_hour: Fraction | None  # over the spins' span; None with fewer than two
    counts: tuple[tuple[str, int], ...]

    @property
    def verdict(self) -> str:
        if self.spins < 5 * len(self.counts):
            return "too few spins to judge (at least five a pocket)"
        if self.p_value < 0.001:
            return "biased: call a technician to check the wheel"
        if self.p_value < 0.05:
            return "watch: unlikely on a fair wheel, keep counting"
        return "fair"

    def as_json(self) -> dict[str, object]:
        return {
            "spins": self.spins,
            "chi_squared": f"{float(self.chi_squared):.3f}",
            "degrees_of_freedom": self.degrees_of_freedom,
            "p_value": f"{self.p_value:.4f}",
            "verdict": self.verdict,
            "same_direction": self.same_direction,
            "alternation_percent": f"{float(self.alternation) * 100:.1f}",
            "games_per_hour": (None if self.games_per_hour is None
                               else f"{float(self.games_per_hour):.1f}"),
            "counts": dict(self.counts),
        }


def chi_squared(results: Sequence[str], wheel: Wheel) -> Fraction:
    """Sum over the pockets of (seen - expected)^2 / expected, exactly."""
    n = len(results)
    if n == 0:
        return Fraction(0)
    k = wheel.pockets
    counts = Counter(results)
    # expected = n / k: sum (c - n/k)^2 / (n/k) = (k/n) * sum c^2 - n
    return Fraction(k * sum(c * c for c in counts.values()), n) - n


def chi_squared_survival(x: float, df: int) -> float:
    """P(X >= x) for a chi-squared with `df` degrees of freedom (closed forms of the upper
    incomplete gamma function for whole and half-whole shapes)."""
    if x <= 0:
        return 1.0
    y = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= y / i
            total += term
        return min(1.0, math.exp(-y) * total)
    total = math.erfc(math.sqrt(y))
    term = math.sqrt(y) / math.gamma(1.5)
    for i in range(1, (df - 1) // 2 + 1):
        if i > 1:
            term *= y / (i - 0.5)
        total += math.exp(-y) * term
    return min(1.0, total)


def integrity(results: Sequence[str], directions: Sequence[str], times: Sequence[int],
              wheel: Wheel) -> Integrity:
    """From the settled spins in order: their numbers, the way each was spun, and when
    (seconds on any one clock: the journal's wall times)."""
    chi = chi_squared(results, wheel)
    df = wheel.pockets - 1
    same = sum(1 for a, b in pairwise(directions) if a == b)
    pairs = max(len(directions) - 1, 0)
    rate = None
    if len(times) >= 2:
        seconds = times[-1] - times[0]
        if seconds > 0:
            rate = Fraction((len(times) - 1) * 3600, seconds)
    counts = Counter(results)
    return Integrity(len(results), chi, df, chi_squared_survival(float(chi), df), same,
                     Fraction(pairs - same, pairs) if pairs else Fraction(1),
                     rate, tuple((p, counts[p]) for p in wheel.order))
