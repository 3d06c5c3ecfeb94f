"""The house edge of a configured blackjack table, by playing the engine itself.

Every round goes through the same verify + Operation + apply path the table runs: seven boxes
bet the table minimum, each plays the basic strategy computed for the house's rules
(kiosk/rules/blackjack/strategy.py), insurance and even money are declined, the shoe is cut
with the cutting card a quarter from the back, and the cutting card brings the shuffle at the
end of its round (rule 4.1.3, shuffle and cut). Not part of kiosk/rules: it draws cards from a
seeded random shoe.

The edge is the players' loss per unit of initial bet. Boxes in one round share the dealer's
hand, so the round (all seven boxes) is the sample for the confidence interval.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card, deck
from kiosk.rules.operations import Operation

Z95 = 1.959964  # two-sided 95% normal quantile


class Decider(Protocol):
    def decide(self, hand_points: Sequence[int], dealer_up: int, *, can_double: bool,
               can_split: bool, can_surrender: bool) -> str: ...


@dataclass(frozen=True, slots=True)
class Tally:
    """Sums over rounds, in cents (mergeable across processes)."""

    rounds: int = 0
    hands: int = 0  # initial boxes played
    wagered: int = 0  # initial bets
    net: int = 0  # the players' net result
    net_sq: float = 0.0  # sum over rounds of (round net / unit)^2
    unit: int = 1


    def __add__(self, other: Tally) -> Tally:
        return Tally(self.rounds + other.rounds, self.hands + other.hands,
                     self.wagered + other.wagered, self.net + other.net,
                     self.net_sq + other.net_sq, self.unit)

    @property
    def edge(self) -> float:
        """The house edge: the players' loss per unit of initial bet."""
        return -self.net / self.wagered if self.wagered else 0.0

    @property
    def half_width(self) -> float:
        """The 95% confidence half-width of `edge` (round sums as the samples)."""
        if self.rounds < 2:
            return math.inf
        per_round_units = self.hands / self.rounds
        mean = self.net / self.unit / self.rounds
        var = (self.net_sq / self.rounds - mean * mean) * self.rounds / (self.rounds - 1)
        return Z95 * math.sqrt(var / self.rounds) / per_round_units


