"""The punto banco drawing table of rule 5.2, transcribed by hand from the rule text and checked
exhaustively against the engine (kiosk/rules/baccarat/engine.py).

The expected table below is copied from the Mpumalanga Gaming Board's table game rules, section 5.2,
and is
deliberately NOT derived from the engine's constants. Interpretations (documented in the
engine and in docs/architecture.md):
- "10" in the printed table is a ten-value card, whose value is 0 (rule 5.4);
- when the Player stands (nothing is "given") the Banker draws on 0-5 and stands on 6, 7;
- a natural (8 or 9 on either two-card hand) ends the coup: no cards drawn.
"""

from __future__ import annotations

import itertools

import pytest

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.baccarat.engine import BetKind, CardDealt, Hand, Phase
from kiosk.rules.cards import Card, Rank, Suit
from kiosk.rules.errors import NotAllowed

# --- Rule 5.2, transcribed ------------------------------------------------------------------

# PLAYER HAVING: 0, 1, 2, 3, 4, 5 DRAWS A CARD; 6, 7 STANDS; 8, 9 NATURAL - NO CARDS DRAWN
PLAYER_TABLE: dict[int, str] = {
    0: "draws", 1: "draws", 2: "draws", 3: "draws", 4: "draws", 5: "draws",
    6: "stands", 7: "stands",
    8: "natural", 9: "natural",
}

# BANKER HAVING | DRAWS WHEN GIVING | STANDS WHEN GIVING (as printed; "10" is a ten-value card)
ALWAYS = "draws unless the Player has a natural"
STANDS = "stands"
NATURAL = "natural"
BANKER_TABLE: dict[int, object] = {
    0: ALWAYS,
    1: ALWAYS,
    2: ALWAYS,
    3: ({1, 2, 3, 4, 5, 6, 7, 9, 10}, {8}),
    4: ({2, 3, 4, 5, 6, 7}, {1, 8, 9, 10}),
    5: ({4, 5, 6, 7}, {1, 2, 3, 8, 9, 10}),
    6: ({6, 7}, {1, 2, 3, 4, 5, 8, 9, 10}),
    7: STANDS,
    8: NATURAL,
    9: NATURAL,
}


def printed(value: int) -> int:
    """The printed table names a ten-value card "10" (rule 5.4: value 0)."""
    return 10 if value == 0 else value


def expected_player_draws(p2: int, b2: int) -> bool:
    """Rule 5.2: does the Player take a third card, given both two-card totals?"""
    if PLAYER_TABLE[p2] == "natural" or BANKER_TABLE[b2] == NATURAL:
        return False
    return PLAYER_TABLE[p2] == "draws"


def expected_banker_draws(p2: int, b2: int, third: int | None) -> bool:
    """Rule 5.2: does the Banker take a third card? `third` is the Player's third card value,
    or None when the Player stood."""
    if PLAYER_TABLE[p2] == "natural" or BANKER_TABLE[b2] == NATURAL:
        return False
    row = BANKER_TABLE[b2]
    if row == ALWAYS:
        return True
    if row == STANDS:
        return False
    if third is None:  # the Player stood: Banker draws on 0-5, stands on 6, 7
        return b2 <= 5
    draws, stands = row  # type: ignore[misc]
    assert printed(third) in draws | stands
    return printed(third) in draws


def expected_sequence(p2: int, b2: int, third: int | None) -> list[Hand | None]:
    """What comes after the four dealt cards: the hand of each further card, then None."""
    seq: list[Hand | None] = []
    if expected_player_draws(p2, b2):
        seq.append(Hand.PLAYER)
        assert third is not None
    if expected_banker_draws(p2, b2, third if expected_player_draws(p2, b2) else None):
        seq.append(Hand.BANKER)
    seq.append(None)
    return seq


# --- The transcription itself -------------------------------------------------------------


def test_transcribed_banker_rows_cover_every_card_once():
    # rule 5.2: for Banker 3-6 every card the Player can be given is either "draws" or "stands"
    for b2 in (3, 4, 5, 6):
        draws, stands = BANKER_TABLE[b2]  # type: ignore[misc]
        assert draws | stands == set(range(1, 11)), b2
        assert not draws & stands, b2


