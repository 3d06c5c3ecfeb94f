"""The house edge of a configured blackjack table, by playing the engine itself.

Every round goes through the same verify + Operation + apply path the table runs: seven boxes
bet the table minimum, each plays the basic strategy computed for the house's rules
(kiosk/rules/blackjack/strategy.py), insurance and even money are declined, the shoe is cut
with the cutting card a quarter from the back, and the cutting card brings the shuffle at the
end of its round (rule 4.1.3, shuffle and cut). Pure as the rest of the rules: the shoe is
shuffled with the random source the caller gives (`Uniform`, a seeded `random.Random`), and
the clock and the worker processes of `tableside odds blackjack` live with that command
(`kiosk/ui/games/blackjack.py`).

The edge is the players' loss per unit of initial bet. Boxes in one round share the dealer's
hand, so the round (all seven boxes) is the sample for the confidence interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import Stage
from kiosk.rules.blackjack.hands import POINTS
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card, deck
from kiosk.rules.operations import Operation

Z95 = 1.959964  # two-sided 95% normal quantile


class Uniform(Protocol):
    """A source of uniform numbers in [0, 1): `random.Random(seed)`, as the caller chooses."""

    def random(self) -> float: ...


class Decider(Protocol):
    def decide(self, hand_points: Sequence[int], dealer_up: int, *, can_double: bool,
               can_split: bool, can_surrender: bool) -> str: ...


CONTROLS = 7  # the up card's value by the analysis, and the dealer's final 17-21, blackjack


@dataclass(frozen=True, slots=True)
class Tally:
    """Sums over rounds, in cents (mergeable across processes), and the sums the control
    variates need (`controls`): per round, each control is a sum of martingale differences,
    a card's value to it less its expectation over the cards left in the shoe at that moment,
    so its mean is exactly zero whatever the shoe, the cut or the play; the estimate is the
    players' mean result less its regression on the controls' means."""

    rounds: int = 0
    hands: int = 0  # initial boxes played
    wagered: int = 0  # initial bets
    net: int = 0  # the players' net result
    net_sq: float = 0.0  # sum over rounds of (round net / unit)^2
    unit: int = 1
    c_sum: tuple[float, ...] = ()  # sum over rounds of each control
    cc_sum: tuple[float, ...] = ()  # sum of each product of two controls (row by row)
    xc_sum: tuple[float, ...] = ()  # sum of (round net / unit) times each control

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.rounds + other.rounds, self.hands + other.hands,
                     self.wagered + other.wagered, self.net + other.net,
                     self.net_sq + other.net_sq, self.unit,
                     _add(self.c_sum, other.c_sum), _add(self.cc_sum, other.cc_sum),
                     _add(self.xc_sum, other.xc_sum))

    @property
    def raw_edge(self) -> float:
        """The house edge from the results alone: the players' loss per unit of initial bet."""
        return -self.net / self.wagered if self.wagered else 0.0

    @property
    def raw_half_width(self) -> float:
        """The 95% confidence half-width of `raw_edge` (round sums as the samples)."""
        if self.rounds < 2:
            return math.inf
        mean = self.net / self.unit / self.rounds
        var = (self.net_sq / self.rounds - mean * mean) * self.rounds / (self.rounds - 1)
        return Z95 * math.sqrt(var / self.rounds) / self._units_per_round

    @property
    def edge(self) -> float:
        """The house edge, with the control variates when they were recorded."""
        fit = self._fit()
        return self.raw_edge if fit is None else -fit[0] / self._units_per_round

    @property
    def half_width(self) -> float:
        fit = self._fit()
        if fit is None:
            return self.raw_half_width
        return Z95 * math.sqrt(fit[1] / self.rounds) / self._units_per_round

    @property
    def variance_reduction(self) -> float:
        """How many times fewer rounds the control variates need for the same interval."""
        ratio = self.raw_half_width / self.half_width if self.half_width else 1.0
        return ratio * ratio

    @property
    def _units_per_round(self) -> float:
        return self.hands / self.rounds if self.rounds else 1.0

    def _fit(self) -> tuple[float, float] | None:
        """(adjusted mean round result, residual variance) of the regression on the controls;
        None without controls or with too few rounds."""
        k, n = len(self.c_sum), self.rounds
        if not k or n <= k + 2:
            return None
        x_mean = self.net / self.unit / n
        c_mean = [c / n for c in self.c_sum]
        s_cc = [[self.cc_sum[i * k + j] - n * c_mean[i] * c_mean[j] for j in range(k)]
                for i in range(k)]
        s_xc = [self.xc_sum[i] - n * x_mean * c_mean[i] for i in range(k)]
        s_xx = self.net_sq - n * x_mean * x_mean
        b = _solve(s_cc, s_xc)
        adjusted = x_mean - sum(bi * ci for bi, ci in zip(b, c_mean, strict=True))
        residual = (s_xx - sum(bi * si for bi, si in zip(b, s_xc, strict=True))) / (n - k - 1)
        return adjusted, max(residual, 0.0)


def _add(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    if not a or not b:
        return a or b
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """m x = v by Gaussian elimination with partial pivoting; a control that never varied
    (a column of zeros) gets no weight."""
    k = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    scale = max((abs(a[i][i]) for i in range(k)), default=1.0) or 1.0
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) <= 1e-12 * scale:
            for r in range(k):
                a[r][col] = 0.0
            a[col] = [0.0] * k + [0.0]
            a[col][col] = 1.0
            continue
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][k] / a[i][i] for i in range(k)]