def shuffled(decks: int, rng: random.Random) -> list[Card]:
    """A shuffled shoe for the simulation: Fisher-Yates on `rng.random()` (its bias, under
    one in 2^50, is far below the simulation's noise; `random.shuffle` costs ten times more)."""
    cards = [c for _ in range(decks) for c in deck()]
    draw = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(draw() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


class Simulator:
    """Plays rounds of `rules` through the engine with `strategy` (a basic strategy)."""

    def __init__(self, rules: BlackjackRules, strategy: Decider, seed: int, boxes: int = 7
                 ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.seed = seed
        self.boxes = boxes
        self.shuffles = 0
        self.ops = 0
        self.state = bj.initial_state(rules, "SIM")
        self.rng = random.Random(seed)
        self.cards = shuffled(rules.decks, self.rng)
        self.position = 0
        self.size = 52 * rules.decks
        # The cutting card a quarter from the back; half way for a one- or two-deck game
        # (rule 4.5 allows up to half), so a round of every box never empties the shoe.
        self.from_back = self.size // 4 if rules.decks > 2 else self.size // 2
        self.voided = 0
        self.cut_out = False
        self._do(bj.open_table(rules, "SIM"))

    def _do(self, op: Operation) -> Operation:
        self.state = bj.apply(self.state, op)
        self.ops += 1
        return op

    def _new_shoe(self) -> None:
        """Rules 4.1-4.7 (shuffle and cut): shuffle, the right player cuts, burn one."""
        self.shuffles += 1
        self.cards = shuffled(self.rules.decks, self.rng)
        self.position = 0
        self.cut_out = False
        s = self.state
        if self.rules.shuffler:
            if bj.can_shuffle(s, "hand"):
                self._do(bj.shuffle(s, "hand"))
            self._do(bj.shuffle(self.state, "shuffler"))
        else:
            self._do(bj.shuffle(s))
            prep = self.state.prep
            box = prep.offered_to()
            self._do(bj.cut_cards(self.state, box if box is not None else 1, self.size // 2,
                                  self.from_back))
        card = self._next_card()
        self._do(bj.shoe_card(self.state, card))  # the burn (rule 4.7)

    def _next_card(self) -> Card:
        if not self.cut_out and self.size - self.position <= self.from_back:
            self.cut_out = True
            self._do(bj.cut_card_out(self.state))
        if self.position >= self.size:
            raise IndexError("the shoe is empty")
        self.position += 1
        return self.cards[self.position - 1]

    def _card(self) -> None:
        card = self._next_card()  # may put the cutting card out first: then read the state
        op = bj.shoe_card(self.state, card)
        if not isinstance(op, bj.CardDealt):
            raise RuntimeError(f"the engine did not deal the card: {op}")
        self._do(op)

    def play_round(self) -> int:
        """One round; returns the players' net in cents."""
        rules = self.rules
        if self.state.prep.stage is not Stage.READY:
            self._new_shoe()
        for box in range(1, self.boxes + 1):  # every box bets the table minimum
            self._do(bj.place_bet(self.state, box, rules.minimum))
        self._do(bj.close_betting(self.state))
        if not self.cut_out and self.size - self.position <= self.from_back:
            # The cutting card is the first card of the round: shuffle now (rule 4.1.2).
            self.cut_out = True
            self._do(bj.cut_card_out(self.state))
            self._new_shoe()  # the bets stay closed; the round is dealt from the new shoe
        decide = self.strategy.decide
        while True:
            s = self.state
            phase = s.phase
            if phase is bj.Phase.PAYING:
                break
            if phase is bj.Phase.PLAYING:
                if bj.can_pay_blackjack(s):
                    self._do(bj.pay_blackjack(s))
                    continue
                h = s.current
                assert h is not None
                if len(h.points) < 2 or h.doubled:
                    self._card()  # a split hand's second card, a double's one card
                    continue
                flags = bj.decision_flags(s)
                assert flags is not None
                choice = decide(h.points, s.dealer_points[0], can_double=flags[0],
                                can_split=flags[1], can_surrender=flags[2])  # a StrEnum
                if choice == "stand":
                    self._do(bj.stand(s))
                elif choice == "hit":
                    self._card()
                elif choice == "double":
                    self._do(bj.double(s))
                elif choice == "split":
                    self._do(bj.split(s))
                elif choice == "surrender":
                    self._do(bj.surrender(s))
                else:
                    raise RuntimeError(f"unknown decision {choice!r}")
            elif phase is bj.Phase.INSURANCE:
                self._do(bj.close_insurance(s))  # basic strategy never insures
            elif phase is bj.Phase.CHECK:
                self._do(bj.check_blackjacks(s))
            else:
                self._card()
        settled = bj.confirm_payouts(self.state)
        self._do(settled)
        assert isinstance(settled, bj.RoundSettled)
        return sum(r.net for r in settled.settlements) + sum(r.net for r in settled.paid_earlier)

    def run(self, rounds: int) -> Tally:
        unit = self.rules.minimum
        net = 0
        net_sq = 0.0
        done = 0
        while done < rounds:
            try:
                n = self.play_round()
            except IndexError:  # the shoe ran out mid-round: void it, as a table would
                self.voided += 1
                self._do(bj.void_round(self.state, "the shoe ran out"))
                self._new_shoe()
                continue
            done += 1
            net += n
            net_sq += (n / unit) ** 2
        return Tally(rounds, rounds * self.boxes, rounds * self.boxes * unit, net, net_sq, unit)


def strategy_for(rules: BlackjackRules) -> Decider:
    from kiosk.rules.blackjack.strategy import basic_strategy

    return basic_strategy(rules)


def _work(args: tuple[BlackjackRules, int, int]) -> Tally:
    rules, seed, rounds = args
    return Simulator(rules, strategy_for(rules), seed).run(rounds)


def estimate(rules: BlackjackRules, *, target: float = 0.001, max_seconds: float = 540.0,
             workers: int = 2, chunk: int = 20_000, seed: int = 1,
             progress: Callable[[Tally, float], None] | None = None) -> tuple[Tally, float]:
    """Simulate until the 95% half-width is within `target` (0.001 = 0.1%) or time runs out;
    returns the tally and the seconds taken."""
    start = time.perf_counter()
    total = Tally(unit=rules.minimum)
    next_seed = seed * 10_000
    with ProcessPoolExecutor(max_workers=workers) as pool:
        while True:
            batch = [(rules, next_seed + i, chunk) for i in range(workers)]
            next_seed += workers
            for t in pool.map(_work, batch):
                total = total + t
            elapsed = time.perf_counter() - start
            if progress is not None:
                progress(total, elapsed)
            if total.half_width <= target:
                break
            per_batch = elapsed / (total.rounds / (chunk * workers))
            if elapsed + per_batch > max_seconds:
                break
    return total, time.perf_counter() - start
