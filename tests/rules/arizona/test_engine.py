"""Arizona Hold'em's hand, step by step (the Mpumalanga table game rules, section 6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.hands import evaluate
from kiosk.rules.arizona.operations import CardDealt, CardQueried, Misdealt
from kiosk.rules.arizona.paytable import odds_for
from kiosk.rules.arizona.state import deal_order, deciding
from kiosk.rules.cards import Card, deck, parse_cards
from kiosk.rules.errors import NotAllowed
from kiosk.rules.operations import operation_from_record

GAME = az.ArizonaHoldem()
RULES = az.ArizonaRules(minimum=1_000, maximum=10_000, boxes=7)


class Table:
    """A table that journals each record the way the session does: as a payload, read back."""

    def __init__(self, rules: az.ArizonaRules = RULES) -> None:
        self.state = GAME.initial_state(rules, "AZ-1")
        self.records: list[object] = []
        self.do(GAME.open_table(rules, "AZ-1"))

    def do(self, op):
        again = operation_from_record(op.kind, op.to_payload())
        assert again == op  # every record survives the journal unchanged
        self.records.append(op)
        self.state = GAME.apply(self.state, op)
        return op

    def deal(self, codes: str) -> list[object]:
        return [self.do(GAME.shoe_card(self.state, c)) for c in parse_cards(codes.split())]

    def hand(self, antes: dict[int, int]) -> None:
        self.do(az.shuffle(self.state))
        for box, amount in antes.items():
            self.do(az.place_bet(self.state, box, amount))
        self.do(az.close_betting(self.state))


def test_rule_6_2_deals_a_card_to_each_ante_box_then_a_community_card_until_three_and_two():
    assert deal_order((2, 5, 6)) == (
        (2, 0), (5, 0), (6, 0), (0, 0),
        (2, 1), (5, 1), (6, 1), (0, 1),
        (2, 2), (5, 2), (6, 2))
    t = Table()
    t.hand({2: 1_000, 5: 1_000, 6: 2_000})
    steps = []
    for code in ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"]:
        steps.append(str(GAME.next_step(t.state)))
        t.do(GAME.shoe_card(t.state, Card.parse(code)))
    assert steps[:5] == ["Deal a card face down to box 2", "Deal a card face down to box 5",
                         "Deal a card face down to box 6",
                         "Deal the first community card face down",
                         "Deal a card face down to box 2"]
    assert steps[7] == "Deal the second community card face down"
    assert t.state.cards_of(2) == parse_cards(["AS", "TS", "6S"])
    assert t.state.community == parse_cards(["JS", "7S"])
    assert t.state.phase is az.Phase.FIRST_RAISE  # the cycle is finished: players look


def test_every_dealt_card_is_journaled_face_down():
    assert CardDealt.face_down  # the sign shows a card only when turned or revealed


def test_rule_6_5_a_hand_dealt_without_a_shuffle_since_the_last_one_is_refused():
    t = Table()
    t.do(az.place_bet(t.state, 1, 1_000))
    t.do(az.close_betting(t.state))
    [op] = t.deal("AS")
    assert isinstance(op, CardQueried) and "not shuffled for this hand" in op.message
    assert "rule 6.5" in op.message and t.state.dealt == ()
    assert str(GAME.next_step(t.state)) == "Shuffle the cards for this hand (rule 6.5)"
    t.do(az.shuffle(t.state))
    assert isinstance(t.deal("AS")[0], CardDealt)


def test_a_card_the_pack_cannot_hold_again_is_a_query_not_a_deal():
    t = Table()
    t.hand({1: 1_000})
    t.deal("AS")
    [op] = t.deal("AS")
    assert isinstance(op, CardQueried) and "AS was dealt already" in op.message
    assert len(t.state.dealt) == 1


def test_a_misdeal_is_recorded_loses_nothing_and_the_hand_is_dealt_again_after_a_shuffle():
    t = Table()
    t.hand({1: 1_000, 3: 2_000})
    t.deal("AS KD 2C")
    op = t.do(az.misdeal(t.state, "a card was exposed"))
    assert op == Misdealt(1, "a card was exposed", parse_cards(["AS", "KD", "2C"]))
    assert t.state.antes == ((1, 1_000), (3, 2_000)) and t.state.dealt == ()
    assert isinstance(t.deal("AS")[0], CardQueried)  # rule 6.5: shuffle first
    t.do(az.shuffle(t.state))
    t.deal("AS KD 2C 3C 4C 5C 6C 7C")
    assert t.state.phase is az.Phase.FIRST_RAISE and t.state.round == 1
    t.do(az.check(t.state, 1, 1))
    with pytest.raises(NotAllowed, match="before anyone raises"):
        az.misdeal(t.state, "too late")


def test_each_player_decides_in_turn_and_a_community_card_is_turned_after_each_circle():
    t = Table()
    t.hand({1: 1_000, 4: 3_000})
    t.deal("AS KD 2C 3C 4C 5C 6C 7C")
    with pytest.raises(NotAllowed, match="Box 1 decides first"):
        az.verify_raise_bet(t.state, 4, 1)
    with pytest.raises(NotAllowed, match="Circle 2 is not in play"):
        az.verify_raise_bet(t.state, 1, 2)
    assert not az.can_turn_community(t.state)
    t.do(az.raise_bet(t.state, 1, 1))
    assert str(GAME.next_step(t.state)) == "Box 4: raise in circle 1, or check"
    t.do(az.check(t.state, 4, 1))
    assert str(GAME.next_step(t.state)) == "Turn the first community card"
    turned = t.do(az.turn_community(t.state))
    assert turned.card == Card.parse("2C")
    # The raises are independent: box 4 raises in circle 2 after checking circle 1.
    t.do(az.check(t.state, 1, 2))
    op = t.do(az.raise_bet(t.state, 4, 2))
    assert op.amount == 3_000  # rule 6.2: equal to the ante
    t.do(az.turn_community(t.state))
    assert t.state.phase is az.Phase.REVEAL
    with pytest.raises(NotAllowed, match="No raise is taken now"):
        az.verify_raise_bet(t.state, 1, 2)


def test_rule_6_6_pays_the_ante_and_both_raises_at_the_hands_odds_or_takes_them_all():
    t = Table()
    t.hand({1: 1_000, 2: 2_000})
    # Box 1: 9S 9H 9D + community 5C 5D: a full house (12:1). Box 2: 8S 7H 2D with the
    # community: a pair of fives, under tens, so all its bets lose.
    t.deal("9S 8S 5C 9H 7H 5D 9D 2D")
    t.do(az.raise_bet(t.state, 1, 1))
    t.do(az.raise_bet(t.state, 2, 1))
    t.do(az.turn_community(t.state))
    t.do(az.raise_bet(t.state, 1, 2))
    t.do(az.check(t.state, 2, 2))
    t.do(az.turn_community(t.state))
    settled = t.do(az.confirm_payouts(t.state))
    one, two = settled.boxes
    assert (one.hand, one.odds, one.net) == ("a full house, nines full of fives", 12, 36_000)
    assert (two.hand, two.odds, two.net) == ("a pair of fives", None, -4_000)
    assert t.state.round == 2 and not t.state.shuffled and t.state.antes == ()


@settings(max_examples=60, deadline=None)
@given(st.permutations(deck()), st.lists(st.booleans(), min_size=14, max_size=14),
       st.lists(st.sampled_from([1_000, 2_000, 5_000]), min_size=1, max_size=7))
def test_every_box_nets_its_stake_times_the_pay_tables_odds_or_loses_it(cards, choices, antes):
    t = Table()
    t.hand(dict(enumerate(antes, start=1)))
    for card in cards[: len(antes) * 3 + 2]:
        t.do(GAME.shoe_card(t.state, card))
    decisions = iter(choices)
    for _ in (1, 2):
        while (box := deciding(t.state)) is not None:
            circle = 1 if t.state.phase is az.Phase.FIRST_RAISE else 2
            act = az.raise_bet if next(decisions) else az.check
            t.do(act(t.state, box, circle))
        t.do(az.turn_community(t.state))
    settled = az.confirm_payouts(t.state)
    for result in settled.boxes:
        stake = result.ante + result.first + result.second
        odds = odds_for(evaluate(result.cards))
        assert result.odds == odds
        assert result.net == (-stake if odds is None else stake * odds)
        assert result.first in (0, result.ante) and result.second in (0, result.ante)


def test_a_void_hands_every_bet_back_and_the_next_hand_needs_a_shuffle():
    t = Table()
    t.hand({1: 1_000})
    t.deal("AS KD")
    t.do(az.void_round(t.state, "the shoe jammed"))
    assert t.state.round == 2 and t.state.antes == () and not t.state.shuffled
    with pytest.raises(NotAllowed, match="Say why"):
        az.verify_void_round(t.state, " ")


def test_limits_of_rule_2_2_on_the_ante():
    t = Table()
    with pytest.raises(NotAllowed, match="over the table maximum of R100"):
        az.verify_place_bet(t.state, 1, 10_100)
    with pytest.raises(NotAllowed, match="no box 8"):
        az.verify_place_bet(t.state, 8, 1_000)
    t.do(az.place_bet(t.state, 1, 500))
    with pytest.raises(NotAllowed, match="under the table minimum of R10"):
        az.verify_close_betting(t.state)
    assert GAME.table_maximum(RULES) == 30_000  # an ante and its two raises


def test_the_packages_docstrings_play_a_hand_and_their_examples_hold():
    import doctest

    import kiosk.rules.arizona
    from kiosk.rules.arizona import hands, paytable

    for module in (kiosk.rules.arizona, hands, paytable):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_same_verbs_every_verify_has_its_can_and_its_act_with_the_same_arguments():
    import inspect

    acts = {n: f for n, f in vars(az).items()
            if not n.startswith("_") and callable(f) and not inspect.isclass(f)}
    verbs = [n[len("verify_"):] for n in acts if n.startswith("verify_")]
    assert [v for v in verbs if f"can_{v}" not in acts or v not in acts] == []
    for v in verbs:
        assert list(inspect.signature(acts[f"can_{v}"]).parameters) == list(
            inspect.signature(acts[f"verify_{v}"]).parameters), v
    for name in ("initial_state", "open_table", "apply", "next_step", "legal_actions",
                 "place_bet", "close_betting", "confirm_payouts", "void_round", "shuffle",
                 "remove_bet", "shoe_card", "deal_card", "unread_card", "burn",
                 "cut_card_out"):
        assert callable(acts.get(name)), name


def test_legal_actions_follow_the_hand():
    t = Table()
    assert az.legal_actions(t.state) == {"place_bet", "shuffle", "burn"}
    t.hand({1: 1_000, 2: 1_000})
    assert az.legal_actions(t.state) == {"deal_card", "void_round", "shuffle", "burn"}
    t.deal("AS KD 2C 3C 4C 5C 6C 7C")
    assert az.legal_actions(t.state) == {"raise_bet", "check", "misdeal", "void_round"}
    t.do(az.check(t.state, 1, 1))
    t.do(az.check(t.state, 2, 1))
    assert az.legal_actions(t.state) == {"turn_community", "void_round"}


def test_the_rounds_best_hand_is_the_strongest_not_the_biggest_win():
    """The sign's "best hand": a small ante's flush beats a big ante's pair of tens."""
    t = Table()
    t.hand({1: 1_000, 2: 10_000})
    # Box 1: 2H 5H 9H with the community KH 4H: a flush. Box 2: TS TD 3C: a pair of tens.
    t.deal("2H TS KH 5H TD 4H 9H 3C")
    for _ in (1, 2):
        while (box := deciding(t.state)) is not None:
            circle = 1 if t.state.phase is az.Phase.FIRST_RAISE else 2
            t.do(az.raise_bet(t.state, box, circle) if box == 2 else az.check(t.state, box, circle))
        t.do(az.turn_community(t.state))
    settled = t.do(az.confirm_payouts(t.state))
    assert [b.net for b in settled.boxes] == [10_000, 30_000]  # the pair wins more
    assert t.state.hands[-1] == "a flush, king high"


