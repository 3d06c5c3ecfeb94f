"""Basic strategy for the configured blackjack rules, computed here by expected value.

The game has no hole card (rules 4.2 item 3, 7.2 item 3): the dealer's second card comes after
the players have played, so a double or split is made without knowing whether the dealer has
blackjack, and what a dealer blackjack then takes is the house setting `dealer_blackjack_takes`
(docs/architecture.md, "Readings where the rules are silent").

Method (total-dependent basic strategy):
- for each dealer up card the shoe is `rules.decks` decks less that up card;
- the dealer's final totals (17-21, bust) and his chance of blackjack are computed exactly for
  that shoe by recursion over its composition, each card he draws leaving the shoe;
- the player's cards are drawn from the same shoe without removal (the approximation: a
  decision depends on the hand's total and the up card only, as basic strategy does);
- every action's expected value per initial unit is compared and the best allowed one taken.

Insurance and even money (rules 4.7, 7.7) are never taken: insurance pays 2:1 and wins when
the dealer's next card is a ten, which is less likely than one in three in any shoe the rules
allow (`insurance_value` is negative), so they are not decisions here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes

VALUES = tuple(range(1, 11))  # card points: ace 1, ten-value 10
DEALER_TOTALS = (17, 18, 19, 20, 21)
_HARD = 0  # row offsets in the decision table: hard total, soft total (by hard count), pair
_SOFT = 32
_PAIR = 48
_ROWS = 60
_UPS = 11  # dealer up card 1..10 (index 0 unused)
_FLAGS = 8  # can_double | can_split << 1 | can_surrender << 2


class Decision(StrEnum):
    """The player's choices (rule 4.2 item 4, rule 7.2 item 7)."""

    STAND = "stand"  # item 4b
    HIT = "hit"  # item 4c "draw"
    DOUBLE = "double"  # item 4d
    SPLIT = "split"  # item 4e
    SURRENDER = "surrender"  # item 4a


_ORDER = (Decision.STAND, Decision.HIT, Decision.DOUBLE, Decision.SPLIT, Decision.SURRENDER)
_CODE = {Decision.STAND: "S", Decision.HIT: "H", Decision.DOUBLE: "D", Decision.SPLIT: "P",
         Decision.SURRENDER: "R"}


def full_shoe(decks: int) -> tuple[int, ...]:
    """Cards per point value 1..10 (index 0 is the ace) in `decks` 52-card decks (rule 4.5)."""
    return tuple(16 * decks if v == 10 else 4 * decks for v in VALUES)


def remove(shoe: Sequence[int], *cards: int) -> tuple[int, ...]:
    """The shoe less the given cards (points 1..10)."""
    left = list(shoe)
    for c in cards:
        if left[c - 1] <= 0:
            raise ValueError(f"the shoe holds no more cards of {c} points")
        left[c - 1] -= 1
    return tuple(left)


def best_total(hard: int, ace: bool) -> int:
    """Rule 4.2: an ace counts 11 when that does not take the hand over 21."""
    return hard + 10 if ace and hard <= 11 else hard


@dataclass(frozen=True, slots=True)
class DealerOdds:
    """Where the dealer ends from one up card: `finals` are the chances of 17, 18, 19, 20, 21
    and bust given that he has no blackjack; `blackjack` the chance that he has one."""

    finals: tuple[float, float, float, float, float, float]
    blackjack: float



def dealer_odds(shoe: Sequence[int], up: int, hits_soft_17: bool) -> DealerOdds:
    """Exact for `shoe` (the cards left after the up card and any others removed): the dealer
    draws to 16 and stands on 17 (rule 4.2), or draws to soft 17 (rule 7.2)."""
    return _dealer_odds(tuple(shoe), up, hits_soft_17)