def test_transcribed_table_known_cells():
    # rule 5.2: a few cells read straight off the printed table
    assert expected_banker_draws(5, 3, 9) is True  # Banker 3 draws when giving 9
    assert expected_banker_draws(5, 3, 8) is False  # Banker 3 stands when giving 8
    assert expected_banker_draws(5, 4, 0) is False  # Banker 4 stands when giving 10
    assert expected_banker_draws(5, 6, 7) is True  # Banker 6 draws when giving 7
    assert expected_banker_draws(5, 6, 5) is False  # Banker 6 stands when giving 5
    assert expected_banker_draws(7, 5, None) is True  # Player stood: Banker 5 draws
    assert expected_banker_draws(6, 6, None) is False  # Player stood: Banker 6 stands
    assert expected_banker_draws(8, 0, None) is False  # Player natural: Banker 0 stands


# --- The engine against the table, on card values (next_to_draw) --------------------------

TWO_CARD_HANDS = {t: [(a, (t - a) % 10) for a in range(10)] for t in range(10)}


@pytest.mark.parametrize("p2", range(10))
def test_next_to_draw_matches_rule_5_2_for_every_two_card_hand(p2):
    # rule 5.2: every player two-card total x banker two-card total x player third card
    for b2 in range(10):
        for pcards, bcards in itertools.product(TWO_CARD_HANDS[p2], TWO_CARD_HANDS[b2]):
            player, banker = list(pcards), list(bcards)
            if expected_player_draws(p2, b2):
                assert pb.next_to_draw(player, banker) is Hand.PLAYER, (player, banker)
                for third in range(10):
                    want = Hand.BANKER if expected_banker_draws(p2, b2, third) else None
                    assert pb.next_to_draw([*player, third], banker) is want, (
                        player, banker, third)
                    if want is Hand.BANKER:
                        for b3 in range(10):
                            assert pb.next_to_draw([*player, third], [*banker, b3]) is None
            else:
                want = Hand.BANKER if expected_banker_draws(p2, b2, None) else None
                assert pb.next_to_draw(player, banker) is want, (player, banker)
                if want is Hand.BANKER:
                    for b3 in range(10):
                        assert pb.next_to_draw(player, [*banker, b3]) is None


def test_drawing_table_counts():
    # rule 5.2: of the 100 (player, banker) two-card totals, count who draws
    player_draws = sum(expected_player_draws(p, b) for p in range(10) for b in range(10))
    naturals = sum(p >= 8 or b >= 8 for p in range(10) for b in range(10))
    assert naturals == 36
    assert player_draws == 6 * 8  # player 0-5 against banker 0-7
    engine = sum(pb.next_to_draw([p, 0], [b, 0]) is Hand.PLAYER
                 for p in range(10) for b in range(10))
    assert engine == 48
    ended = sum(pb.next_to_draw([p, 0], [b, 0]) is None for p in range(10) for b in range(10))
    # naturals, plus player 6-7 against banker 6-7
    assert ended == 36 + 4


def test_deal_order_player_banker_player_banker():
    # rule 5.2: 1st card Player, 2nd Banker, 3rd Player, 4th Banker
    assert pb.next_to_draw([], []) is Hand.PLAYER
    assert pb.next_to_draw([3], []) is Hand.BANKER
    assert pb.next_to_draw([3], [4]) is Hand.PLAYER
    assert pb.next_to_draw([3, 1], [4]) is Hand.BANKER


def test_engine_helpers_match_the_table():
    # rule 5.2: player_draws / banker_draws once neither hand is a natural
    for p2 in range(8):
        assert pb.player_draws(p2) is (PLAYER_TABLE[p2] == "draws"), p2
    for b2 in range(8):
        for third in [None, *range(10)]:
            assert pb.banker_draws(b2, third) is expected_banker_draws(0, b2, third), (b2, third)


# --- The engine against the table, on real cards through apply ----------------------------

