"""The house edge of a player who sets the house way against a bank that sets it too, from
the engine's own hands, house way and `match` (copies to the banker), counted exactly.

There are 35,960 ways to take 4 of the 32 tiles and 20,475 ways to take the bank's 4 of the
28 left: 736,281,000 deals. Tiles of one kind are alike, so the count runs over the 8,130
kinds of four-tile hand instead (3,620 if the two military tiles of a group counted as alike;
they do not, their pips differ), each weighed by the number of deals it stands for: the
player's hand `P` and the bank's `D` are a deal in prod over kinds of C(n, p) * C(n - p, d)
ways (n the set's copies of the kind). Each kind of hand is set once, by the house way.

A player's win pays even money less the commission (5%, exact here: the table's chip rule
rounds each real payment); a loss costs the wager; a stand-off costs nothing. The edge is
what the player loses per unit wagered. The same count gives a player/banker's edge against
one player (`banker_edge`: the banker wins what the player loses, less the commission) and
both at any other commission, such as the 4% some houses take when they have no chip for 5%.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

from kiosk.rules.paigow.config import COMMISSION
from kiosk.rules.paigow.houseway import HouseWay, house_way
from kiosk.rules.paigow.tiles import Tile

DEALS = comb(32, 4) * comb(28, 4)
KINDS: tuple[Tile, ...] = tuple(Tile)


@dataclass(frozen=True, slots=True)
class Kind4:
    """A kind of four-tile hand: its tiles, its weight (the 32-tile hands it stands for) and
    its setting's keys."""

    tiles: tuple[Tile, ...]
    weight: int
    high: int
    low: int
    military: int  # a bit per military kind held
    civil_one: int  # a bit per civil kind held once
    civil_two: int  # a bit per civil kind held twice


def four_tile_kinds(rules: HouseWay | None = None) -> tuple[Kind4, ...]:
    """The 8,130 kinds of four-tile hand, each set by the house way."""
    out: list[Kind4] = []
    for combo in combinations_with_replacement(range(len(KINDS)), 4):
        counts: dict[int, int] = {}
        for k in combo:
            counts[k] = counts.get(k, 0) + 1
        if any(n > KINDS[k].copies for k, n in counts.items()):
            continue
        tiles = tuple(KINDS[k] for k in combo)
        weight = 1
        military = civil_one = civil_two = 0
        for k, n in counts.items():
            weight *= comb(KINDS[k].copies, n)
            if not KINDS[k].civil:
                military |= 1 << k
            elif n == 1:
                civil_one |= 1 << k
            else:
                civil_two |= 1 << k
        setting = house_way(tiles, rules).setting
        out.append(Kind4(tiles, weight, setting.high.key, setting.low.key, military,
                         civil_one, civil_two))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PaiGowOdds:
    deals: int
    wins: int
    losses: int
    standoffs: int

    @property
    def house_edge(self) -> Fraction:
        """What the player loses per unit wagered (winning pays 1 less 5% commission)."""
        return self.player_edge(COMMISSION)

    def player_edge(self, commission: Fraction) -> Fraction:
        """What the player loses per unit wagered when a win pays 1 less `commission`."""
        return (Fraction(self.losses) - self.wins * (1 - commission)) / self.deals

    def banker_edge(self, commission: Fraction) -> Fraction:
        """What a player/banker loses per unit a player wagers against them: they lose the
        player's wins and take the player's losses less `commission`."""
        return (Fraction(self.wins) - self.losses * (1 - commission)) / self.deals


def paigow_odds(rules: HouseWay | None = None,
                progress: Callable[[int, int], None] | None = None) -> PaiGowOdds:
    """Every deal of player and bank, both set by the house way (`rules`)."""
    kinds = four_tile_kinds(rules)
    rows = [(k.weight, k.high, k.low, k.military, k.civil_one, k.civil_two,
             k.civil_one | k.civil_two) for k in kinds]
    wins = losses = total = 0
    for i, (wp, hp, lp, mp, c1p, c2p, cp) in enumerate(rows):
        win = lose = every = 0
        for wd, hd, ld, md, c1d, c2d, cd in rows:
            if mp & md or c2p & cd or cp & c2d:
                continue
            w = wd >> (c1p & c1d).bit_count()
            every += w
            if hp > hd:
                if lp > ld:
                    win += w
            elif lp <= ld:
                lose += w
        wins += wp * win
        losses += wp * lose
        total += wp * every
        if progress is not None:
            progress(i + 1, len(rows))
    assert total == DEALS, total
    return PaiGowOdds(total, wins, losses, total - wins - losses)
