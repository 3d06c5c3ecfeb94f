"""The cards' values (rule 5.4) and the drawing table (rule 5.2): hand totals, who draws, the
winner and the coup's result.

Every function takes card values, so the odds calculator runs these very functions over every
deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.rules.baccarat.house import Hand
from kiosk.rules.baccarat.outcomes import CoupResult, Winner
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.cards import Card, Rank

# Rule 5.4: ace = 1, tens and picture cards = 0, all other cards = face value.
BACCARAT_VALUES: dict[Rank, int] = {
    Rank.ACE: 1, Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5, Rank.SIX: 6,
    Rank.SEVEN: 7, Rank.EIGHT: 8, Rank.NINE: 9,
    Rank.TEN: 0, Rank.JACK: 0, Rank.QUEEN: 0, Rank.KING: 0,
}


def baccarat_value(card: Card) -> int:
    """Rule 5.4: ace = 1, tens and picture cards = 0, all other cards = face value."""
    return BACCARAT_VALUES[card.rank]


# Rule 5.2, "BANKER HAVING / DRAWS WHEN GIVING": the values of the Player's third card on
# which the Banker draws. "10" in the printed table is a ten-value card, value 0 (rule 5.4).
BANKER_DRAWS_WHEN_GIVING: dict[int, frozenset[int]] = {
    3: frozenset({1, 2, 3, 4, 5, 6, 7, 9, 0}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}


def total(values: Sequence[int]) -> int:
    """Rule 5.2: a hand's total is the last digit of the sum of its card values."""
    return sum(values) % 10


def player_draws(player_total: int) -> bool:
    """Rule 5.2: Player having 0-5 draws a card; 6, 7 stands (8, 9 is a natural)."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Rule 5.2, the Banker's side of the drawing table, once neither hand is a natural.

    `player_third` is the value the Player was given, or None when the Player stood. Banker
    0, 1, 2 "draws unless the Player has a natural"; 7 stands. For 3-6 the table lists the
    cards given; when the Player stood there is nothing given and the Banker draws on 0-5 and
    stands on 6, 7 (the standard reading, which reproduces the published house edges).
    """
    if banker_total <= 2:
        return True
    if banker_total >= 7:
        return False
    if player_third is None:
        return banker_total <= 5
    return player_third in BANKER_DRAWS_WHEN_GIVING[banker_total]


def next_to_draw(player: Sequence[int], banker: Sequence[int]) -> Hand | None:
    """Which hand the next card goes to, or None when the coup is complete (rule 5.2).

    The deal order is player, banker, player, banker; then the drawing table. Takes card
    values, so the odds calculator runs this very function over every deal.
    """
    n_p, n_b = len(player), len(banker)
    if n_p + n_b < 4:
        return Hand.PLAYER if n_p == n_b else Hand.BANKER
    p2 = (player[0] + player[1]) % 10
    b2 = (banker[0] + banker[1]) % 10
    if p2 >= 8 or b2 >= 8:  # rule 5.2: natural, no cards drawn
        return None
    if n_p == 2 and n_b == 2:
        if player_draws(p2):
            return Hand.PLAYER
        return Hand.BANKER if banker_draws(b2, None) else None
    if n_p == 3 and n_b == 2:
        return Hand.BANKER if banker_draws(b2, player[2]) else None
    return None


def winner_of(player_total: int, banker_total: int) -> Winner:
    """Closest to 9 wins; equal totals are a tie, "egalitie" (rule 5.7)."""
    if player_total > banker_total:
        return Winner.PLAYER
    if banker_total > player_total:
        return Winner.BANKER
    return Winner.TIE


def values(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple([BACCARAT_VALUES[c.rank] for c in cards])


def coup_result(player_cards: Sequence[Card], banker_cards: Sequence[Card]) -> CoupResult:
    return _coup_result(player_cards, banker_cards, values(player_cards), values(banker_cards))


def _coup_result(player_cards: Sequence[Card], banker_cards: Sequence[Card],
                 pv: Sequence[int], bv: Sequence[int]) -> CoupResult:
    """`coup_result` given the cards' values too (the state keeps them beside the cards)."""
    pt, bt = total(pv), total(bv)
    return CoupResult(
        winner=winner_of(pt, bt),
        player_total=pt,
        banker_total=bt,
        player_pair=player_cards[0].rank is player_cards[1].rank,
        banker_pair=banker_cards[0].rank is banker_cards[1].rank,
        natural=total(pv[:2]) >= 8 or total(bv[:2]) >= 8,
    )


def result_of(state: PuntoBancoState) -> CoupResult:
    return _coup_result(state.player_cards, state.banker_cards, state.player_values,
                        state.banker_values)


def next_hand(state: PuntoBancoState) -> Hand | None:
    return next_to_draw(state.player_values, state.banker_values)