@cache
def _dealer_odds(shoe: tuple[int, ...], up: int, hits_soft_17: bool) -> DealerOdds:
    counts = list(shoe)
    memo: dict[int, tuple[float, ...]] = {}
    weight = tuple(32 ** i for i in range(10))  # drawn composition -> an int key

    def finals(hard: int, ace: bool, left: int, key: int) -> tuple[float, ...]:
        if hard > 21:
            return (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
        best = best_total(hard, ace)
        if best >= 17 and not (hits_soft_17 and best == 17 and ace and hard <= 11):
            out = [0.0] * 6
            out[best - 17] = 1.0
            return tuple(out)
        found = memo.get(key)
        if found is not None:
            return found
        acc = [0.0] * 6
        for i in range(10):
            n = counts[i]
            if n:
                counts[i] = n - 1
                sub = finals(hard + i + 1, ace or i == 0, left - 1, key + weight[i])
                counts[i] = n
                p = n / left
                for j in range(6):
                    acc[j] += p * sub[j]
        result = tuple(acc)
        memo[key] = result
        return result

    total = sum(counts)
    natural = 10 if up == 1 else 1 if up == 10 else 0  # rule 4.2 item 5
    blackjack = counts[natural - 1] / total if natural else 0.0
    acc = [0.0] * 6
    for i in range(10):
        n = counts[i]
        if n and i + 1 != natural:
            counts[i] = n - 1
            sub = finals(up + i + 1, up == 1 or i == 0, total - 1, weight[i])
            counts[i] = n
            for j in range(6):
                acc[j] += n / total * sub[j]
    rest = 1.0 - blackjack
    return DealerOdds((acc[0] / rest, acc[1] / rest, acc[2] / rest, acc[3] / rest,
                       acc[4] / rest, acc[5] / rest), blackjack)


def _state(hard: int, ace: bool) -> int:
    return 2 * hard + ace


class Values:
    """Expected values per initial unit of a hand against one up card, for one shoe.

    A hand's state is (hard count, holds an ace). With the dealer's blackjack chance q and
    `takes_all` (the house setting): a hand of stake b that stands or busts is worth
    b * ((1 - q) * result - q) when a dealer blackjack takes all the bets, and
    b * (1 - q) * result when it takes only the original bet; that bet (-q for the box,
    `box_term`) is common to every action but surrender and is added by `actions`."""

    __slots__ = ("box_term", "bust", "can_surrender", "dealer", "double", "probs", "stand")

    def __init__(self, shoe: Sequence[int], up: int, rules: BlackjackRules) -> None:
        n = sum(shoe)
        self.probs = tuple(c / n for c in shoe)
        self.dealer = d = dealer_odds(shoe, up, rules.dealer_hits_soft_17)
        q = d.blackjack
        takes_all = rules.dealer_blackjack_takes is DealerBlackjackTakes.ALL
        lost = q if takes_all else 0.0
        self.box_term = 0.0 if takes_all else -q
        self.bust = -(1.0 - q) - lost
        stand = []
        for t in range(22):
            win = d.finals[5] + sum(d.finals[i] for i in range(5) if DEALER_TOTALS[i] < t)
            lose = sum(d.finals[i] for i in range(5) if DEALER_TOTALS[i] > t)
            stand.append((1.0 - q) * (win - lose) - lost)
        self.stand = tuple(stand)
        self.can_surrender = rules.surrender and up != 1  # rule 4.2 item 4a
        double = [0.0] * 64
        for hard in range(2, 22):
            for ace in (False, True):
                double[_state(hard, ace)] = 2.0 * self.draw_once(hard, ace)
        self.double = tuple(double)

    def stand_value(self, hard: int, ace: bool) -> float:
        return self.stand[best_total(hard, ace)] if hard <= 21 else self.bust

    def draw_once(self, hard: int, ace: bool) -> float:
        """One card and stand, per unit (rule 4.2 item 4d: a double gets one card only)."""
        return sum(p * self.stand_value(hard + v, ace or v == 1)
                   for v, p in zip(VALUES, self.probs, strict=True))

    def play(self, hits: Callable[[int, bool], bool] | None
             ) -> tuple[list[float], list[float]]:
        """Values of a hand that may only hit or stand, and of hitting it once and going on,
        per state; `hits` is the strategy's choice, None for the best of the two."""
        value = [self.bust] * 64
        hit = [self.bust] * 64
        for hard in range(21, 1, -1):
            for ace in (True, False):
                s = _state(hard, ace)
                h = 0.0
                for v, p in zip(VALUES, self.probs, strict=True):
                    nh = hard + v
                    h += p * (value[_state(nh, ace or v == 1)] if nh <= 21 else self.bust)
                hit[s] = h
                stand = self.stand_value(hard, ace)
                if hits is None:
                    value[s] = max(stand, h)
                else:
                    value[s] = h if hits(hard, ace) else stand
        return value, hit

    def actions(self, hard: int, ace: bool, hit: Sequence[float]) -> dict[Decision, float]:
        """The box's value of standing, hitting (then `hit`), doubling and surrendering."""
        s = _state(hard, ace)
        b = self.box_term
        out = {Decision.STAND: self.stand_value(hard, ace) + b, Decision.HIT: hit[s] + b,
               Decision.DOUBLE: self.double[s] + b}
        if self.can_surrender:
            # half the bet back at once, before the dealer's second card: a dealer blackjack
            # takes nothing more (rule 4.2 item 4a)
            out[Decision.SURRENDER] = -0.5
        return out

    def split(self, pair: int, after_split: Callable[[int, bool], float], rules: BlackjackRules,
              resplit: bool) -> float:
        """Rule 4.2 item 4e: both hands together; each split card gets a second card, a pair
        card may be split again up to `rules.max_hands` hands (our reading); split aces get one
        card each and are split again only if `rules.resplit_aces`."""
        r = self.probs[pair - 1]
        if pair == 1:
            one = [self.stand_value(1 + v, True) for v in VALUES]
            again = resplit and rules.resplit_aces
        else:
            one = [after_split(pair + v, v == 1) for v in VALUES]
            again = resplit
        other = sum(p * x for v, p, x in zip(VALUES, self.probs, one, strict=True) if v != pair)
        kept = one[pair - 1]  # the pair, when it is not split again
        memo: dict[tuple[int, int], float] = {}

        def hands(made: int, waiting: int) -> float:
            if waiting == 0:
                return 0.0
            found = memo.get((made, waiting))
            if found is not None:
                return found
            value = other + (1.0 - r) * hands(made, waiting - 1)
            if again and made < rules.max_hands:
                value += r * hands(made + 1, waiting + 1)
            else:
                value += r * (kept + hands(made, waiting - 1))
            memo[(made, waiting)] = value
            return value

        return hands(2, 2)


def _row(hand_points: Sequence[int], pair_row: bool) -> int:
    hard = sum(hand_points)
    if hard > 21:
        raise ValueError(f"a hand of {hard} is bust and has no decision")
    if pair_row:
        return _PAIR + hand_points[0]
    if hard <= 11 and 1 in hand_points:
        return _SOFT + hard
    return _HARD + hard


class Strategy:
    """The computed basic strategy of one set of rules; `decide` is a table lookup."""

    __slots__ = ("_choice", "_ev", "rules")

    def __init__(self, rules: BlackjackRules, ev: dict[tuple[int, int], dict[Decision, float]]
                 ) -> None:
        """`ev[(row, up)]`: each action's expected value per initial unit."""
        self.rules = rules
        self._ev = ev
        choice: list[Decision] = [Decision.STAND] * (_ROWS * _UPS * _FLAGS)
        for (row, up), values in ev.items():
            for flags in range(_FLAGS):
                allowed = {Decision.STAND, Decision.HIT}
                if flags & 1:
                    allowed.add(Decision.DOUBLE)
                if flags & 2:
                    allowed.add(Decision.SPLIT)
                if flags & 4:
                    allowed.add(Decision.SURRENDER)
                best = max((d for d in _ORDER if d in allowed and d in values),
                           key=lambda d: values[d])
                choice[(row * _UPS + up) * _FLAGS + flags] = best
        self._choice = tuple(choice)

    def decide(self, hand_points: Sequence[int], dealer_up: int, *, can_double: bool,
               can_split: bool, can_surrender: bool) -> Decision:
        """The best allowed action for a hand (card points, ace 1, ten-value 10) against the
        dealer's up card (1..10). The caller says what the rules allow now: a double on the
        first two cards (rule 4.2 item 4d, after a split only with double_after_split), a
        split of a pair (item 4e, within max_hands), a surrender of the original hand against
        2-10 (item 4a). A disallowed best action falls back to the next best by value."""
        hard = 0
        for v in hand_points:
            hard += v
        if can_split and len(hand_points) == 2 and hand_points[0] == hand_points[1]:
            row = _PAIR + hand_points[0]
        elif hard <= 11 and 1 in hand_points:
            row = _SOFT + hard
        elif hard <= 21:
            row = hard
        else:
            raise ValueError(f"a hand of {hard} is bust and has no decision")
        return self._choice[(row * _UPS + dealer_up) * _FLAGS + can_double
                            + 2 * can_split + 4 * can_surrender]

    def expected_values(self, hand_points: Sequence[int], dealer_up: int,
                        *, pair: bool = True) -> dict[Decision, float]:
        """Each action's expected value per initial unit as this strategy computed it for the
        hand's row (its total, or the pair) against the up card."""
        is_pair = pair and len(hand_points) == 2 and hand_points[0] == hand_points[1]
        return dict(self._ev[(_row(hand_points, is_pair), dealer_up)])

    def insurance_value(self, dealer_up: int = 1) -> float:
        """Rule 4.7: an insurance bet pays 2:1 if the dealer's next card makes blackjack;
        its expected value per unit insured (negative: basic strategy never insures)."""
        if dealer_up != 1:
            raise ValueError("insurance is offered only against an ace (rule 7.2 item 6)")
        odds = float(self.rules.insurance_odds)
        ten = full_shoe(self.rules.decks)[9] / (52 * self.rules.decks - 1)
        return odds * ten - (1.0 - ten)

    def code(self, hand_points: Sequence[int], dealer_up: int) -> str:
        """The chart code: S, H, P, or D/R followed by the action if that is not allowed
        (Dh double else hit, Ds double else stand, Rh, Rs, Rp surrender else ...)."""
        is_pair = len(hand_points) == 2 and hand_points[0] == hand_points[1]
        surrender = self.rules.surrender and dealer_up != 1
        first = self.decide(hand_points, dealer_up, can_double=True, can_split=is_pair,
                            can_surrender=surrender)
        if first is Decision.DOUBLE:
            then = self.decide(hand_points, dealer_up, can_double=False, can_split=is_pair,
                               can_surrender=surrender)
            return "D" + _CODE[then].lower()
        if first is Decision.SURRENDER:
            then = self.decide(hand_points, dealer_up, can_double=True, can_split=is_pair,
                               can_surrender=False)
            return "R" + _CODE[then].lower()
        return _CODE[first]

    def table(self) -> str:
        """The hard, soft and pair charts as text (for docs/blackjack-odds.md)."""
        ups = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
        head = "       " + "".join(f"{'A' if u == 1 else u:>4}" for u in ups)
        lines = [describe(self.rules), "", "Hard" + head[4:]]
        for t in range(4, 22):
            # a hand of that total that is not a pair (hard 4 is 2,2 unsplit)
            hand = (2, t - 2) if t <= 11 else (10, t - 10) if t <= 20 else (10, 5, 6)
            lines.append(f"{t:<7}" + "".join(f"{self._code_unsplit(hand, u):>4}" for u in ups))
        lines += ["", "Soft" + head[4:]]
        for other in range(2, 10):
            lines.append(f"{'A,' + str(other):<7}"
                         + "".join(f"{self._code_unsplit((1, other), u):>4}" for u in ups))
        lines += ["", "Pair" + head[4:]]
        for p in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1):
            name = "A" if p == 1 else str(p)
            lines.append(f"{name + ',' + name:<7}"
                         + "".join(f"{self.code((p, p), u):>4}" for u in ups))
        lines += ["", "S stand, H hit, P split, Dh/Ds double (else hit/stand), "
                  "Rh/Rs/Rp surrender (else hit/stand/split). Never insure."]
        return "\n".join(lines)

    def _code_unsplit(self, points: Sequence[int], up: int) -> str:
        surrender = self.rules.surrender and up != 1 and len(points) == 2
        first = self.decide(points, up, can_double=True, can_split=False,
                            can_surrender=surrender)
        if first is Decision.DOUBLE:
            then = self.decide(points, up, can_double=False, can_split=False,
                               can_surrender=surrender)
            return "D" + _CODE[then].lower()
        if first is Decision.SURRENDER:
            then = self.decide(points, up, can_double=True, can_split=False,
                               can_surrender=False)
            return "R" + _CODE[then].lower()
        return _CODE[first]


