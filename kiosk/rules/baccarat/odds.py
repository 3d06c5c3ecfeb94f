"""Exact punto banco odds from the engine's own drawing rules.

Counts every ordered 6-card deal from a shoe of N decks (the usual convention: cards a coup
does not use are still counted, so every outcome is weighted by the number of ways to deal the
unused places) and classifies it with the engine's `next_to_draw` and `winner_of`, the very
functions the table runs. From the three counts come each bet's probability and house edge
(rules 5.2, 5.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from kiosk.rules.baccarat.engine import (
    CommissionMode,
    Hand,
    PuntoBancoRules,
    next_to_draw,
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
    """Every ordered deal, card value by card value with the number of cards of that value
    left, as the shoe deals it (player, banker, player, banker, then the drawing table).

    The drawing decisions and the winner are the engine's own (`next_to_draw`, `winner_of`),
    asked once for each case they can tell apart: `next_to_draw` reads only the two-card
    totals and the player's third card (rule 5.2), `winner_of` only the totals. The loops then
    look the answers up instead of asking again for each of the million deals."""
    counts = shoe_counts(decks)
    size = 52 * decks
    # unused[k]: the ways to deal the places a coup of k cards leaves unused.
    unused = [1] * (DEAL + 1)
    for k in range(DEAL + 1):
        ways = 1
        for i in range(k, DEAL):
            ways *= size - i
        unused[k] = ways
    values = range(10)
    after_four = {(p, b): next_to_draw((0, p), (0, b)) for p in values for b in values}
    banker_after_player = {(p, b, third): next_to_draw((0, p, third), (0, b)) is Hand.BANKER
                           for p in values for b in values for third in values}
    order = (Winner.BANKER, Winner.PLAYER, Winner.TIE)
    won = [[order.index(winner_of(p, b)) for b in values] for p in values]
    tally = [0, 0, 0]  # banker, player, tie
    for p1 in values:
        c1 = counts[p1]
        counts[p1] -= 1
        for b1 in values:
            c2 = counts[b1]
            if not c2:
                continue
            counts[b1] -= 1
            w2 = c1 * c2
            for p2 in values:
                c3 = counts[p2]
                if not c3:
                    continue
                counts[p2] -= 1
                w3 = w2 * c3
                pt = (p1 + p2) % 10
                for b2 in values:
                    c4 = counts[b2]
                    if not c4:
                        continue
                    w4 = w3 * c4
                    bt = (b1 + b2) % 10
                    hand = after_four[pt, bt]
                    if hand is None:
                        tally[won[pt][bt]] += w4 * unused[4]
                        continue
                    counts[b2] -= 1
                    if hand is Hand.PLAYER:
                        _player_draws(counts, tally, won, banker_after_player, unused, pt, bt,
                                      w4)
                    else:  # the player stands, the banker draws
                        row = won[pt]
                        for b3 in values:
                            if counts[b3]:
                                tally[row[(bt + b3) % 10]] += w4 * counts[b3] * unused[5]
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return BaccaratOdds(decks, *tally)


def _player_draws(counts: list[int], tally: list[int], won: list[list[int]],
                  banker_after_player: dict[tuple[int, int, int], bool], unused: list[int],
                  pt: int, bt: int, weight: int) -> None:
    """The player's third card, then the banker's by the drawing table (rule 5.2)."""
    for p3 in range(10):
        c = counts[p3]
        if not c:
            continue
        total3 = (pt + p3) % 10
        w = weight * c
        if not banker_after_player[pt, bt, p3]:
            tally[won[total3][bt]] += w * unused[5]
            continue
        counts[p3] -= 1
        row = won[total3]
        for b3 in range(10):
            if counts[b3]:
                tally[row[(bt + b3) % 10]] += w * counts[b3] * unused[6]
        counts[p3] += 1
