"""Every branch of the shuffle and cut (the blackjack shuffle-and-cut procedure,
rules 4.1-4.7), cited as "rule 4.x (shuffle and cut)"."""

from __future__ import annotations

import pytest

from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.cut import ShuffleReason, Stage
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.cards import Card
from kiosk.rules.errors import NotAllowed
from tests.rules.blackjack.table import Table

SC = " (shuffle and cut)"


def refused(action: object, clause: str) -> str:
    with pytest.raises(NotAllowed) as err:
        action()  # type: ignore[operator]
    assert err.value.clause == clause, str(err.value)
    return str(err.value)


def round_with_cut_card(t: Table, cut_card_before: int, boxes: tuple[int, ...] = (2, 5),
                        cards: str = "TS 9D 8C 7H 6S") -> None:
    """One round on `boxes` (each stands); the cutting card comes out before the
    `cut_card_before`-th card of the round (1-based)."""
    for b in boxes:
        t.bet(b, 100 * 100)
    t.close()
    codes = cards.split()
    for n, code in enumerate(codes, start=1):
        if n == cut_card_before:
            t.do(bj.cut_card_out)
        t.cards(code)
    while t.state.phase is bj.Phase.PLAYING:
        t.stand()
    while t.state.phase is bj.Phase.DEALER:
        t.cards("TC")


def test_rule_4_1_1_shuffle_before_play_starts() -> None:
    t = Table()
    assert t.state.prep.stage is Stage.SHUFFLE
    assert "rule 4.1.1" in bj.next_step(t.state)
    t.bet(1, 10000)
    refused(lambda: bj.close_betting(t.state), "4.1" + SC)


def test_rule_4_2_1_the_first_player_to_the_table_cuts() -> None:
    t = Table()
    t.do(bj.shuffle)
    assert t.state.prep.first_offer() == (None, "4.2.1")
    assert "first player at the table (rule 4.2.1)" in bj.next_step(t.state)
    # The dealer names the box of the first player; a supervisor only if nobody accepts.
    refused(lambda: bj.cut_cards(t.state, None, 150, 100, supervisor=""), "4.2" + SC)
    t.do(lambda s: bj.cut_cards(s, 4, 150, 100))
    assert t.state.prep.stage is Stage.BURN


