"""Arizona Hold'em's five-card evaluator beside `treys`, a published one, on the same hands.

    .venv/bin/pip install -e '.[bench]'     # treys: the reference, for this bench only
    .venv/bin/python bench/arizona_evaluator.py [HANDS]

Both evaluators take their own int encoding of each card, made before the clock starts, and
rank the same seeded sample of five-card hands. The bench first checks that the two put every
pair of hands in the same order (ties included), then prints hands per second for each, the
median of five runs, and our speed over treys' (target: at least 1.0). Figures only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.rules.arizona.hands import card_key, strength_of_keys
from kiosk.rules.cards import deck


def _treys() -> tuple[Any, Any]:
    """treys' Card and Evaluator, imported only to measure (--help needs no treys)."""
    try:
        from treys import Card, Evaluator  # type: ignore[import-untyped]
    except ImportError:
        sys.exit("bench/arizona_evaluator.py needs treys: .venv/bin/pip install -e '.[bench]'")
    return Card, Evaluator


def sample(count: int, seed: int = 6) -> list[list[int]]:
    """`count` hands as indexes into the deck."""
    rng = random.Random(seed)
    return [rng.sample(range(52), 5) for _ in range(count)]


def treys_code(index: int) -> str:
    card = deck()[index]
    return card.rank.value + card.suit.value.lower()


def agree(ours: list[int], theirs: list[int]) -> None:
    """The same order: ours larger is better, treys' smaller is better."""
    by_ours = sorted(range(len(ours)), key=lambda i: ours[i])
    for i, j in pairwise(by_ours):
        same = ours[i] == ours[j]
        if same != (theirs[i] == theirs[j]) or (not same and theirs[i] <= theirs[j]):
            sys.exit(f"the evaluators disagree on hands {i} and {j}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hands", type=int, nargs="?", default=200_000,
                        help="hands in the sample (default 200,000)")
    count = parser.parse_args().hands
    treys_card, evaluator_class = _treys()
    hands = sample(count)
    our_cards = [[card_key(deck()[i]) for i in hand] for hand in hands]
    their_cards = [[treys_card.new(treys_code(i)) for i in hand] for hand in hands]
    evaluator = evaluator_class()

    def ours() -> list[int]:
        return [strength_of_keys(a, b, c, d, e) for a, b, c, d, e in our_cards]

    def theirs() -> list[int]:
        five = evaluator.hand_size_map[5]  # what Evaluator.evaluate calls for five cards
        return [five(cards) for cards in their_cards]

    agree(ours(), theirs())
    times: dict[str, list[float]] = {"ours": [], "treys": []}
    for _ in range(5):
        for name, run in (("ours", ours), ("treys", theirs)):
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    ours_s, treys_s = statistics.median(times["ours"]), statistics.median(times["treys"])
    print(f"{count} hands, the same order from both evaluators")
    print(f"ours:  {count / ours_s:12,.0f} hands/s (median of 5)")
    print(f"treys: {count / treys_s:12,.0f} hands/s (median of 5)")
    print(f"ours / treys speed: {treys_s / ours_s:.2f} (target >= 1.0)")


if __name__ == "__main__":
    main()