def test_an_inspector_accepts_a_queried_card_and_it_goes_to_the_next_place():
    t = Table(az.ArizonaRules(minimum=1_000, maximum=10_000, boxes=2, decks=1))
    t.hand({1: 1_000})
    t.deal("AS")
    [queried] = t.deal("AS")  # the one-deck pack cannot hold a second AS: a query
    assert isinstance(queried, CardQueried) and t.state.queried == Card.parse("AS")
    assert "accept_queried_card" in az.legal_actions(t.state)
    with pytest.raises(NotAllowed, match="Say which inspector"):
        az.verify_accept_queried_card(t.state, " ")
    op = t.do(az.accept_queried_card(t.state, "Inspector Dlamini"))
    assert (op.inspector, op.box, op.slot, op.card) == ("Inspector Dlamini", 0, 0,
                                                        Card.parse("AS"))
    assert t.state.queried is None and t.state.community == parse_cards(["AS"])
    assert not az.can_accept_queried_card(t.state, "Inspector Dlamini")


def test_a_wrong_count_found_when_the_cycle_is_finished_is_a_misdeal_too():
    """Rule 6.2: "the wrong number dealt" shows once the cycle is finished (a box with two
    cards, one with four); before anyone decides, the hand is dealt again, antes kept."""
    t = Table()
    t.hand({1: 1_000, 2: 2_000})
    t.deal("AS KD 2C 3C 4C 5C 6C 7C")
    assert t.state.phase is az.Phase.FIRST_RAISE
    op = t.do(az.misdeal(t.state, "box 2 holds four cards, box 1 two"))
    assert op.cards == parse_cards(["AS", "KD", "2C", "3C", "4C", "5C", "6C", "7C"])
    assert t.state.phase is az.Phase.DEALING and t.state.antes == ((1, 1_000), (2, 2_000))
    assert t.state.misdeals == 1 and not t.state.shuffled
