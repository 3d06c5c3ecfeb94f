"""The best raises, as rules a player (and the demo's simulated players) can follow.

They are the tables of docs/arizona-holdem.md in code; `tests/rules/arizona/test_odds.py`
proves them equal, kind of hand by kind of hand, to what the exact count decided
(`odds.arizona_odds`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.rules.arizona.odds import first_holding, second_holding
from kiosk.rules.cards import Card

FIRST_SUITED = frozenset({
    "AKQ", "AKJ", "AKT", "AQJ", "AQT", "AJT", "KQJ", "KQT", "KQ9", "KJT", "KJ9", "KT9",
    "QJT", "QJ9", "QJ8", "QT9", "QT8", "JT9", "JT8", "JT7", "J98", "T98", "T97", "T87",
    "987", "876", "765", "654", "543",
})
"""Three suited cards worth a raise in circle 1."""
FIRST = frozenset({"three or four of a kind", "a pair of tens or better", "QJT suited",
                   "QJT two suited", "QJT no two suited"} | {f"{r} suited" for r in
                                                              FIRST_SUITED})
SECOND = frozenset({
    "a pair of tens or better", "two pairs", "three or four of a kind", "four to a flush",
    "four to an open-ended straight",
    "four to an inside or one-way straight, three or more tens or higher",
})


def raises_first(cards: Sequence[Card]) -> bool:
    """Raise in circle 1 with these three cards."""
    return first_holding(tuple(cards)) in FIRST


def raises_second(cards: Sequence[Card]) -> bool:
    """Raise in circle 2 with these three cards and the first community card."""
    return second_holding(tuple(cards)) in SECOND