def describe(rules: BlackjackRules) -> str:
    """The rules that decide the strategy, in one line."""
    parts = [f"{rules.game_name}, {rules.decks} deck{'s' if rules.decks > 1 else ''}",
             "dealer draws to soft 17" if rules.dealer_hits_soft_17 else "dealer stands on all 17s",
             "double after split" if rules.double_after_split else "no double after split",
             f"split to {rules.max_hands} hands",
             "resplit aces" if rules.resplit_aces else "aces split once",
             "surrender vs 2-10" if rules.surrender else "no surrender",
             f"no hole card, dealer blackjack takes {rules.dealer_blackjack_takes.value} bets",
             f"blackjack pays {rules.blackjack_odds.numerator}:{rules.blackjack_odds.denominator}"]
    return ", ".join(parts)


def strategy_key(rules: BlackjackRules) -> BlackjackRules:
    """Only the fields that change the strategy; limits, boxes and money do not."""
    return BlackjackRules(variant=rules.variant, decks=rules.decks,
                          dealer_hits_soft_17=rules.dealer_hits_soft_17,
                          surrender=rules.surrender,
                          double_after_split=rules.double_after_split,
                          max_hands=rules.max_hands, resplit_aces=rules.resplit_aces,
                          split_match=rules.split_match,
                          dealer_blackjack_takes=rules.dealer_blackjack_takes,
                          blackjack_odds=rules.blackjack_odds,
                          insurance_odds=rules.insurance_odds)