class DealerFinals:
    """The dealer's chances of each final outcome (17, 18, 19, 20, 21, blackjack; bust is
    the rest) from a hand, drawing from a full shoe's proportions by the table's drawing rule
    (rules 4.2, 7.2): the controls' values. Any fixed values would keep the controls' means
    at zero; these make them follow the players' results closely."""

    def __init__(self, rules: BlackjackRules) -> None:
        from kiosk.rules.blackjack.strategy import full_shoe

        shoe = full_shoe(rules.decks)
        total = sum(shoe)
        self.p = [n / total for n in shoe]
        self.soft_17 = rules.dealer_hits_soft_17
        self._memo: dict[tuple[int, bool, int], tuple[float, ...]] = {}

    def of(self, hard: int, ace: bool, cards: int) -> tuple[float, ...]:
        key = (hard, ace, min(cards, 3))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._finals(hard, ace, cards)
        return found

    def _finals(self, hard: int, ace: bool, cards: int) -> tuple[float, ...]:
        out = [0.0] * (CONTROLS - 1)
        if hard > 21:
            return tuple(out)
        best = hard + 10 if ace and hard <= 11 else hard
        if cards == 2 and best == 21:
            out[5] = 1.0  # a blackjack
            return tuple(out)
        soft = ace and hard <= 11
        if cards >= 2 and best >= 17 and not (self.soft_17 and best == 17 and soft):
            out[best - 17] = 1.0
            return tuple(out)
        for value, p in enumerate(self.p, start=1):
            sub = self.of(hard + value, ace or value == 1, cards + 1)
            for i in range(len(out)):
                out[i] += p * sub[i]
        return tuple(out)


def shuffled(decks: int, rng: Uniform) -> list[Card]:
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

    def __init__(self, rules: BlackjackRules, strategy: Decider, rng: Uniform, boxes: int = 7
                 ) -> None:
        self.rules = rules
        self.strategy = strategy
        self.boxes = boxes
        self.shuffles = 0
        self.ops = 0
        self.state = bj.initial_state(rules, "SIM")
        self.rng = rng
        self.cards = shuffled(rules.decks, self.rng)
        self.position = 0
        self.size = 52 * rules.decks
        # The cutting card a quarter from the back; half way for a one- or two-deck game
        # (rule 4.5 allows up to half), so a round of every box never empties the shoe.
        self.from_back = self.size // 4 if rules.decks > 2 else self.size // 2
        self.voided = 0
        self.cut_out = False
        self.left = [0] * 11  # cards of each value (1..10) not yet out of the shoe
        self._count_shoe()
        from kiosk.rules.blackjack.analysis import analyse

        self.by_up = analyse(rules).by_up_card  # the analysis's return given the up card
        self.finals = DealerFinals(rules)
        self.controls = [0.0] * CONTROLS  # this round's
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
        self._count_shoe()
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
        card = self.cards[self.position - 1]
        self.left[POINTS[card.rank]] -= 1
        return card

    def _count_shoe(self) -> None:
        self.left = [0] * 11
        for card in self.cards:
            self.left[POINTS[card.rank]] += 1

    def _dealer_card(self, value: int) -> None:
        """The controls' martingale differences for a card the dealer takes: its worth to each
        control less the worth expected from the cards that were left before it."""
        left = self.left
        n = sum(left) + 1  # the cards left before this one came out
        points = self.state.dealer_points
        hard, ace, cards = sum(points), 1 in points, len(points)
        c = self.controls
        if cards == 0:  # the up card: the analysis's figure for it, and the dealer's chances
            expected_up = 0.0
            for v in range(1, 11):
                expected_up += (left[v] + (v == value)) / n * self.by_up[v]
            c[0] += self.by_up[value] - expected_up
        now = self.finals.of(hard + value, ace or value == 1, cards + 1)
        expected = [0.0] * (CONTROLS - 1)
        for v in range(1, 11):
            w = (left[v] + (v == value)) / n
            if w:
                sub = self.finals.of(hard + v, ace or v == 1, cards + 1)
                for i in range(CONTROLS - 1):
                    expected[i] += w * sub[i]
        for i in range(CONTROLS - 1):
            c[1 + i] += now[i] - expected[i]

    def _card(self) -> None:
        card = self._next_card()  # may put the cutting card out first: then read the state
        op = bj.shoe_card(self.state, card)
        if not isinstance(op, bj.CardDealt):
            raise RuntimeError(f"the engine did not deal the card: {op}")
        if op.box == bj.DEALER:
            self._dealer_card(POINTS[card.rank])
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
        k = CONTROLS
        c_sum = [0.0] * k
        cc_sum = [0.0] * (k * k)
        xc_sum = [0.0] * k
        while done < rounds:
            self.controls = [0.0] * k
            try:
                n = self.play_round()
            except IndexError:  # the shoe ran out mid-round: void it, as a table would
                self.voided += 1
                self._do(bj.void_round(self.state, "the shoe ran out"))
                self._new_shoe()
                continue
            done += 1
            net += n
            x = n / unit
            net_sq += x * x
            c = self.controls
            for i in range(k):
                ci = c[i]
                c_sum[i] += ci
                xc_sum[i] += x * ci
                row = i * k
                for j in range(k):
                    cc_sum[row + j] += ci * c[j]
        return Tally(rounds, rounds * self.boxes, rounds * self.boxes * unit, net, net_sq, unit,
                     tuple(c_sum), tuple(cc_sum), tuple(xc_sum))


def strategy_for(rules: BlackjackRules) -> Decider:
    from kiosk.rules.blackjack.strategy import basic_strategy

    return basic_strategy(rules)