def test_rules_4_4_and_4_5_where_the_cut_and_the_cutting_card_go() -> None:
    t = Table(BlackjackRules(decks=6))
    t.do(bj.shuffle)
    size = 312
    refused(lambda: bj.cut_cards(t.state, 1, 51, 100), "4.4" + SC)
    refused(lambda: bj.cut_cards(t.state, 1, size - 51, 100), "4.4" + SC)
    msg = refused(lambda: bj.cut_cards(t.state, 1, 150, size // 2 + 1), "4.5" + SC)
    assert "half way" in msg
    refused(lambda: bj.cut_cards(t.state, 1, 150, 0), "4.5" + SC)
    t.do(lambda s: bj.cut_cards(s, 1, 52, size // 2))  # both limits are allowed
    op = t.ops[-1]
    assert isinstance(op, bj.CardsCut) and (op.cut_at, op.cutting_card_from_back) == (52, 156)


def test_rule_4_7_the_first_card_is_burned_and_never_shown() -> None:
    t = Table()
    t.do(bj.shuffle)
    t.do(lambda s: bj.cut_cards(s, 1, 150, 78))
    assert "Burn the first card" in bj.next_step(t.state)
    op = t.card("QH")
    assert isinstance(op, bj.CardBurned) and op.card == Card.parse("QH")
    assert t.state.prep.stage is Stage.READY
    assert t.state.shoe is not None and t.state.shoe.dealt == 1
    assert "QH" not in bj.next_step(t.state) and "queen" not in bj.next_step(t.state)
    # The burn card counts against the shoe: six queens of hearts may still come, not seven.
    assert t.state.shoe.remaining_of(Card.parse("QH")) == 5


@pytest.mark.parametrize("rules", [BlackjackRules(), BlackjackRules.touch_21()],
                         ids=["standard", "touch-21"])
def test_rules_4_1_3_and_4_2_2_cutting_card_in_a_round_shuffle_after_it(
        rules: BlackjackRules) -> None:
    """Also rule 4.2 item 6 and, for Touch 21, rule 7.2 item 10: the shuffle comes at the
    end of the round in which the cutting card appears, and the player dealt it cuts."""
    t = Table(rules).ready()
    # The cutting card comes out before the 4th card: box 5's... order: box 2, box 5,
    # dealer, box 2, box 5: the 4th card goes to box 2, where the cutting card appeared.
    round_with_cut_card(t, cut_card_before=4)
    if t.state.phase is bj.Phase.CHECK:  # Touch 21, rule 7.2 item 4
        t.do(bj.check_blackjacks)
        while t.state.phase is bj.Phase.PLAYING:
            t.stand()
        while t.state.phase is bj.Phase.DEALER:
            t.cards("TC")
    assert t.state.phase is bj.Phase.PAYING  # the round goes on to its end (rule 4.1.3)
    t.do(bj.confirm_payouts)
    prep = t.state.prep
    assert prep.stage is Stage.SHUFFLE and prep.reason is ShuffleReason.CUT_CARD_ROUND
    assert "rule 4.1.3" in bj.next_step(t.state)
    t.bet(2, 10000)
    refused(lambda: bj.close_betting(t.state), "4.1" + SC)
    t.do(bj.shuffle)
    assert t.state.prep.offered_to() == 2
    assert "rule 4.2.2" in bj.next_step(t.state)
    half = 26 * rules.decks
    refused(lambda: bj.cut_cards(t.state, 5, half, half // 2), "4.2.2" + SC)
    t.do(lambda s: bj.cut_cards(s, 2, half, half // 2))


def test_rule_4_2_3_cutting_card_on_the_dealers_hand_farthest_right_cuts() -> None:
    t = Table().ready()
    round_with_cut_card(t, cut_card_before=3)  # the 3rd card is the dealer's
    t.do(bj.confirm_payouts)
    t.do(bj.shuffle)
    assert t.state.prep.first_offer() == (5, "4.2.3")  # box 5 is farthest right
    assert "rule 4.2.3" in bj.next_step(t.state)


def test_rules_4_1_2_and_4_2_4_cutting_card_first_in_a_round_shuffle_now() -> None:
    t = Table().ready()
    round_with_cut_card(t, cut_card_before=99)  # no cutting card in this round
    t.do(bj.confirm_payouts)
    t.bet(3, 10000).bet(6, 10000).close()
    t.do(bj.cut_card_out)  # before the first card of the round
    assert t.state.prep.reason is ShuffleReason.CUT_CARD_FIRST
    # The bets stay, and stay closed (rules 4.2 item 3, 4.6); the round waits for the cards.
    assert t.state.phase is bj.Phase.DEALING and t.state.stake_of(3, "A") == 10000
    refused(lambda: bj.remove_bet(t.state, 3, 10000), "4.6")
    refused(lambda: bj.place_bet(t.state, 6, 10000), "4.2 item 3")
    assert "rule 4.1.2" in bj.next_step(t.state)
    # A card the shoe sends now belongs to no round: refused, not held for the new shoe.
    refused(lambda: bj.verify_shoe_card(t.state, Card.parse("5D")), "4.1" + SC)
    assert not bj.holds_cards(t.state)
    t.do(bj.shuffle)
    assert t.state.prep.first_offer() == (6, "4.2.4")
    t.do(lambda s: bj.cut_cards(s, 6, 150, 78))
    t.cards("4D")  # the burn (rule 4.7)
    t.cards("TS 9H 5C")  # then the round is dealt from the new shoe: box 3, box 6, dealer
    assert [len(h.cards) for h in t.state.hands] == [1, 1] and len(t.state.dealer) == 1


def test_rule_4_2_5_new_cards_farthest_right_cuts() -> None:
    t = Table().ready()
    round_with_cut_card(t, cut_card_before=99, boxes=(1, 4))
    t.do(bj.confirm_payouts)
    t.do(lambda s: bj.shuffle(s, "hand", new_cards=True))
    assert t.state.prep.first_offer() == (4, "4.2.5")


def test_rule_4_3_refusals_pass_clockwise_then_a_supervisor_cuts() -> None:
    t = Table().ready()
    round_with_cut_card(t, cut_card_before=4, boxes=(1, 3, 6), cards="TS 9D 8C 7H 6S 5D 4C")
    t.do(bj.confirm_payouts)
    t.do(bj.shuffle)
    assert t.state.prep.offered_to() == 6  # farthest right: the cutting card fell on the
    # dealer's hand (rule 4.2.3)
    refused(lambda: bj.refuse_cut(t.state, 1), "4.3" + SC)  # not offered to box 1 yet
    t.do(lambda s: bj.refuse_cut(s, 6))
    assert t.state.prep.offered_to() == 1  # clockwise past the dealer, back to box 1
    assert "next clockwise (rule 4.3)" in bj.next_step(t.state)
    refused(lambda: bj.cut_cards(t.state, None, 150, 78, "Mrs Dlamini"), "4.3" + SC)
    t.do(lambda s: bj.refuse_cut(s, 1))
    assert t.state.prep.offered_to() == 3
    t.do(lambda s: bj.refuse_cut(s, 3))
    assert t.state.prep.supervisor_must_cut()
    assert "supervisor cuts (rule 4.3)" in bj.next_step(t.state)
    refused(lambda: bj.cut_cards(t.state, 3, 150, 78), "4.3" + SC)
    t.do(lambda s: bj.cut_cards(s, None, 150, 78, "Mrs Dlamini"))
    op = t.ops[-1]
    assert isinstance(op, bj.CardsCut) and op.supervisor == "Mrs Dlamini" and op.box == 0


def test_rule_4_6_shuffling_device_new_decks_by_hand_first_and_no_cut() -> None:
    t = Table(BlackjackRules(shuffler=True))
    assert "rule 4.6.1" in bj.next_step(t.state)
    refused(lambda: bj.shuffle(t.state, "shuffler"), "4.6.1" + SC)
    t.do(lambda s: bj.shuffle(s, "hand"))
    assert t.state.prep.stage is Stage.HAND_SHUFFLE
    t.do(lambda s: bj.shuffle(s, "shuffler"))  # rule 4.6.2: the cards go into the device
    assert t.state.prep.stage is Stage.BURN  # rule 4.6.3: not cut
    refused(lambda: bj.cut_cards(t.state, 1, 150, 78), "4.6.3" + SC)
    # Rule 4.6.4: the device takes the place of the shoe: its first card is the burn (4.7).
    assert isinstance(t.card("5D"), bj.CardBurned)
    t.bet(1, 10000).close()
    assert t.state.phase is bj.Phase.DEALING
    # A later shuffle in the device needs no hand shuffle; hand-shuffling old cards is refused.
    round_cards = "TS 6D 7C"
    t.cards(round_cards)
    t.stand()
    while t.state.phase is bj.Phase.DEALER:
        t.cards("5C")
    t.do(bj.confirm_payouts)
    refused(lambda: bj.shuffle(t.state, "hand"), "4.6.1" + SC)
    t.do(lambda s: bj.shuffle(s, "shuffler"))
    assert t.state.prep.stage is Stage.BURN


def test_no_shuffle_in_the_middle_of_a_round() -> None:
    t = Table().ready()
    t.bet(1, 10000).close().cards("TS")
    refused(lambda: bj.shuffle(t.state), "4.1.3" + SC)


def test_a_single_deck_is_cut_a_quarter_deck_from_either_end() -> None:
    t = Table(BlackjackRules.touch_21(decks=1))
    t.do(bj.shuffle)
    refused(lambda: bj.cut_cards(t.state, 1, 12, 10), "4.4" + SC)
    t.do(lambda s: bj.cut_cards(s, 1, 13, 26))



def test_rule_4_2_1_and_4_3_at_the_start_the_players_who_bet_are_offered_the_cut() -> None:
    t = Table()
    t.do(bj.shuffle)
    t.bet(2, 10000).bet(5, 10000)  # players sat down after the shuffle
    # A supervisor may not cut while a player could (rule 4.3); an empty box cannot cut.
    refused(lambda: bj.cut_cards(t.state, None, 150, 78, "Mr Nkosi"), "4.3" + SC)
    refused(lambda: bj.cut_cards(t.state, 4, 150, 78), "4.2.1" + SC)
    assert not bj.can_cut_cards(t.state, 4, 150, 78)
    assert bj.can_cut_cards(t.state, 5, 150, 78)
    t.do(lambda s: bj.refuse_cut(s, 2))  # the first player (named by the dealer) refuses
    assert bj.prep_now(t.state).offered_to() == 5  # clockwise to the next player (rule 4.3)
    t.do(lambda s: bj.refuse_cut(s, 5))
    assert bj.prep_now(t.state).supervisor_must_cut()
    t.do(lambda s: bj.cut_cards(s, None, 150, 78, "Mr Nkosi"))
    assert t.state.prep.stage is Stage.BURN


def test_mpumalanga_rules_4_4_and_7_4_the_house_may_shuffle_between_rounds() -> None:
    """Mpumalanga rules 4.4 and 7.4: shuffled "at any other time as determined by the casino
    tables management"; the player farthest right cuts (rule 4.2.5 shuffle and cut)."""
    t = Table(BlackjackRules.touch_21()).ready()
    t.bet(2, 10000).bet(6, 10000)
    t.do(bj.shuffle)  # a management shuffle, not one rule 4.1 calls for
    assert t.state.prep.reason is ShuffleReason.HOUSE
    assert t.state.prep.first_offer() == (6, "4.2.5")  # farthest right cuts


def test_shuffled_again_before_the_cut_the_same_player_is_owed_it() -> None:
    """Rules 4.2.2 and 4.3: a second shuffle does not move the cut or forget a refusal."""
    t = Table().ready()
    round_with_cut_card(t, cut_card_before=4, boxes=(2, 5))
    t.do(bj.confirm_payouts)
    t.do(bj.shuffle)
    t.do(lambda s: bj.refuse_cut(s, 2))
    t.do(bj.shuffle)
    prep = bj.prep_now(t.state)
    assert prep.first_offer() == (2, "4.2.2") and prep.refused == (2,)
    assert prep.offered_to() == 5


def test_rule_4_3_with_nobody_known_seated_the_dealer_names_the_next_player() -> None:
    t = Table()
    t.do(bj.shuffle)
    t.do(lambda s: bj.refuse_cut(s, 3))  # the first player refuses; nobody has bet yet
    assert not bj.prep_now(t.state).supervisor_must_cut()
    assert bj.can_cut_cards(t.state, 5, 156, 78)  # another player may accept
    refused(lambda: bj.cut_cards(t.state, 3, 156, 78), "4.3" + SC)
    t.do(lambda s: bj.cut_cards(s, None, 156, 78, "Ms Mokoena"))  # or, if none will, a
    # supervisor


def test_an_unread_first_card_then_the_cutting_card_is_mid_round() -> None:
    """A card has left the shoe: the cutting card after it is not the first card of a new
    round (rule 4.1.3, not 4.1.2), and the unread card stays owed to its box."""
    t = Table().ready().bet(2, 10000).bet(7, 10000).close()
    t.do(bj.unread_card)
    t.do(bj.cut_card_out)
    assert t.state.shuffle_after_round and t.state.prep.stage is Stage.READY
    assert "Key in the unread card for box 2" in bj.next_step(t.state)
    refused(lambda: bj.shuffle(t.state), "4.1.3" + SC)
    t.act(bj.deal_card, Card.parse("5D"), bj.CardSource.KEYED)
    assert t.state.hand(2, 1).cards == (Card.parse("5D"),)


def test_the_cutting_card_after_the_rounds_last_card_goes_to_the_farthest_right() -> None:
    """No card followed the cutting card: it showed as the next round's first card would,
    so rule 4.2.4's player cuts."""
    t = Table().ready().bet(2, 10000).bet(5, 10000).close()
    t.cards("TS 9D 8C 7H 6S")
    t.stand()
    t.stand()
    t.cards("TC")  # the dealer's 18: the round is complete
    t.do(bj.cut_card_out)
    t.do(bj.confirm_payouts)
    t.do(bj.shuffle)
    assert t.state.prep.first_offer() == (5, "4.2.4")