RANK_OF_VALUE = {1: Rank.ACE, 2: Rank.TWO, 3: Rank.THREE, 4: Rank.FOUR, 5: Rank.FIVE,
                 6: Rank.SIX, 7: Rank.SEVEN, 8: Rank.EIGHT, 9: Rank.NINE}
TEN_VALUE = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)


def card_of(value: int, n: int) -> Card:
    """A real card of baccarat value `value`; the ten-value rank and suit vary with n."""
    rank = TEN_VALUE[n % 4] if value == 0 else RANK_OF_VALUE[value]
    return Card(rank, tuple(Suit)[n % 4])


def test_card_values_rule_5_4():
    # rule 5.4: Ace = 1, tens and picture cards = 0, all other cards = face value
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "T": 0, "J": 0, "Q": 0, "K": 0}
    for rank, value in expected.items():
        for suit in "SHDC":
            assert pb.values([Card.parse(rank + suit)]) == (value,)


def dealing_state() -> pb.PuntoBancoState:
    state = pb.initial_state(pb.PuntoBancoRules(), "T1")
    state = pb.apply(state, pb.shuffle(state))
    state = pb.apply(state, pb.place_bet(state, "1", BetKind.BANKER, 5_000))
    return pb.apply(state, pb.close_betting(state))


def deal(state: pb.PuntoBancoState, card: Card, hand: Hand | None) -> pb.PuntoBancoState:
    op = pb.shoe_card(state, card)
    assert isinstance(op, CardDealt)
    assert op.hand is hand
    return pb.apply(state, op)


@pytest.mark.parametrize("p2", range(10))
def test_full_coups_follow_the_drawing_table(p2):
    # rule 5.2 (deal order and drawing table) with real cards (rule 5.4) through apply
    n = p2
    for b2 in range(10):
        for third in [None, *range(10)]:
            if (third is None) == expected_player_draws(p2, b2):
                continue  # the player draws exactly when the table says so
            n += 1
            p_first, p_second = (p2 + 3) % 10, (10 - 3) % 10  # sums to p2
            b_first, b_second = (b2 + 6) % 10, 4  # sums to b2
            state = dealing_state()
            for value, hand in ((p_first, Hand.PLAYER), (b_first, Hand.BANKER),
                                (p_second, Hand.PLAYER), (b_second, Hand.BANKER)):
                assert state.phase is Phase.DEALING
                state = deal(state, card_of(value, n), hand)
            seq = expected_sequence(p2, b2, third)
            if seq[0] is Hand.PLAYER:
                assert pb.next_step(state) == "Player draws"
                state = deal(state, card_of(third, n + 1), Hand.PLAYER)
                seq = seq[1:]
            if seq[0] is Hand.BANKER:
                assert state.phase is Phase.DEALING
                assert pb.next_step(state) == "Banker draws"
                state = deal(state, card_of(5, n + 2), Hand.BANKER)
                seq = seq[1:]
            assert seq == [None]
            assert state.phase is Phase.PAYING, (p2, b2, third)
            assert pb.next_hand(state) is None
            with pytest.raises(NotAllowed) as exc:
                pb.shoe_card(state, card_of(1, n))
            assert exc.value.clause == "5.2"
            r = pb.coup_result(state.player_cards, state.banker_cards)
            assert r.player_total == sum(pb.values(state.player_cards)) % 10
            assert r.banker_total == sum(pb.values(state.banker_cards)) % 10
            assert r.natural is (p2 >= 8 or b2 >= 8)


def test_ten_value_cards_are_zero_in_the_drawing_table():
    # rule 5.2 "10" = a ten-value card (rule 5.4): Banker 4 stands when giving 10, J, Q or K
    for rank in ("T", "J", "Q", "K"):
        state = dealing_state()
        for code, hand in (("AS", Hand.PLAYER), ("2S", Hand.BANKER), ("4S", Hand.PLAYER),
                           ("2H", Hand.BANKER), (rank + "D", Hand.PLAYER)):
            state = deal(state, Card.parse(code), hand)
        assert state.phase is Phase.PAYING  # banker 4, given a ten-value card, stands
        assert pb.coup_result(state.player_cards, state.banker_cards).player_total == 5
