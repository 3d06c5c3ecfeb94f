"""Exact punto banco odds from the engine's own drawing rules.

Counts every ordered 6-card deal from a shoe of N decks (the usual convention: cards a coup
does not use are still counted, so every outcome is weighted by the number of ways to deal the
unused places) and classifies it with `punto_banco.next_to_draw`, the very function the table
runs. From the three counts come each bet's probability and house edge (rules 5.2, 5.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk.rules.baccarat.engine import (
    CommissionMode,
    Hand,
    PuntoBancoRules,
    next_to_draw,
    total,
    winner_of,
)
from kiosk.rules.baccarat.outcomes import Winner

DEAL = 6  # a coup uses at most six cards


@dataclass(frozen=True, slots=True)
class BaccaratOdds:
    decks: int
    banker: int
    player: int
    tie: int

    @property
    def total(self) -> int:
        return self.banker + self.player + self.tie

    def probability(self, winner: Winner) -> Fraction:
        n = {Winner.BANKER: self.banker, Winner.PLAYER: self.player, Winner.TIE: self.tie}
        return Fraction(n[winner], self.total)

    def house_edges(self, rules: PuntoBancoRules) -> dict[str, Fraction]:
        """The house's expected gain per unit staked, per bet kind, at the configured payouts
        (a tie is a stand off for banker and player bets, rule 5.7)."""
        pb, pp, pt = (self.probability(w) for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE))
        bank_win = (rules.banker_odds if rules.commission_mode is CommissionMode.NET
                    else 1 - rules.commission_rate)
        return {
            "banker": pp - pb * bank_win,
            "player": pb - pp * rules.player_odds,
            "tie": (1 - pt) - pt * rules.tie_odds,
        }


def shoe_counts(decks: int) -> list[int]:
    """Cards of each baccarat value 0-9 in the shoe (rule 5.4: tens and pictures are 0)."""
    return [16 * decks] + [4 * decks] * 9


def baccarat_odds(decks: int = 8) -> BaccaratOdds:
    counts = shoe_counts(decks)
    size = 52 * decks
    # unused[k]: the ways to deal the places a coup of k cards leaves unused.
    unused = [1] * (DEAL + 1)
    for k in range(DEAL + 1):
        ways = 1
        for i in range(k, DEAL):
            ways *= size - i
        unused[k] = ways
    tally = {Winner.BANKER: 0, Winner.PLAYER: 0, Winner.TIE: 0}

    def deal(player: list[int], banker: list[int], weight: int) -> None:
        hand = next_to_draw(player, banker)
        if hand is None:
            used = len(player) + len(banker)
            tally[winner_of(total(player), total(banker))] += weight * unused[used]
            return
        target = player if hand is Hand.PLAYER else banker
        for v in range(10):
            c = counts[v]
            if c == 0:
                continue
            counts[v] = c - 1
            target.append(v)
            deal(player, banker, weight * c)
            target.pop()
            counts[v] = c

    deal([], [], 1)
    return BaccaratOdds(decks, tally[Winner.BANKER], tally[Winner.PLAYER], tally[Winner.TIE])