def basic_strategy(rules: BlackjackRules) -> Strategy:
    """The strategy for these rules, computed once per distinct set of rules."""
    return _compute(strategy_key(rules))


@cache
def _compute(rules: BlackjackRules) -> Strategy:
    """Rows with two-card hands: the values averaged over the hands that make the total (or
    the pair), each with its two cards and the up card out of the shoe; other rows (hard 21,
    soft 21 of three cards or more) from the shoe less the up card."""
    ev: dict[tuple[int, int], dict[Decision, float]] = {}
    shoe = full_shoe(rules.decks)
    for up in VALUES:
        short = remove(shoe, up)
        vals = Values(short, up, rules)
        _, hit = vals.play(None)
        for hard in range(2, 22):
            ev[(_HARD + hard, up)] = vals.actions(hard, False, hit)
        for hard in range(1, 12):
            ev[(_SOFT + hard, up)] = vals.actions(hard, True, hit)
        sums: dict[int, dict[Decision, float]] = {}
        weights: dict[int, float] = {}
        n = sum(short)
        for first, second in _two_card_hands():
            if {first, second} == {1, 10}:
                continue  # a blackjack has no decision (rule 4.2 item 5)
            a, b = short[first - 1], short[second - 1]
            w = (a * (a - 1) if first == second else 2 * a * b) / (n * (n - 1))
            if w == 0.0:
                continue
            rows = _rows_of(first, second)
            comp = Values(remove(short, first, second), up, rules)
            value, hit = comp.play(None)
            values = comp.actions(first + second, 1 in (first, second), hit)
            if first == second:
                split = comp.split(first, _after_split(comp, value, rules), rules, resplit=True)
                values_pair = dict(values)
                values_pair[Decision.SPLIT] = split + comp.box_term
            for row in rows:
                acc = sums.setdefault(row, {})
                got = values_pair if row >= _PAIR else values
                for d, v in got.items():
                    acc[d] = acc.get(d, 0.0) + w * v
                weights[row] = weights.get(row, 0.0) + w
        for row, acc in sums.items():
            ev[(row, up)] = {d: v / weights[row] for d, v in acc.items()}
    return Strategy(rules, ev)


def _two_card_hands() -> list[tuple[int, int]]:
    return [(a, b) for a in VALUES for b in VALUES if a <= b]


def _rows_of(first: int, second: int) -> tuple[int, ...]:
    """The chart rows a two-card hand stands for: its pair row and, where no other two cards
    make that total (2,2 is hard 4, 10,10 hard 20, A,A soft 12), its total's row."""
    hard = first + second
    total = _SOFT + hard if 1 in (first, second) else _HARD + hard
    if first != second:
        return (total,)
    return (_PAIR + first, total) if first in (1, 2, 10) else (_PAIR + first,)


def _after_split(vals: Values, value: Sequence[float], rules: BlackjackRules
                 ) -> Callable[[int, bool], float]:
    """A split hand's best value: hit or stand, or double where double_after_split allows."""
    def best(hard: int, ace: bool) -> float:
        s = _state(hard, ace)
        if rules.double_after_split:
            return max(value[s], vals.double[s])
        return value[s]
    return best
